//! `GET /environment/{id}/lifecycleTemplate` and `…/{templateId}`: the lifecycle job templates
//! of the environment's cloud (`crate::lifecycle_templates`), listed, then one whole.

use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::Json;
use platform_api::{paths, LifecycleTemplate, LifecycleTemplateSummary, List};
use uuid::Uuid;

use crate::caller::{Caller, Permission};
use crate::error::{ApiError, ApiPath, ApiResult};
use crate::lifecycle_templates;
use crate::routes::environments::find_environment;
use crate::routes::{Doc, RouteTable};
use crate::state::AppState;

pub fn register(routes: &mut RouteTable) {
    routes
        .add(
            Method::GET,
            paths::LIFECYCLE_TEMPLATES.0,
            Permission::Read,
            Doc::new("The lifecycle job templates of the environment's cloud")
                .answers_list_of::<LifecycleTemplateSummary>(StatusCode::OK),
            list_templates,
        )
        .add(
            Method::GET,
            paths::LIFECYCLE_TEMPLATE.0,
            Permission::Read,
            Doc::new("A lifecycle job template of the environment's cloud, whole")
                .answers::<LifecycleTemplate>(StatusCode::OK),
            get_template,
        );
}

/// The templates of the cloud the environment's cluster runs in.
async fn templates_of(
    state: &AppState,
    caller: &Caller,
    environment_id: Uuid,
) -> ApiResult<Vec<LifecycleTemplate>> {
    let environment = find_environment(state, caller, environment_id).await?;
    Ok(environment
        .cloud_provider
        .cloud()
        .map(lifecycle_templates::for_cloud)
        .unwrap_or_default())
}

async fn list_templates(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(environment_id): ApiPath<Uuid>,
) -> ApiResult<Json<List<LifecycleTemplateSummary>>> {
    let templates = templates_of(&state, &caller, environment_id).await?;
    Ok(Json(List::new(
        templates.iter().map(LifecycleTemplate::summary).collect(),
    )))
}

/// 404 for a template of another cloud than the environment's.
async fn get_template(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath((environment_id, template_id)): ApiPath<(Uuid, Uuid)>,
) -> ApiResult<Json<LifecycleTemplate>> {
    templates_of(&state, &caller, environment_id)
        .await?
        .into_iter()
        .find(|template| template.id == template_id)
        .map(Json)
        .ok_or_else(|| ApiError::not_found("lifecycle template"))
}
