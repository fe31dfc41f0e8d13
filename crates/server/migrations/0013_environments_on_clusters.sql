-- The platform's records name their organization, and every environment runs on a cluster.

-- Clusters stored before carry their organization.
UPDATE organization_resources
SET record = json_set(record, '$.organization', json_object('id', organization_id))
WHERE kind = 'cluster';

-- An organization with environments on no cluster gets a default cluster if it has none...
INSERT INTO organization_resources (id, organization_id, kind, name, record, created_at)
SELECT lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2)
             || '-8' || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))),
       o.id, 'cluster', 'default', '{}', strftime('%Y-%m-%dT%H:%M:%SZ', 'now')
FROM organizations o
WHERE EXISTS (SELECT 1 FROM environments e WHERE e.organization_id = o.id AND e.cluster_id IS NULL)
  AND NOT EXISTS (SELECT 1 FROM organization_resources c WHERE c.organization_id = o.id AND c.kind = 'cluster');

UPDATE organization_resources
SET record = json_object(
    'id', id, 'created_at', created_at, 'organization', json_object('id', organization_id),
    'name', 'default', 'description', 'Created for the environments that named no cluster',
    'cloud_provider', 'ON_PREMISE', 'region', 'local', 'version', '1.28', 'production', json('false'))
WHERE kind = 'cluster' AND record = '{}';

-- ...and those environments run on its oldest cluster.
UPDATE environments
SET cluster_id = (SELECT c.id FROM organization_resources c
                  WHERE c.organization_id = environments.organization_id AND c.kind = 'cluster'
                  ORDER BY c.created_at LIMIT 1)
WHERE cluster_id IS NULL;
