-- Organization-level records (container registries, and the settings to come): the record as
-- callers see it, and its secrets apart, never serialized into an answer.
CREATE TABLE organization_resources (
    id TEXT PRIMARY KEY NOT NULL,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    name TEXT NOT NULL COLLATE NOCASE,
    record TEXT NOT NULL,
    secrets TEXT NOT NULL DEFAULT '{}',
    created_at TEXT NOT NULL,
    updated_at TEXT,
    UNIQUE (organization_id, kind, name)
);
