//! Alert receivers (spec 2.13) at `/alert-receivers`: the organization comes in the body on
//! creation and in `?organization_id=` when listing; a Slack receiver's `webhook_url` and an
//! e-mail receiver's `auth_password` are kept as secrets. `validate` sends a test message, to a
//! receiver saved or about to be, and answers whether it went.

use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::Json;
use chrono::Utc;
use platform_api::audit::{EventType, SubTargetType, TargetType};
use platform_api::paths;
use platform_api::{
    AlertReceiver, AlertReceiverCreation, AlertReceiverCreationValidation, AlertReceiverType,
    AlertReceiverUpdate, AlertReceiverValidation, EmailRelay, FieldError, List, TEST_MESSAGE,
};
use serde::Deserialize;
use uuid::Uuid;

use crate::audit::{self, Change, Target};
use crate::caller::{Caller, Permission};
use crate::db;
use crate::error::{ApiError, ApiJson, ApiPath, ApiQuery, ApiResult};
use crate::notify::{self, AUTH_PASSWORD, WEBHOOK_URL};
use crate::routes::doc::{self, Doc};
use crate::routes::own_organization;
use crate::routes::RouteTable;
use crate::seal::Secrets;
use crate::state::AppState;
use crate::store::organization_resources::{self as store, Entry, Kind};

const KIND: Kind = store::ALERT_RECEIVERS;

pub fn register(routes: &mut RouteTable) {
    let receivers = paths::ALERT_RECEIVERS;
    let receiver = paths::ALERT_RECEIVER;
    routes
        .add(
            Method::GET,
            paths::ORGANIZATION_ALERT_RECEIVERS,
            Permission::Read,
            Doc::new("List the alert receivers of an organization")
                .answers_list_of::<AlertReceiver>(StatusCode::OK),
            |state: State<AppState>, caller: Caller, ApiPath(organization_id): ApiPath<Uuid>| {
                list_receivers(state, caller, organization_id)
            },
        )
        .add(
            Method::GET,
            receivers,
            Permission::Read,
            Doc::new("List the alert receivers of an organization (`?organization_id=`, the caller's by default)")
                .query("organization_id", false, doc::uuid())
                .answers_list_of::<AlertReceiver>(StatusCode::OK),
            |state: State<AppState>, caller: Caller, ApiQuery(query): ApiQuery<ListQuery>| {
                let organization_id = query.organization_id.unwrap_or(caller.organization_id);
                list_receivers(state, caller, organization_id)
            },
        )
        .add(
            Method::POST,
            receivers,
            Permission::Write,
            Doc::new("Create an alert receiver")
                .body::<AlertReceiverCreation>()
                .answers::<AlertReceiver>(StatusCode::CREATED),
            create_receiver,
        )
        .add(
            Method::GET,
            receiver,
            Permission::Read,
            Doc::new("Read an alert receiver").answers::<AlertReceiver>(StatusCode::OK),
            get_receiver,
        )
        .add(
            Method::PUT,
            receiver,
            Permission::Write,
            Doc::new("Update an alert receiver; a webhook_url left out is kept")
                .body::<AlertReceiverUpdate>()
                .answers::<AlertReceiver>(StatusCode::OK),
            update_receiver,
        )
        .add(
            Method::DELETE,
            receiver,
            Permission::Admin,
            Doc::new("Delete an alert receiver").answers_nothing(StatusCode::NO_CONTENT),
            delete_receiver,
        )
        .add(
            Method::POST,
            paths::ALERT_RECEIVERS_VALIDATE,
            Permission::Write,
            Doc::new(
                "Send a test message to an alert receiver before it is saved: 200 when it went, \
                 400 saying why not",
            )
            .body::<AlertReceiverCreationValidation>()
            .answers_nothing(StatusCode::OK),
            validate_new_receiver,
        )
        .add(
            Method::POST,
            paths::ALERT_RECEIVER_VALIDATE,
            Permission::Write,
            Doc::new(
                "Send a test message to an alert receiver: 200 when it went, 400 saying why not",
            )
            .body::<AlertReceiverValidation>()
            .answers_nothing(StatusCode::OK),
            validate_receiver,
        );
}

/// The places the receiver sends to, checked against the target policy.
async fn check_targets(state: &AppState, receiver: &AlertReceiverUpdate) -> Vec<FieldError> {
    let mut refused = Vec::new();
    if let Some(url) = &receiver.webhook_url {
        refused.extend(state.targets.check("webhook_url", url).await.err());
    }
    if let Some(smarthost) = &receiver.email.relay.smarthost {
        let server = format!("smtp://{}", smarthost.trim());
        refused.extend(state.targets.check("smarthost", &server).await.err());
    }
    refused
}

#[derive(Deserialize)]
struct ListQuery {
    organization_id: Option<Uuid>,
}

async fn list_receivers(
    State(state): State<AppState>,
    caller: Caller,
    organization_id: Uuid,
) -> ApiResult<Json<List<AlertReceiver>>> {
    own_organization(&caller, organization_id)?;
    let receivers = store::list(&state.db, KIND, organization_id).await?;
    Ok(Json(List::new(
        receivers
            .into_iter()
            .map(|(_, receiver)| receiver)
            .collect(),
    )))
}

async fn create_receiver(
    State(state): State<AppState>,
    caller: Caller,
    ApiJson(request): ApiJson<AlertReceiverCreation>,
) -> ApiResult<(StatusCode, Json<AlertReceiver>)> {
    let mut problems = request.validate().err().unwrap_or_default();
    if request.organization_id != caller.organization_id {
        problems.insert(
            0,
            FieldError::new("organization_id", "must be the organization of your token"),
        );
    }
    if problems.is_empty() {
        problems.extend(check_targets(&state, &request.receiver).await);
    }
    if !problems.is_empty() {
        return Err(ApiError::invalid(problems));
    }
    let (id, now) = (Uuid::new_v4(), Utc::now());
    let organization_id = request.organization_id;
    let (receiver, secrets) = build(id, now, None, request.receiver);
    let secrets = state.sealer.seal_all(secrets);
    let entry = Entry {
        id,
        name: &receiver.name,
        record: &receiver,
        secrets: &secrets,
        at: now,
    };
    let mut tx = db::begin_write(&state.writes).await?;
    store::insert(&mut tx, KIND, organization_id, entry).await?;
    let created = change(EventType::Create, &receiver)
        .after(&receiver)
        .secrets(secrets.keys().cloned());
    audit::record(&mut tx, &caller, created).await?;
    tx.commit().await?;
    Ok((StatusCode::CREATED, Json(receiver)))
}

async fn get_receiver(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<Uuid>,
) -> ApiResult<Json<AlertReceiver>> {
    let stored = store::find(&state.db, KIND, caller.organization_id, id).await?;
    Ok(Json(stored.record))
}

async fn update_receiver(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<Uuid>,
    ApiJson(request): ApiJson<AlertReceiverUpdate>,
) -> ApiResult<Json<AlertReceiver>> {
    request.validate().map_err(ApiError::invalid)?;
    let refused = check_targets(&state, &request).await;
    if !refused.is_empty() {
        return Err(ApiError::invalid(refused));
    }
    let mut tx = db::begin_write(&state.writes).await?;
    let stored = store::find::<AlertReceiver>(&mut *tx, KIND, caller.organization_id, id).await?;
    let now = Utc::now();
    let (receiver, secrets) = build(id, stored.record.created_at, Some(now), request);
    let changed_secrets: Vec<String> = secrets.keys().cloned().collect();
    let mut kept = stored.secrets;
    kept.extend(state.sealer.seal_all(secrets));
    let entry = Entry {
        id,
        name: &receiver.name,
        record: &receiver,
        secrets: &kept,
        at: now,
    };
    store::update(&mut tx, KIND, entry).await?;
    let updated = change(EventType::Update, &receiver)
        .before(&stored.record)
        .after(&receiver)
        .secrets(changed_secrets);
    audit::record(&mut tx, &caller, updated).await?;
    tx.commit().await?;
    Ok(Json(receiver))
}

async fn delete_receiver(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<Uuid>,
) -> ApiResult<StatusCode> {
    let mut tx = db::begin_write(&state.writes).await?;
    let stored = store::find::<AlertReceiver>(&mut *tx, KIND, caller.organization_id, id).await?;
    store::delete(&mut tx, id).await?;
    let deleted = change(EventType::Delete, &stored.record).before(&stored.record);
    audit::record(&mut tx, &caller, deleted).await?;
    tx.commit().await?;
    Ok(StatusCode::NO_CONTENT)
}

/// A change to an alert receiver, a part of the organization, for the audit log.
fn change(event_type: EventType, receiver: &AlertReceiver) -> Change {
    let target = Target::new(TargetType::Organization, receiver.id, &receiver.name);
    Change::new(event_type, target).of(SubTargetType::AlertReceiver)
}

fn build(
    id: Uuid,
    created_at: chrono::DateTime<Utc>,
    updated_at: Option<chrono::DateTime<Utc>>,
    request: AlertReceiverUpdate,
) -> (AlertReceiver, Secrets) {
    let password = request.email.auth_password.clone();
    let secrets = [
        (
            WEBHOOK_URL,
            request.webhook_url.map(|url| url.trim().to_string()),
        ),
        (AUTH_PASSWORD, password),
    ]
    .into_iter()
    .filter_map(|(name, value)| Some((name.to_string(), value?)))
    .collect();
    let receiver = AlertReceiver {
        id,
        created_at,
        updated_at,
        name: request.name.trim().to_string(),
        description: request.description,
        receiver_type: request.receiver_type,
        send_resolved: request.send_resolved,
        owner: request.owner,
        severity: request.severity,
        email: match request.receiver_type {
            AlertReceiverType::Email => request.email.answered(),
            _ => EmailRelay::default(),
        },
    };
    (receiver, secrets)
}

/// A test notice with `message`, or the default one.
fn test_notice(message: Option<String>) -> notify::Notice {
    notify::Notice {
        subject: "Test message from the platform".to_string(),
        text: message
            .filter(|message| !message.trim().is_empty())
            .unwrap_or_else(|| TEST_MESSAGE.to_string()),
    }
}

/// 200 when the test went; 400 saying why it did not.
async fn sent(
    state: &AppState,
    receiver: &notify::Receiver,
    message: Option<String>,
) -> ApiResult<StatusCode> {
    if let Some(text) = &message {
        if let Some(refused) = platform_api::rules::description("message", Some(text)) {
            return Err(ApiError::invalid(vec![refused]));
        }
    }
    state
        .notifier
        .send(receiver, &test_notice(message))
        .await
        .map(|()| StatusCode::OK)
        .map_err(|why| ApiError::invalid(vec![FieldError::new("alert_receiver", why)]))
}

async fn validate_receiver(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<Uuid>,
    ApiJson(request): ApiJson<AlertReceiverValidation>,
) -> ApiResult<StatusCode> {
    let stored = store::find::<AlertReceiver>(&state.db, KIND, caller.organization_id, id).await?;
    let receiver = notify::Receiver::opened(&stored.record, &stored.secrets, &state.sealer)
        .map_err(ApiError::internal)?;
    sent(&state, &receiver, request.message).await
}

async fn validate_new_receiver(
    State(state): State<AppState>,
    caller: Caller,
    ApiJson(request): ApiJson<AlertReceiverCreationValidation>,
) -> ApiResult<StatusCode> {
    let creation = request.alert_receiver;
    let mut problems = creation.validate().err().unwrap_or_default();
    if creation.organization_id != caller.organization_id {
        problems.insert(
            0,
            FieldError::new(
                "alert_receiver.organization_id",
                "must be the organization of your token",
            ),
        );
    }
    if problems.is_empty() {
        problems.extend(check_targets(&state, &creation.receiver).await);
    }
    if !problems.is_empty() {
        return Err(ApiError::invalid(problems));
    }
    let receiver = notify::Receiver {
        kind: creation.receiver.receiver_type,
        webhook_url: creation.receiver.webhook_url.clone(),
        email: creation
            .receiver
            .email
            .auth_password
            .clone()
            .map(|password| (creation.receiver.email.answered(), password)),
    };
    sent(&state, &receiver, request.message).await
}
