-- A cluster's network settings: its DNS provider (the answer's shape, its secret sealed apart)
-- and its routing table (the routes as JSON). A cluster without a row uses the platform's DNS
-- and has no routes.
CREATE TABLE cluster_network (
    cluster_id TEXT PRIMARY KEY NOT NULL REFERENCES organization_resources (id) ON DELETE CASCADE,
    dns_provider TEXT,
    dns_secret TEXT,
    routing_table TEXT NOT NULL DEFAULT '[]'
);
