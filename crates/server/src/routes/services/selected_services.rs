//! Several services of an environment at once, in the production document's environment actions
//! on selected services: deploy, restart, stop, uninstall, delete. Every service named is checked
//! first (it is the environment's and of the kind its list says, nothing runs on it, the action
//! applies to it, its deploy keeps the rules); nothing starts unless every one passes, and a
//! refusal names each service that failed and why.

use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::Json;
use platform_api::audit::EventType;
use platform_api::paths;
use platform_api::{
    validate_selection, DeployAllRequest, DeployRequest, EnvironmentState, EnvironmentStatuses,
    Selected, ServiceIds, ServiceType, Status, StatusAction, WireEnum,
};
use uuid::Uuid;

use crate::audit::{self, Change, Target};
use crate::caller::{Caller, Permission};
use crate::db;
use crate::engine::{self, status};
use crate::error::{ApiError, ApiJson, ApiPath, ApiResult};
use crate::routes::environments::{find_environment, one_status};
use crate::routes::services::actions::{prepare_deploy, PreparedDeploy};
use crate::routes::{Doc, RouteTable};
use crate::state::AppState;
use crate::store;
use crate::store::action::{Action, Request};
use platform_api::Applications;
use platform_api::Containers;
use platform_api::Databases;
use platform_api::HelmServices;
use platform_api::Jobs;
use platform_api::TerraformServices;

pub fn register(routes: &mut RouteTable) {
    routes.add(
        Method::POST,
        paths::SELECTED_DEPLOY,
        Permission::Deploy,
        Doc::new("Deploy the services named, each as its kind's deploy would; none unless all can")
            .body::<DeployAllRequest>()
            .answers::<EnvironmentState>(StatusCode::ACCEPTED),
        deploy_selected,
    );
    routes.add(
        Method::POST,
        "/environment/{environment_id}/service/restart-service",
        Permission::Deploy,
        Doc::new("Restart the services named; none unless all run")
            .body::<ServiceIds>()
            .answers::<Status>(StatusCode::ACCEPTED),
        restart_selected,
    );
    routes.add(
        Method::POST,
        "/environment/{environment_id}/service/stop",
        Permission::Deploy,
        Doc::new("Stop the services named; none unless all run")
            .body::<ServiceIds>()
            .answers_nothing(StatusCode::OK),
        stop_selected,
    );
    routes.add(
        Method::POST,
        "/environment/{environment_id}/service/uninstall",
        Permission::Deploy,
        Doc::new("Delete the compute and data of the services named, keeping their configuration; none unless all can")
            .body::<ServiceIds>()
            .answers_nothing(StatusCode::OK),
        uninstall_selected,
    );
    routes.add(
        Method::POST,
        "/environment/{environment_id}/service/delete",
        Permission::Admin,
        Doc::new("Delete the services named with their variables and history; none unless nothing runs on any")
            .body::<ServiceIds>()
            .answers_nothing(StatusCode::OK),
        delete_selected,
    );
}

/// A service named, and its name.
struct Found {
    selected: Selected,
    name: String,
}

/// The services named, each the environment's and of the kind its list says (400 naming each
/// that is not), with their statuses; each refused by `refusal` makes a 409 naming it.
async fn find_selected(
    state: &AppState,
    caller: &Caller,
    environment_id: Uuid,
    selected: Vec<Selected>,
    refusal: impl Fn(&Status) -> ApiResult<()>,
) -> ApiResult<Vec<Found>> {
    find_environment(state, caller, environment_id).await?;
    validate_selection(&selected).map_err(ApiError::invalid)?;
    let statuses = status::of_environment(&mut *state.db.acquire().await?, environment_id).await?;
    let names: std::collections::HashMap<Uuid, String> =
        store::services::of_every_kind(&state.db, environment_id)
            .await?
            .into_iter()
            .map(|service| (service.id, service.name))
            .collect();
    let mut found = Vec::new();
    let mut errors = Vec::new();
    for selected in selected {
        let status = statuses
            .all()
            .find(|status| status.id == selected.id)
            .filter(|_| statuses.kind_of(selected.id) == Some(selected.kind));
        let (Some(status), Some(name)) = (status, names.get(&selected.id)) else {
            errors.push(ApiError::invalid(vec![platform_api::FieldError::new(
                &selected.field,
                format!(
                    "is not a service of this environment of the kind {}",
                    selected.kind.label().to_lowercase()
                ),
            )]));
            continue;
        };
        let refused = if status.state.is_in_progress() {
            Err(ApiError::conflict("an action is already running on it"))
        } else {
            refusal(status)
        };
        match refused {
            Ok(()) => found.push(Found {
                selected,
                name: name.clone(),
            }),
            Err(error) => errors.push(error.within(&selected.field, name)),
        }
    }
    if errors.is_empty() {
        Ok(found)
    } else {
        Err(ApiError::of_selection(errors))
    }
}

async fn restart_selected(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(environment_id): ApiPath<Uuid>,
    ApiJson(ids): ApiJson<ServiceIds>,
) -> ApiResult<(StatusCode, Json<Status>)> {
    let (statuses, started) =
        act_on_selected(&state, &caller, environment_id, ids, Action::Restart).await?;
    Ok((
        StatusCode::ACCEPTED,
        Json(one_status(&statuses, StatusAction::Restart, started)),
    ))
}

async fn stop_selected(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(environment_id): ApiPath<Uuid>,
    ApiJson(ids): ApiJson<ServiceIds>,
) -> ApiResult<StatusCode> {
    act_on_selected(&state, &caller, environment_id, ids, Action::Stop).await?;
    Ok(StatusCode::OK)
}

async fn uninstall_selected(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(environment_id): ApiPath<Uuid>,
    ApiJson(ids): ApiJson<ServiceIds>,
) -> ApiResult<StatusCode> {
    act_on_selected(&state, &caller, environment_id, ids, Action::Uninstall).await?;
    Ok(StatusCode::OK)
}

/// Restarts, stops or uninstalls the services named: the environment's statuses after, and how
/// many started.
async fn act_on_selected(
    state: &AppState,
    caller: &Caller,
    environment_id: Uuid,
    ids: ServiceIds,
    action: Action,
) -> ApiResult<(EnvironmentStatuses, i64)> {
    let found = find_selected(state, caller, environment_id, ids.each(), |status| {
        engine::admission::precondition(action, status)
    })
    .await?;
    let started = found.len() as i64;
    let execution = Uuid::new_v4().simple().to_string();
    let mut tx = state.engine.begin().await?;
    let mut queued = Vec::new();
    for service in found {
        let action = state
            .engine
            .queue(
                &mut tx,
                Request::from(action).within(&execution),
                service.selected.id,
                caller.into(),
            )
            .await
            .map_err(|error| error.within(&service.selected.field, &service.name))?;
        queued.push(action.deployment_id);
    }
    let target = Target::environment(&mut tx, environment_id).await?;
    let change = Change::new(action.event_type(), target).after(&ids);
    audit::record(&mut tx, caller, change).await?;
    tx.commit().await?;
    for deployment_id in queued {
        state.engine.start(deployment_id);
    }
    let statuses = status::of_environment(&mut *state.db.acquire().await?, environment_id).await?;
    Ok((statuses, started))
}

async fn deploy_selected(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(environment_id): ApiPath<Uuid>,
    ApiJson(request): ApiJson<DeployAllRequest>,
) -> ApiResult<(StatusCode, Json<EnvironmentState>)> {
    let asked = serde_json::to_value(&request).map_err(ApiError::internal)?;
    let each = request.each();
    let (selected, deploys): (Vec<Selected>, Vec<DeployRequest>) = each.into_iter().unzip();
    let found = find_selected(&state, &caller, environment_id, selected, |_| Ok(())).await?;
    // Every deploy checked before any starts.
    let mut prepared = Vec::new();
    let mut errors = Vec::new();
    for (service, deploy) in found.iter().zip(deploys) {
        match prepare(
            &state,
            &caller,
            service.selected.kind,
            service.selected.id,
            deploy,
        )
        .await
        {
            Ok(ready) => prepared.push(ready),
            Err(error) => errors.push(error.within(&service.selected.field, &service.name)),
        }
    }
    if !errors.is_empty() {
        return Err(ApiError::of_selection(errors));
    }
    let execution = Uuid::new_v4().simple().to_string();
    let mut tx = state.engine.begin().await?;
    let mut queued = Vec::new();
    for (ready, service) in prepared.into_iter().zip(&found) {
        let action = ready
            .queue(&state, &mut tx, &caller, Some(&execution))
            .await
            .map_err(|error| error.within(&service.selected.field, &service.name))?;
        queued.push(action.deployment_id);
    }
    let target = Target::environment(&mut tx, environment_id).await?;
    let change = Change::new(EventType::TriggerDeploy, target).after(&asked);
    audit::record(&mut tx, &caller, change).await?;
    tx.commit().await?;
    for deployment_id in queued {
        state.engine.start(deployment_id);
    }
    let statuses = status::of_environment(&mut *state.db.acquire().await?, environment_id).await?;
    Ok((StatusCode::ACCEPTED, Json(statuses.environment)))
}

/// The deploy of a service of `kind`, checked as its kind's own route checks it.
async fn prepare(
    state: &AppState,
    caller: &Caller,
    kind: ServiceType,
    id: Uuid,
    deploy: DeployRequest,
) -> ApiResult<PreparedDeploy> {
    match kind {
        ServiceType::Application => prepare_deploy::<Applications>(state, caller, id, deploy).await,
        ServiceType::Container => prepare_deploy::<Containers>(state, caller, id, deploy).await,
        ServiceType::Database => prepare_deploy::<Databases>(state, caller, id, deploy).await,
        ServiceType::Job => prepare_deploy::<Jobs>(state, caller, id, deploy).await,
        ServiceType::Helm => prepare_deploy::<HelmServices>(state, caller, id, deploy).await,
        ServiceType::Terraform => {
            prepare_deploy::<TerraformServices>(state, caller, id, deploy).await
        }
        // Requests read kinds strictly: none is unknown.
        ServiceType::Other(_) => Err(ApiError::not_found("service")),
    }
}

/// Deletes the services named in one transaction, unless an action runs on one of them.
async fn delete_selected(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(environment_id): ApiPath<Uuid>,
    ApiJson(ids): ApiJson<ServiceIds>,
) -> ApiResult<StatusCode> {
    let found = find_selected(&state, &caller, environment_id, ids.each(), |_| Ok(())).await?;
    let mut tx = db::begin_write(&state.writes).await?;
    let target = Target::environment(&mut tx, environment_id).await?;
    for service in &found {
        // Checked again inside the transaction: an action requested since would be cut off.
        let deleted =
            crate::store::scope::delete_service_unless_busy(&mut tx, service.selected.id).await?;
        if !deleted {
            return Err(ApiError::conflict("an action is already running on it")
                .within(&service.selected.field, &service.name));
        }
    }
    let change = Change::new(EventType::Delete, target).after(&ids);
    audit::record(&mut tx, &caller, change).await?;
    tx.commit().await?;
    Ok(StatusCode::OK)
}
