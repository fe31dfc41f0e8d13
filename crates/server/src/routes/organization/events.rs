//! `GET /organization/{id}/events`: the audit log, in the production document's shape.

use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode};
use axum::Json;
use platform_api::audit::{
    EventTargets, EventType, OrganizationEventList, Origin, SubTargetType, TargetLevel, TargetType,
    TargetsQuery, EVENT_PAGE_SIZE_MAX,
};
use platform_api::paths;
use uuid::Uuid;

use crate::audit;
use crate::caller::{Caller, Permission};
use crate::error::{ApiPath, ApiQuery, ApiResult};
use crate::routes::doc::{self, Doc};
use crate::routes::own_organization;
use crate::routes::RouteTable;
use crate::state::AppState;

pub fn register(routes: &mut RouteTable) {
    routes.add(
        Method::GET,
        paths::ORGANIZATION_EVENTS,
        Permission::Read,
        Doc::new(
            "The changes made through the API, newest first: `links.next` leads to older ones, \
             `links.previous` to newer ones (timestamps and tokens in nanoseconds since the Unix \
             epoch, or RFC 3339 for the timestamps)",
        )
        .query("pageSize", false, doc::integer(1, EVENT_PAGE_SIZE_MAX))
        .query("fromTimestamp", false, doc::text())
        .query("toTimestamp", false, doc::text())
        .query("continueToken", false, doc::text())
        .query("stepBackToken", false, doc::text())
        .query("eventType", false, doc::one_of_enum::<EventType>())
        .query("targetType", false, doc::one_of_enum::<TargetType>())
        .query("targetId", false, doc::uuid())
        .query("subTargetType", false, doc::one_of_enum::<SubTargetType>())
        .query("triggeredBy", false, doc::text())
        .query("origin", false, doc::one_of_enum::<Origin>())
        .query("serviceProjectId", false, doc::uuid())
        .query("serviceEnvironmentId", false, doc::uuid())
        .answers::<OrganizationEventList>(StatusCode::OK),
        list_events,
    )
    .add(
        Method::GET,
        "/organization/{organization_id}/targets",
        Permission::Read,
        Doc::new(
            "What the changes the caller may read name, by name, for the log's filters: their \
             targets, or (`targetLevelToFetch`) their projects or environments; filtered as the \
             events are",
        )
        .query("fromTimestamp", false, doc::text())
        .query("toTimestamp", false, doc::text())
        .query("eventType", false, doc::one_of_enum::<EventType>())
        .query("targetType", false, doc::one_of_enum::<TargetType>())
        .query("triggeredBy", false, doc::text())
        .query("origin", false, doc::one_of_enum::<Origin>())
        .query("projectId", false, doc::uuid())
        .query("environmentId", false, doc::uuid())
        .query("targetLevelToFetch", false, doc::one_of_enum::<TargetLevel>())
        .answers::<EventTargets>(StatusCode::OK),
        list_targets,
    );
}

async fn list_targets(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(organization_id): ApiPath<Uuid>,
    ApiQuery(query): ApiQuery<TargetsQuery>,
) -> ApiResult<Json<EventTargets>> {
    own_organization(&caller, organization_id)?;
    let targets = audit::targets(&state.db, organization_id, caller.level(), &query).await?;
    Ok(Json(EventTargets { targets }))
}

async fn list_events(
    State(state): State<AppState>,
    caller: Caller,
    headers: HeaderMap,
    ApiPath(organization_id): ApiPath<Uuid>,
    ApiQuery(query): ApiQuery<platform_api::audit::EventQuery>,
) -> ApiResult<Json<OrganizationEventList>> {
    own_organization(&caller, organization_id)?;
    // The links are absolute, as the document has them, at the server's public address.
    let base = format!(
        "{}/api/organization/{organization_id}/events",
        state.public.origin(&headers)
    );
    Ok(Json(
        audit::page(&state.db, organization_id, caller.level(), &base, &query).await?,
    ))
}
