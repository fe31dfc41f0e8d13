-- The version an upgrade in progress leads to; NULL when none runs.
ALTER TABLE cluster_statuses ADD COLUMN upgrading_to TEXT;
