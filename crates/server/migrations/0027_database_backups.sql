-- A database's backups, taken by the engine: QUEUED, EXECUTING, then READY or DEPLOYMENT_ERROR.
CREATE TABLE database_backups (
    id TEXT PRIMARY KEY NOT NULL,
    database_id TEXT NOT NULL REFERENCES services (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    message TEXT NOT NULL,
    state TEXT NOT NULL,
    failure TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT,
    started_at TEXT,
    finished_at TEXT
);
CREATE INDEX database_backups_by_database ON database_backups (database_id, created_at);
CREATE INDEX database_backups_unfinished ON database_backups (state) WHERE finished_at IS NULL;
