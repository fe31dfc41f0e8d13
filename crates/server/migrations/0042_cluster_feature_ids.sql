-- A cluster's features are named by uuid, as the document has them, no longer by a word: the
-- features clusters were made with take their catalog entry's id.
UPDATE organization_resources
SET record = replace(
        replace(record, '"id":"STATIC_IP"', '"id":"3c1f6a52-8d2e-4b7a-9f0c-5e1d2a7b4c61"'),
        '"id":"VPC_SUBNET"', '"id":"9b4e2d7c-1a6f-4c3b-8e5d-0f2a6c9b7d14"')
WHERE kind = 'cluster';
