-- A deleted API token is remembered by its hash (never its value), so that a later use of it is
-- refused by name and recorded in the audit log. Written by a trigger: whatever deletes a token
-- (its route, a new sign-in token at start) remembers it in the same transaction.
CREATE TABLE revoked_api_tokens (
    token_hash TEXT PRIMARY KEY,
    token_id TEXT NOT NULL,
    organization_id TEXT NOT NULL,
    name TEXT NOT NULL,
    revoked_at TEXT NOT NULL
);
CREATE TRIGGER api_tokens_remembered_when_deleted AFTER DELETE ON api_tokens
BEGIN
    INSERT OR REPLACE INTO revoked_api_tokens (token_hash, token_id, organization_id, name, revoked_at)
    VALUES (OLD.token_hash, OLD.id, OLD.organization_id, OLD.name,
            strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
END;
