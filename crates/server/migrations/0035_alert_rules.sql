-- Alert rules: each its definition (as the API takes it) and where its evaluation stands. The
-- notifications a firing sends go through the webhook deliveries, to an alert receiver (an
-- organization resource) rather than a webhook; `event_type` is then 'ALERT'.
CREATE TABLE alert_rules (
    id TEXT PRIMARY KEY NOT NULL,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    cluster_id TEXT NOT NULL REFERENCES organization_resources (id) ON DELETE CASCADE,
    target_type TEXT NOT NULL,
    target_id TEXT NOT NULL,
    definition TEXT NOT NULL,
    state TEXT NOT NULL,
    -- When its condition began to hold, while it holds.
    holds_since TEXT,
    -- When it began to fire, while it fires.
    starts_at TEXT,
    -- The deliveries its firing sent, JSON: NOTIFIED once they are delivered.
    notifications TEXT NOT NULL DEFAULT '[]',
    -- Whether its latest edit has been evaluated.
    evaluated INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    updated_at TEXT
);
CREATE INDEX alert_rules_by_organization ON alert_rules (organization_id, created_at);
CREATE INDEX alert_rules_by_cluster ON alert_rules (cluster_id);
