-- Who asked for each deployment, for its history.
ALTER TABLE deployments ADD COLUMN triggered_by TEXT NOT NULL DEFAULT 'unknown';
