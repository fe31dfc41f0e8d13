-- The audit log: one row per change made through the API, written in the change's transaction.
-- Targets are copied by name (not referenced): the log outlives what it tells of.
CREATE TABLE audit_events (
    id TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL,
    -- Nanoseconds since the Unix epoch, unique in the organization: the order and the cursor.
    at_nanos INTEGER NOT NULL,
    event_type TEXT NOT NULL,
    target_type TEXT NOT NULL,
    target_id TEXT,
    target_name TEXT NOT NULL,
    sub_target_type TEXT,
    change TEXT NOT NULL,
    original_change TEXT,
    changed_secrets TEXT NOT NULL DEFAULT '[]',
    origin TEXT NOT NULL,
    triggered_by TEXT NOT NULL,
    user_agent TEXT,
    project_id TEXT,
    project_name TEXT NOT NULL DEFAULT '',
    environment_id TEXT,
    environment_name TEXT NOT NULL DEFAULT '',
    UNIQUE (organization_id, at_nanos)
);
CREATE INDEX audit_events_by_target ON audit_events (organization_id, target_id, at_nanos);
CREATE INDEX audit_events_by_project ON audit_events (organization_id, project_id, at_nanos);
CREATE INDEX audit_events_by_environment ON audit_events (organization_id, environment_id, at_nanos);
