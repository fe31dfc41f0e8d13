//! Databases: managed by the cloud provider, or run as a container in the cluster; and how to
//! sign in to one (`GET /database/{id}/masterCredentials`).

use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::Json;
use platform_api::audit::EventType;
use platform_api::paths;
use platform_api::{
    internal_host, Credentials, Database, DatabaseConfiguration, DatabaseVersion, Databases,
    Environment, FieldError, List, Reference, ServiceType, DATABASE_LOGIN,
};
use rand::distr::{Alphanumeric, SampleString};
use serde_json::Value;
use uuid::Uuid;

use crate::audit::{self, Change, Target};
use crate::caller::{Caller, Permission};
use crate::db;
use crate::error::{ApiError, ApiPath, ApiResult};
use crate::routes::environments::find_environment;
use crate::routes::services::records::find;
use crate::routes::services::resource::{over, timestamps, ServiceResource};
use crate::routes::{Doc, RouteTable};
use crate::state::AppState;
use crate::store;

/// The name of a database's password among its secrets.
const PASSWORD: &str = "password";

pub fn register(routes: &mut RouteTable) {
    routes.add(
        Method::GET,
        paths::DATABASE_CREDENTIALS,
        Permission::Write,
        Doc::new(
            "How to sign in to a database: its host, port, user and password (made when first \
             asked for, kept sealed); each reading is in the audit log",
        )
        .answers::<Credentials>(StatusCode::OK),
        master_credentials,
    )
    .add(
        Method::GET,
        paths::DATABASE_VERSIONS,
        Permission::Read,
        Doc::new(
            "The versions a database may be changed to: its own and the newer ones its type runs \
             (never an older one)",
        )
        .answers_list_of::<DatabaseVersion>(StatusCode::OK),
        eligible_versions,
    )
    .add(
        Method::GET,
        paths::DATABASE_CONFIGURATIONS,
        Permission::Read,
        Doc::new(
            "The types, versions and modes a new database of an environment may run: every \
             version of each type in the cluster, and managed for the types its cluster's cloud \
             manages",
        )
        .answers_list_of::<DatabaseConfiguration>(StatusCode::OK),
        configurations,
    );
}

async fn configurations(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(environment_id): ApiPath<Uuid>,
) -> ApiResult<Json<List<DatabaseConfiguration>>> {
    let environment = find_environment(&state, &caller, environment_id).await?;
    Ok(Json(List::new(DatabaseConfiguration::on(
        environment.cloud_provider.cloud(),
    ))))
}

async fn eligible_versions(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<Uuid>,
) -> ApiResult<Json<List<DatabaseVersion>>> {
    let (database, _) = find::<Databases>(&state, &caller, id).await?;
    Ok(Json(List::new(
        database
            .eligible_versions()
            .into_iter()
            .map(|name| DatabaseVersion {
                name: name.to_string(),
            })
            .collect(),
    )))
}

async fn master_credentials(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<Uuid>,
) -> ApiResult<Json<Credentials>> {
    let (database, environment_id) = find::<Databases>(&state, &caller, id).await?;
    let mut tx = db::begin_write(&state.writes).await?;
    let mut secrets = store::services::secrets(&mut tx, id).await?;
    let password = match secrets.get(PASSWORD) {
        Some(sealed) => state.sealer.open(sealed).map_err(ApiError::internal)?,
        None => {
            let made = Alphanumeric.sample_string(&mut rand::rng(), 24);
            secrets.insert(PASSWORD.to_string(), state.sealer.seal(&made));
            store::services::set_secrets(&mut tx, id, &secrets).await?;
            made
        }
    };
    let target = Target::service(&mut tx, id).await?;
    audit::record(&mut tx, &caller, Change::new(EventType::Export, target)).await?;
    tx.commit().await?;
    Ok(Json(Credentials {
        host: internal_host(&database.name, environment_id),
        port: database.database_type.port().unwrap_or_default().into(),
        login: DATABASE_LOGIN.to_string(),
        password,
    }))
}

impl ServiceResource for Databases {
    const WHAT: &'static str = "database";

    fn validate(request: &Self::Request, _kept: &[&str]) -> Result<(), Vec<FieldError>> {
        request.validate()
    }

    /// A managed database of a type its cloud manages; sized by its instance where the cloud
    /// lists them.
    fn placed(
        mut request: Self::Request,
        environment: &Environment,
    ) -> Result<Self::Request, Vec<FieldError>> {
        let cloud = environment.cloud_provider.cloud();
        request.validate_on(cloud)?;
        if let Some(instance) = request.managed_instance(cloud) {
            request.cpu = instance.cpu;
            request.memory = instance.memory;
        }
        Ok(request)
    }

    fn validate_change(
        previous: &Database,
        request: &Self::Request,
    ) -> Result<(), Vec<FieldError>> {
        request.validate_change(previous)
    }

    fn build(
        id: Uuid,
        environment_id: Uuid,
        request: Self::Request,
        previous: Option<&Self::Record>,
    ) -> Self::Record {
        let (created_at, updated_at) = timestamps(previous.map(|p| p.created_at));
        Database {
            id,
            created_at,
            updated_at,
            icon_uri: ServiceType::Database.default_icon_uri(),
            environment: Reference { id: environment_id },
            name: request.name.trim().to_string(),
            description: request.description,
            service_type: ServiceType::Database,
            database_type: request.database_type,
            version: request.version,
            mode: request.mode,
            accessibility: request.accessibility,
            instance_type: request.instance_type,
            cpu: request.cpu,
            memory: request.memory,
            storage: request.storage,
        }
    }

    fn name(record: &Self::Record) -> &str {
        &record.name
    }

    /// Its password, made when the credentials are first asked for, kept across updates.
    fn secret_names(_record: &Database) -> Vec<String> {
        vec![PASSWORD.to_string()]
    }

    /// The document's `DatabaseEditRequest` has no required field (nor type and mode at all).
    const PARTIAL_EDIT: bool = true;

    fn completed_update(previous: &Self::Record, body: Value) -> Value {
        over(previous.to_request(), body)
    }
}
