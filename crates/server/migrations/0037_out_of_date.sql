-- The auto-deploy round finds the services that run what is configured, to mark out of date those
-- whose branch moved on.
CREATE INDEX service_statuses_by_deployment_status ON service_statuses (deployment_status);
