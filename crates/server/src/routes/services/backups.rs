//! A database's backups (`/database/{id}/backup`): listed newest first with the status of their
//! taking, taken by the engine on request (`engine::backup`) while the database runs, deleted
//! once taken.

use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::Json;
use chrono::Utc;
use platform_api::audit::EventType;
use platform_api::paths;
use platform_api::{
    ActionStatus, Backup, BackupPage, BackupRequest, Databases, DeploymentStatus, ServiceState,
    Status, StatusAction, StatusDetails, Step, StepName, StepStatus, Steps, SubAction,
};
use serde::Deserialize;
use uuid::Uuid;

use crate::audit::{self, Change, Target};
use crate::caller::{Caller, Permission};
use crate::db;
use crate::engine;
use crate::error::{ApiError, ApiJson, ApiPath, ApiQuery, ApiResult};
use crate::routes::services::records::find;
use crate::routes::{Doc, RouteTable};
use crate::state::AppState;
use crate::store::backups::{self as store, Row, PAGE_SIZE};

pub fn register(routes: &mut RouteTable) {
    routes
        .add(
            Method::GET,
            paths::DATABASE_BACKUPS,
            Permission::Read,
            Doc::new(format!(
                "A database's backups, newest first, {PAGE_SIZE} a page (`startId`: the page \
                 after that backup)"
            ))
            .answers::<BackupPage>(StatusCode::OK),
            list,
        )
        .add(
            Method::POST,
            paths::DATABASE_BACKUPS,
            Permission::Write,
            Doc::new(
                "Take a backup of a running database (the engine's dump is simulated: it takes \
                 its time and copies nothing); refused while another is being taken",
            )
            .body::<BackupRequest>()
            .answers::<Backup>(StatusCode::CREATED),
            create,
        )
        .add(
            Method::DELETE,
            paths::DATABASE_BACKUP,
            Permission::Write,
            Doc::new("Delete a backup that is no longer being taken")
                .answers_nothing(StatusCode::NO_CONTENT),
            delete,
        );
}

/// A backup as answered: its taking as a status, with its one step once it has started.
fn answer(row: Row) -> Backup {
    let (status, step) = match row.state {
        ServiceState::Queued => (ActionStatus::Queued, None),
        ServiceState::Executing => (ActionStatus::Ongoing, None),
        ServiceState::Ready => (ActionStatus::Success, Some(StepStatus::Success)),
        _ => (ActionStatus::Error, Some(StepStatus::Error)),
    };
    let seconds = match (row.started_at, row.finished_at) {
        (Some(started), Some(finished)) => (finished - started).num_seconds(),
        _ => 0,
    };
    let steps = step.map(|status| Steps {
        total_duration_sec: seconds,
        total_computing_duration_sec: seconds,
        details: vec![Step {
            step_name: StepName::Executing,
            status,
            duration_sec: seconds,
        }],
    });
    Backup {
        id: row.id,
        created_at: row.created_at,
        updated_at: row.updated_at,
        name: row.name,
        // Why it failed, when it did, follows what it was taken for.
        message: match row.failure {
            Some(failure) => format!("{} — {failure}", row.message),
            None => row.message,
        },
        status: Some(Status {
            id: row.id,
            state: row.state,
            service_deployment_status: DeploymentStatus::UpToDate,
            is_part_last_deployment: false,
            status_details: StatusDetails {
                action: StatusAction::Deploy,
                status,
                sub_action: SubAction::None,
            },
            deployment_request_id: None,
            deployment_requests_count: 0,
            last_deployment_date: row.finished_at,
            steps,
            execution_id: Some(row.id.simple().to_string()),
        }),
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Page {
    start_id: Option<Uuid>,
}

async fn list(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(database_id): ApiPath<Uuid>,
    ApiQuery(page): ApiQuery<Page>,
) -> ApiResult<Json<BackupPage>> {
    find::<Databases>(&state, &caller, database_id).await?;
    let rows = store::of_database(&state.db, database_id, page.start_id).await?;
    Ok(Json(BackupPage {
        page: 1,
        page_size: PAGE_SIZE,
        results: rows.into_iter().map(answer).collect(),
    }))
}

async fn create(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(database_id): ApiPath<Uuid>,
    ApiJson(request): ApiJson<BackupRequest>,
) -> ApiResult<(StatusCode, Json<Backup>)> {
    find::<Databases>(&state, &caller, database_id).await?;
    request.validate().map_err(ApiError::invalid)?;
    let mut tx = db::begin_write(&state.writes).await?;
    let status = engine::status::of_service(&mut tx, database_id).await?;
    if !status.runs() || status.state.is_in_progress() {
        return Err(ApiError::unanswerable(
            "DATABASE_NOT_RUNNING",
            "This database is not running: a backup copies the data of a deployed database. \
             Deploy it, and take the backup once the deployment has ended.",
        ));
    }
    if store::one_unfinished(&mut tx, database_id).await? {
        return Err(ApiError::conflict(
            "A backup of this database is being taken: take the next one once it has ended.",
        ));
    }
    let row = Row {
        id: Uuid::new_v4(),
        database_id,
        name: request.name.trim().to_string(),
        message: request.message.trim().to_string(),
        state: ServiceState::Queued,
        failure: None,
        created_at: Utc::now(),
        updated_at: None,
        started_at: None,
        finished_at: None,
    };
    store::insert(&mut tx, &row).await?;
    let backup = answer(row);
    // The data leaves the database into the backup.
    let target = Target::service(&mut tx, database_id).await?;
    let change = Change::new(EventType::Export, target).after(&backup);
    audit::record(&mut tx, &caller, change).await?;
    tx.commit().await?;
    state.engine.start_backup(backup.id);
    Ok((StatusCode::CREATED, Json(backup)))
}

async fn delete(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath((database_id, backup_id)): ApiPath<(Uuid, Uuid)>,
) -> ApiResult<StatusCode> {
    find::<Databases>(&state, &caller, database_id).await?;
    let mut tx = db::begin_write(&state.writes).await?;
    let row = store::find(&mut *tx, backup_id)
        .await?
        .filter(|row| row.database_id == database_id)
        .ok_or_else(|| ApiError::not_found("backup"))?;
    if row.finished_at.is_none() {
        return Err(ApiError::conflict(
            "This backup is being taken: delete it once it has ended.",
        ));
    }
    store::delete(&mut tx, backup_id).await?;
    let target = Target::service(&mut tx, database_id).await?;
    let change = Change::new(EventType::Delete, target).before(&answer(row));
    audit::record(&mut tx, &caller, change).await?;
    tx.commit().await?;
    Ok(StatusCode::NO_CONTENT)
}
