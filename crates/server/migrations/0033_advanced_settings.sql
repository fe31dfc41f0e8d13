-- The advanced settings of a service or a cluster changed from their defaults, a row per setting
-- (`platform_api::advanced_settings`): a setting set back to its default has no row. Gone with
-- their owner.
CREATE TABLE advanced_settings (
    owner_id TEXT NOT NULL,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (owner_id, key)
) WITHOUT ROWID;

CREATE TRIGGER advanced_settings_of_deleted_service AFTER DELETE ON services
BEGIN
    DELETE FROM advanced_settings WHERE owner_id = OLD.id;
END;

CREATE TRIGGER advanced_settings_of_deleted_resource AFTER DELETE ON organization_resources
BEGIN
    DELETE FROM advanced_settings WHERE owner_id = OLD.id;
END;
