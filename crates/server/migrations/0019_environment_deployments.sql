-- The services one request on an environment acted on (deploy all, a selection...) share that
-- request's execution id: the environment's history shows them as one deployment.
ALTER TABLE deployments ADD COLUMN environment_execution_id TEXT;
CREATE INDEX deployments_by_environment_execution ON deployments (environment_execution_id)
    WHERE environment_execution_id IS NOT NULL;
