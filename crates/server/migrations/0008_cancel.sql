-- Set when a cancel is asked for; the engine stops at the end of the step it runs.
ALTER TABLE deployments ADD COLUMN cancel_requested INTEGER NOT NULL DEFAULT 0;
