-- Webhook events: written in the same transaction as the state change that fires them, then sent
-- (and retried) by the delivery worker, so that a restart loses none.
CREATE TABLE webhook_deliveries (
    id TEXT PRIMARY KEY NOT NULL,
    webhook_id TEXT NOT NULL REFERENCES organization_resources (id) ON DELETE CASCADE,
    event_type TEXT NOT NULL,
    payload TEXT NOT NULL,
    status TEXT NOT NULL,
    outcome TEXT,
    created_at TEXT NOT NULL,
    -- Unix milliseconds: due when it is past, while PENDING.
    next_attempt_at INTEGER,
    -- Set while an attempt is in flight; one left set by a stopped server is made again at start.
    attempting INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at)
    WHERE status = 'PENDING' AND attempting = 0;
CREATE INDEX webhook_deliveries_by_webhook ON webhook_deliveries (webhook_id, created_at);

CREATE TABLE webhook_delivery_attempts (
    delivery_id TEXT NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
    attempt INTEGER NOT NULL,
    attempted_at TEXT NOT NULL,
    status_code INTEGER,
    duration_ms INTEGER NOT NULL,
    error TEXT,
    PRIMARY KEY (delivery_id, attempt)
);

-- When the first step began: DEPLOYMENT_STARTED fires once, even when a restart replays the step.
ALTER TABLE deployments ADD COLUMN started_at TEXT;
