-- Organizations, roles and API tokens (stored only as a hash).
CREATE TABLE organizations (
    id TEXT PRIMARY KEY NOT NULL,
    name TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT
);

CREATE TABLE roles (
    id TEXT PRIMARY KEY NOT NULL,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    description TEXT NOT NULL,
    UNIQUE (organization_id, name)
);

CREATE TABLE api_tokens (
    id TEXT PRIMARY KEY NOT NULL,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    role_id TEXT NOT NULL REFERENCES roles (id),
    name TEXT NOT NULL,
    description TEXT,
    token_hash TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL,
    updated_at TEXT
);

-- The hierarchy. Every row carries its organization so that a lookup by id is scoped in one query.
CREATE TABLE projects (
    id TEXT PRIMARY KEY NOT NULL,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    name TEXT NOT NULL COLLATE NOCASE,
    description TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT,
    UNIQUE (organization_id, name)
);

CREATE TABLE environments (
    id TEXT PRIMARY KEY NOT NULL,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    project_id TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    name TEXT NOT NULL COLLATE NOCASE,
    mode TEXT NOT NULL,
    cluster_id TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT,
    UNIQUE (project_id, name)
);

-- Services of every kind share one table: names are unique across kinds in an environment, and
-- statuses are read for a whole environment at once. `spec` holds the kind's fields as JSON.
CREATE TABLE services (
    id TEXT PRIMARY KEY NOT NULL,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    environment_id TEXT NOT NULL REFERENCES environments (id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    name TEXT NOT NULL COLLATE NOCASE,
    spec TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT,
    UNIQUE (environment_id, name)
);

CREATE TABLE service_statuses (
    service_id TEXT PRIMARY KEY NOT NULL REFERENCES services (id) ON DELETE CASCADE,
    state TEXT NOT NULL,
    deployment_status TEXT NOT NULL,
    action TEXT NOT NULL,
    action_status TEXT NOT NULL,
    sub_action TEXT NOT NULL,
    is_part_last_deployment INTEGER NOT NULL DEFAULT 0,
    deployment_request_id TEXT,
    last_deployment_date TEXT,
    execution_id TEXT
);

-- One row per action requested; finished_at stays NULL while the engine works on it.
CREATE TABLE deployments (
    id TEXT PRIMARY KEY NOT NULL,
    service_id TEXT NOT NULL REFERENCES services (id) ON DELETE CASCADE,
    execution_id TEXT NOT NULL,
    action TEXT NOT NULL,
    git_commit_id TEXT,
    state TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    finished_at TEXT
);
CREATE INDEX deployments_by_service ON deployments (service_id, created_at);

CREATE TABLE deployment_steps (
    deployment_id TEXT NOT NULL REFERENCES deployments (id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    step_name TEXT NOT NULL,
    status TEXT NOT NULL,
    duration_sec INTEGER NOT NULL,
    finished_at TEXT NOT NULL,
    PRIMARY KEY (deployment_id, position)
);

CREATE TABLE deployment_logs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    deployment_id TEXT NOT NULL REFERENCES deployments (id) ON DELETE CASCADE,
    service_id TEXT NOT NULL REFERENCES services (id) ON DELETE CASCADE,
    created_at TEXT NOT NULL,
    message TEXT NOT NULL
);
CREATE INDEX deployment_logs_by_service ON deployment_logs (service_id, id);
