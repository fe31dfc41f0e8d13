-- A helm chart from git stored before names its directory as the repository's root_path, as
-- the production document has it.
UPDATE services
SET spec = json_remove(
    json_set(spec, '$.source.git.git_repository.root_path',
        coalesce(json_extract(spec, '$.source.git.chart_path'), '/')),
    '$.source.git.chart_path')
WHERE kind = 'HELM' AND json_type(spec, '$.source.git.chart_path') IS NOT NULL;
