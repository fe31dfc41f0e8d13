-- Variables and secrets of every scope. `parent_id` is the project, environment or service the
-- variable is defined on; a secret's value is in `secret_value`, never in `value`.
CREATE TABLE variables (
    id TEXT PRIMARY KEY NOT NULL,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    scope TEXT NOT NULL,
    parent_id TEXT NOT NULL,
    key TEXT NOT NULL,
    value TEXT,
    secret_value TEXT,
    is_secret INTEGER NOT NULL,
    variable_type TEXT NOT NULL,
    mount_path TEXT,
    description TEXT,
    enable_interpolation_in_file INTEGER NOT NULL DEFAULT 0,
    target_id TEXT REFERENCES variables (id) ON DELETE CASCADE,
    created_at TEXT NOT NULL,
    updated_at TEXT,
    UNIQUE (scope, parent_id, key)
);
CREATE INDEX variables_by_parent ON variables (parent_id);

-- A deleted project, environment or service takes its variables along.
CREATE TRIGGER variables_of_deleted_projects AFTER DELETE ON projects
BEGIN DELETE FROM variables WHERE parent_id = old.id; END;
CREATE TRIGGER variables_of_deleted_environments AFTER DELETE ON environments
BEGIN DELETE FROM variables WHERE parent_id = old.id; END;
CREATE TRIGGER variables_of_deleted_services AFTER DELETE ON services
BEGIN DELETE FROM variables WHERE parent_id = old.id; END;
