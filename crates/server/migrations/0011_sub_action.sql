-- The variant of the action (terraform plan only, plan and apply, destroy), kept with it so that a
-- resumed action runs the same steps.
ALTER TABLE deployments ADD COLUMN sub_action TEXT NOT NULL DEFAULT 'NONE';
