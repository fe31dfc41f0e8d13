//! Auto-deploy of the services run from an image (`POST /organization/{id}/container/deploy`,
//! `/job/deploy`): a new tag of an image, pushed to a registry, is announced here, and every
//! service with `auto_deploy` that runs the image at another tag is deployed at it, all or none.

use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::Json;
use platform_api::audit::EventType;
use platform_api::{Containers, DeployRequest, ImageAutoDeployRequest, ImagePaths, Jobs, Status};
use uuid::Uuid;

use crate::audit::{self, Change, Target};
use crate::caller::{Caller, Permission};
use crate::error::{ApiError, ApiJson, ApiPath, ApiResult};
use crate::routes::own_organization;
use crate::routes::services::actions::prepare_deploy;
use crate::routes::services::resource::ServiceResource;
use crate::routes::{Doc, RouteTable};
use crate::state::AppState;
use crate::store::services;

/// Where a kind's record holds the image it runs and its tag.
trait RunsImage: ServiceResource {
    const IMAGE: ImagePaths;
    /// The path's word for the kind.
    const PATH: &'static str;
}

impl RunsImage for Containers {
    const IMAGE: ImagePaths = ImagePaths::CONTAINER;
    const PATH: &'static str = "container";
}

impl RunsImage for Jobs {
    const IMAGE: ImagePaths = ImagePaths::JOB;
    const PATH: &'static str = "job";
}

pub fn register(routes: &mut RouteTable) {
    kind::<Containers>(routes);
    kind::<Jobs>(routes);
}

fn kind<R: RunsImage>(routes: &mut RouteTable) {
    let what = R::WHAT;
    routes.add(
        Method::POST,
        format!("/organization/{{organization_id}}/{}/deploy", R::PATH),
        Permission::Deploy,
        Doc::new(format!(
            "Deploy a new tag of an image: every {what} with auto-deploy that runs the image at \
             another tag is deployed at this one (all or none; 409 when one is busy, 404 when \
             none runs the image)"
        ))
        .body::<ImageAutoDeployRequest>()
        .answers::<Status>(StatusCode::ACCEPTED),
        deploy::<R>,
    );
}

async fn deploy<R: RunsImage>(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(organization_id): ApiPath<Uuid>,
    ApiJson(request): ApiJson<ImageAutoDeployRequest>,
) -> ApiResult<(StatusCode, Json<Status>)> {
    own_organization(&caller, organization_id)?;
    request.validate().map_err(ApiError::invalid)?;
    let candidates = services::running_image_elsewhere(
        &state.db,
        organization_id,
        R::TYPE,
        R::IMAGE,
        request.image_name.trim(),
        request.tag.trim(),
    )
    .await?;
    let mut prepared = Vec::new();
    for id in candidates {
        let deploy = DeployRequest {
            image_tag: Some(request.tag.clone()),
            ..DeployRequest::default()
        };
        match prepare_deploy::<R>(&state, &caller, id, deploy).await {
            Ok(ready) => prepared.push((id, ready)),
            // A service the caller's role does not read is not theirs to deploy.
            Err(refused) if refused.status() == StatusCode::NOT_FOUND => {}
            Err(refused) => return Err(refused),
        }
    }
    if prepared.is_empty() {
        return Err(ApiError::none_match(format!(
            "No {} of yours with auto-deploy runs {} at another tag.",
            R::WHAT,
            request.image_name.trim()
        )));
    }
    let mut tx = state.engine.begin().await?;
    let mut started = Vec::new();
    let mut first_status = None;
    for (id, ready) in prepared {
        let queued = ready.queue(&state, &mut tx, &caller, None).await?;
        let target = Target::service(&mut tx, id).await?;
        let change = Change::new(EventType::TriggerDeploy, target).after(&request);
        audit::record(&mut tx, &caller, change).await?;
        first_status.get_or_insert(queued.status);
        started.push(queued.deployment_id);
    }
    tx.commit().await?;
    for deployment_id in started {
        state.engine.start(deployment_id);
    }
    let status = first_status.ok_or_else(|| ApiError::internal("no service was deployed"))?;
    Ok((StatusCode::ACCEPTED, Json(status)))
}
