-- Entries past their retention are found by their time, whatever their organization.
CREATE INDEX audit_events_by_time ON audit_events (at_nanos);
