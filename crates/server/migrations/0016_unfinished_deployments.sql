-- The unfinished deployments of each service, counted by every statuses read: found without
-- scanning the whole history.
CREATE INDEX deployments_unfinished ON deployments (service_id) WHERE finished_at IS NULL;
