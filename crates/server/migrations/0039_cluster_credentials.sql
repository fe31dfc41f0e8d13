-- The credentials a cluster's infrastructure is reached with (`cloudProviderInfo`): one set per
-- cluster, of the cluster's cloud. A set in use is not deleted (the routes answer 409 first).
CREATE TABLE cluster_credentials (
    cluster_id TEXT PRIMARY KEY NOT NULL REFERENCES organization_resources (id) ON DELETE CASCADE,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    credentials_id TEXT NOT NULL REFERENCES organization_resources (id)
);

CREATE INDEX cluster_credentials_by_credentials ON cluster_credentials (credentials_id);
CREATE INDEX cluster_credentials_by_organization ON cluster_credentials (organization_id, credentials_id);
