-- Jobs and containers stored before take the production document's shapes.

-- A job's schedule becomes an object: `cronjob` (its cron expression in UTC, and what it runs)
-- for a CRON job, or what it runs at each of its lifecycle events.
UPDATE services
SET spec = json_set(spec, '$.schedule',
    CASE json_extract(spec, '$.job_type')
    WHEN 'CRON' THEN json_object('cronjob', json_object(
        'scheduled_at', json_extract(spec, '$.schedule'),
        'timezone', 'Etc/UTC',
        'arguments', json(coalesce(json_extract(spec, '$.arguments'), '[]')),
        'entrypoint', json_extract(spec, '$.entrypoint')))
    ELSE json_patch(json_patch(json_patch(json_object('lifecycle_type', 'GENERIC'),
        CASE WHEN EXISTS (SELECT 1 FROM json_each(spec, '$.lifecycle_events') WHERE value = 'START')
        THEN json_object('on_start', json_object(
            'arguments', json(coalesce(json_extract(spec, '$.arguments'), '[]')),
            'entrypoint', json_extract(spec, '$.entrypoint')))
        ELSE '{}' END),
        CASE WHEN EXISTS (SELECT 1 FROM json_each(spec, '$.lifecycle_events') WHERE value = 'STOP')
        THEN json_object('on_stop', json_object(
            'arguments', json(coalesce(json_extract(spec, '$.arguments'), '[]')),
            'entrypoint', json_extract(spec, '$.entrypoint')))
        ELSE '{}' END),
        CASE WHEN EXISTS (SELECT 1 FROM json_each(spec, '$.lifecycle_events') WHERE value = 'DELETE')
        THEN json_object('on_delete', json_object(
            'arguments', json(coalesce(json_extract(spec, '$.arguments'), '[]')),
            'entrypoint', json_extract(spec, '$.entrypoint')))
        ELSE '{}' END)
    END)
WHERE kind = 'JOB' AND json_type(spec, '$.schedule') IS NOT 'object';

UPDATE services
SET spec = json_remove(
    json_set(spec,
        '$.gpu', coalesce(json_extract(spec, '$.gpu'), 0),
        '$.maximum_cpu', json_extract(spec, '$.cpu'),
        '$.maximum_memory', json_extract(spec, '$.memory'),
        '$.maximum_gpu', coalesce(json_extract(spec, '$.gpu'), 0),
        '$.auto_preview', json('false'),
        '$.healthchecks', json(coalesce(json_extract(spec, '$.healthchecks'), '{}'))),
    '$.lifecycle_events', '$.arguments', '$.entrypoint')
WHERE kind = 'JOB';

-- A job's image names its registry as containers do.
UPDATE services
SET spec = json_set(spec, '$.source.image.registry',
    json_object('id', json_extract(spec, '$.source.image.registry_id')))
WHERE kind = 'JOB' AND json_extract(spec, '$.source.image.registry_id') IS NOT NULL;

UPDATE services
SET spec = json_set(spec,
    '$.maximum_cpu', json_extract(spec, '$.cpu'),
    '$.maximum_memory', json_extract(spec, '$.memory'),
    '$.maximum_gpu', json_extract(spec, '$.gpu'),
    '$.auto_preview', json('false'))
WHERE kind = 'CONTAINER';
