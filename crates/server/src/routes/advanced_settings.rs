//! Advanced settings (`/{kind}/{id}/advancedSettings`, the cluster's, and each owner's defaults,
//! `/default{Owner}AdvancedSettings`): the catalogue is `platform_api::advanced_settings`, which
//! also gives the document its schemas; what is stored is what differs from the defaults
//! (`store::advanced_settings`). The engine reads the settings it simulates (`engine::plan`).

use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::Json;
use platform_api::advanced_settings::{
    AdvancedSettings, ServiceNetwork, SettingType, SettingsOf, STICKY_SESSION,
};
use platform_api::audit::{EventType, SubTargetType};
use platform_api::{
    paths, Applications, Containers, HelmServices, Jobs, ServiceType, TerraformServices,
};
use sqlx::SqliteConnection;
use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, Schema, SchemaType, Type};
use uuid::Uuid;

use crate::audit::{self, Change, Target};
use crate::caller::{Caller, Permission};
use crate::db;
use crate::error::{ApiError, ApiJson, ApiPath, ApiResult};
use crate::routes::doc::{boolean, integer, one_of, text};
use crate::routes::organization::clusters::{cluster_change, status as cluster_status};
use crate::routes::own_organization;
use crate::routes::services::records::find_in;
use crate::routes::services::resource::ServiceResource;
use crate::routes::{Doc, RouteTable};
use crate::state::AppState;
use crate::store::advanced_settings as store;
use crate::store::scope::Scope;

pub fn register(routes: &mut RouteTable) {
    service::<Applications>(routes);
    service::<Containers>(routes);
    service::<Jobs>(routes);
    service::<HelmServices>(routes);
    service::<TerraformServices>(routes);
    let cluster = paths::CLUSTER_ADVANCED_SETTINGS;
    let of = SettingsOf::Cluster;
    routes
        .add(
            Method::GET,
            cluster,
            Permission::Read,
            Doc::new("Every advanced setting of a cluster").answers_named(
                &schema_name(of),
                schema(of),
                StatusCode::OK,
            ),
            get_cluster,
        )
        .add(
            Method::PUT,
            cluster,
            Permission::Admin,
            Doc::new(
                "Change advanced settings of a cluster: the settings named take their values, \
                 the others keep theirs; a setting set to its default is no longer changed",
            )
            .body_named(&schema_name(of), schema(of))
            .answers_named(&schema_name(of), schema(of), StatusCode::CREATED),
            edit_cluster,
        );
    defaults(routes, of);
}

/// The routes of `R`'s advanced settings and of its kind's defaults.
fn service<R: ServiceResource>(routes: &mut RouteTable) {
    let of = settings_of::<R>();
    let path = format!("{}/advancedSettings", R::TYPE.item_template());
    let what = R::WHAT;
    routes
        .add(
            Method::GET,
            path.clone(),
            Permission::Read,
            Doc::new(format!("Every advanced setting of a {what}")).answers_named(
                &schema_name(of),
                schema(of),
                StatusCode::OK,
            ),
            get_service::<R>,
        )
        .add(
            Method::PUT,
            path,
            Permission::Write,
            Doc::new(format!(
                "Change advanced settings of a {what}: the settings named take their values, \
                 the others keep theirs; a setting set to its default is no longer changed. \
                 The {what} runs them at its next deployment"
            ))
            .body_named(&schema_name(of), schema(of))
            .answers_named(&schema_name(of), schema(of), StatusCode::CREATED),
            edit_service::<R>,
        );
    defaults(routes, of);
    if matches!(R::TYPE, ServiceType::Application | ServiceType::Container) {
        network::<R>(routes);
    }
}

/// A service's network settings: a view of its sticky-session setting.
fn network<R: ServiceResource>(routes: &mut RouteTable) {
    let path = format!("{}/network", R::TYPE.item_template());
    let what = R::WHAT;
    routes
        .add(
            Method::GET,
            path.clone(),
            Permission::Read,
            Doc::new(format!(
                "A {what}'s network settings: whether a client stays with one instance \
                 (`{STICKY_SESSION}` of its advanced settings)"
            ))
            .answers::<ServiceNetwork>(StatusCode::OK),
            get_network::<R>,
        )
        .add(
            Method::PUT,
            path,
            Permission::Write,
            Doc::new(format!(
                "Change a {what}'s network settings; it runs them at its next deployment"
            ))
            .body::<ServiceNetwork>()
            .answers::<ServiceNetwork>(StatusCode::CREATED),
            edit_network::<R>,
        );
}

fn defaults(routes: &mut RouteTable, of: SettingsOf) {
    routes.add(
        Method::GET,
        of.defaults_path(),
        Permission::Read,
        Doc::new(format!(
            "The defaults of a {}'s advanced settings",
            of.name().to_lowercase()
        ))
        .answers_named(&schema_name(of), schema(of), StatusCode::OK),
        move |_: Caller| async move { Json(of.defaults()) },
    );
}

fn settings_of<R: ServiceResource>() -> SettingsOf {
    SettingsOf::service(R::TYPE).expect("every kind registered here has advanced settings")
}

fn schema_name(of: SettingsOf) -> String {
    format!("{}AdvancedSettings", of.name())
}

/// The owner's settings as the document describes them: each with its type and default.
fn schema(of: SettingsOf) -> Schema {
    let mut object = ObjectBuilder::new().schema_type(Type::Object);
    for setting in of.settings() {
        let property = match setting.kind {
            SettingType::Boolean => boolean(),
            SettingType::Integer { min, max } if max == i64::MAX => ObjectBuilder::new()
                .schema_type(Type::Integer)
                .minimum(Some(min as f64)),
            SettingType::Integer { min, max } => integer(min, max),
            SettingType::Text(_) => text(),
            SettingType::OneOf(values) => one_of(values.iter().copied()),
            SettingType::TextList(_) => {
                let list = ArrayBuilder::new()
                    .items(text())
                    .description(Some(setting.about));
                object = object.property(setting.key, list);
                continue;
            }
            SettingType::Labels => ObjectBuilder::new()
                .schema_type(Type::Object)
                .additional_properties(Some(text())),
        };
        let property = property
            .description(Some(setting.about))
            .default(Some(setting.default()));
        let property = if setting.nullable {
            property.schema_type(SchemaType::from_iter([base_type(setting.kind), Type::Null]))
        } else {
            property
        };
        object = object.property(setting.key, property);
    }
    object.build().into()
}

/// The JSON type of a setting's values.
fn base_type(kind: SettingType) -> Type {
    match kind {
        SettingType::Boolean => Type::Boolean,
        SettingType::Integer { .. } => Type::Integer,
        SettingType::Text(_) | SettingType::OneOf(_) => Type::String,
        SettingType::TextList(_) => Type::Array,
        SettingType::Labels => Type::Object,
    }
}

async fn get_service<R: ServiceResource>(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(service_id): ApiPath<Uuid>,
) -> ApiResult<Json<AdvancedSettings>> {
    let mut snapshot = state.db.begin().await?;
    find_in::<R>(&mut snapshot, &caller, service_id).await?;
    Ok(Json(
        store::all(&mut *snapshot, settings_of::<R>(), service_id).await?,
    ))
}

async fn edit_service<R: ServiceResource>(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(service_id): ApiPath<Uuid>,
    ApiJson(edit): ApiJson<AdvancedSettings>,
) -> ApiResult<(StatusCode, Json<AdvancedSettings>)> {
    let all = edit_settings::<R>(&state, &caller, service_id, &edit).await?;
    // 201, as the platform answers an edit of settings.
    Ok((StatusCode::CREATED, Json(all)))
}

async fn get_network<R: ServiceResource>(
    state: State<AppState>,
    caller: Caller,
    service_id: ApiPath<Uuid>,
) -> ApiResult<Json<ServiceNetwork>> {
    let Json(all) = get_service::<R>(state, caller, service_id).await?;
    Ok(Json(network_of(&all)))
}

async fn edit_network<R: ServiceResource>(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(service_id): ApiPath<Uuid>,
    ApiJson(edit): ApiJson<ServiceNetwork>,
) -> ApiResult<(StatusCode, Json<ServiceNetwork>)> {
    let mut setting = AdvancedSettings::new();
    setting.insert(STICKY_SESSION.to_string(), edit.sticky_session.into());
    let all = edit_settings::<R>(&state, &caller, service_id, &setting).await?;
    Ok((StatusCode::CREATED, Json(network_of(&all))))
}

fn network_of(all: &AdvancedSettings) -> ServiceNetwork {
    ServiceNetwork {
        sticky_session: all
            .get(STICKY_SESSION)
            .and_then(serde_json::Value::as_bool)
            .unwrap_or_default(),
    }
}

/// Applies `edit` to the service's settings (audited; the service is out of date when one
/// changed); every setting after.
async fn edit_settings<R: ServiceResource>(
    state: &AppState,
    caller: &Caller,
    service_id: Uuid,
    edit: &AdvancedSettings,
) -> ApiResult<AdvancedSettings> {
    let of = settings_of::<R>();
    of.check(edit).map_err(ApiError::invalid)?;
    let mut tx = db::begin_write(&state.writes).await?;
    find_in::<R>(&mut tx, caller, service_id).await?;
    let target = Target::service(&mut tx, service_id).await?;
    let change = Change::new(EventType::Update, target);
    let after = save(&mut tx, caller, (of, service_id), change, edit).await?;
    if after.is_some() {
        crate::store::scope::mark_scope_out_of_date(&mut tx, Scope::Service(service_id)).await?;
    }
    let all = store::all(&mut *tx, of, service_id).await?;
    tx.commit().await?;
    Ok(all)
}

async fn get_cluster(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath((organization_id, cluster_id)): ApiPath<(Uuid, Uuid)>,
) -> ApiResult<Json<AdvancedSettings>> {
    own_organization(&caller, organization_id)?;
    let mut snapshot = state.db.begin().await?;
    cluster_status(&mut snapshot, organization_id, cluster_id).await?;
    Ok(Json(
        store::all(&mut *snapshot, SettingsOf::Cluster, cluster_id).await?,
    ))
}

/// 409 while the cluster is locked against changes.
async fn edit_cluster(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath((organization_id, cluster_id)): ApiPath<(Uuid, Uuid)>,
    ApiJson(edit): ApiJson<AdvancedSettings>,
) -> ApiResult<(StatusCode, Json<AdvancedSettings>)> {
    own_organization(&caller, organization_id)?;
    let of = SettingsOf::Cluster;
    of.check(&edit).map_err(ApiError::invalid)?;
    let mut tx = db::begin_write(&state.writes).await?;
    let current = cluster_status(&mut tx, organization_id, cluster_id).await?;
    if let Some(lock) = &current.cluster_lock {
        return Err(ApiError::conflict(format!(
            "The cluster is locked by {} ({}); unlock it first.",
            lock.owner_name, lock.reason
        )));
    }
    let change = cluster_change(&mut tx, EventType::Update, organization_id, cluster_id).await?;
    save(&mut tx, &caller, (of, cluster_id), change, &edit).await?;
    let all = store::all(&mut *tx, of, cluster_id).await?;
    tx.commit().await?;
    Ok((StatusCode::CREATED, Json(all)))
}

/// Saves `edit` on `owner` and records `change` with the settings before and after, when any
/// setting changed; the changed settings after, if any.
async fn save(
    tx: &mut SqliteConnection,
    caller: &Caller,
    (of, owner): (SettingsOf, Uuid),
    change: Change,
    edit: &AdvancedSettings,
) -> ApiResult<Option<AdvancedSettings>> {
    let before = store::changed(&mut *tx, owner).await?;
    store::save(tx, of, owner, edit).await?;
    let after = store::changed(&mut *tx, owner).await?;
    if before == after {
        return Ok(None);
    }
    let change = change
        .of(SubTargetType::AdvancedSettings)
        .between((Some(&before), Some(&after)));
    audit::record(tx, caller, change).await?;
    Ok(Some(after))
}
