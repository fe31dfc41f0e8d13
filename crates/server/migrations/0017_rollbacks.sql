-- What each deployment put in place: the service's configuration when it was asked for (a
-- rollback restores its image, chart version and values), and the earlier deployment a rollback
-- deployed again (its execution id).
ALTER TABLE deployments ADD COLUMN spec TEXT;
ALTER TABLE deployments ADD COLUMN rollback_to TEXT;
