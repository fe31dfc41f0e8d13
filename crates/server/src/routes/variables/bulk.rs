//! Deleting, making secret and setting many variables of a parent at once, all or none.

use platform_api::audit::EventType;
use platform_api::{FieldError, VariableBulk, VariableBulkRequest, VariableType};
use uuid::Uuid;

use crate::audit::{self};
use crate::caller::{Caller, Permission};
use crate::db;
use crate::error::{ApiError, ApiResult};
use crate::state::AppState;

use crate::routes::variables::edit::{change_of, check_room, snapshot};
use crate::routes::variables::parent::Parent;
use crate::store::variables::{self as store, defined_on, NewVariable, Stored};

/// Applies a bulk change to the variables defined on `parent` in one transaction: every id must
/// be one of them (a plain one, to be made secret or set), every new key free there; any broken
/// rule is named by its place and nothing is written.
pub(super) async fn apply(
    state: &AppState,
    caller: &Caller,
    parent: &Parent,
    request: VariableBulkRequest,
) -> ApiResult<VariableBulk> {
    request.validate().map_err(ApiError::invalid)?;
    if !request.delete.is_empty() {
        caller.require(Permission::Admin)?;
    }
    let mut tx = db::begin_write(&state.writes).await?;
    let defined = defined_on(&mut tx, parent.id).await?;
    let mut before = snapshot(&defined);
    let find = |id: Uuid| defined.iter().find(|variable| variable.id == id);
    let plain =
        |variable: &&Stored| !variable.is_secret && variable.variable_type == VariableType::Value;
    let mut problems = Vec::new();
    let mut outcome = VariableBulk::default();
    for (at, id) in request.delete.iter().enumerate() {
        if find(*id).is_none() {
            problems.push(FieldError::new(
                format!("delete[{at}]"),
                "is not a variable or secret defined here (deleted since?)",
            ));
            continue;
        }
        store::delete(&mut tx, *id).await?;
        outcome.deleted += 1;
    }
    let mut made_secret = Vec::new();
    for (at, id) in request.to_secret.iter().enumerate() {
        let Some(variable) = find(*id).filter(plain) else {
            problems.push(FieldError::new(
                format!("to_secret[{at}]"),
                "is not a plain variable defined here",
            ));
            continue;
        };
        let sealed = state
            .sealer
            .seal(variable.value.as_deref().unwrap_or_default());
        let mut targets = store::make_secret(&mut tx, *id, sealed).await?;
        targets.push(parent.id);
        let made = audit::MadeSecret {
            id: *id,
            key: &variable.key,
            scope: variable.scope.as_str(),
            plain_value: variable.value.as_deref().unwrap_or_default(),
        };
        audit::seal_made_secret(&mut tx, caller.organization_id, &targets, &made).await?;
        made_secret.push(variable.key.clone());
        outcome.moved_to_secret += 1;
    }
    for (at, set) in request.set.iter().enumerate() {
        match set.id {
            Some(id) => {
                let Some(variable) = find(id).filter(plain).filter(|v| v.key == set.key) else {
                    problems.push(FieldError::new(
                        format!("set[{at}].id"),
                        format!(
                            "is not the plain variable {} defined here (changed since?)",
                            set.key
                        ),
                    ));
                    continue;
                };
                store::set_values(&mut tx, variable.id, Some(&set.value), None).await?;
                outcome.updated += 1;
            }
            None => {
                let taken = defined.iter().any(|variable| {
                    variable.key == set.key && !request.delete.contains(&variable.id)
                });
                if taken {
                    problems.push(FieldError::new(
                        format!("set[{at}].key"),
                        "is defined here already (added since?)",
                    ));
                    continue;
                }
                let new = NewVariable {
                    key: set.key.clone(),
                    value: Some(set.value.clone()),
                    secret_value: None,
                    is_secret: false,
                    variable_type: VariableType::Value,
                    mount_path: None,
                    description: None,
                    enable_interpolation_in_file: false,
                    target_id: None,
                };
                store::insert(
                    &mut tx,
                    &state.sealer,
                    caller.organization_id,
                    (parent.scope, parent.id),
                    &new,
                )
                .await?;
                outcome.created += 1;
            }
        }
    }
    if !problems.is_empty() {
        return Err(ApiError::invalid(problems));
    }
    check_room(&mut tx, &[parent.id], "set").await?;
    crate::store::scope::mark_scope_out_of_date(&mut tx, parent.scope_of_changes()).await?;
    let after = snapshot(&defined_on(&mut tx, parent.id).await?);
    // A value made secret is not shown before either: `changed_secrets` names its key.
    for key in &made_secret {
        before.insert(key.clone(), audit::SEALED.to_string());
    }
    let change = change_of(&mut tx, EventType::Update, parent, false)
        .await?
        .before(&before)
        .after(&after)
        .secrets(made_secret);
    audit::record(&mut tx, caller, change).await?;
    tx.commit().await?;
    Ok(outcome)
}
