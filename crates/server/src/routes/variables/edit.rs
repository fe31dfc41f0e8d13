//! Creating, overriding, updating and deleting one variable or secret, each in one transaction
//! with its audit entry.

use platform_api::audit::{EventType, SubTargetType};
use platform_api::{
    EnvironmentVariable, FieldError, VariableRequest, VariableScope, VariableType,
    VARIABLES_PER_SCOPE_MAX,
};
use sqlx::SqliteConnection;
use uuid::Uuid;

use crate::audit::{self, Change, Target};
use crate::caller::Caller;
use crate::db;
use crate::error::{ApiError, ApiResult, UniqueViolation};
use crate::state::AppState;

use crate::routes::variables::parent::own_in;
use crate::routes::variables::parent::{parent, reachable, Parent};
use crate::routes::variables::read::shape;
use crate::store::variables::{self as store, NewVariable, Stored};

pub(super) async fn create(
    state: &AppState,
    caller: &Caller,
    parent: &Parent,
    request: VariableRequest,
    secret: bool,
) -> ApiResult<EnvironmentVariable> {
    let variable_type = if request.mount_path.is_some() {
        VariableType::File
    } else {
        VariableType::Value
    };
    let (value, secret_value) = if secret {
        (None, request.value)
    } else {
        (request.value, None)
    };
    let new = NewVariable {
        key: request.key,
        value,
        secret_value,
        is_secret: secret,
        variable_type,
        mount_path: request.mount_path,
        description: request.description,
        enable_interpolation_in_file: request.enable_interpolation_in_file,
        target_id: None,
    };
    insert(state, caller, parent, new).await
}

pub(super) async fn create_override(
    state: &AppState,
    caller: &Caller,
    parent: &Parent,
    target_id: Uuid,
    value: String,
    description: Option<String>,
    enable_interpolation_in_file: bool,
) -> ApiResult<EnvironmentVariable> {
    let target = reachable(state, caller, parent, target_id, true).await?;
    let (value, secret_value) = if target.is_secret {
        (None, Some(value))
    } else {
        (Some(value), None)
    };
    let new = NewVariable {
        key: target.key.clone(),
        value,
        secret_value,
        is_secret: target.is_secret,
        variable_type: VariableType::Override,
        mount_path: target.mount_path.clone(),
        description,
        enable_interpolation_in_file,
        target_id: Some(target.id),
    };
    insert(state, caller, parent, new).await
}

/// An alias of `target_id` at `parent`: another key for the same value, secret when it is.
pub(super) async fn create_alias(
    state: &AppState,
    caller: &Caller,
    parent: &Parent,
    target_id: Uuid,
    key: String,
    description: Option<String>,
) -> ApiResult<EnvironmentVariable> {
    let target = reachable(state, caller, parent, target_id, false).await?;
    if target.variable_type == VariableType::Alias {
        return Err(ApiError::invalid(vec![FieldError::new(
            "variable_id",
            "is an alias: an alias is made of the variable it names",
        )]));
    }
    let alias = NewVariable {
        key,
        value: None,
        secret_value: None,
        is_secret: target.is_secret,
        variable_type: VariableType::Alias,
        mount_path: None,
        description,
        enable_interpolation_in_file: false,
        target_id: Some(target.id),
    };
    insert(state, caller, parent, alias).await
}

pub(super) async fn insert(
    state: &AppState,
    caller: &Caller,
    parent: &Parent,
    new: NewVariable,
) -> ApiResult<EnvironmentVariable> {
    let mut tx = db::begin_write(&state.writes).await?;
    let id = store::insert(
        &mut tx,
        &state.sealer,
        caller.organization_id,
        (parent.scope, parent.id),
        &new,
    )
    .await
    .on_unique_violation("key", "variable")?;
    check_room(&mut tx, &[parent.id], "key").await?;
    crate::store::scope::mark_scope_out_of_date(&mut tx, parent.scope_of_changes()).await?;
    let stored = own_in(&mut tx, caller, id).await?;
    let created = shape(&mut tx, parent, stored).await?;
    let change = change_of(&mut tx, EventType::Create, parent, new.is_secret)
        .await?
        .after(&created)
        .secrets(new.secret_value.as_ref().map(|_| "value"));
    audit::record(&mut tx, caller, change).await?;
    tx.commit().await?;
    Ok(created)
}

/// Refuses the change (naming `field`) when it leaves one of `parents` defining more than
/// `VARIABLES_PER_SCOPE_MAX` variables and secrets. Called in the change's transaction, after
/// its writes.
pub(super) async fn check_room(
    conn: &mut SqliteConnection,
    parents: &[Uuid],
    field: &str,
) -> ApiResult<()> {
    for parent_id in parents {
        let defined = store::count_on(&mut *conn, *parent_id).await?;
        if defined > VARIABLES_PER_SCOPE_MAX {
            return Err(ApiError::invalid(vec![FieldError::new(
                field,
                format!(
                    "would make {defined} variables and secrets here: a project, an environment or a service defines at most {VARIABLES_PER_SCOPE_MAX}"
                ),
            )]));
        }
    }
    Ok(())
}

/// A change to a variable (or secret) defined on `parent`, for the audit log.
pub(super) async fn change_of(
    conn: &mut SqliteConnection,
    event_type: EventType,
    parent: &Parent,
    secret: bool,
) -> ApiResult<Change> {
    let target = match parent.scope {
        VariableScope::Project => Target::project(conn, parent.id).await?,
        VariableScope::Environment => Target::environment(conn, parent.id).await?,
        _ => Target::service(conn, parent.id).await?,
    };
    Ok(Change::new(event_type, target).of(if secret {
        SubTargetType::Secret
    } else {
        SubTargetType::Variable
    }))
}

pub(super) async fn update(
    state: &AppState,
    caller: &Caller,
    stored: Stored,
    request: VariableRequest,
) -> ApiResult<EnvironmentVariable> {
    request
        .validate(stored.is_secret && stored.has_secret_value)
        .map_err(ApiError::invalid)?;
    let parent = parent(state, caller, stored.scope, stored.parent_id).await?;
    let (value, secret_value) = if stored.is_secret {
        (None, request.value)
    } else {
        (request.value, None)
    };
    let mut tx = db::begin_write(&state.writes).await?;
    let before = shape(&mut tx, &parent, stored.clone()).await?;
    let changed = store::Changed {
        key: &request.key,
        value,
        sealed_secret_value: secret_value
            .as_deref()
            .map(|value| state.sealer.seal(value)),
        mount_path: request.mount_path.as_deref(),
        description: request.description.as_deref(),
        enable_interpolation_in_file: request.enable_interpolation_in_file,
    };
    store::update(&mut tx, stored.id, changed).await?;
    crate::store::scope::mark_scope_out_of_date(&mut tx, parent.scope_of_changes()).await?;
    let updated = own_in(&mut tx, caller, stored.id).await?;
    let updated = shape(&mut tx, &parent, updated).await?;
    let change = change_of(&mut tx, EventType::Update, &parent, stored.is_secret)
        .await?
        .before(&before)
        .after(&updated)
        .secrets(secret_value.as_ref().map(|_| "value"));
    audit::record(&mut tx, caller, change).await?;
    tx.commit().await?;
    Ok(updated)
}

pub(super) async fn delete(state: &AppState, caller: &Caller, stored: Stored) -> ApiResult<()> {
    let parent = parent(state, caller, stored.scope, stored.parent_id).await?;
    let mut tx = db::begin_write(&state.writes).await?;
    let is_secret = stored.is_secret;
    let before = shape(&mut tx, &parent, stored.clone()).await?;
    store::delete(&mut tx, stored.id).await?;
    crate::store::scope::mark_scope_out_of_date(&mut tx, parent.scope_of_changes()).await?;
    let change = change_of(&mut tx, EventType::Delete, &parent, is_secret)
        .await?
        .before(&before);
    audit::record(&mut tx, caller, change).await?;
    tx.commit().await?;
    Ok(())
}

/// Variables by key as the audit log shows them: a plain value, or that it is a secret.
pub(super) fn snapshot(variables: &[Stored]) -> std::collections::BTreeMap<String, String> {
    variables
        .iter()
        .map(|variable| {
            let shown = if variable.is_secret {
                audit::SEALED.to_string()
            } else {
                variable.value.clone().unwrap_or_default()
            };
            (variable.key.clone(), shown)
        })
        .collect()
}
