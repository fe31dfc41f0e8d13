-- Why a rule's condition could not be evaluated over its cluster as it stands (past the work or
-- the time one rule may take): the rounds skip it until it is edited, which clears this.
ALTER TABLE alert_rules ADD COLUMN failure TEXT;
