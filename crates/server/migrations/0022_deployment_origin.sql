-- Where each action was asked from (CONSOLE, API...), as the audit log says it: the history and
-- the queue show it instead of a constant.
ALTER TABLE deployments ADD COLUMN origin TEXT NOT NULL DEFAULT 'API';
