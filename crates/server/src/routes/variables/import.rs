//! Importing many variables and secrets at once, all or none.

use platform_api::audit::EventType;
use platform_api::{
    FieldError, ImportOutcome, VariableImport, VariableImportRequest, VariableScope, VariableType,
};
use uuid::Uuid;

use crate::audit::{self};
use crate::caller::Caller;
use crate::db;
use crate::error::{ApiError, ApiResult};
use crate::state::AppState;
use crate::store::scope::Scope;

use crate::routes::variables::edit::{change_of, check_room};
use crate::routes::variables::parent::Parent;
use crate::store::variables::{self as store, NewVariable};

/// Imports variables in one transaction: each defined at the scope it names (this parent's, or
/// its environment's or project's), a name already defined there replaced when `overwrite` says
/// so (and it is a plain variable or secret of the same kind), left alone otherwise. Any broken
/// rule, named by its place, and nothing is written.
pub(super) async fn all(
    state: &AppState,
    caller: &Caller,
    parent: &Parent,
    request: VariableImportRequest,
) -> ApiResult<VariableImport> {
    request.validate().map_err(ApiError::invalid)?;
    let target = |scope: VariableScope| match scope {
        VariableScope::Project => Some(parent.project_id),
        VariableScope::Environment => parent.environment_id,
        own if own == parent.scope => Some(parent.id),
        _ => None,
    };
    let mut problems = Vec::new();
    let mut imported = Vec::new();
    let mut tx = db::begin_write(&state.writes).await?;
    for (at, variable) in request.vars.iter().enumerate() {
        let Some(parent_id) = target(variable.scope) else {
            problems.push(FieldError::new(
                format!("vars[{at}].scope"),
                format!("must be {} or a scope above it", parent.scope.as_str()),
            ));
            continue;
        };
        let existing =
            store::defined_as(&mut tx, (variable.scope, parent_id), &variable.name).await?;
        let plain = (!variable.is_secret).then(|| variable.value.clone());
        match existing {
            None => {
                let new = NewVariable {
                    key: variable.name.clone(),
                    value: plain,
                    secret_value: variable.is_secret.then(|| variable.value.clone()),
                    is_secret: variable.is_secret,
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
                    (variable.scope, parent_id),
                    &new,
                )
                .await?;
            }
            Some(_) if !request.overwrite => continue,
            Some(existing)
                if existing.is_secret == variable.is_secret
                    && existing.variable_type == VariableType::Value =>
            {
                let sealed = variable
                    .is_secret
                    .then(|| state.sealer.seal(&variable.value));
                store::set_values(&mut tx, existing.id, plain.as_deref(), sealed).await?;
            }
            Some(existing) => {
                problems.push(FieldError::new(
                    format!("vars[{at}].name"),
                    if existing.is_secret != variable.is_secret {
                        "is defined there as a secret or not, the other way: delete it first"
                    } else {
                        "is defined there as a file, an alias or an override: not replaced"
                    },
                ));
                continue;
            }
        }
        imported.push(ImportOutcome {
            name: variable.name.clone(),
            value: (!variable.is_secret).then(|| variable.value.clone()),
            scope: variable.scope,
            is_secret: variable.is_secret,
        });
    }
    if !problems.is_empty() {
        // Nothing of it is kept: the transaction is dropped.
        return Err(ApiError::invalid(problems));
    }
    let mut parents: Vec<Uuid> = request
        .vars
        .iter()
        .filter_map(|variable| target(variable.scope))
        .collect();
    parents.sort();
    parents.dedup();
    check_room(&mut tx, &parents, "vars").await?;
    let widest = request
        .vars
        .iter()
        .map(|variable| match variable.scope {
            VariableScope::Project => Scope::Project(parent.project_id),
            VariableScope::Environment => {
                Scope::Environment(parent.environment_id.unwrap_or(parent.id))
            }
            _ => parent.scope_of_changes(),
        })
        .min_by_key(|scope| match scope {
            Scope::Project(_) => 0,
            Scope::Environment(_) => 1,
            Scope::Service(_) => 2,
        });
    if let Some(scope) = widest {
        crate::store::scope::mark_scope_out_of_date(&mut tx, scope).await?;
    }
    let import = VariableImport {
        total_variables_to_import: request.vars.len() as i64,
        successful_imported_variables: imported,
    };
    // An import that changed nothing (empty, or every name kept) is no change to record.
    if !import.successful_imported_variables.is_empty() {
        let secrets = request.vars.iter().filter(|v| v.is_secret);
        let change = change_of(&mut tx, EventType::Import, parent, false)
            .await?
            .after(&import)
            .secrets(secrets.map(|variable| variable.name.clone()));
        audit::record(&mut tx, caller, change).await?;
    }
    tx.commit().await?;
    Ok(import)
}
