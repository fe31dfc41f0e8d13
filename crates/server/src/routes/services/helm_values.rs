//! `POST /environment/{id}/helmDefaultValues`: a chart's own `values.yaml`, for a helm service's
//! form to start its overrides from. Read at the branch's tip where the chart is in a git
//! repository this server reads; a chart of a helm repository is refused: this server fetches no
//! chart archive.

use axum::extract::State;
use axum::http::{header, Method, StatusCode};
use axum::response::IntoResponse;
use platform_api::{paths, FieldError, HelmDefaultValuesRequest};
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
use uuid::Uuid;

use crate::caller::{Caller, Permission};
use crate::error::{ApiError, ApiJson, ApiPath, ApiResult};
use crate::git;
use crate::routes::environments::find_environment;
use crate::routes::organization::git_repositories::readable_repository;
use crate::routes::{Doc, RouteTable};
use crate::state::AppState;
use crate::untrusted;

/// The file a chart's default values are in, in its directory.
const VALUES_FILE: &str = "values.yaml";

pub fn register(routes: &mut RouteTable) {
    let text = Schema::Object(ObjectBuilder::new().schema_type(Type::String).build());
    routes.add(
        Method::POST,
        paths::HELM_DEFAULT_VALUES,
        Permission::Read,
        Doc::new(
            "A chart's default values (its values.yaml), read at the tip of the branch of the \
             git repository it is in; a chart of a helm repository is refused (no archive is \
             fetched here)",
        )
        .body::<HelmDefaultValuesRequest>()
        .answers_named("HelmDefaultValues", text, StatusCode::CREATED),
        default_values,
    );
}

async fn default_values(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(environment_id): ApiPath<Uuid>,
    ApiJson(request): ApiJson<HelmDefaultValuesRequest>,
) -> ApiResult<impl IntoResponse> {
    let environment = find_environment(&state, &caller, environment_id).await?;
    let Some(repository) = request.source.git_repository else {
        let field = if request.source.helm_repository.is_some() {
            "source.helm_repository"
        } else {
            "source"
        };
        return Err(ApiError::invalid(vec![FieldError::new(
            field,
            "must be a chart in a git repository: this server fetches no chart archive",
        )]));
    };
    let field = "source.git_repository";
    let read = readable_repository(
        &state,
        &caller,
        environment.organization.id,
        field,
        &repository,
    )
    .await?;
    let root = repository.root_path.clone();
    let branch = repository.branch.clone();
    let values = git::read(move || {
        git::file_at(
            &read,
            branch.as_deref(),
            root.as_deref(),
            VALUES_FILE,
            &untrusted::REPOSITORY_FILE,
        )
    })
    .await?
    .ok_or_else(|| {
        ApiError::invalid(vec![FieldError::new(
            format!("{field}.root_path"),
            format!("holds no {VALUES_FILE}: a chart's directory has one"),
        )])
    })?;
    Ok((
        StatusCode::CREATED,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        values,
    ))
}
