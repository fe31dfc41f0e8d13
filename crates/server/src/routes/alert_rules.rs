//! Alert rules (`/alert-rules`, the organization's list at `/organization/{id}/alert-rules`):
//! what a rule watches, its condition (PromQL the server evaluates) and who is told; evaluated by
//! `crate::alerts` at each round.

use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::Json;
use chrono::Utc;
use platform_api::audit::{EventType, SubTargetType, TargetType};
use platform_api::paths;
use platform_api::{
    AlertReceiver, AlertRuleCreationRequest, AlertRuleEditRequest, AlertRuleResponse,
    AlertRuleState, AlertTargetType, FieldError, List,
};
use uuid::Uuid;

use crate::audit::{self, Change, Target};
use crate::caller::{Caller, Permission};
use crate::db;
use crate::error::{ApiError, ApiJson, ApiPath, ApiResult};
use crate::routes::organization::clusters::Clusters;
use crate::routes::organization::resources::OrganizationResource;
use crate::routes::own_organization;
use crate::routes::{Doc, RouteTable};
use crate::state::AppState;
use crate::store::alert_rules::{self as store, RuleRow};
use crate::store::fleet;
use crate::store::organization_resources::{self as resources, ALERT_RECEIVERS};
use crate::store::runs;
use crate::telemetry::promql;
use crate::untrusted;

pub fn register(routes: &mut RouteTable) {
    let rule = paths::ALERT_RULE;
    routes
        .add(
            Method::POST,
            paths::ALERT_RULES,
            Permission::Write,
            Doc::new(
                "Create an alert rule: a PromQL condition over a cluster's series, its receivers",
            )
            .body::<AlertRuleCreationRequest>()
            .answers::<AlertRuleResponse>(StatusCode::CREATED),
            create_rule,
        )
        .add(
            Method::GET,
            rule,
            Permission::Read,
            Doc::new("Read an alert rule, with where its evaluation stands")
                .answers::<AlertRuleResponse>(StatusCode::OK),
            get_rule,
        )
        .add(
            Method::PUT,
            rule,
            Permission::Write,
            Doc::new("Update an alert rule: evaluated again at the next round")
                .body::<AlertRuleEditRequest>()
                .answers::<AlertRuleResponse>(StatusCode::OK),
            update_rule,
        )
        .add(
            Method::DELETE,
            rule,
            Permission::Admin,
            Doc::new("Delete an alert rule").answers_nothing(StatusCode::NO_CONTENT),
            delete_rule,
        )
        .add(
            Method::GET,
            paths::ORGANIZATION_ALERT_RULES,
            Permission::Read,
            Doc::new("The organization's alert rules, each with its state")
                .answers_list_of::<AlertRuleResponse>(StatusCode::OK),
            list_rules,
        );
}

/// The rule's condition reads as PromQL (parsed on a parser's thread), and its receivers are
/// the organization's.
async fn check(
    state: &AppState,
    organization_id: Uuid,
    rule: &AlertRuleEditRequest,
) -> ApiResult<Vec<FieldError>> {
    let mut problems = rule.validate().err().unwrap_or_default();
    if problems
        .iter()
        .all(|problem| problem.field != "condition.promql")
    {
        let expression = rule.condition.expression();
        let checked = untrusted::offload(move || {
            Ok::<_, ApiError>(promql::check_rule(&expression).map(|_| ()))
        })
        .await?;
        if let Err(error) = checked {
            problems.push(FieldError::new("condition.promql", error.message));
        }
    }
    for (index, id) in rule.alert_receiver_ids.iter().enumerate() {
        let found =
            resources::find::<AlertReceiver>(&state.db, ALERT_RECEIVERS, organization_id, *id)
                .await;
        if found.is_err() {
            problems.push(FieldError::new(
                format!("alert_receiver_ids[{index}]"),
                "is not an alert receiver of this organization",
            ));
        }
    }
    Ok(problems)
}

/// The rule's answer: the service it watches named when it is one.
async fn answered(state: &AppState, rule: &RuleRow) -> ApiResult<AlertRuleResponse> {
    let service = fleet::services_of_ids(&state.db, rule.organization_id, &[rule.target_id])
        .await?
        .pop();
    rule.answered(service)
}

/// A change to an alert rule, for the audit log.
fn change(event_type: EventType, id: Uuid, name: &str) -> Change {
    Change::new(event_type, Target::new(TargetType::Organization, id, name))
        .of(SubTargetType::AlertRule)
}

async fn create_rule(
    State(state): State<AppState>,
    caller: Caller,
    ApiJson(request): ApiJson<AlertRuleCreationRequest>,
) -> ApiResult<(StatusCode, Json<AlertRuleResponse>)> {
    let organization_id = caller.organization_id;
    let mut problems = check(&state, organization_id, &request.rule).await?;
    if request.organization_id != organization_id {
        problems.insert(
            0,
            FieldError::new("organization_id", "must be the organization of your token"),
        );
    }
    let stored_as = Clusters::KIND.stored_as;
    if !runs::cluster_of(&state.db, organization_id, request.cluster_id, stored_as).await? {
        problems.push(FieldError::new(
            "cluster_id",
            "is not a cluster of this organization",
        ));
    }
    let target = &request.target;
    let watched = match target.target_type {
        AlertTargetType::Cluster => target.target_id == request.cluster_id,
        AlertTargetType::Environment => {
            runs::environment_on_cluster(
                &state.db,
                organization_id,
                target.target_id,
                request.cluster_id,
            )
            .await?
        }
        _ => fleet::services_of_ids(&state.db, organization_id, &[target.target_id])
            .await?
            .first()
            .is_some_and(|service| service.cluster_id == request.cluster_id),
    };
    if !watched {
        problems.push(FieldError::new(
            "target.target_id",
            "is not a service, an environment or the cluster of this organization on the cluster",
        ));
    }
    if !problems.is_empty() {
        return Err(ApiError::invalid(problems));
    }
    let now = Utc::now();
    let rule = RuleRow {
        id: Uuid::new_v4(),
        organization_id,
        cluster_id: request.cluster_id,
        target_type: target.target_type,
        target_id: target.target_id,
        definition: serde_json::to_string(&request.rule).map_err(ApiError::internal)?,
        state: AlertRuleState::Undeployed,
        holds_since: None,
        starts_at: None,
        notifications: "[]".to_string(),
        evaluated: false,
        failure: None,
        created_at: now,
        updated_at: None,
    };
    let mut tx = db::begin_write(&state.writes).await?;
    store::insert(&mut tx, &rule).await?;
    let created = change(EventType::Create, rule.id, &request.rule.name).after(&request.rule);
    audit::record(&mut tx, &caller, created).await?;
    tx.commit().await?;
    Ok((StatusCode::CREATED, Json(answered(&state, &rule).await?)))
}

async fn get_rule(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<Uuid>,
) -> ApiResult<Json<AlertRuleResponse>> {
    let rule = store::find(&state.db, caller.organization_id, id).await?;
    Ok(Json(answered(&state, &rule).await?))
}

async fn update_rule(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<Uuid>,
    ApiJson(request): ApiJson<AlertRuleEditRequest>,
) -> ApiResult<Json<AlertRuleResponse>> {
    let problems = check(&state, caller.organization_id, &request).await?;
    if !problems.is_empty() {
        return Err(ApiError::invalid(problems));
    }
    let definition = serde_json::to_string(&request).map_err(ApiError::internal)?;
    let now = Utc::now();
    let mut tx = db::begin_write(&state.writes).await?;
    let before = store::find(&mut *tx, caller.organization_id, id).await?;
    store::redefine(&mut tx, id, &definition, now).await?;
    let updated = change(EventType::Update, id, &request.name)
        .before(&before.definition()?)
        .after(&request);
    audit::record(&mut tx, &caller, updated).await?;
    tx.commit().await?;
    let rule = RuleRow {
        definition,
        evaluated: false,
        failure: None,
        updated_at: Some(now),
        ..before
    };
    Ok(Json(answered(&state, &rule).await?))
}

async fn delete_rule(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<Uuid>,
) -> ApiResult<StatusCode> {
    let mut tx = db::begin_write(&state.writes).await?;
    let rule = store::find(&mut *tx, caller.organization_id, id).await?;
    store::delete(&mut tx, id).await?;
    let definition = rule.definition()?;
    let deleted = change(EventType::Delete, id, &definition.name).before(&definition);
    audit::record(&mut tx, &caller, deleted).await?;
    tx.commit().await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn list_rules(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(organization_id): ApiPath<Uuid>,
) -> ApiResult<Json<List<AlertRuleResponse>>> {
    own_organization(&caller, organization_id)?;
    let rules = store::of_organization(&state.db, organization_id).await?;
    let watched: Vec<Uuid> = rules.iter().map(|rule| rule.target_id).collect();
    let services = fleet::services_of_ids(&state.db, organization_id, &watched).await?;
    let answered = rules
        .iter()
        .map(|rule| {
            let service = services.iter().find(|s| s.id == rule.target_id).cloned();
            rule.answered(service)
        })
        .collect::<ApiResult<Vec<_>>>()?;
    Ok(Json(List::new(answered)))
}
