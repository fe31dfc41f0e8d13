//! Copies: an environment with its services, variables and secrets (into its project or another,
//! on its cluster or another), or one service into an environment. Everything is copied in one
//! transaction inside the database, sealed secret values included, so that no secret is opened or
//! sent anywhere; nothing is deployed until someone asks.

use std::collections::{HashMap, HashSet};

use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::Json;
use chrono::Utc;
use platform_api::audit::EventType;
use platform_api::{
    CloneEnvironmentRequest, CloneServiceRequest, Cloned, Environment, LeftOutVariable, ServiceType,
};
use sqlx::{Sqlite, Transaction};
use uuid::Uuid;

use crate::audit::{self, Change, Target};
use crate::caller::{Caller, Permission};
use crate::db;
use crate::engine;
use crate::error::{ApiError, ApiJson, ApiPath, ApiResult, UniqueViolation};
use crate::routes::environments::{find_environment, read_environment};
use crate::routes::organization::clusters::Clusters;
use crate::routes::organization::resources::{ensure_exists, OrganizationResource};
use crate::routes::projects::find_project;
use crate::routes::services::records::{find, find_in};
use crate::routes::services::resource::ServiceResource;
use crate::routes::{Doc, RouteTable};
use crate::state::AppState;
use crate::store;

pub fn register(routes: &mut RouteTable) {
    routes.add(
        Method::POST,
        "/environment/{environment_id}/clone",
        Permission::Write,
        Doc::new(
            "Copy an environment with its services, variables and secrets; nothing is deployed. \
             The answer's `left_out_variables` (ours, absent when empty) names the aliases and \
             overrides whose variable the copy does not see",
        )
        .body::<CloneEnvironmentRequest>()
        .answers::<Environment>(StatusCode::ACCEPTED),
        clone_environment,
    );
}

/// The clone route of a service kind, registered with the kind's other routes.
pub fn register_service<R: ServiceResource>(routes: &mut RouteTable) {
    routes.add(
        Method::POST,
        format!("{}/clone", R::TYPE.item_template()),
        Permission::Write,
        Doc::new(format!(
            "Copy a {} with its variables and secrets into an environment; nothing is deployed. \
             The answer's `left_out_variables` (ours, absent when empty) names the aliases and \
             overrides whose variable the copy does not see",
            R::WHAT
        ))
        .body::<CloneServiceRequest>()
        .answers::<R::Record>(StatusCode::ACCEPTED),
        clone_service::<R>,
    );
}

async fn clone_environment(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(source_id): ApiPath<Uuid>,
    ApiJson(request): ApiJson<CloneEnvironmentRequest>,
) -> ApiResult<(StatusCode, Json<Cloned<Environment>>)> {
    let source = find_environment(&state, &caller, source_id).await?;
    request.validate().map_err(ApiError::invalid)?;
    let project_id = match request.project_id {
        Some(id) => {
            find_project(&state, &caller, id)
                .await
                .map_err(|error| {
                    error.naming("project_id", "is not a project of this organization")
                })?
                .id
        }
        None => source.project.id,
    };
    let cluster_id = match request.cluster_id {
        Some(id) => {
            ensure_exists(
                &state.db,
                Clusters::KIND,
                caller.organization_id,
                id,
                "cluster_id",
            )
            .await?;
            id
        }
        None => source.cluster_id,
    };
    let id = Uuid::new_v4();
    let now = Utc::now();
    let mut tx = db::begin_write(&state.writes).await?;
    sqlx::query(
        "INSERT INTO environments (id, organization_id, project_id, name, mode, cluster_id, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(id.hyphenated())
    .bind(caller.organization_id.hyphenated())
    .bind(project_id.hyphenated())
    .bind(request.name.trim())
    .bind(request.mode.unwrap_or(source.mode))
    .bind(cluster_id.hyphenated())
    .bind(now)
    .execute(&mut *tx)
    .await
    .on_unique_violation("name", "environment")?;
    #[derive(sqlx::FromRow)]
    struct Source {
        id: String,
        kind: ServiceType,
        name: String,
    }
    let services: Vec<Source> = sqlx::query_as(
        "SELECT id, kind, name FROM services WHERE environment_id = ? ORDER BY name",
    )
    .bind(source_id.hyphenated())
    .fetch_all(&mut *tx)
    .await?;
    let mut parents = vec![(source_id.to_string(), id.to_string())];
    for service in services {
        let copy = copy_service(&mut tx, &service.id, service.kind, id, &service.name).await?;
        parents.push((service.id, copy.to_string()));
    }
    let left_out_variables = copy_variables(&mut tx, &parents, &[project_id.to_string()]).await?;
    let cloned = Cloned {
        copy: read_environment(&mut tx, &caller, id).await?,
        left_out_variables,
    };
    let target = Target::environment(&mut tx, id).await?;
    let change = Change::new(EventType::Clone, target).after(&cloned);
    audit::record(&mut tx, &caller, change).await?;
    tx.commit().await?;
    Ok((StatusCode::ACCEPTED, Json(cloned)))
}

async fn clone_service<R: ServiceResource>(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(source_id): ApiPath<Uuid>,
    ApiJson(request): ApiJson<CloneServiceRequest>,
) -> ApiResult<(StatusCode, Json<Cloned<R::Record>>)> {
    find::<R>(&state, &caller, source_id).await?;
    request.validate().map_err(ApiError::invalid)?;
    let target = find_environment(&state, &caller, request.environment_id)
        .await
        .map_err(|error| {
            error.naming(
                "environment_id",
                "is not an environment of this organization",
            )
        })?;
    let mut tx = db::begin_write(&state.writes).await?;
    let copy = copy_service(
        &mut tx,
        &source_id.to_string(),
        R::TYPE,
        target.id,
        request.name.trim(),
    )
    .await?;
    let left_out_variables = copy_variables(
        &mut tx,
        &[(source_id.to_string(), copy.to_string())],
        &[target.id.to_string(), target.project.id.to_string()],
    )
    .await?;
    let (record, _) = find_in::<R>(&mut tx, &caller, copy).await?;
    let cloned = Cloned {
        copy: record,
        left_out_variables,
    };
    let target = Target::service(&mut tx, copy).await?;
    let change = Change::new(EventType::Clone, target).after(&cloned);
    audit::record(&mut tx, &caller, change).await?;
    tx.commit().await?;
    Ok((StatusCode::ACCEPTED, Json(cloned)))
}

/// Copies a service (its configuration, advanced settings and sealed secrets) into `environment_id` as `name`,
/// never deployed: what was deployed of the original is left behind.
async fn copy_service(
    tx: &mut Transaction<'_, Sqlite>,
    source_id: &str,
    kind: ServiceType,
    environment_id: Uuid,
    name: &str,
) -> ApiResult<Uuid> {
    let id = Uuid::new_v4();
    let now = Utc::now();
    let deployed = kind
        .git_repository_path()
        .map(|git| {
            [
                "deployed_commit_id",
                "deployed_commit_date",
                "deployed_commit_contributor",
                "deployed_commit_tag",
            ]
            .map(|field| format!(", '{git}.{field}'"))
            .concat()
        })
        .unwrap_or_default();
    sqlx::query(&format!(
        "INSERT INTO services (id, organization_id, environment_id, kind, name, spec, secrets, created_at)
         SELECT ?1, organization_id, ?2, kind, ?3,
                json_set(json_remove(spec, '$.updated_at'{deployed}),
                         '$.id', ?1, '$.name', ?3, '$.environment.id', ?2, '$.created_at', ?4),
                secrets, ?5
         FROM services WHERE id = ?6"
    ))
    .bind(id.hyphenated())
    .bind(environment_id.hyphenated())
    .bind(name)
    .bind(now.to_rfc3339())
    .bind(now)
    .bind(source_id)
    .execute(&mut **tx)
    .await
    .on_unique_violation("name", "service")?;
    engine::scope::insert_initial_status(tx, id).await?;
    let original = source_id.parse().map_err(ApiError::internal)?;
    store::advanced_settings::copy(tx, original, id).await?;
    Ok(id)
}

/// A variable to copy, and the variable it aliases or overrides, if any.
#[derive(sqlx::FromRow)]
struct Copied {
    id: String,
    parent_id: String,
    key: String,
    scope: platform_api::VariableScope,
    variable_type: platform_api::VariableType,
    target_id: Option<String>,
    target_parent_id: Option<String>,
}

/// Copies the variables and secrets defined on each `(original, copy)` parent onto the copy,
/// values as stored (secrets sealed). An alias or override points at the copy of its target when
/// that was copied too, at its target when the copy still sees it (defined on one of `visible`),
/// and is left out otherwise (returned): its target is out of the copy's reach.
async fn copy_variables(
    tx: &mut Transaction<'_, Sqlite>,
    parents: &[(String, String)],
    visible: &[String],
) -> ApiResult<Vec<LeftOutVariable>> {
    let originals: Vec<&str> = parents.iter().map(|(from, _)| from.as_str()).collect();
    let copy_of_parent: HashMap<&str, &str> = parents
        .iter()
        .map(|(from, to)| (from.as_str(), to.as_str()))
        .collect();
    let mut pending: Vec<Copied> = sqlx::query_as(
        "SELECT v.id, v.parent_id, v.key, v.scope, v.variable_type, v.target_id,
                t.parent_id AS target_parent_id
         FROM variables v LEFT JOIN variables t ON t.id = v.target_id
         WHERE v.parent_id IN (SELECT value FROM json_each(?))",
    )
    .bind(serde_json::to_string(&originals).map_err(ApiError::internal)?)
    .fetch_all(&mut **tx)
    .await?;
    let to_copy: HashSet<String> = pending.iter().map(|v| v.id.clone()).collect();
    let mut copies: HashMap<String, String> = HashMap::new();
    let now = Utc::now();
    let mut left_out = Vec::new();
    // Targets first: a pass copies what it can, until a pass copies nothing more.
    loop {
        let before = pending.len();
        let mut waiting = Vec::new();
        for variable in pending {
            let target = match (&variable.target_id, &variable.target_parent_id) {
                (None, _) => None,
                (Some(target), _) if copies.contains_key(target) => Some(copies[target].clone()),
                (Some(target), _) if to_copy.contains(target) => {
                    waiting.push(variable);
                    continue;
                }
                (Some(target), Some(parent)) if visible.contains(parent) => Some(target.clone()),
                _ => {
                    left_out.push(LeftOutVariable {
                        key: variable.key,
                        scope: variable.scope,
                        variable_type: variable.variable_type,
                        reason: "its variable is defined where the copy does not see it"
                            .to_string(),
                    });
                    continue;
                }
            };
            let id = Uuid::new_v4().to_string();
            sqlx::query(
                "INSERT INTO variables (id, organization_id, scope, parent_id, key, value, secret_value,
                     is_secret, variable_type, mount_path, description, enable_interpolation_in_file,
                     target_id, created_at)
                 SELECT ?, organization_id, scope, ?, key, value, secret_value, is_secret,
                     variable_type, mount_path, description, enable_interpolation_in_file, ?, ?
                 FROM variables WHERE id = ?",
            )
            .bind(&id)
            .bind(copy_of_parent[variable.parent_id.as_str()])
            .bind(target)
            .bind(now)
            .bind(&variable.id)
            .execute(&mut **tx)
            .await?;
            copies.insert(variable.id, id);
        }
        if waiting.is_empty() || waiting.len() == before {
            return Ok(left_out);
        }
        pending = waiting;
    }
}
