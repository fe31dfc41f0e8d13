-- Deployment stages: an environment's services deployed a stage at a time, in `position` order.
-- Every environment has a default stage per kind (infrastructure, then data, then what uses it);
-- a service is in the stage it was moved to, else its kind's default stage, else the first.
CREATE TABLE deployment_stages (
    id TEXT PRIMARY KEY NOT NULL,
    environment_id TEXT NOT NULL REFERENCES environments (id) ON DELETE CASCADE,
    name TEXT NOT NULL COLLATE NOCASE,
    description TEXT,
    position INTEGER NOT NULL,
    -- The kind whose services are placed here unless moved; NULL for a stage of the team's.
    default_kind TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT,
    UNIQUE (environment_id, name)
);
CREATE INDEX deployment_stages_by_environment ON deployment_stages (environment_id, position);

-- The services moved to a stage, or skipped from their environment's deployments.
CREATE TABLE deployment_stage_services (
    service_id TEXT PRIMARY KEY NOT NULL REFERENCES services (id) ON DELETE CASCADE,
    stage_id TEXT NOT NULL REFERENCES deployment_stages (id) ON DELETE CASCADE,
    is_skipped INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    updated_at TEXT
);
CREATE INDEX deployment_stage_services_by_stage ON deployment_stage_services (stage_id);

CREATE TABLE default_deployment_stages (kind TEXT PRIMARY KEY NOT NULL, position INTEGER NOT NULL);
INSERT INTO default_deployment_stages (kind, position) VALUES
    ('TERRAFORM', 1), ('DATABASE', 2), ('JOB', 3), ('CONTAINER', 4), ('APPLICATION', 5), ('HELM', 6);

-- The default stages' ids are made by SQLite, in the shape of a UUID (version 4), one per row.
INSERT INTO deployment_stages (id, environment_id, name, description, position, default_kind, created_at)
SELECT lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4' ||
       substr(lower(hex(randomblob(2))), 2) || '-a' || substr(lower(hex(randomblob(2))), 2) || '-' ||
       lower(hex(randomblob(6))),
       e.id, d.kind || ' DEFAULT',
       'Where ' || lower(d.kind) || ' services are deployed unless moved', d.position, d.kind,
       strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
FROM environments e CROSS JOIN default_deployment_stages d;

CREATE TRIGGER environments_have_default_stages AFTER INSERT ON environments
BEGIN
    INSERT INTO deployment_stages (id, environment_id, name, description, position, default_kind, created_at)
    SELECT lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4' ||
       substr(lower(hex(randomblob(2))), 2) || '-a' || substr(lower(hex(randomblob(2))), 2) || '-' ||
       lower(hex(randomblob(6))),
           NEW.id, d.kind || ' DEFAULT',
           'Where ' || lower(d.kind) || ' services are deployed unless moved', d.position, d.kind,
           strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
    FROM default_deployment_stages d;
END;

-- Each service's stage, as the rule above places it.
CREATE VIEW service_stages AS
SELECT s.id AS service_id, s.environment_id, s.kind,
       coalesce(m.stage_id,
           (SELECT d.id FROM deployment_stages d
            WHERE d.environment_id = s.environment_id AND d.default_kind = s.kind),
           (SELECT d.id FROM deployment_stages d
            WHERE d.environment_id = s.environment_id ORDER BY d.position LIMIT 1)) AS stage_id,
       coalesce(m.is_skipped, 0) AS is_skipped,
       coalesce(m.created_at, s.created_at) AS created_at, m.updated_at
FROM services s LEFT JOIN deployment_stage_services m ON m.service_id = s.id;

-- The stage a deployment of an environment's request ran in: each stage starts when the ones
-- before have finished.
ALTER TABLE deployments ADD COLUMN stage_position INTEGER;
ALTER TABLE deployments ADD COLUMN stage_name TEXT;

-- The services auto-deploy watches, found without reading every service (`auto_deploy`).
CREATE INDEX services_by_auto_deploy ON services (json_extract(spec, '$.auto_deploy'))
    WHERE json_extract(spec, '$.auto_deploy') = 1;
