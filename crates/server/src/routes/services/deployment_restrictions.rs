//! Auto-deploy of the kinds built from git (applications, jobs, helm services, terraform
//! services): their deployment restrictions (`/{kind}/{id}/deploymentRestriction`), which decide
//! whether a push deploys them (`crate::auto_deploy`), and, ours, what the watch of the branch
//! saw (`autoDeploy`) and the branch's latest commits with the paths each changed
//! (`commitChanges`), from which the console previews which pushes restrictions let through.

use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::Json;
use chrono::Utc;
use platform_api::audit::{EventType, SubTargetType};
use platform_api::{
    Applications, AutoDeployWatch, CommitChanges, DeploymentRestriction,
    DeploymentRestrictionRequest, HelmServices, Jobs, List, TerraformServices,
};
use uuid::Uuid;

use crate::audit::{self, Change, Target};
use crate::auto_deploy;
use crate::caller::{Caller, Permission};
use crate::db;
use crate::error::{ApiError, ApiJson, ApiPath, ApiResult};
use crate::git;
use crate::routes::services::actions::git_repository_of;
use crate::routes::services::records::find;
use crate::routes::services::resource::ServiceResource;
use crate::routes::{Doc, RouteTable};
use crate::state::AppState;
use crate::store::auto_deploy as store;

/// How many of the branch's commits `commitChanges` lists.
const PREVIEWED_COMMITS: usize = 20;

pub fn register(routes: &mut RouteTable) {
    kind::<Applications>(routes, "application_restriction_id");
    kind::<Jobs>(routes, "job_restriction_id");
    kind::<HelmServices>(routes, "helm_restriction_id");
    kind::<TerraformServices>(routes, "terraform_restriction_id");
}

/// The routes of `R`'s restrictions, one addressed by the path parameter `parameter`.
fn kind<R: ServiceResource>(routes: &mut RouteTable, parameter: &str) {
    let service = R::TYPE.item_template();
    let collection = format!("{service}/deploymentRestriction");
    let item = format!("{collection}/{{{parameter}}}");
    let what = R::WHAT;
    routes
        .add(
            Method::GET,
            collection.clone(),
            Permission::Read,
            Doc::new(format!(
                "The deployment restrictions of a {what}: which changed paths a push must have \
                 to deploy it"
            ))
            .answers_list_of::<DeploymentRestriction>(StatusCode::OK),
            list::<R>,
        )
        .add(
            Method::POST,
            collection,
            Permission::Write,
            Doc::new(format!(
                "Add a deployment restriction to a {what}: MATCH deploys only when a changed \
                 path is under the value; EXCLUDE does not count the changed paths under it"
            ))
            .body::<DeploymentRestrictionRequest>()
            .answers::<DeploymentRestriction>(StatusCode::CREATED),
            create::<R>,
        )
        .add(
            Method::PUT,
            item.clone(),
            Permission::Write,
            Doc::new(format!("Change a deployment restriction of a {what}"))
                .body::<DeploymentRestrictionRequest>()
                .answers::<DeploymentRestriction>(StatusCode::OK),
            update::<R>,
        )
        .add(
            Method::DELETE,
            item,
            Permission::Write,
            Doc::new(format!("Delete a deployment restriction of a {what}"))
                .answers_nothing(StatusCode::NO_CONTENT),
            delete::<R>,
        )
        .add(
            Method::GET,
            format!("{service}/autoDeploy"),
            Permission::Read,
            Doc::new(format!(
                "Ours: whether a push to the branch of a {what} deploys it now, the branch's tip \
                 as last read, and the pushes acted on (deployed, or skipped and why)"
            ))
            .answers::<AutoDeployWatch>(StatusCode::OK),
            watch::<R>,
        )
        .add(
            Method::GET,
            format!("{service}/commitChanges"),
            Permission::Read,
            Doc::new(format!(
                "Ours: the latest commits of the branch of a {what}, each with the paths it \
                 changed, to preview which pushes its restrictions let through"
            ))
            .answers_list_of::<CommitChanges>(StatusCode::OK),
            commit_changes::<R>,
        );
}

async fn list<R: ServiceResource>(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(service_id): ApiPath<Uuid>,
) -> ApiResult<Json<List<DeploymentRestriction>>> {
    find::<R>(&state, &caller, service_id).await?;
    Ok(Json(List::new(
        store::restrictions(&state.db, service_id).await?,
    )))
}

async fn create<R: ServiceResource>(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(service_id): ApiPath<Uuid>,
    ApiJson(rule): ApiJson<DeploymentRestrictionRequest>,
) -> ApiResult<(StatusCode, Json<DeploymentRestriction>)> {
    find::<R>(&state, &caller, service_id).await?;
    rule.validate().map_err(ApiError::invalid)?;
    let created = DeploymentRestriction {
        id: Uuid::new_v4(),
        created_at: Utc::now(),
        updated_at: None,
        rule,
    };
    let mut tx = db::begin_write(&state.writes).await?;
    store::save_restriction(&mut tx, service_id, &created).await?;
    let change = (None, Some(&created));
    changed(&mut tx, &caller, service_id, EventType::Create, change).await?;
    tx.commit().await?;
    Ok((StatusCode::CREATED, Json(created)))
}

async fn update<R: ServiceResource>(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath((service_id, id)): ApiPath<(Uuid, Uuid)>,
    ApiJson(rule): ApiJson<DeploymentRestrictionRequest>,
) -> ApiResult<Json<DeploymentRestriction>> {
    find::<R>(&state, &caller, service_id).await?;
    rule.validate().map_err(ApiError::invalid)?;
    let mut tx = db::begin_write(&state.writes).await?;
    let previous = store::restriction(&mut *tx, service_id, id).await?;
    let updated = DeploymentRestriction {
        rule,
        updated_at: Some(Utc::now()),
        ..previous.clone()
    };
    store::save_restriction(&mut tx, service_id, &updated).await?;
    let change = (Some(&previous), Some(&updated));
    changed(&mut tx, &caller, service_id, EventType::Update, change).await?;
    tx.commit().await?;
    Ok(Json(updated))
}

async fn delete<R: ServiceResource>(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath((service_id, id)): ApiPath<(Uuid, Uuid)>,
) -> ApiResult<StatusCode> {
    find::<R>(&state, &caller, service_id).await?;
    let mut tx = db::begin_write(&state.writes).await?;
    let previous = store::restriction(&mut *tx, service_id, id).await?;
    store::delete_restriction(&mut tx, id).await?;
    let change = (Some(&previous), None);
    changed(&mut tx, &caller, service_id, EventType::Delete, change).await?;
    tx.commit().await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The audit entry of a change to a service's restrictions: a rule of its deployments.
async fn changed(
    tx: &mut sqlx::Transaction<'_, sqlx::Sqlite>,
    caller: &Caller,
    service_id: Uuid,
    event_type: EventType,
    states: (
        Option<&DeploymentRestriction>,
        Option<&DeploymentRestriction>,
    ),
) -> ApiResult<()> {
    let target = Target::service(tx, service_id).await?;
    let change = Change::new(event_type, target)
        .of(SubTargetType::DeploymentRule)
        .between(states);
    audit::record(tx, caller, change).await
}

async fn watch<R: ServiceResource>(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(service_id): ApiPath<Uuid>,
) -> ApiResult<Json<AutoDeployWatch>> {
    find::<R>(&state, &caller, service_id).await?;
    Ok(Json(
        auto_deploy::watch_of(&state.engine, &state.db, service_id).await?,
    ))
}

async fn commit_changes<R: ServiceResource>(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(service_id): ApiPath<Uuid>,
) -> ApiResult<Json<List<CommitChanges>>> {
    let (record, _) = find::<R>(&state, &caller, service_id).await?;
    let repository = git_repository_of::<R>(&record)?;
    let read = state.engine.repositories.local(&repository.url)?;
    let commits = git::read(move || {
        git::commits_with_changes(&read, repository.branch.as_deref(), PREVIEWED_COMMITS)
    })
    .await?;
    Ok(Json(List::new(commits)))
}
