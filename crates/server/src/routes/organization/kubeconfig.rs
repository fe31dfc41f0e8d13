//! `GET|PUT /organization/{id}/cluster/{id}/kubeconfig`: how `kubectl` reaches a cluster. The
//! one given for a self-managed cluster is kept sealed and answered as given; otherwise the
//! server writes one for the cluster it simulates, with a token made at the first reading and
//! kept sealed (or, asked `with_token_from_cli`, a command that fetches one). Reading one needs
//! WRITE, as the credentials it holds do, and each reading is in the audit log.

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{header, HeaderMap, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use platform_api::audit::EventType;
use platform_api::kubeconfig::{check_kubeconfig, simulated_kubeconfig, KubeconfigUser};
use platform_api::{paths, Cluster};
use rand::distr::{Alphanumeric, SampleString};
use serde::Deserialize;
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
use uuid::Uuid;

use crate::audit;
use crate::caller::{Caller, Permission};
use crate::db;
use crate::error::{ApiBytes, ApiError, ApiPath, ApiQuery, ApiResult};
use crate::routes::doc::{boolean, Doc};
use crate::routes::organization::clusters::{cluster_change, Clusters};
use crate::routes::organization::resources::OrganizationResource;
use crate::routes::own_organization;
use crate::routes::RouteTable;
use crate::state::AppState;
use crate::store::organization_resources as store;
use crate::untrusted;

/// The kubeconfig given for the cluster, among its secrets.
const GIVEN: &str = "kubeconfig";
/// The token of the kubeconfig this server writes, among the cluster's secrets.
const TOKEN: &str = "kubeconfig_token";
const YAML: &str = "application/x-yaml";

pub fn register(routes: &mut RouteTable) {
    let path = paths::CLUSTER_KUBECONFIG;
    let text = || Schema::Object(ObjectBuilder::new().schema_type(Type::String).build());
    routes
        .add(
            Method::GET,
            path,
            Permission::Write,
            Doc::new(
                "A cluster's kubeconfig (YAML): the one given for it, else one written for the \
                 simulated cluster, signed in with a token kept sealed (`with_token_from_cli`: \
                 with a command that fetches one; `read_only`: one that may only read). Each \
                 reading is in the audit log",
            )
            .query("with_token_from_cli", false, boolean())
            .query("read_only", false, boolean())
            .answers_named("Kubeconfig", text(), StatusCode::OK),
            read,
        )
        .add(
            Method::PUT,
            path,
            Permission::Admin,
            Doc::new(
                "Give a self-managed cluster's kubeconfig (YAML, or a JSON string of it): kept \
                 sealed, answered as given from then on",
            )
            .body_named("Kubeconfig", text())
            .answers_nothing(StatusCode::NO_CONTENT),
            edit,
        );
}

#[derive(Deserialize)]
struct ReadQuery {
    #[serde(default)]
    with_token_from_cli: bool,
    #[serde(default)]
    read_only: bool,
}

async fn read(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath((organization_id, cluster_id)): ApiPath<(Uuid, Uuid)>,
    ApiQuery(query): ApiQuery<ReadQuery>,
) -> ApiResult<Response> {
    own_organization(&caller, organization_id)?;
    let mut tx = db::begin_write(&state.writes).await?;
    let stored =
        store::find::<Cluster>(&mut *tx, Clusters::KIND, organization_id, cluster_id).await?;
    let mut secrets = stored.secrets;
    let open = |sealed: &String| state.sealer.open(sealed).map_err(ApiError::internal);
    let kubeconfig = match secrets.get(GIVEN) {
        Some(given) => open(given)?,
        None if query.with_token_from_cli => simulated_kubeconfig(
            cluster_id,
            &stored.record.name,
            KubeconfigUser::Command {
                read_only: query.read_only,
            },
        ),
        None => {
            let token = match secrets.get(TOKEN) {
                Some(sealed) => open(sealed)?,
                None => {
                    let made = Alphanumeric.sample_string(&mut rand::rng(), 40);
                    secrets.insert(TOKEN.to_string(), state.sealer.seal(&made));
                    store::set_secrets(&mut tx, cluster_id, &secrets).await?;
                    made
                }
            };
            simulated_kubeconfig(
                cluster_id,
                &stored.record.name,
                KubeconfigUser::Token(&token),
            )
        }
    };
    let change = cluster_change(&mut tx, EventType::Export, organization_id, cluster_id).await?;
    audit::record(&mut tx, &caller, change).await?;
    tx.commit().await?;
    Ok(([(header::CONTENT_TYPE, YAML)], kubeconfig).into_response())
}

async fn edit(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath((organization_id, cluster_id)): ApiPath<(Uuid, Uuid)>,
    headers: HeaderMap,
    ApiBytes(body): ApiBytes,
) -> ApiResult<StatusCode> {
    own_organization(&caller, organization_id)?;
    let kubeconfig = text_of(&headers, &body)?;
    // Its size is checked before it is read, and YAML's reader bounds its own nesting.
    let kubeconfig = untrusted::offload(move || {
        check_kubeconfig(&kubeconfig).map_err(|problem| ApiError::invalid(vec![problem]))?;
        Ok::<_, ApiError>(kubeconfig)
    })
    .await?;
    let mut tx = db::begin_write(&state.writes).await?;
    let stored =
        store::find::<Cluster>(&mut *tx, Clusters::KIND, organization_id, cluster_id).await?;
    let mut secrets = stored.secrets;
    secrets.insert(GIVEN.to_string(), state.sealer.seal(&kubeconfig));
    store::set_secrets(&mut tx, cluster_id, &secrets).await?;
    // The record stays as it was; the entry names the secret that changed.
    let change = cluster_change(&mut tx, EventType::Update, organization_id, cluster_id)
        .await?
        .before(&stored.record)
        .after(&stored.record)
        .secrets(vec![GIVEN.to_string()]);
    audit::record(&mut tx, &caller, change).await?;
    tx.commit().await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The body as text: YAML as sent, or the string a JSON body holds (the body is the kubeconfig:
/// its problems are the `body`'s).
fn text_of(headers: &HeaderMap, body: &Bytes) -> ApiResult<String> {
    let json = headers
        .get(header::CONTENT_TYPE)
        .is_some_and(|media| media.as_bytes().starts_with(b"application/json"));
    if json {
        serde_json::from_slice::<String>(body).map_err(|_| {
            ApiError::invalid(vec![platform_api::FieldError::new(
                "body",
                "must be YAML, or a JSON string of it",
            )])
        })
    } else {
        String::from_utf8(body.to_vec()).map_err(|_| {
            ApiError::invalid(vec![platform_api::FieldError::new(
                "body",
                "must be UTF-8 text",
            )])
        })
    }
}
