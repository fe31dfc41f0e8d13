-- Status of each cluster (spec 2.19); a cluster without a row is READY and not deployed.
CREATE TABLE cluster_statuses (
    cluster_id TEXT PRIMARY KEY NOT NULL REFERENCES organization_resources (id) ON DELETE CASCADE,
    status TEXT NOT NULL,
    is_deployed INTEGER NOT NULL DEFAULT 0,
    last_execution_id TEXT,
    lock TEXT,
    last_deployment_date TEXT
);
