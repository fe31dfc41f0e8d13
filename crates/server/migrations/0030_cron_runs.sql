-- The last time each cron job was due, acted on or not: the next run is the expression's first
-- time after it.
CREATE TABLE cron_runs (
    service_id TEXT PRIMARY KEY NOT NULL REFERENCES services (id) ON DELETE CASCADE,
    last_due_at TEXT NOT NULL
);
