//! Organization webhooks (spec 2.12): ADMIN only; the signing secret is never returned, only
//! `target_secret_set`.

use platform_api::audit::{SubTargetType, TargetType};
use platform_api::paths::{self, Template};

use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::Json;
use chrono::{DateTime, Utc};
use platform_api::{
    DeliveryStatus, EnvironmentMode, EventPayload, FieldError, List, ServiceState, ServiceType,
    StatusAction, Webhook, WebhookDelivery, WebhookEvent, WebhookEventSent, WebhookRequest,
};
use uuid::Uuid;

use crate::caller::{Caller, Permission};
use crate::error::{ApiError, ApiPath, ApiResult};
use crate::events::delivery::due_at;
use crate::events::record_delivery;
use crate::routes::organization::resources::{self, OrganizationResource};
use crate::routes::own_organization;
use crate::routes::{Doc, RouteTable};
use crate::seal::Secrets;
use crate::state::AppState;
use crate::store::organization_resources::{self as store, Kind};
use crate::store::{organizations, webhook_deliveries};

/// How many deliveries the list shows, newest first.
const DELIVERIES_LISTED: i64 = 100;

pub struct Webhooks;

impl OrganizationResource for Webhooks {
    const KIND: Kind = store::WEBHOOKS;
    const AUDITED_AS: (TargetType, Option<SubTargetType>) = (TargetType::Webhook, None);
    const COLLECTION: Template = paths::WEBHOOKS;
    const ITEM: Template = paths::WEBHOOK;
    const READ: Permission = Permission::Admin;
    const WRITE: Permission = Permission::Admin;

    type Request = WebhookRequest;
    type Record = Webhook;

    fn validate(request: &Self::Request, _kept: &[&str]) -> Result<(), Vec<FieldError>> {
        request.validate()
    }

    fn build(
        id: Uuid,
        _organization_id: Uuid,
        created_at: DateTime<Utc>,
        updated_at: Option<DateTime<Utc>>,
        request: Self::Request,
        _previous: Option<&Self::Record>,
    ) -> (Self::Record, Secrets) {
        let secrets = request
            .target_secret
            .filter(|secret| !secret.is_empty())
            .map(|secret| (store::WEBHOOK_TARGET_SECRET.to_string(), secret))
            .into_iter()
            .collect();
        let webhook = Webhook {
            id,
            created_at,
            updated_at,
            kind: request.kind,
            target_url: request.target_url.trim().to_string(),
            target_secret_set: false,
            description: request.description,
            enabled: request.enabled,
            events: request.events,
            project_names_filter: request.project_names_filter,
            environment_types_filter: request.environment_types_filter,
        };
        (webhook, secrets)
    }

    /// An empty `target_secret` removes the secret: deliveries go unsigned from then on.
    fn keeps_secrets(_previous: &Self::Record, request: &Self::Request) -> bool {
        request.target_secret.as_deref() != Some("")
    }

    /// Webhooks have no name: each is its own.
    fn name(record: &Self::Record) -> String {
        record.id.to_string()
    }

    fn created_at(record: &Self::Record) -> DateTime<Utc> {
        record.created_at
    }

    fn targets(request: &Self::Request) -> Vec<(&'static str, &str)> {
        vec![("target_url", request.target_url.trim())]
    }

    fn reflect_secrets(record: &mut Self::Record, secrets: &Secrets) {
        record.target_secret_set = secrets.contains_key(store::WEBHOOK_TARGET_SECRET);
    }
}

pub fn register(routes: &mut RouteTable) {
    resources::register::<Webhooks>(routes);
    routes.add(
        Method::POST,
        paths::WEBHOOK_TEST,
        Permission::Admin,
        Doc::new(
            "Send a test event to an enabled webhook (409 when disabled): its first event, about \
             an example service, signed and retried like any other (this server's; the \
             production document has none)",
        )
        .answers::<WebhookDelivery>(StatusCode::ACCEPTED),
        send_test_event,
    );
    routes.add(
        Method::GET,
        paths::WEBHOOK_DELIVERIES,
        Permission::Admin,
        Doc::new(format!(
            "The {DELIVERIES_LISTED} latest events sent to a webhook, newest first, each with its attempts"
        ))
        .answers_list_of::<WebhookDelivery>(StatusCode::OK),
        list_deliveries,
    );
    routes.add(
        Method::GET,
        paths::WEBHOOK_EVENTS,
        Permission::Admin,
        Doc::new(format!(
            "The {DELIVERIES_LISTED} latest events sent to a webhook, newest first, with the target's answer to the latest attempt (the production document's list)"
        ))
        .answers_list_of::<WebhookEventSent>(StatusCode::OK),
        list_events_sent,
    );
}

async fn send_test_event(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath((organization_id, webhook_id)): ApiPath<(Uuid, Uuid)>,
) -> ApiResult<(StatusCode, Json<WebhookDelivery>)> {
    own_organization(&caller, organization_id)?;
    let webhook =
        store::find::<Webhook>(&state.db, Webhooks::KIND, organization_id, webhook_id).await?;
    // A disabled webhook is sent nothing, tests included: it would be given up at delivery.
    if !webhook.record.enabled {
        return Err(ApiError::conflict(
            "The webhook is disabled: enable it to send a test event.",
        ));
    }
    let event = webhook
        .record
        .events
        .first()
        .copied()
        .unwrap_or(WebhookEvent::DeploymentStarted);
    let organization_name = organizations::name(&state.db, organization_id).await?;
    let example = Uuid::nil();
    let payload = EventPayload {
        organization_id,
        organization_name,
        project_id: example,
        project_name: "example-project".into(),
        environment_id: example,
        environment_name: "example-environment".into(),
        environment_mode: EnvironmentMode::Development,
        service_id: example,
        service_name: "example-service".into(),
        service_type: ServiceType::Application,
        application_id: Some(example),
        action: StatusAction::Deploy,
        state: ServiceState::Deploying,
        execution_id: "test-event".into(),
        git_commit_id: None,
    };
    let id = Uuid::new_v4();
    let created_at = Utc::now();
    let body = serde_json::to_string(&payload).map_err(ApiError::internal)?;
    record_delivery(&state.db, id, webhook_id, event, &body, created_at).await?;
    state.engine.events_recorded.notify_one();
    Ok((
        StatusCode::ACCEPTED,
        Json(WebhookDelivery {
            id,
            webhook_id,
            event_type: event,
            created_at,
            status: DeliveryStatus::Pending,
            outcome: None,
            next_attempt_at: Some(created_at),
            attempts: Vec::new(),
            payload,
        }),
    ))
}

async fn list_events_sent(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath((organization_id, webhook_id)): ApiPath<(Uuid, Uuid)>,
) -> ApiResult<Json<List<WebhookEventSent>>> {
    own_organization(&caller, organization_id)?;
    let webhook =
        store::find::<Webhook>(&state.db, Webhooks::KIND, organization_id, webhook_id).await?;
    let rows = webhook_deliveries::latest(&state.db, webhook_id, DELIVERIES_LISTED).await?;
    let sent = rows
        .into_iter()
        .map(|row| {
            Ok(WebhookEventSent {
                id: row.id,
                created_at: row.attempted_at,
                kind: webhook.record.kind,
                matched_event: row.event_type,
                target_url_used: webhook.record.target_url.clone(),
                request: serde_json::from_str(&row.payload).map_err(ApiError::internal)?,
                target_response_status_code: row.status_code.unwrap_or(0),
                target_response_body: row.error,
            })
        })
        .collect::<ApiResult<_>>()?;
    Ok(Json(List::new(sent)))
}

async fn list_deliveries(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath((organization_id, webhook_id)): ApiPath<(Uuid, Uuid)>,
) -> ApiResult<Json<List<WebhookDelivery>>> {
    own_organization(&caller, organization_id)?;
    store::find::<Webhook>(&state.db, Webhooks::KIND, organization_id, webhook_id).await?;
    let rows = webhook_deliveries::deliveries(&state.db, webhook_id, DELIVERIES_LISTED).await?;
    let mut attempts =
        webhook_deliveries::attempts_by_delivery(&state.db, webhook_id, DELIVERIES_LISTED).await?;
    let deliveries = rows
        .into_iter()
        .map(|row| {
            let status = row.status;
            Ok(WebhookDelivery {
                attempts: attempts.remove(&row.id).unwrap_or_default(),
                id: row.id,
                webhook_id,
                event_type: row.event_type,
                created_at: row.created_at,
                next_attempt_at: (status == DeliveryStatus::Pending)
                    .then(|| due_at(row.next_attempt_at))
                    .flatten(),
                status,
                outcome: row.outcome,
                payload: serde_json::from_str(&row.payload).map_err(ApiError::internal)?,
            })
        })
        .collect::<ApiResult<_>>()?;
    Ok(Json(List::new(deliveries)))
}
