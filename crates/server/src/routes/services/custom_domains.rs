//! Custom domains of applications, containers and helm services (`/{kind}/{id}/customDomain`):
//! added, changed and removed, each a CNAME to the service's `validation_domain` under its
//! cluster's DNS domain (`crate::dns::Pointing`), and checked on
//! request (`checkCustomDomain`) and at every deployment's routing step, by the simulated DNS of
//! `crate::dns`. A change takes effect at the next deployment: the service is marked out of date.

use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::Json;
use chrono::Utc;
use platform_api::audit::{EventType, SubTargetType};
use platform_api::{
    Applications, CheckedCustomDomain, Containers, CustomDomain, CustomDomainRequest,
    CustomDomainStatus, HelmServices, List,
};
use uuid::Uuid;

use crate::audit::{self, Change, Target};
use crate::caller::{Caller, Permission};
use crate::db;
use crate::dns::Pointing;
use crate::error::{ApiError, ApiJson, ApiPath, ApiResult};
use crate::routes::services::records::find;
use crate::routes::services::resource::ServiceResource;
use crate::routes::{Doc, RouteTable};
use crate::state::AppState;
use crate::store::cluster_network;
use crate::store::custom_domains::{self as store, Row};
use crate::store::scope::Scope;

pub fn register(routes: &mut RouteTable) {
    kind::<Applications>(routes, "application_domain_id", "status");
    kind::<Containers>(routes, "container_domain_id", "status");
    // The document reads a helm service's domain at its own address, not under `/status`.
    kind::<HelmServices>(routes, "helm_domain_id", "");
}

/// The routes of `R`'s custom domains, one addressed by the path parameter `parameter` and read
/// at `.../{parameter}/{read_at}`.
fn kind<R: ServiceResource>(routes: &mut RouteTable, parameter: &str, read_at: &str) {
    let collection = format!("{}/customDomain", R::TYPE.item_template());
    let item = format!("{collection}/{{{parameter}}}");
    let what = R::WHAT;
    let read = match read_at {
        "" => item.clone(),
        part => format!("{item}/{part}"),
    };
    routes
        .add(
            Method::GET,
            collection.clone(),
            Permission::Read,
            Doc::new(format!("The custom domains of a {what}"))
                .answers_list_of::<CustomDomain>(StatusCode::OK),
            list::<R>,
        )
        .add(
            Method::POST,
            collection,
            Permission::Write,
            Doc::new(format!(
                "Add a custom domain to a {what}: a host name not used in the organization nor \
                 under the platform's own domain; it takes effect at the next deployment"
            ))
            .body::<CustomDomainRequest>()
            .answers::<CustomDomain>(StatusCode::CREATED),
            create::<R>,
        )
        .add(
            Method::PUT,
            item.clone(),
            Permission::Write,
            Doc::new(format!("Change a custom domain of a {what}"))
                .body::<CustomDomainRequest>()
                .answers::<CustomDomain>(StatusCode::OK),
            update::<R>,
        )
        .add(
            Method::DELETE,
            item,
            Permission::Write,
            Doc::new(format!("Remove a custom domain of a {what}"))
                .answers_nothing(StatusCode::NO_CONTENT),
            delete::<R>,
        )
        .add(
            Method::GET,
            read,
            Permission::Read,
            Doc::new(format!("Read a custom domain of a {what}"))
                .answers::<CustomDomain>(StatusCode::OK),
            read_one::<R>,
        )
        .add(
            Method::GET,
            format!("{}/checkCustomDomain", R::TYPE.item_template()),
            Permission::Read,
            Doc::new(format!(
                "Check the DNS of a {what}'s custom domains (simulated by this server: names \
                 under .invalid never resolve, others point where asked)"
            ))
            .answers_list_of::<CheckedCustomDomain>(StatusCode::OK),
            check::<R>,
        );
}

/// Where the service's custom domains point, by its cluster's DNS provider.
async fn pointing(
    conn: &mut sqlx::SqliteConnection,
    service_id: Uuid,
    environment_id: Uuid,
) -> ApiResult<Pointing> {
    let provider = cluster_network::dns_provider_of_environment(conn, environment_id).await?;
    Ok(Pointing::new(&provider, service_id, environment_id))
}

/// A stored domain as answered: pending validation until a check finds it set.
fn answer(row: Row, pointing: &Pointing) -> CustomDomain {
    let checked = pointing.check(&row.domain, row.use_cdn.unwrap_or(false));
    CustomDomain {
        id: row.id,
        created_at: row.created_at,
        updated_at: row.updated_at,
        domain: row.domain,
        generate_certificate: row.generate_certificate,
        use_cdn: row.use_cdn,
        validation_domain: Some(pointing.target.clone()),
        status: (!checked.status.is_success()).then_some(CustomDomainStatus::ValidationPending),
    }
}

async fn list<R: ServiceResource>(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(service_id): ApiPath<Uuid>,
) -> ApiResult<Json<List<CustomDomain>>> {
    let (_, environment_id) = find::<R>(&state, &caller, service_id).await?;
    let mut conn = state.db.acquire().await?;
    let pointing = pointing(&mut conn, service_id, environment_id).await?;
    let rows = store::of_service(&mut *conn, service_id).await?;
    Ok(Json(List::new(
        rows.into_iter().map(|row| answer(row, &pointing)).collect(),
    )))
}

async fn read_one<R: ServiceResource>(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath((service_id, id)): ApiPath<(Uuid, Uuid)>,
) -> ApiResult<Json<CustomDomain>> {
    let (_, environment_id) = find::<R>(&state, &caller, service_id).await?;
    let mut conn = state.db.acquire().await?;
    let pointing = pointing(&mut conn, service_id, environment_id).await?;
    let row = store::find(&mut *conn, service_id, id).await?;
    Ok(Json(answer(row, &pointing)))
}

async fn check<R: ServiceResource>(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(service_id): ApiPath<Uuid>,
) -> ApiResult<Json<List<CheckedCustomDomain>>> {
    let (_, environment_id) = find::<R>(&state, &caller, service_id).await?;
    let mut conn = state.db.acquire().await?;
    let pointing = pointing(&mut conn, service_id, environment_id).await?;
    let rows = store::of_service(&mut *conn, service_id).await?;
    Ok(Json(List::new(
        rows.iter()
            .map(|row| pointing.check(&row.domain, row.use_cdn.unwrap_or(false)))
            .collect(),
    )))
}

/// The domain as stored: lower case, without spaces around it.
fn normalized(domain: &str) -> String {
    domain.trim().to_ascii_lowercase()
}

async fn create<R: ServiceResource>(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(service_id): ApiPath<Uuid>,
    ApiJson(request): ApiJson<CustomDomainRequest>,
) -> ApiResult<(StatusCode, Json<CustomDomain>)> {
    let (_, environment_id) = find::<R>(&state, &caller, service_id).await?;
    request.validate().map_err(ApiError::invalid)?;
    let row = Row {
        id: Uuid::new_v4(),
        domain: normalized(&request.domain),
        generate_certificate: request.generate_certificate,
        use_cdn: request.use_cdn,
        created_at: Utc::now(),
        updated_at: None,
    };
    let mut tx = db::begin_write(&state.writes).await?;
    store::insert(&mut tx, (caller.organization_id, service_id), &row).await?;
    let created = answer(row, &pointing(&mut tx, service_id, environment_id).await?);
    changed(
        &mut tx,
        &caller,
        service_id,
        EventType::Create,
        (None, Some(&created)),
    )
    .await?;
    tx.commit().await?;
    Ok((StatusCode::CREATED, Json(created)))
}

async fn update<R: ServiceResource>(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath((service_id, id)): ApiPath<(Uuid, Uuid)>,
    ApiJson(request): ApiJson<CustomDomainRequest>,
) -> ApiResult<Json<CustomDomain>> {
    let (_, environment_id) = find::<R>(&state, &caller, service_id).await?;
    request.validate().map_err(ApiError::invalid)?;
    let mut tx = db::begin_write(&state.writes).await?;
    let target = pointing(&mut tx, service_id, environment_id).await?;
    let previous = store::find(&mut *tx, service_id, id).await?;
    let row = Row {
        domain: normalized(&request.domain),
        generate_certificate: request.generate_certificate,
        use_cdn: request.use_cdn,
        updated_at: Some(Utc::now()),
        ..previous.clone()
    };
    store::update(&mut tx, &row).await?;
    let before = answer(previous, &target);
    let updated = answer(row, &target);
    let change = (Some(&before), Some(&updated));
    changed(&mut tx, &caller, service_id, EventType::Update, change).await?;
    tx.commit().await?;
    Ok(Json(updated))
}

async fn delete<R: ServiceResource>(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath((service_id, id)): ApiPath<(Uuid, Uuid)>,
) -> ApiResult<StatusCode> {
    let (_, environment_id) = find::<R>(&state, &caller, service_id).await?;
    let mut tx = db::begin_write(&state.writes).await?;
    let previous = store::find(&mut *tx, service_id, id).await?;
    store::delete(&mut tx, id).await?;
    let before = answer(
        previous,
        &pointing(&mut tx, service_id, environment_id).await?,
    );
    changed(
        &mut tx,
        &caller,
        service_id,
        EventType::Delete,
        (Some(&before), None),
    )
    .await?;
    tx.commit().await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The audit entry of a change to a service's domains, and the service out of date: its router
/// learns its domains at the next deployment.
async fn changed(
    tx: &mut sqlx::Transaction<'_, sqlx::Sqlite>,
    caller: &Caller,
    service_id: Uuid,
    event_type: EventType,
    states: (Option<&CustomDomain>, Option<&CustomDomain>),
) -> ApiResult<()> {
    let target = Target::service(tx, service_id).await?;
    let change = Change::new(event_type, target)
        .of(SubTargetType::CustomDomain)
        .between(states);
    audit::record(tx, caller, change).await?;
    crate::store::scope::mark_scope_out_of_date(tx, Scope::Service(service_id)).await?;
    Ok(())
}
