-- Preview environments: each a clone of `source_environment_id` made for `reference` of the
-- service `service_id` there (a branch of its repository, or a new tag of its image), and
-- removed when the branch goes. Gone with the preview; a source deleted leaves its previews as
-- environments of their own.
CREATE TABLE preview_environments (
    environment_id TEXT PRIMARY KEY NOT NULL REFERENCES environments (id) ON DELETE CASCADE,
    source_environment_id TEXT NOT NULL REFERENCES environments (id) ON DELETE CASCADE,
    service_id TEXT NOT NULL,
    trigger TEXT NOT NULL,
    reference TEXT NOT NULL,
    created_at TEXT NOT NULL,
    UNIQUE (source_environment_id, trigger, reference)
);

-- What a round of the previews reads: the environments that allow them, and their services
-- with auto_preview.
CREATE INDEX environment_deployment_rules_previewing ON environment_deployment_rules (environment_id)
    WHERE auto_preview = 1;
CREATE INDEX services_by_auto_preview ON services (json_extract(spec, '$.auto_preview'))
    WHERE json_extract(spec, '$.auto_preview') = 1;
