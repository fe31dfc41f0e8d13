//! Copies inside the database: an environment with its services, advanced settings, variables
//! and sealed secrets (a clone, a preview environment), or one service. Nothing is opened or
//! sent anywhere; nothing is deployed.

use std::collections::{HashMap, HashSet};

use chrono::Utc;
use platform_api::{EnvironmentMode, LeftOutVariable, ServiceType};
use sqlx::{Sqlite, Transaction};
use uuid::Uuid;

use crate::error::{ApiError, ApiResult, UniqueViolation};
use crate::store;

/// Where and as what an environment is copied.
pub struct EnvironmentCopy<'a> {
    pub organization_id: Uuid,
    pub project_id: Uuid,
    pub name: &'a str,
    pub mode: EnvironmentMode,
    pub cluster_id: Uuid,
}

/// Copies the environment `source_id` with its services and their variables as `copy`: the
/// copy's id, each service's `(original, copy)` ids, and the variables left out (their target
/// out of the copy's reach).
pub async fn copy_environment(
    tx: &mut Transaction<'_, Sqlite>,
    source_id: Uuid,
    copy: EnvironmentCopy<'_>,
) -> ApiResult<(Uuid, Vec<(String, String)>, Vec<LeftOutVariable>)> {
    let id = Uuid::new_v4();
    sqlx::query(
        "INSERT INTO environments (id, organization_id, project_id, name, mode, cluster_id, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(id.hyphenated())
    .bind(copy.organization_id.hyphenated())
    .bind(copy.project_id.hyphenated())
    .bind(copy.name)
    .bind(copy.mode)
    .bind(copy.cluster_id.hyphenated())
    .bind(Utc::now())
    .execute(&mut **tx)
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
    .fetch_all(&mut **tx)
    .await?;
    let mut services_copied = Vec::new();
    for service in services {
        let copy = copy_service(tx, &service.id, service.kind, id, &service.name).await?;
        services_copied.push((service.id, copy.to_string()));
    }
    let mut parents = vec![(source_id.to_string(), id.to_string())];
    parents.extend(services_copied.iter().cloned());
    let left_out = copy_variables(tx, &parents, &[copy.project_id.to_string()]).await?;
    Ok((id, services_copied, left_out))
}

/// Copies a service (its configuration, advanced settings and sealed secrets) into `environment_id` as `name`,
/// never deployed: what was deployed of the original is left behind.
pub async fn copy_service(
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
    crate::store::scope::insert_initial_status(tx, id).await?;
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
pub async fn copy_variables(
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
