//! Organization-level resources that share one shape: listed, created, read, updated and deleted
//! under `/organization/{organization_id}/...`, stored as a record plus secrets kept apart. Each
//! kind says its paths, types, rules and secrets by implementing `OrganizationResource`.

use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::Json;
use chrono::{DateTime, Utc};
use platform_api::audit::{EventType, SubTargetType, TargetType};
use platform_api::paths::Template;
use platform_api::{FieldError, List};
use serde::de::DeserializeOwned;
use serde::Serialize;
use sqlx::SqliteConnection;
use utoipa::ToSchema;
use uuid::Uuid;

use crate::audit::{self, Change, Target};
use crate::caller::{Caller, Permission};
use crate::db;
use crate::error::{ApiError, ApiJson, ApiPath, ApiResult};
use crate::routes::own_organization;
use crate::routes::{Doc, RouteTable};
use crate::seal::Secrets;
use crate::state::AppState;
use crate::store::organization_resources::{self as store, Entry, Kind, UsedBy};

pub trait OrganizationResource: Send + Sync + 'static {
    const KIND: Kind;
    /// `/organization/{organization_id}/...`
    const COLLECTION: Template;
    /// `/organization/{organization_id}/.../{..._id}`
    const ITEM: Template;
    /// Permission to read; writing needs at least WRITE, deleting ADMIN.
    const READ: Permission = Permission::Read;
    const WRITE: Permission = Permission::Write;

    type Request: DeserializeOwned + ToSchema + Send + Sync + 'static;
    type Record: Serialize + DeserializeOwned + ToSchema + Send + Sync + 'static;

    /// Checks the request's rules; `kept` names the secrets an update may leave out.
    fn validate(request: &Self::Request, kept: &[&str]) -> Result<(), Vec<FieldError>>;

    /// The record callers see, and the request's secrets. `previous` is the record an update
    /// replaces.
    fn build(
        id: Uuid,
        organization_id: Uuid,
        created_at: DateTime<Utc>,
        updated_at: Option<DateTime<Utc>>,
        request: Self::Request,
        previous: Option<&Self::Record>,
    ) -> (Self::Record, Secrets);

    /// The name that is unique among the organization's records of this kind.
    fn name(record: &Self::Record) -> String;

    fn created_at(record: &Self::Record) -> DateTime<Utc>;

    /// What an update may not change of `previous`: the fields it names.
    fn validate_change(_previous: &Self::Record, _request: &Self::Request) -> Vec<FieldError> {
        Vec::new()
    }

    /// Whether the secrets stored with `previous` still apply to `request`.
    fn keeps_secrets(_previous: &Self::Record, _request: &Self::Request) -> bool {
        true
    }

    /// Lets the record say which secrets are set (never what they are).
    fn reflect_secrets(_record: &mut Self::Record, _secrets: &Secrets) {}

    /// The URLs the server will call for this record, by field: checked against `targets`.
    fn targets(_request: &Self::Request) -> Vec<(&'static str, &str)> {
        Vec::new()
    }

    /// What uses a record of this kind: a record in use is not deleted (409).
    const USED_BY: UsedBy = UsedBy::Nothing;

    /// Lets the record say how many use it (`associated_services_count`).
    fn reflect_usage(_record: &mut Self::Record, _users: i64) {}

    /// What the audit log calls a record of this kind: a target of its own, or a part of the
    /// organization.
    const AUDITED_AS: (TargetType, Option<SubTargetType>);
}

/// A change to the record `id` of `R`, named `name`, for the audit log.
fn change<R: OrganizationResource>(event_type: EventType, id: Uuid, name: String) -> Change {
    let (target_type, sub_target) = R::AUDITED_AS;
    let change = Change::new(event_type, Target::new(target_type, id, name));
    match sub_target {
        Some(sub_target) => change.of(sub_target),
        None => change,
    }
}

/// How many use the record `id` of `R`.
async fn users<'e, R: OrganizationResource>(
    db: impl sqlx::SqliteExecutor<'e>,
    organization_id: Uuid,
    id: Uuid,
) -> ApiResult<i64> {
    let usage = store::usage(db, (R::USED_BY, R::KIND), organization_id, Some(id)).await?;
    Ok(usage.get(&id).copied().unwrap_or(0))
}

/// How many names a refusal lists of what uses a record.
const USERS_NAMED: usize = 5;

/// The names of the first `USERS_NAMED` of what uses the record `id` of the organization, by
/// name, comma separated ("and N more" after them).
async fn user_names(
    conn: &mut SqliteConnection,
    used_by: UsedBy,
    (organization_id, id): (Uuid, Uuid),
) -> ApiResult<String> {
    let names = store::user_names(conn, used_by, organization_id, id).await?;
    let shown = names.len().min(USERS_NAMED);
    let mut listed = names[..shown].join(", ");
    if names.len() > shown {
        listed.push_str(&format!(" and {} more", names.len() - shown));
    }
    Ok(listed)
}

/// The record as callers see it: with how many use it.
async fn with_usage<R: OrganizationResource>(
    db: &sqlx::SqlitePool,
    organization_id: Uuid,
    id: Uuid,
    mut record: R::Record,
) -> ApiResult<R::Record> {
    if R::USED_BY != UsedBy::Nothing {
        R::reflect_usage(&mut record, users::<R>(db, organization_id, id).await?);
    }
    Ok(record)
}

/// Registers the five routes of `R`.
pub fn register<R: OrganizationResource>(routes: &mut RouteTable) {
    let what = R::KIND.what;
    routes
        .add(
            Method::GET,
            R::COLLECTION,
            R::READ,
            Doc::new(format!("List the {what}s")).answers_list_of::<R::Record>(StatusCode::OK),
            list::<R>,
        )
        .add(
            Method::POST,
            R::COLLECTION,
            R::WRITE,
            Doc::new(format!("Create a {what}"))
                .body::<R::Request>()
                .answers::<R::Record>(StatusCode::CREATED),
            create::<R>,
        )
        .add(
            Method::GET,
            R::ITEM,
            R::READ,
            Doc::new(format!("Read a {what}")).answers::<R::Record>(StatusCode::OK),
            read::<R>,
        )
        .add(
            Method::PUT,
            R::ITEM,
            R::WRITE,
            Doc::new(format!("Update a {what}; a secret left out is kept"))
                .body::<R::Request>()
                .answers::<R::Record>(StatusCode::OK),
            update::<R>,
        )
        .add(
            Method::DELETE,
            R::ITEM,
            Permission::Admin,
            Doc::new(format!("Delete a {what}")).answers_nothing(StatusCode::NO_CONTENT),
            delete::<R>,
        );
}

async fn list<R: OrganizationResource>(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(organization_id): ApiPath<Uuid>,
) -> ApiResult<Json<List<R::Record>>> {
    own_organization(&caller, organization_id)?;
    let records = store::list::<R::Record>(&state.db, R::KIND, organization_id).await?;
    let usage = store::usage(&state.db, (R::USED_BY, R::KIND), organization_id, None).await?;
    let records = records
        .into_iter()
        .map(|(id, mut record)| {
            if R::USED_BY != UsedBy::Nothing {
                R::reflect_usage(&mut record, usage.get(&id).copied().unwrap_or(0));
            }
            record
        })
        .collect();
    Ok(Json(List::new(records)))
}

/// Refuses a request naming a URL the server may not call (`targets`).
async fn check_targets<R: OrganizationResource>(
    state: &AppState,
    request: &R::Request,
) -> ApiResult<()> {
    for (field, url) in R::targets(request) {
        state
            .targets
            .check(field, url)
            .await
            .map_err(|refused| ApiError::invalid(vec![refused]))?;
    }
    Ok(())
}

async fn create<R: OrganizationResource>(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(organization_id): ApiPath<Uuid>,
    ApiJson(request): ApiJson<R::Request>,
) -> ApiResult<(StatusCode, Json<R::Record>)> {
    own_organization(&caller, organization_id)?;
    R::validate(&request, &[]).map_err(ApiError::invalid)?;
    check_targets::<R>(&state, &request).await?;
    let mut tx = db::begin_write(&state.writes).await?;
    let (id, record, secrets) = insert::<R>(&mut tx, &state, organization_id, request).await?;
    let created = change::<R>(EventType::Create, id, R::name(&record))
        .after(&record)
        .secrets(secrets);
    audit::record(&mut tx, &caller, created).await?;
    tx.commit().await?;
    Ok((StatusCode::CREATED, Json(record)))
}

/// Stores a new record of `R` from a request whose rules were checked, in `conn`: its id, the
/// record, and the names of the secrets it was given. 409 when its name is taken.
pub async fn insert<R: OrganizationResource>(
    conn: &mut SqliteConnection,
    state: &AppState,
    organization_id: Uuid,
    request: R::Request,
) -> ApiResult<(Uuid, R::Record, Vec<String>)> {
    let (id, now) = (Uuid::new_v4(), Utc::now());
    let (mut record, secrets) = R::build(id, organization_id, now, None, request, None);
    R::reflect_secrets(&mut record, &secrets);
    let secret_names = secrets.keys().cloned().collect();
    let secrets = state.sealer.seal_all(secrets);
    let entry = Entry {
        id,
        name: &R::name(&record),
        record: &record,
        secrets: &secrets,
        at: now,
    };
    store::insert(conn, R::KIND, organization_id, entry).await?;
    Ok((id, record, secret_names))
}

/// The record `id` of `R` in the caller's organization `organization_id`; 404 when it has none.
pub async fn find_own<R: OrganizationResource>(
    state: &AppState,
    caller: &Caller,
    (organization_id, id): (Uuid, Uuid),
) -> ApiResult<R::Record> {
    own_organization(caller, organization_id)?;
    Ok(
        store::find::<R::Record>(&state.db, R::KIND, organization_id, id)
            .await?
            .record,
    )
}

async fn read<R: OrganizationResource>(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath((organization_id, id)): ApiPath<(Uuid, Uuid)>,
) -> ApiResult<Json<R::Record>> {
    let record = find_own::<R>(&state, &caller, (organization_id, id)).await?;
    Ok(Json(
        with_usage::<R>(&state.db, organization_id, id, record).await?,
    ))
}

async fn update<R: OrganizationResource>(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath((organization_id, id)): ApiPath<(Uuid, Uuid)>,
    ApiJson(request): ApiJson<R::Request>,
) -> ApiResult<Json<R::Record>> {
    own_organization(&caller, organization_id)?;
    let mut tx = db::begin_write(&state.writes).await?;
    let stored = store::find::<R::Record>(&mut *tx, R::KIND, organization_id, id).await?;
    let had_secrets: Vec<String> = stored.secrets.keys().cloned().collect();
    let mut kept = if R::keeps_secrets(&stored.record, &request) {
        stored.secrets
    } else {
        Secrets::new()
    };
    let kept_names: Vec<&str> = kept.keys().map(String::as_str).collect();
    R::validate(&request, &kept_names).map_err(ApiError::invalid)?;
    let unchangeable = R::validate_change(&stored.record, &request);
    if !unchangeable.is_empty() {
        return Err(ApiError::invalid(unchangeable));
    }
    check_targets::<R>(&state, &request).await?;
    let now = Utc::now();
    let (mut record, secrets) = R::build(
        id,
        organization_id,
        R::created_at(&stored.record),
        Some(now),
        request,
        Some(&stored.record),
    );
    // The secrets the request set, and those it dropped.
    let mut changed_secrets: Vec<String> = secrets.keys().cloned().collect();
    changed_secrets.extend(
        had_secrets
            .into_iter()
            .filter(|name| !kept.contains_key(name)),
    );
    kept.extend(state.sealer.seal_all(secrets));
    R::reflect_secrets(&mut record, &kept);
    let entry = Entry {
        id,
        name: &R::name(&record),
        record: &record,
        secrets: &kept,
        at: now,
    };
    store::update(&mut tx, R::KIND, entry).await?;
    let updated = change::<R>(EventType::Update, id, R::name(&record))
        .before(&stored.record)
        .after(&record)
        .secrets(changed_secrets);
    audit::record(&mut tx, &caller, updated).await?;
    tx.commit().await?;
    Ok(Json(
        with_usage::<R>(&state.db, organization_id, id, record).await?,
    ))
}

async fn delete<R: OrganizationResource>(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath((organization_id, id)): ApiPath<(Uuid, Uuid)>,
) -> ApiResult<StatusCode> {
    own_organization(&caller, organization_id)?;
    let mut tx = db::begin_write(&state.writes).await?;
    let stored = store::find::<R::Record>(&mut *tx, R::KIND, organization_id, id).await?;
    let users = users::<R>(&mut *tx, organization_id, id).await?;
    if users > 0 {
        let (what, plural) = (R::USED_BY.what(), if users == 1 { "" } else { "s" });
        let named = user_names(&mut tx, R::USED_BY, (organization_id, id)).await?;
        return Err(ApiError::conflict(format!(
            "This {} is used by {users} {what}{plural} ({named}); change or delete them first.",
            R::KIND.what
        )));
    }
    store::delete(&mut tx, id).await?;
    let deleted =
        change::<R>(EventType::Delete, id, R::name(&stored.record)).before(&stored.record);
    audit::record(&mut tx, &caller, deleted).await?;
    tx.commit().await?;
    Ok(StatusCode::NO_CONTENT)
}

/// 400 naming `field` unless `id` is a record of `kind` in the organization.
pub async fn ensure_exists<'e>(
    db: impl sqlx::SqliteExecutor<'e>,
    kind: Kind,
    organization_id: Uuid,
    id: Uuid,
    field: &str,
) -> ApiResult<()> {
    match store::find::<serde_json::Value>(db, kind, organization_id, id).await {
        Ok(_) => Ok(()),
        Err(error) if error.status() == StatusCode::NOT_FOUND => {
            Err(ApiError::invalid(vec![FieldError::new(
                field,
                format!("is not a {} of this organization", kind.what),
            )]))
        }
        Err(error) => Err(error),
    }
}
