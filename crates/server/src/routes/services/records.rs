//! A service's record: list, create, read, update, delete, and its status.

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use axum::Json;
use platform_api::audit::EventType;
use platform_api::{Environment, GitSource, GitSourceRequest, Status};
use serde_json::Value;
use sqlx::{SqliteConnection, SqlitePool};
use uuid::Uuid;

use crate::audit::{self, Change, Target};
use crate::caller::Caller;
use crate::db;
use crate::engine::status;
use crate::error::{from_json, ApiError, ApiJson, ApiPath, ApiResult};
use crate::fresh::Read;
use crate::raw_json::{self, Asked, StoredList};
use crate::routes::environments::{find_environment, read_environment};
use crate::routes::organization::git_tokens;
use crate::routes::organization::resources::ensure_exists;
use crate::state::AppState;
use crate::store::scope::Scope;

use crate::routes::services::resource::ServiceResource;
use crate::store::services as store;

pub(super) async fn list<R: ServiceResource>(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(environment_id): ApiPath<Uuid>,
    asked: Asked,
) -> ApiResult<Response> {
    find_environment(&state, &caller, environment_id).await?;
    raw_json::kept(
        &state.kept.service_lists,
        (environment_id, Some(R::TYPE)),
        asked,
        async {
            let records = stored::<R>(&state.db, environment_id).await?;
            Ok(Read {
                value: StoredList(records.into_iter().map(|named| named.record).collect())
                    .into_bytes(),
                keep: true,
            })
        },
    )
    .await
}

/// The environment's services of kind `R` as read, by name: each id, name and record (JSON).
pub async fn stored<R: ServiceResource>(
    db: &SqlitePool,
    environment_id: Uuid,
) -> ApiResult<Vec<store::Named>> {
    store::in_environment(db, environment_id, R::TYPE, R::NAMES).await
}

pub(super) async fn create<R: ServiceResource>(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(environment_id): ApiPath<Uuid>,
    ApiJson(request): ApiJson<R::Request>,
) -> ApiResult<(StatusCode, Json<R::Record>)> {
    let environment = find_environment(&state, &caller, environment_id).await?;
    let request = check::<R>(&mut *state.db.acquire().await?, &environment, request, &[]).await?;
    let secrets: Vec<String> = R::secrets(&request).into_keys().collect();
    let mut tx = db::begin_write(&state.writes).await?;
    let id = insert::<R>(
        &mut tx,
        &state,
        environment.organization.id,
        environment_id,
        request,
    )
    .await?;
    // Answered as a read answers it (with what the record names filled in).
    let (created, _) = find_in::<R>(&mut tx, &caller, id).await?;
    let target = Target::service(&mut tx, id).await?;
    let change = Change::new(EventType::Create, target)
        .after(&created)
        .secrets(secrets);
    audit::record(&mut tx, &caller, change).await?;
    tx.commit().await?;
    Ok((StatusCode::CREATED, Json(created)))
}

pub(super) async fn read<R: ServiceResource>(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<Uuid>,
) -> ApiResult<Json<R::Record>> {
    Ok(Json(find::<R>(&state, &caller, id).await?.0))
}

pub(super) async fn update<R: ServiceResource>(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<Uuid>,
    ApiJson(body): ApiJson<Value>,
) -> ApiResult<Json<R::Record>> {
    let (previous, environment_id) = find::<R>(&state, &caller, id).await?;
    let request: R::Request = from_json(R::completed_update(&previous, body))?;
    let mut tx = db::begin_write(&state.writes).await?;
    let mut secrets = store::secrets(&mut tx, id).await?;
    let kept: Vec<&str> = secrets.keys().map(String::as_str).collect();
    let environment = read_environment(&mut tx, &caller, environment_id).await?;
    let request = check::<R>(&mut tx, &environment, request, &kept).await?;
    R::validate_change(&previous, &request).map_err(ApiError::invalid)?;
    let given = R::secrets(&request);
    let mut changed_secrets: Vec<String> = given.keys().cloned().collect();
    secrets.extend(state.sealer.seal_all(given));
    let mut record = R::build(id, environment_id, request, Some(&previous));
    // What was deployed stays known across a change of configuration.
    if let (Some(deployed), Some(repository)) =
        (previous.git_repository(), record.git_repository_mut())
    {
        repository.deployed_commit_id = deployed.deployed_commit_id.clone();
        repository.deployed_commit_date = deployed.deployed_commit_date;
    }
    let declared = R::secret_names(&record);
    changed_secrets.extend(
        secrets
            .keys()
            .filter(|name| !declared.contains(name))
            .cloned(),
    );
    secrets.retain(|name, _| declared.contains(name));
    let row = store::Row {
        id,
        name: R::name(&record),
        record: serde_json::to_string(&record).map_err(ApiError::internal)?,
        secrets: &secrets,
    };
    store::update(&mut tx, row).await?;
    crate::store::scope::mark_scope_out_of_date(&mut tx, Scope::Service(id)).await?;
    let (updated, _) = find_in::<R>(&mut tx, &caller, id).await?;
    let target = Target::service(&mut tx, id).await?;
    let change = Change::new(EventType::Update, target)
        .before(&previous)
        .after(&updated)
        .secrets(changed_secrets);
    audit::record(&mut tx, &caller, change).await?;
    tx.commit().await?;
    Ok(Json(updated))
}

pub(super) async fn delete<R: ServiceResource>(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<Uuid>,
) -> ApiResult<StatusCode> {
    let (before, _) = find::<R>(&state, &caller, id).await?;
    let mut tx = db::begin_write(&state.writes).await?;
    let target = Target::service(&mut tx, id).await?;
    crate::store::scope::delete_when_idle(&mut tx, Scope::Service(id)).await?;
    let change = Change::new(EventType::Delete, target).before(&before);
    audit::record(&mut tx, &caller, change).await?;
    tx.commit().await?;
    Ok(StatusCode::NO_CONTENT)
}

pub(super) async fn get_status<R: ServiceResource>(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<Uuid>,
) -> ApiResult<Json<Status>> {
    find::<R>(&state, &caller, id).await?;
    Ok(Json(
        status::of_service(&mut *state.db.acquire().await?, id).await?,
    ))
}

/// The rules of the request, then the records it names; the request as placed on the
/// environment's cluster.
async fn check<R: ServiceResource>(
    conn: &mut SqliteConnection,
    environment: &Environment,
    request: R::Request,
    kept: &[&str],
) -> ApiResult<R::Request> {
    let organization_id = environment.organization.id;
    R::validate(&request, kept).map_err(ApiError::invalid)?;
    let request = R::placed(request, environment).map_err(ApiError::invalid)?;
    for (field, kind, id) in R::references(&request) {
        ensure_exists(&mut *conn, kind, organization_id, id, &field).await?;
    }
    if let Some(repository) = request.git_repository() {
        git_tokens::check_choice(conn, organization_id, repository).await?;
    }
    Ok(request)
}

/// The caller's service of kind `R` with this id, and its environment; 404 otherwise.
pub async fn find<R: ServiceResource>(
    state: &AppState,
    caller: &Caller,
    id: Uuid,
) -> ApiResult<(R::Record, Uuid)> {
    find_in::<R>(&mut *state.db.acquire().await?, caller, id).await
}

/// `find`, as `conn` sees the service.
pub(crate) async fn find_in<R: ServiceResource>(
    conn: &mut SqliteConnection,
    caller: &Caller,
    id: Uuid,
) -> ApiResult<(R::Record, Uuid)> {
    let found = store::find(conn, caller.organization_id, R::TYPE, R::NAMES, id)
        .await?
        .ok_or_else(|| ApiError::not_found(R::WHAT))?;
    Ok((
        serde_json::from_str(&found.record).map_err(ApiError::internal)?,
        found.environment_id,
    ))
}

/// Stores a new service of kind `R` in `conn`, READY and NEVER_DEPLOYED; its id. The request
/// must have been checked.
pub async fn insert<R: ServiceResource>(
    conn: &mut SqliteConnection,
    state: &AppState,
    organization_id: Uuid,
    environment_id: Uuid,
    request: R::Request,
) -> ApiResult<Uuid> {
    let id = Uuid::new_v4();
    let secrets = state.sealer.seal_all(R::secrets(&request));
    let record = R::build(id, environment_id, request, None);
    let row = store::Row {
        id,
        name: R::name(&record),
        record: serde_json::to_string(&record).map_err(ApiError::internal)?,
        secrets: &secrets,
    };
    store::insert(&mut *conn, organization_id, environment_id, R::TYPE, row).await?;
    crate::store::scope::insert_initial_status(conn, id).await?;
    Ok(id)
}
