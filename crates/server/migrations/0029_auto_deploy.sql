-- Auto-deploy: a service's deployment restrictions (which changed paths deploy it), what the
-- watch of its branch last read, and the pushes it acted on.
CREATE TABLE deployment_restrictions (
    id TEXT PRIMARY KEY NOT NULL,
    service_id TEXT NOT NULL REFERENCES services (id) ON DELETE CASCADE,
    mode TEXT NOT NULL,
    kind TEXT NOT NULL,
    value TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT,
    UNIQUE (service_id, mode, kind, value)
);

-- The branch a service's watch reads, its tip when last read and since when; `candidate_commit_id` is a newer
-- tip seen once, acted on when it is still the tip at the next read (a burst of pushes deploys
-- once, at its newest).
CREATE TABLE git_watches (
    service_id TEXT PRIMARY KEY NOT NULL REFERENCES services (id) ON DELETE CASCADE,
    branch TEXT NOT NULL,
    seen_commit_id TEXT NOT NULL,
    candidate_commit_id TEXT,
    seen_at TEXT NOT NULL
);

CREATE TABLE git_pushes (
    id INTEGER PRIMARY KEY,
    service_id TEXT NOT NULL REFERENCES services (id) ON DELETE CASCADE,
    git_commit_id TEXT NOT NULL,
    message TEXT NOT NULL,
    author_name TEXT NOT NULL,
    seen_at TEXT NOT NULL,
    outcome TEXT NOT NULL,
    reason TEXT,
    execution_id TEXT
);
CREATE INDEX git_pushes_by_service ON git_pushes (service_id, id);
