-- A cluster's install (or update) and stop, run by the engine a step at a time: the action
-- running (NULL when none), the step it is at, and each execution's log lines.
ALTER TABLE cluster_statuses ADD COLUMN running_action TEXT;
ALTER TABLE cluster_statuses ADD COLUMN running_step INTEGER NOT NULL DEFAULT 0;

CREATE INDEX cluster_statuses_running ON cluster_statuses (cluster_id)
    WHERE running_action IS NOT NULL;

CREATE TABLE cluster_logs (
    cluster_id TEXT NOT NULL REFERENCES organization_resources (id) ON DELETE CASCADE,
    execution_id TEXT NOT NULL,
    position INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    level TEXT NOT NULL,
    step TEXT NOT NULL,
    message TEXT NOT NULL,
    PRIMARY KEY (cluster_id, execution_id, position)
);
