//! Demo data for `--demo`: a few projects, environments on two clusters, applications and a
//! database, a container registry; some services deploy right away so that a newcomer sees the
//! engine at work.

use chrono::Utc;
use platform_api::{
    ApplicationRequest, CloudProvider, ClusterFeatureRequest, ClusterRequest,
    ContainerRegistryRequest, DatabaseAccessibility, DatabaseMode, DatabaseRequest, DatabaseType,
    EnvironmentMode, FeatureValue, GitRepositoryRequest, PortRequest, RegistryKind, RuntimeRequest,
    STATIC_IP,
};
use std::path::{Path, PathBuf};

use sqlx::SqliteConnection;
use uuid::fmt::Hyphenated;
use uuid::Uuid;

use crate::engine::admission::AskedBy;
use crate::git;
use crate::routes::organization::clusters::Clusters;
use crate::routes::organization::container_registries::ContainerRegistries;
use crate::routes::organization::resources as organization_resources;
use crate::routes::services::records::insert;
use crate::state::AppState;
use crate::store::action::Action;
use platform_api::Applications;
use platform_api::Databases;

struct DemoEnvironment {
    project: &'static str,
    name: &'static str,
    mode: EnvironmentMode,
    applications: &'static [&'static str],
    databases: &'static [&'static str],
    deploy_at_start: bool,
}

const ENVIRONMENTS: &[DemoEnvironment] = &[
    DemoEnvironment {
        project: "storefront",
        name: "production",
        mode: EnvironmentMode::Production,
        applications: &["web", "api"],
        databases: &["orders-db"],
        deploy_at_start: true,
    },
    DemoEnvironment {
        project: "storefront",
        name: "staging",
        mode: EnvironmentMode::Staging,
        applications: &["web", "api", "worker"],
        databases: &["orders-db"],
        deploy_at_start: false,
    },
    DemoEnvironment {
        project: "internal-tools",
        name: "development",
        mode: EnvironmentMode::Development,
        applications: &["admin"],
        databases: &[],
        deploy_at_start: false,
    },
];

/// The demo's repository: a few commits, a tag and tfvars files, so that commits and terraform
/// variables are read for real.
const REPOSITORY_COMMITS: &[(&str, &[(&str, &str)])] = &[
    (
        "Start the storefront",
        &[
            (
                "Dockerfile",
                "FROM nginx:1.27\nCOPY site /usr/share/nginx/html\n",
            ),
            ("site/index.html", "<h1>Storefront</h1>\n"),
        ],
    ),
    (
        "Add the checkout page",
        &[("site/checkout.html", "<h1>Checkout</h1>\n")],
    ),
    (
        "Describe the CDN with terraform",
        &[
            (
                "infra/main.tf",
                "variable \"region\" {\n  description = \"Where the CDN's origin runs\"\n  default     = \"eu-west-3\"\n}\n\nvariable \"replicas\" {\n  type     = number\n  nullable = false\n}\n\nvariable \"origin_token\" {\n  description = \"What the CDN shows the origin\"\n  sensitive   = true\n}\n",
            ),
            (
                "infra/prod.tfvars",
                "region   = \"eu-west-3\"\nreplicas = 3\n",
            ),
            (
                "infra/staging.tfvars",
                "region   = \"eu-west-3\"\nreplicas = 1\n",
            ),
        ],
    ),
    (
        "Serve the site faster",
        &[(
            "Dockerfile",
            "FROM nginx:1.27-alpine\nCOPY site /usr/share/nginx/html\n",
        )],
    ),
];

/// Where the demo's repositories live: a folder the server always reads repositories from.
pub fn repositories_folder(data_dir: &Path) -> PathBuf {
    data_dir.join("demo-repositories")
}

/// Creates the demo repository under the data folder; `None` (with a warning) without git. Its
/// URL is absolute, whatever folder the server was started from.
async fn demo_repository(data_dir: &Path) -> Option<String> {
    let path = repositories_folder(data_dir).join("storefront");
    let created = tokio::task::spawn_blocking({
        let path = path.clone();
        move || -> std::io::Result<PathBuf> {
            if !path.join(".git").exists() {
                git::create_repository(&path, REPOSITORY_COMMITS)?;
                git::tag(&path, "v1.0")?;
            }
            std::fs::canonicalize(&path)
        }
    })
    .await;
    match created {
        Ok(Ok(path)) => Some(format!("file://{}", path.display())),
        outcome => {
            tracing::warn!(
                ?outcome,
                "the demo repository could not be created (is git installed?)"
            );
            None
        }
    }
}

/// Who asks for the demo's deployments: the platform itself.
const DEMO: AskedBy = AskedBy {
    name: "demo data",
    origin: platform_api::audit::Origin::PlatformInternal,
};

pub async fn populate(
    state: &AppState,
    organization_id: Uuid,
    data_dir: &Path,
) -> anyhow::Result<()> {
    let repository = demo_repository(data_dir).await;
    // Written whole or not at all; the deployments start once it is.
    let mut tx = state.db.begin_with("BEGIN IMMEDIATE").await?;
    let production_cluster = cluster(
        &mut tx,
        state,
        organization_id,
        "eu-production",
        "1.30",
        true,
    )
    .await?;
    let other_cluster =
        cluster(&mut tx, state, organization_id, "eu-shared", "1.28", false).await?;
    organization_resources::insert::<ContainerRegistries>(
        &mut tx,
        state,
        organization_id,
        ContainerRegistryRequest {
            name: "public-images".to_string(),
            kind: RegistryKind::PublicEcr,
            description: Some("Public images".to_string()),
            url: Some("https://public.ecr.example".to_string()),
            config: Default::default(),
        },
    )
    .await
    .map_err(|error| anyhow::anyhow!("demo registry: {error:?}"))?;
    let mut deploys = Vec::new();
    for environment in ENVIRONMENTS {
        let project_id = project(&mut tx, organization_id, environment.project).await?;
        let environment_id = Uuid::new_v4();
        let cluster_id = if environment.mode == EnvironmentMode::Production {
            production_cluster
        } else {
            other_cluster
        };
        sqlx::query(
            "INSERT INTO environments (id, organization_id, project_id, name, mode, cluster_id, created_at)
             VALUES (?, ?, ?, ?, ?, ?, ?)",
        )
        .bind(environment_id.hyphenated())
        .bind(organization_id.hyphenated())
        .bind(project_id.hyphenated())
        .bind(environment.name)
        .bind(environment.mode)
        .bind(cluster_id.hyphenated())
        .bind(Utc::now())
        .execute(&mut *tx)
        .await?;
        let mut services = Vec::new();
        for name in environment.applications {
            let application = insert::<Applications>(
                &mut tx,
                state,
                organization_id,
                environment_id,
                application_request(environment.project, name, repository.as_deref()),
            )
            .await
            .map_err(|error| anyhow::anyhow!("demo application {name}: {error:?}"))?;
            services.push((*name, application));
        }
        for name in environment.databases {
            let database = insert::<Databases>(
                &mut tx,
                state,
                organization_id,
                environment_id,
                database_request(name),
            )
            .await
            .map_err(|error| anyhow::anyhow!("demo database {name}: {error:?}"))?;
            services.push((*name, database));
        }
        if environment.deploy_at_start {
            deploys.extend(services);
        }
    }
    tx.commit().await?;
    // Demo data is not a change made through the API: queued without an audit entry.
    for (name, id) in deploys {
        let demo_deploy = |error| anyhow::anyhow!("demo deploy {name}: {error:?}");
        let mut tx = state.engine.begin().await.map_err(demo_deploy)?;
        let queued = state
            .engine
            .queue(&mut tx, Action::Deploy.into(), id, DEMO)
            .await
            .map_err(demo_deploy)?;
        tx.commit().await?;
        state.engine.start(queued.deployment_id);
    }
    Ok(())
}

/// A cluster of the demo organization; its id.
async fn cluster(
    conn: &mut SqliteConnection,
    state: &AppState,
    organization_id: Uuid,
    name: &str,
    version: &str,
    production: bool,
) -> anyhow::Result<Uuid> {
    let (cluster_id, ..) = organization_resources::insert::<Clusters>(
        conn,
        state,
        organization_id,
        ClusterRequest {
            name: name.to_string(),
            description: None,
            cloud_provider: CloudProvider::Aws,
            region: "eu-west-3".to_string(),
            version: Some(version.to_string()),
            production,
            instance_type: Some("t3a.2xlarge".to_string()),
            min_running_nodes: 3,
            max_running_nodes: 6,
            // The production cluster's traffic leaves from fixed addresses.
            features: production
                .then(|| ClusterFeatureRequest {
                    id: STATIC_IP.to_string(),
                    value: FeatureValue::Bool(true),
                })
                .into_iter()
                .collect(),
        },
    )
    .await
    .map_err(|error| anyhow::anyhow!("demo cluster {name}: {error:?}"))?;
    Ok(cluster_id)
}

fn database_request(name: &str) -> DatabaseRequest {
    DatabaseRequest {
        name: name.to_string(),
        description: Some("Orders and payments".to_string()),
        database_type: DatabaseType::Postgresql,
        version: "16".to_string(),
        mode: DatabaseMode::Container,
        accessibility: DatabaseAccessibility::Private,
        instance_type: None,
        cpu: 250,
        memory: 256,
        storage: 10,
    }
}

/// The project's id, created on first use.
async fn project(
    conn: &mut SqliteConnection,
    organization_id: Uuid,
    name: &str,
) -> anyhow::Result<Uuid> {
    let existing: Option<Hyphenated> =
        sqlx::query_scalar("SELECT id FROM projects WHERE organization_id = ? AND name = ?")
            .bind(organization_id.hyphenated())
            .bind(name)
            .fetch_optional(&mut *conn)
            .await?;
    if let Some(id) = existing {
        return Ok(id.into_uuid());
    }
    let id = Uuid::new_v4();
    sqlx::query(
        "INSERT INTO projects (id, organization_id, name, description, created_at) VALUES (?, ?, ?, ?, ?)",
    )
    .bind(id.hyphenated())
    .bind(organization_id.hyphenated())
    .bind(name)
    .bind(format!("Demo project {name}"))
    .bind(Utc::now())
    .execute(conn)
    .await?;
    Ok(id)
}

fn application_request(project: &str, name: &str, repository: Option<&str>) -> ApplicationRequest {
    let public = name != "worker";
    let url = repository
        .map(str::to_string)
        .unwrap_or_else(|| format!("https://git.example.com/{project}/{name}.git"));
    ApplicationRequest {
        name: name.to_string(),
        description: Some(format!("The {name} service of {project}")),
        git_repository: GitRepositoryRequest::for_url(&url, Some("main".to_string())),
        build_mode: "DOCKER".to_string(),
        dockerfile_path: Some("Dockerfile".to_string()),
        docker_target_build_stage: None,
        runtime: RuntimeRequest {
            max_running_instances: if public { 3 } else { 1 },
            auto_deploy: true,
            ports: if public {
                vec![PortRequest {
                    id: None,
                    internal_port: 8080,
                    external_port: Some(443),
                    protocol: "HTTP".to_string(),
                    publicly_accessible: true,
                    name: None,
                    is_default: None,
                    public_path: None,
                    public_path_rewrite: None,
                }]
            } else {
                Vec::new()
            },
            ..RuntimeRequest::default()
        },
    }
}
