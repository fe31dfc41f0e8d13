-- People signed in through the organization's identity provider, each by the subject its
-- tokens name (`sub`), with the e-mail address and name their last token carried and the
-- address they chose for the platform's mail to them. A member who signed in so is that
-- person's (`person_id`); a member invited by link only, with no provider, has none.
-- An organization has an owner, one of its members (none for an organization made at first
-- start, before anyone signed in).
CREATE TABLE people (
    id TEXT PRIMARY KEY NOT NULL,
    subject TEXT NOT NULL UNIQUE,
    email TEXT,
    name TEXT,
    communication_email TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT
);

ALTER TABLE members ADD COLUMN person_id TEXT REFERENCES people (id) ON DELETE CASCADE;
CREATE UNIQUE INDEX members_by_person ON members (person_id, organization_id)
    WHERE person_id IS NOT NULL;

ALTER TABLE organizations ADD COLUMN owner_id TEXT;
-- The oldest organization is the one the sign-in token printed at start is for.
CREATE INDEX organizations_by_age ON organizations (created_at, id);

-- An organization's deletion takes the hashes of its deleted tokens along.
CREATE INDEX revoked_api_tokens_by_organization ON revoked_api_tokens (organization_id);
