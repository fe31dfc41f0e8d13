-- A service's custom domains: a name is one service's in its organization.
CREATE TABLE custom_domains (
    id TEXT PRIMARY KEY NOT NULL,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    service_id TEXT NOT NULL REFERENCES services (id) ON DELETE CASCADE,
    domain TEXT NOT NULL COLLATE NOCASE,
    generate_certificate INTEGER NOT NULL,
    use_cdn INTEGER,
    created_at TEXT NOT NULL,
    updated_at TEXT,
    UNIQUE (organization_id, domain)
);
CREATE INDEX custom_domains_by_service ON custom_domains (service_id, domain);
