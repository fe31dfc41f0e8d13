-- An API token may carry an expiration set at creation (spec 5.6); after it the token answers 401.
ALTER TABLE api_tokens ADD COLUMN expires_at TEXT;
