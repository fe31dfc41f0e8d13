-- People who belong to an organization, each with a role; the invitations that make them; and
-- the sessions an accepted invitation signs them in with (tokens kept as SHA-256 hashes).
CREATE TABLE members (
    id TEXT PRIMARY KEY NOT NULL,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    email TEXT NOT NULL COLLATE NOCASE,
    role_id TEXT NOT NULL REFERENCES roles (id),
    created_at TEXT NOT NULL,
    updated_at TEXT,
    last_activity_at TEXT,
    UNIQUE (organization_id, email)
);
CREATE INDEX members_by_role ON members (role_id);

CREATE TABLE invitations (
    id TEXT PRIMARY KEY NOT NULL,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    email TEXT NOT NULL COLLATE NOCASE,
    role_id TEXT NOT NULL REFERENCES roles (id) ON DELETE CASCADE,
    -- The code of the invitation's link, sealed: the link is shown again to admins.
    code TEXT NOT NULL,
    inviter TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    UNIQUE (organization_id, email)
);
CREATE INDEX invitations_by_role ON invitations (role_id);

CREATE TABLE member_sessions (
    token_hash TEXT PRIMARY KEY NOT NULL,
    member_id TEXT NOT NULL REFERENCES members (id) ON DELETE CASCADE,
    created_at TEXT NOT NULL
);
CREATE INDEX member_sessions_by_member ON member_sessions (member_id);
