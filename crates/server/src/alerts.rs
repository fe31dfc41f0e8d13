//! Alert rules evaluated, every rule at each round: its condition over the cluster's series at the
//! round's time. While the condition holds for less than the rule's `for_duration` the rule is
//! PENDING_NOTIFICATION; then it fires (TRIGGERED) and a notice goes to each receiver through the
//! webhook deliveries (their address checks and retries), NOTIFIED once every notice is
//! delivered; with none of its receivers left it is UNROUTED. When the condition stops holding it
//! is OK again, and the receivers that `send_resolved` are told. A disabled rule is UNDEPLOYED.
//! Every notice sent is in the audit log.

use std::collections::BTreeMap;
use std::sync::Arc;

use chrono::{DateTime, TimeDelta, Utc};
use platform_api::audit::{EventType, Origin, SubTargetType, TargetType};
use platform_api::{AlertReceiver, AlertRuleEditRequest, AlertRuleState, DeliveryStatus, WireEnum};
use sqlx::SqlitePool;
use uuid::Uuid;

use crate::audit::{self, Change, Target};
use crate::db;
use crate::engine::Engine;
use crate::events;
use crate::notify::Notice;
use crate::store::alert_rules::{self as store, Evaluation, RuleRow};
use crate::store::organization_resources::{self as resources, ALERT_RECEIVERS};
use crate::telemetry::{self, Telemetry};

/// Who the audit log names as sending the notices.
const SENT_BY: &str = "Alerting";

/// What a round needs.
#[derive(Clone)]
pub struct Alerting {
    pub db: SqlitePool,
    pub writes: SqlitePool,
    pub telemetry: Arc<Telemetry>,
    /// Rung when notices are recorded: the deliveries' worker sends them.
    pub deliveries: Arc<tokio::sync::Notify>,
}

/// One round at `at`: every rule evaluated, but those whose condition failed before (until they
/// are edited); how many changed state. The rules of one organization and cluster are evaluated
/// together on the rounds' own evaluators, each within its own work and time; what fails for
/// one group or one rule is logged and the round goes on to the others.
pub async fn once(alerting: &Alerting, at: DateTime<Utc>) -> anyhow::Result<usize> {
    let rules = store::all(&alerting.db).await?;
    let mut by_cluster: BTreeMap<(Uuid, Uuid), Vec<RuleRow>> = BTreeMap::new();
    for rule in rules.into_iter().filter(|rule| rule.failure.is_none()) {
        by_cluster
            .entry((rule.organization_id, rule.cluster_id))
            .or_default()
            .push(rule);
    }
    let mut changed = 0;
    for ((organization_id, cluster_id), rules) in by_cluster {
        match evaluate_group(alerting, (organization_id, cluster_id), &rules, at).await {
            Ok(group_changed) => changed += group_changed,
            Err(error) => {
                tracing::warn!(%organization_id, %cluster_id, %error, "alert rules were not evaluated this round")
            }
        }
    }
    Ok(changed)
}

/// The rules of one organization on one cluster, evaluated and settled; how many changed state.
/// A disabled rule is not evaluated; one whose condition fails is marked failed.
async fn evaluate_group(
    alerting: &Alerting,
    (organization_id, cluster_id): (Uuid, Uuid),
    rules: &[RuleRow],
    at: DateTime<Utc>,
) -> anyhow::Result<usize> {
    let definitions: Vec<AlertRuleEditRequest> = rules
        .iter()
        .map(|rule| rule.definition())
        .collect::<Result<_, _>>()?;
    let history = telemetry::load(&alerting.db, organization_id, cluster_id)
        .await
        .map_err(|refusal| anyhow::anyhow!("the fleet could not be read: {refusal:?}"))?;
    let expressions = definitions
        .iter()
        .map(|definition| {
            definition
                .enabled
                .then(|| definition.condition.expression())
        })
        .collect();
    let seconds = at.timestamp_millis() as f64 / 1000.0;
    let found = alerting
        .telemetry
        .instants(history, expressions, seconds)
        .await
        .map_err(|refusal| anyhow::anyhow!("the rules could not be evaluated: {refusal:?}"))?;
    let mut changed = 0;
    for ((rule, definition), values) in rules.iter().zip(&definitions).zip(found) {
        let values = match values {
            Ok(values) => values,
            Err(why) => {
                tracing::warn!(rule = %rule.id, %why, "an alert rule's condition failed: skipped until it is edited");
                let mut tx = db::begin_write(&alerting.writes).await?;
                store::failed(&mut tx, rule, &why).await?;
                tx.commit().await?;
                continue;
            }
        };
        if settle(alerting, rule, definition, &values, at).await? {
            changed += 1;
        }
    }
    Ok(changed)
}

/// Takes the rule one evaluation further; whether its state changed.
async fn settle(
    alerting: &Alerting,
    rule: &RuleRow,
    definition: &AlertRuleEditRequest,
    values: &[f64],
    at: DateTime<Utc>,
) -> anyhow::Result<bool> {
    let firing = rule.state.is_firing();
    let mut tx = db::begin_write(&alerting.writes).await?;
    let evaluation = if !definition.enabled {
        Evaluation {
            state: AlertRuleState::Undeployed,
            holds_since: None,
            starts_at: None,
            notifications: Vec::new(),
        }
    } else if values.is_empty() {
        if firing {
            let resolved = notice(definition, rule, values, false);
            notify(&mut tx, rule, definition, &resolved, true).await?;
        }
        Evaluation {
            state: AlertRuleState::Ok,
            holds_since: None,
            starts_at: None,
            notifications: Vec::new(),
        }
    } else {
        let holds_since = rule.holds_since.unwrap_or(at);
        let wanted =
            platform_api::history::iso_duration_seconds(&definition.for_duration).unwrap_or(0);
        if at - holds_since < TimeDelta::seconds(wanted) {
            Evaluation {
                state: AlertRuleState::PendingNotification,
                holds_since: Some(holds_since),
                starts_at: None,
                notifications: Vec::new(),
            }
        } else if firing {
            let delivered = all_delivered(&mut tx, &rule.notifications()).await?;
            Evaluation {
                state: match rule.state {
                    AlertRuleState::Triggered if delivered => AlertRuleState::Notified,
                    state => state,
                },
                holds_since: Some(holds_since),
                starts_at: rule.starts_at,
                notifications: rule.notifications(),
            }
        } else {
            let fired = notice(definition, rule, values, true);
            let notifications = notify(&mut tx, rule, definition, &fired, false).await?;
            Evaluation {
                state: if notifications.is_empty() {
                    AlertRuleState::Unrouted
                } else {
                    AlertRuleState::Triggered
                },
                holds_since: Some(holds_since),
                starts_at: Some(at),
                notifications,
            }
        }
    };
    let changed = evaluation.state != rule.state;
    store::evaluated(&mut tx, rule, &evaluation).await?;
    tx.commit().await?;
    if changed {
        alerting.deliveries.notify_one();
    }
    Ok(changed)
}

/// What the receivers are told: the rule fired (with the values found), or it was resolved.
fn notice(
    definition: &AlertRuleEditRequest,
    rule: &RuleRow,
    values: &[f64],
    fired: bool,
) -> Notice {
    let summary = definition
        .presentation
        .summary
        .as_deref()
        .map(|summary| format!("\n{summary}"))
        .unwrap_or_default();
    let runbook = definition
        .presentation
        .runbook_url
        .as_deref()
        .map(|url| format!("\nRunbook: {url}"))
        .unwrap_or_default();
    if fired {
        let highest = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        Notice {
            subject: format!(
                "[{}] {} is firing",
                definition.severity.label(),
                definition.name
            ),
            text: format!(
                "{}\nCondition: {}\nValue: {highest:.4}\nRule: {}{summary}{runbook}",
                definition.description,
                definition.condition.expression(),
                rule.id
            ),
        }
    } else {
        Notice {
            subject: format!("[Resolved] {}", definition.name),
            text: format!(
                "{} no longer holds.\nRule: {}{summary}{runbook}",
                definition.condition.expression(),
                rule.id
            ),
        }
    }
}

/// Records `notice` to each of the rule's receivers (only those that `send_resolved` for a
/// resolution), and an audit entry saying so: the deliveries recorded.
async fn notify(
    tx: &mut sqlx::SqliteConnection,
    rule: &RuleRow,
    definition: &AlertRuleEditRequest,
    notice: &Notice,
    resolved: bool,
) -> anyhow::Result<Vec<Uuid>> {
    let mut deliveries = Vec::new();
    let mut told = Vec::new();
    for receiver_id in &definition.alert_receiver_ids {
        let found = resources::find::<AlertReceiver>(
            &mut *tx,
            ALERT_RECEIVERS,
            rule.organization_id,
            *receiver_id,
        )
        .await;
        let Ok(receiver) = found else {
            continue;
        };
        if resolved && !receiver.record.send_resolved {
            continue;
        }
        let delivery = Uuid::new_v4();
        // Due now, whatever time the round evaluates at.
        events::record_notice(&mut *tx, delivery, *receiver_id, notice, Utc::now()).await?;
        deliveries.push(delivery);
        told.push(receiver.record.name);
    }
    if !told.is_empty() {
        let target = Target::new(TargetType::Organization, rule.id, &definition.name);
        let said = serde_json::json!({
            "state": if resolved { "RESOLVED" } else { "TRIGGERED" },
            "receivers": told,
            "subject": notice.subject,
        });
        let change = Change::new(EventType::AlertNotified, target)
            .of(SubTargetType::AlertRule)
            .after(&said);
        audit::record_as(
            tx,
            (rule.organization_id, SENT_BY),
            Origin::PlatformInternal,
            change,
        )
        .await?;
    }
    Ok(deliveries)
}

/// Whether every delivery is delivered.
async fn all_delivered(
    conn: &mut sqlx::SqliteConnection,
    deliveries: &[Uuid],
) -> sqlx::Result<bool> {
    let ids: Vec<String> = deliveries
        .iter()
        .map(|id| id.hyphenated().to_string())
        .collect();
    let statuses: Vec<DeliveryStatus> = sqlx::query_scalar(
        "SELECT status FROM webhook_deliveries WHERE id IN (SELECT value FROM json_each(?))",
    )
    .bind(serde_json::to_string(&ids).unwrap_or_default())
    .fetch_all(conn)
    .await?;
    Ok(statuses.len() == deliveries.len()
        && statuses
            .iter()
            .all(|status| *status == DeliveryStatus::Delivered))
}

/// Runs `once` every `every` while the engine takes work.
pub fn start(engine: Arc<Engine>, alerting: Alerting, every: std::time::Duration) {
    crate::rounds::every(engine, every, "the alert rules' round", move |_| {
        let alerting = alerting.clone();
        async move { once(&alerting, Utc::now()).await.map(drop) }
    });
}
