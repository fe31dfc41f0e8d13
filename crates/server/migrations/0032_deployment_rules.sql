-- Deployment rules. Every environment has one (made with it, by the trigger below): its
-- schedule, acted on by the server when `auto_stop` is on (`schedules`), and `last_checked_at`,
-- until when the schedule's starts and stops were acted on.
CREATE TABLE environment_deployment_rules (
    id TEXT PRIMARY KEY NOT NULL,
    environment_id TEXT NOT NULL UNIQUE REFERENCES environments (id) ON DELETE CASCADE,
    on_demand_preview INTEGER NOT NULL DEFAULT 0,
    auto_preview INTEGER NOT NULL DEFAULT 0,
    auto_stop INTEGER NOT NULL DEFAULT 0,
    timezone TEXT NOT NULL DEFAULT 'Etc/UTC',
    start_time TEXT NOT NULL DEFAULT '1970-01-01T08:00:00Z',
    stop_time TEXT NOT NULL DEFAULT '1970-01-01T19:00:00Z',
    -- A JSON array of WeekdayEnum values.
    weekdays TEXT NOT NULL DEFAULT '["MONDAY","TUESDAY","WEDNESDAY","THURSDAY","FRIDAY"]',
    last_checked_at TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT
);
CREATE INDEX environment_deployment_rules_auto_stopping ON environment_deployment_rules (auto_stop)
    WHERE auto_stop = 1;

INSERT INTO environment_deployment_rules (id, environment_id, created_at)
SELECT lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4' ||
       substr(lower(hex(randomblob(2))), 2) || '-a' || substr(lower(hex(randomblob(2))), 2) || '-' ||
       lower(hex(randomblob(6))),
       id, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
FROM environments;

CREATE TRIGGER environments_have_a_deployment_rule AFTER INSERT ON environments
BEGIN
    INSERT INTO environment_deployment_rules (id, environment_id, created_at)
    VALUES (lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4' ||
            substr(lower(hex(randomblob(2))), 2) || '-a' || substr(lower(hex(randomblob(2))), 2) || '-' ||
            lower(hex(randomblob(6))),
            NEW.id, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
END;

-- A project's rules, applied in `priority_index` order to the environments created afterwards.
CREATE TABLE project_deployment_rules (
    id TEXT PRIMARY KEY NOT NULL,
    project_id TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    name TEXT NOT NULL COLLATE NOCASE,
    description TEXT,
    mode TEXT NOT NULL,
    cluster_id TEXT NOT NULL,
    wildcard TEXT NOT NULL DEFAULT '',
    auto_stop INTEGER NOT NULL DEFAULT 0,
    timezone TEXT NOT NULL,
    start_time TEXT NOT NULL,
    stop_time TEXT NOT NULL,
    weekdays TEXT NOT NULL,
    priority_index INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT,
    UNIQUE (project_id, name)
);
CREATE INDEX project_deployment_rules_in_order ON project_deployment_rules (project_id, priority_index);
