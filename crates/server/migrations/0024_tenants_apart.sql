-- Every foreign key has an index starting with its columns (tests/integration/schema.rs): a
-- deleted variable finds the aliases and overrides of it that go with it without reading the
-- whole table, under the one write lock every organization waits on.
CREATE INDEX variables_by_target ON variables (target_id);
CREATE INDEX variables_by_organization ON variables (organization_id);
CREATE INDEX environments_by_organization ON environments (organization_id);
CREATE INDEX services_by_organization ON services (organization_id);
CREATE INDEX api_tokens_by_role ON api_tokens (role_id);
CREATE INDEX api_tokens_by_name ON api_tokens (organization_id, name);

-- What the server looks for when it starts: the clusters left upgrading, the deliveries left
-- attempting.
CREATE INDEX cluster_statuses_upgrading ON cluster_statuses (cluster_id)
    WHERE upgrading_to IS NOT NULL;
CREATE INDEX webhook_deliveries_attempting ON webhook_deliveries (id) WHERE attempting = 1;

-- Each filter of the audit log reads through an index, so that one matching nothing answers at
-- once however long the log.
CREATE INDEX audit_events_by_event_type ON audit_events (organization_id, event_type, at_nanos);
CREATE INDEX audit_events_by_target_type ON audit_events (organization_id, target_type, at_nanos);
CREATE INDEX audit_events_by_sub_target_type
    ON audit_events (organization_id, sub_target_type, at_nanos);
CREATE INDEX audit_events_by_triggered_by ON audit_events (organization_id, triggered_by, at_nanos);
CREATE INDEX audit_events_by_origin ON audit_events (organization_id, origin, at_nanos);

-- The least permission that reads an entry (`audit::readable_by`): the entries of webhooks,
-- alert receivers, API tokens, roles and credentials are ADMIN's.
ALTER TABLE audit_events ADD COLUMN readable_by TEXT NOT NULL DEFAULT 'READ';
UPDATE audit_events SET readable_by = 'ADMIN'
WHERE target_type IN ('WEBHOOK', 'MEMBERS_AND_ROLES')
   OR sub_target_type IN ('API_TOKEN', 'ALERT_RECEIVER', 'CLUSTER_CREDENTIALS',
                          'CLOUD_PROVIDER_CREDENTIALS', 'CUSTOM_ROLE', 'MEMBER_ROLE');
