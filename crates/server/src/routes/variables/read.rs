//! Variables as a parent sees them: its chain's, an override hiding what it overrides, the
//! built-in ones of its environment's services; and their answers (variables or secrets).

use platform_api::{
    DatabaseType, EnvironmentVariable, FieldError, List, PageQuery, Secret, ServiceType,
    VariableReference, VariableScope, VariableType, VARIABLE_PAGE_SIZE_MAX,
};
use sha2::{Digest, Sha256};
use sqlx::{SqliteConnection, SqlitePool};
use uuid::Uuid;

use crate::error::{ApiError, ApiResult};

use crate::routes::variables::parent::Parent;
use crate::store;
use crate::store::variables::{Listed, Stored};

/// Who says what the platform generated, in `owned_by`.
pub(super) const OWNED_BY: &str = "PLATFORM";

/// The most a whole list (asked for without `pageSize`) may weigh in values: past it, the list
/// is to be asked for by pages.
pub(super) const WHOLE_LIST_VALUES_MAX_BYTES: i64 = 8 * 1024 * 1024;

/// What a listed variable aliases or overrides.
fn reference(listed: &Listed) -> Option<VariableReference> {
    let (Some(id), Some(key), Some(scope), Some(variable_type)) = (
        listed.row.target_id,
        &listed.target_key,
        listed.target_scope,
        listed.target_variable_type,
    ) else {
        return None;
    };
    Some(VariableReference {
        id,
        key: key.clone(),
        value: listed.target_value.clone(),
        mount_path: listed.target_mount_path.clone().unwrap_or_default(),
        scope,
        variable_type,
    })
}

/// What `parent` sees, its variables or its secrets (`secret`) or both, whole or the page
/// `page` asks for: the variables of its chain, an override hiding what it overrides, then the
/// built-in variables of its environment's services.
pub(super) async fn visible(
    db: &SqlitePool,
    parent: &Parent,
    secret: Option<bool>,
    page: PageQuery,
) -> ApiResult<List<EnvironmentVariable>> {
    page.validate(VARIABLE_PAGE_SIZE_MAX)
        .map_err(ApiError::invalid)?;
    let seen = store::variables::Seen {
        chain: parent.chain(),
        secret,
    };
    if page.page_size.is_none() && seen.weight(db).await? > WHOLE_LIST_VALUES_MAX_BYTES {
        return Err(ApiError::invalid(vec![FieldError::new(
            "pageSize",
            format!(
                "is required here: the values seen weigh more than {} MiB; ask for the list by pages of at most {VARIABLE_PAGE_SIZE_MAX}",
                WHOLE_LIST_VALUES_MAX_BYTES / (1024 * 1024)
            ),
        )]));
    }
    let (limit, offset) = page.limit_and_offset();
    let rows = seen.page(db, limit, offset).await?;
    let stored_count = rows.len() as i64;
    let mut variables = Vec::with_capacity(rows.len());
    for listed in rows {
        let reference = reference(&listed);
        variables.push(shaped(parent, listed.row, reference));
    }
    // The built-in ones follow the stored ones: on the page that has room left for them.
    let room = if limit < 0 {
        i64::MAX
    } else {
        limit - stored_count
    };
    if let (Some(environment_id), true) = (parent.environment_id, room > 0) {
        let skipped = if offset == 0 || stored_count > 0 {
            0
        } else {
            let stored_total = seen.count(db).await?;
            offset - stored_total
        };
        variables.extend(
            built_ins(db, environment_id)
                .await?
                .into_iter()
                .filter(|variable| secret.is_none_or(|secret| variable.is_secret == secret))
                .skip(skipped.max(0) as usize)
                .take(room.min(usize::MAX as i64) as usize),
        );
    }
    Ok(List::paged(variables, page))
}

/// The answer for a stored variable seen from `parent`.
pub(super) async fn shape(
    conn: &mut SqliteConnection,
    parent: &Parent,
    row: Stored,
) -> ApiResult<EnvironmentVariable> {
    let reference = match row.target_id {
        Some(target_id) => {
            let target = store::variables::target(conn, target_id).await?;
            Some(VariableReference {
                id: target.id,
                key: target.key,
                value: target.value,
                mount_path: target.mount_path.unwrap_or_default(),
                scope: target.scope,
                variable_type: target.variable_type,
            })
        }
        None => None,
    };
    Ok(shaped(parent, row, reference))
}

/// A stored variable seen from `parent`, with `reference` to what it aliases or overrides.
pub(super) fn shaped(
    parent: &Parent,
    row: Stored,
    reference: Option<VariableReference>,
) -> EnvironmentVariable {
    // An alias's value is its variable's: what the service is given under the alias's key.
    let value = match (&reference, row.variable_type) {
        _ if row.is_secret => None,
        (Some(aliased), VariableType::Alias) => aliased.value.clone(),
        _ => row.value,
    };
    let (overridden_variable, aliased_variable) = match row.variable_type {
        VariableType::Override => (reference, None),
        VariableType::Alias => (None, reference),
        _ => (None, None),
    };
    let service = (row.parent_id == parent.id)
        .then_some(parent.service.as_ref())
        .flatten();
    EnvironmentVariable {
        id: row.id,
        created_at: row.created_at,
        updated_at: row.updated_at,
        key: row.key,
        value,
        scope: row.scope,
        variable_type: row.variable_type,
        is_secret: row.is_secret,
        mount_path: row.mount_path,
        description: row.description,
        enable_interpolation_in_file: row.enable_interpolation_in_file,
        overridden_variable,
        aliased_variable,
        service_id: service.map(|(id, _, _)| *id),
        service_name: service.map(|(_, name, _)| name.clone()),
        service_type: service.map(|(_, _, kind)| *kind),
        owned_by: OWNED_BY.to_string(),
    }
}

/// The built-in variables of an environment's services: where to reach each, and for databases
/// how to sign in (the password a secret). Generated, never stored; their ids are stable.
pub(super) async fn built_ins(
    db: &SqlitePool,
    environment_id: Uuid,
) -> ApiResult<Vec<EnvironmentVariable>> {
    let services = store::services::of_every_kind(db, environment_id).await?;
    let mut variables = Vec::new();
    for service in services {
        let (service_id, kind, name) = (service.id, service.kind, service.name);
        let prefix = format!(
            "{}_{}",
            kind.as_str(),
            name.to_uppercase()
                .replace(|c: char| !c.is_ascii_alphanumeric(), "_")
        );
        let host = platform_api::internal_host(&name, environment_id);
        let mut pairs = vec![(format!("{prefix}_HOST_INTERNAL"), Some(host.clone()), false)];
        if kind == ServiceType::Database {
            let spec: serde_json::Value =
                serde_json::from_str(&service.spec).map_err(ApiError::internal)?;
            let database: DatabaseType =
                serde_json::from_value(spec["type"].clone()).map_err(ApiError::internal)?;
            // Stored types are read strictly: none is unknown.
            let port = database.port().unwrap_or_default();
            pairs.extend([
                (format!("{prefix}_PORT"), Some(port.to_string()), false),
                (
                    format!("{prefix}_LOGIN"),
                    Some(platform_api::DATABASE_LOGIN.to_string()),
                    false,
                ),
                (format!("{prefix}_PASSWORD"), None, true),
            ]);
        }
        for (key, value, is_secret) in pairs {
            variables.push(EnvironmentVariable {
                id: built_in_id(service_id, &key),
                created_at: service.created_at,
                updated_at: None,
                key,
                value,
                scope: VariableScope::BuiltIn,
                variable_type: VariableType::BuiltIn,
                is_secret,
                mount_path: None,
                description: None,
                enable_interpolation_in_file: false,
                overridden_variable: None,
                aliased_variable: None,
                service_id: Some(service_id),
                service_name: Some(name.clone()),
                service_type: Some(kind),
                owned_by: OWNED_BY.to_string(),
            });
        }
    }
    Ok(variables)
}

pub(super) fn built_in_id(service_id: Uuid, key: &str) -> Uuid {
    let digest = Sha256::digest(format!("{service_id}/{key}").as_bytes());
    let mut bytes = [0u8; 16];
    bytes.copy_from_slice(&digest[..16]);
    uuid::Builder::from_random_bytes(bytes).into_uuid()
}

/// A list of variables, or of secrets in the secret shape.
pub(super) fn shown(variables: List<EnvironmentVariable>, secret: bool) -> serde_json::Value {
    if secret {
        serde_json::json!(List {
            results: variables
                .results
                .into_iter()
                .map(Secret::from)
                .collect::<Vec<_>>(),
            page: variables.page,
            page_size: variables.page_size,
        })
    } else {
        serde_json::json!(variables)
    }
}

pub(super) fn one_shown(variable: EnvironmentVariable, secret: bool) -> serde_json::Value {
    if secret {
        serde_json::json!(Secret::from(variable))
    } else {
        serde_json::json!(variable)
    }
}
