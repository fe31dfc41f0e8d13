-- An environment's log of one execution (`/environment/{id}/logs?version=`) finds its
-- deployments by execution and their lines by deployment.
CREATE INDEX deployments_by_execution ON deployments (execution_id);
CREATE INDEX deployment_logs_by_deployment ON deployment_logs (deployment_id, id);
