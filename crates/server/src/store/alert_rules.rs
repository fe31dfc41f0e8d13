//! Alert rules as stored: their definition and where their evaluation stands.

use chrono::{DateTime, Utc};
use platform_api::{
    AlertRuleEditRequest, AlertRuleResponse, AlertRuleSource, AlertRuleState, AlertTarget,
    AlertTargetType, ServiceLight,
};
use sqlx::{SqliteConnection, SqliteExecutor};
use uuid::fmt::Hyphenated;
use uuid::Uuid;

use crate::error::{ApiError, ApiResult};

/// A rule's row.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct RuleRow {
    #[sqlx(try_from = "Hyphenated")]
    pub id: Uuid,
    #[sqlx(try_from = "Hyphenated")]
    pub organization_id: Uuid,
    #[sqlx(try_from = "Hyphenated")]
    pub cluster_id: Uuid,
    pub target_type: AlertTargetType,
    #[sqlx(try_from = "Hyphenated")]
    pub target_id: Uuid,
    /// JSON: the rule as the API takes it.
    pub definition: String,
    pub state: AlertRuleState,
    pub holds_since: Option<DateTime<Utc>>,
    pub starts_at: Option<DateTime<Utc>>,
    /// JSON: the ids of the deliveries its firing sent.
    pub notifications: String,
    pub evaluated: bool,
    /// Why its condition could not be evaluated: skipped by the rounds until it is edited.
    pub failure: Option<String>,
    pub created_at: DateTime<Utc>,
    pub updated_at: Option<DateTime<Utc>>,
}

impl RuleRow {
    pub fn definition(&self) -> ApiResult<AlertRuleEditRequest> {
        serde_json::from_str(&self.definition).map_err(ApiError::internal)
    }

    pub fn notifications(&self) -> Vec<Uuid> {
        serde_json::from_str(&self.notifications).unwrap_or_default()
    }

    /// The rule as answered, with the service it watches when it is one.
    pub fn answered(&self, service: Option<ServiceLight>) -> ApiResult<AlertRuleResponse> {
        Ok(AlertRuleResponse {
            id: self.id,
            created_at: self.created_at,
            updated_at: self.updated_at,
            source: AlertRuleSource::Managed,
            state: self.state,
            organization_id: self.organization_id,
            cluster_id: self.cluster_id,
            target: AlertTarget {
                target_type: self.target_type,
                target_id: self.target_id,
                service,
            },
            rule: self.definition()?,
            is_up_to_date: self.evaluated,
            starts_at: self.starts_at,
        })
    }
}

const COLUMNS: &str =
    "id, organization_id, cluster_id, target_type, target_id, definition, state, \
    holds_since, starts_at, notifications, evaluated, failure, created_at, updated_at";

/// The organization's rules, oldest first.
pub async fn of_organization<'e>(
    db: impl SqliteExecutor<'e>,
    organization_id: Uuid,
) -> sqlx::Result<Vec<RuleRow>> {
    sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM alert_rules WHERE organization_id = ? ORDER BY created_at"
    ))
    .bind(organization_id.hyphenated())
    .fetch_all(db)
    .await
}

/// Every organization's rules, for a round of evaluation.
pub async fn all<'e>(db: impl SqliteExecutor<'e>) -> sqlx::Result<Vec<RuleRow>> {
    sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM alert_rules ORDER BY organization_id, created_at"
    ))
    .fetch_all(db)
    .await
}

/// The organization's rule with this id, or 404.
pub async fn find<'e>(
    db: impl SqliteExecutor<'e>,
    organization_id: Uuid,
    id: Uuid,
) -> ApiResult<RuleRow> {
    sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM alert_rules WHERE id = ? AND organization_id = ?"
    ))
    .bind(id.hyphenated())
    .bind(organization_id.hyphenated())
    .fetch_optional(db)
    .await?
    .ok_or_else(|| ApiError::not_found("alert rule"))
}

pub async fn insert(conn: &mut SqliteConnection, rule: &RuleRow) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO alert_rules (id, organization_id, cluster_id, target_type, target_id,
             definition, state, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(rule.id.hyphenated())
    .bind(rule.organization_id.hyphenated())
    .bind(rule.cluster_id.hyphenated())
    .bind(rule.target_type)
    .bind(rule.target_id.hyphenated())
    .bind(&rule.definition)
    .bind(rule.state)
    .bind(rule.created_at)
    .execute(conn)
    .await
    .map(drop)
}

/// A new definition: to be evaluated again.
pub async fn redefine(
    conn: &mut SqliteConnection,
    id: Uuid,
    definition: &str,
    at: DateTime<Utc>,
) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE alert_rules SET definition = ?, evaluated = 0, failure = NULL, updated_at = ?
         WHERE id = ?",
    )
    .bind(definition)
    .bind(at)
    .bind(id.hyphenated())
    .execute(conn)
    .await
    .map(drop)
}

pub async fn delete(conn: &mut SqliteConnection, id: Uuid) -> sqlx::Result<()> {
    sqlx::query("DELETE FROM alert_rules WHERE id = ?")
        .bind(id.hyphenated())
        .execute(conn)
        .await
        .map(drop)
}

/// Where an evaluation left a rule.
pub struct Evaluation {
    pub state: AlertRuleState,
    pub holds_since: Option<DateTime<Utc>>,
    pub starts_at: Option<DateTime<Utc>>,
    pub notifications: Vec<Uuid>,
}

/// Records an evaluation of the rule, made from the definition its row had at `updated_at`:
/// a rule redefined meanwhile keeps its new definition unevaluated.
pub async fn evaluated(
    conn: &mut SqliteConnection,
    rule: &RuleRow,
    evaluation: &Evaluation,
) -> sqlx::Result<bool> {
    let notifications = serde_json::to_string(&evaluation.notifications).unwrap_or_default();
    let done = sqlx::query(
        "UPDATE alert_rules SET state = ?, holds_since = ?, starts_at = ?, notifications = ?,
             evaluated = 1
         WHERE id = ? AND definition = ?",
    )
    .bind(evaluation.state)
    .bind(evaluation.holds_since)
    .bind(evaluation.starts_at)
    .bind(notifications)
    .bind(rule.id.hyphenated())
    .bind(&rule.definition)
    .execute(conn)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// The rule's condition could not be evaluated, for `why`: it is skipped until it is edited (a
/// rule redefined meanwhile is left as it is).
pub async fn failed(conn: &mut SqliteConnection, rule: &RuleRow, why: &str) -> sqlx::Result<()> {
    sqlx::query("UPDATE alert_rules SET failure = ?, evaluated = 0 WHERE id = ? AND definition = ?")
        .bind(why)
        .bind(rule.id.hyphenated())
        .bind(&rule.definition)
        .execute(conn)
        .await
        .map(drop)
}
