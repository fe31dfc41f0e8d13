-- When a worker took each action: those without one wait in the queue, in the order of their
-- requests, and their position is counted from here.
ALTER TABLE deployments ADD COLUMN worker_at TEXT;
CREATE INDEX deployments_waiting ON deployments (created_at) WHERE finished_at IS NULL AND worker_at IS NULL;
