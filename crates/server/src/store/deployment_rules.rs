//! Deployment rules as stored: each environment's (one, made with it) and each project's, in
//! priority order.

use chrono::{DateTime, Utc};
use platform_api::{
    wildcard_matches, EnvironmentDeploymentRule, EnvironmentDeploymentRuleRequest, EnvironmentMode,
    FieldError, ProjectDeploymentRule, ProjectDeploymentRuleRequest, Schedule,
};
use sqlx::{SqliteConnection, SqliteExecutor};
use uuid::fmt::Hyphenated;
use uuid::Uuid;

use crate::error::{ApiError, ApiResult, UniqueViolation};

/// A schedule's columns, as stored.
#[derive(sqlx::FromRow)]
struct ScheduleRow {
    auto_stop: bool,
    timezone: String,
    start_time: DateTime<Utc>,
    stop_time: DateTime<Utc>,
    /// A JSON array of weekdays.
    weekdays: String,
}

impl ScheduleRow {
    fn read(self) -> sqlx::Result<Schedule> {
        Ok(Schedule {
            auto_stop: self.auto_stop,
            timezone: self.timezone,
            start_time: self.start_time,
            stop_time: self.stop_time,
            weekdays: serde_json::from_str(&self.weekdays)
                .map_err(|error| sqlx::Error::Decode(error.into()))?,
        })
    }
}

fn weekdays(schedule: &Schedule) -> String {
    serde_json::to_string(&schedule.weekdays).unwrap_or_else(|_| "[]".into())
}

#[derive(sqlx::FromRow)]
struct EnvironmentRuleRow {
    #[sqlx(try_from = "Hyphenated")]
    id: Uuid,
    on_demand_preview: bool,
    auto_preview: bool,
    #[sqlx(flatten)]
    schedule: ScheduleRow,
    created_at: DateTime<Utc>,
    updated_at: Option<DateTime<Utc>>,
}

/// The environment's deployment rule.
pub async fn of_environment<'e>(
    db: impl SqliteExecutor<'e>,
    environment_id: Uuid,
) -> sqlx::Result<EnvironmentDeploymentRule> {
    let row: EnvironmentRuleRow = sqlx::query_as(
        "SELECT id, on_demand_preview, auto_preview, auto_stop, timezone, start_time, stop_time,
                weekdays, created_at, updated_at
         FROM environment_deployment_rules WHERE environment_id = ?",
    )
    .bind(environment_id.hyphenated())
    .fetch_one(db)
    .await?;
    Ok(EnvironmentDeploymentRule {
        id: row.id,
        created_at: row.created_at,
        updated_at: row.updated_at,
        rule: EnvironmentDeploymentRuleRequest {
            on_demand_preview: row.on_demand_preview,
            auto_preview: row.auto_preview,
            schedule: row.schedule.read()?,
        },
    })
}

/// Saves the environment's rule; its schedule counts from now (no start or stop before now is
/// acted on).
pub async fn save_environment_rule(
    conn: &mut SqliteConnection,
    environment_id: Uuid,
    rule: &EnvironmentDeploymentRuleRequest,
) -> sqlx::Result<()> {
    let now = Utc::now();
    let schedule = &rule.schedule;
    sqlx::query(
        "UPDATE environment_deployment_rules SET on_demand_preview = ?, auto_preview = ?,
             auto_stop = ?, timezone = ?, start_time = ?, stop_time = ?, weekdays = ?,
             last_checked_at = ?, updated_at = ?
         WHERE environment_id = ?",
    )
    .bind(rule.on_demand_preview)
    .bind(rule.auto_preview)
    .bind(schedule.auto_stop)
    .bind(&schedule.timezone)
    .bind(schedule.start_time)
    .bind(schedule.stop_time)
    .bind(weekdays(schedule))
    .bind(now)
    .bind(now)
    .bind(environment_id.hyphenated())
    .execute(conn)
    .await
    .map(drop)
}

/// An environment whose schedule is acted on.
#[derive(sqlx::FromRow)]
pub struct Scheduled {
    #[sqlx(try_from = "Hyphenated")]
    pub environment_id: Uuid,
    #[sqlx(try_from = "Hyphenated")]
    pub organization_id: Uuid,
    #[sqlx(flatten)]
    schedule: ScheduleRow,
    pub last_checked_at: Option<DateTime<Utc>>,
}

impl Scheduled {
    pub fn schedule(self) -> sqlx::Result<(Uuid, Uuid, Schedule, Option<DateTime<Utc>>)> {
        Ok((
            self.environment_id,
            self.organization_id,
            self.schedule.read()?,
            self.last_checked_at,
        ))
    }
}

/// The environments with `auto_stop` on.
pub async fn auto_stopping<'e>(db: impl SqliteExecutor<'e>) -> sqlx::Result<Vec<Scheduled>> {
    sqlx::query_as(
        "SELECT r.environment_id, e.organization_id, r.auto_stop, r.timezone, r.start_time,
                r.stop_time, r.weekdays, r.last_checked_at
         FROM environment_deployment_rules r JOIN environments e ON e.id = r.environment_id
         WHERE r.auto_stop = 1",
    )
    .fetch_all(db)
    .await
}

/// Until when the environment's schedule was acted on.
pub async fn checked_until(
    conn: &mut SqliteConnection,
    environment_id: Uuid,
    at: DateTime<Utc>,
) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE environment_deployment_rules SET last_checked_at = ? WHERE environment_id = ?",
    )
    .bind(at)
    .bind(environment_id.hyphenated())
    .execute(conn)
    .await
    .map(drop)
}

#[derive(sqlx::FromRow)]
struct ProjectRuleRow {
    #[sqlx(try_from = "Hyphenated")]
    id: Uuid,
    name: String,
    description: Option<String>,
    mode: EnvironmentMode,
    #[sqlx(try_from = "Hyphenated")]
    cluster_id: Uuid,
    wildcard: String,
    #[sqlx(flatten)]
    schedule: ScheduleRow,
    priority_index: i64,
    created_at: DateTime<Utc>,
    updated_at: Option<DateTime<Utc>>,
}

impl ProjectRuleRow {
    fn read(self) -> sqlx::Result<ProjectDeploymentRule> {
        Ok(ProjectDeploymentRule {
            id: self.id,
            created_at: self.created_at,
            updated_at: self.updated_at,
            rule: ProjectDeploymentRuleRequest {
                name: self.name,
                description: self.description,
                mode: self.mode,
                cluster_id: self.cluster_id,
                wildcard: self.wildcard,
                schedule: self.schedule.read()?,
            },
            priority_index: self.priority_index,
        })
    }
}

/// The project's rules in priority order.
pub async fn of_project<'e>(
    db: impl SqliteExecutor<'e>,
    project_id: Uuid,
) -> sqlx::Result<Vec<ProjectDeploymentRule>> {
    let rows: Vec<ProjectRuleRow> = sqlx::query_as(
        "SELECT id, name, description, mode, cluster_id, wildcard, auto_stop, timezone,
                start_time, stop_time, weekdays, priority_index, created_at, updated_at
         FROM project_deployment_rules WHERE project_id = ? ORDER BY priority_index",
    )
    .bind(project_id.hyphenated())
    .fetch_all(db)
    .await?;
    rows.into_iter().map(ProjectRuleRow::read).collect()
}

/// The project's rule with this id, or 404.
pub async fn find(
    conn: &mut SqliteConnection,
    project_id: Uuid,
    id: Uuid,
) -> ApiResult<ProjectDeploymentRule> {
    of_project(conn, project_id)
        .await?
        .into_iter()
        .find(|rule| rule.id == id)
        .ok_or_else(|| ApiError::not_found("deployment rule"))
}

/// Stores a rule of the project, new (last in the order) or changed; 409 naming `name` when the
/// project has another so named.
pub async fn save(
    conn: &mut SqliteConnection,
    project_id: Uuid,
    rule: &ProjectDeploymentRule,
) -> ApiResult<()> {
    let request = &rule.rule;
    let schedule = &request.schedule;
    sqlx::query(
        "INSERT INTO project_deployment_rules (id, project_id, name, description, mode, cluster_id,
             wildcard, auto_stop, timezone, start_time, stop_time, weekdays, priority_index,
             created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET name = excluded.name, description = excluded.description,
             mode = excluded.mode, cluster_id = excluded.cluster_id, wildcard = excluded.wildcard,
             auto_stop = excluded.auto_stop, timezone = excluded.timezone,
             start_time = excluded.start_time, stop_time = excluded.stop_time,
             weekdays = excluded.weekdays, updated_at = excluded.updated_at",
    )
    .bind(rule.id.hyphenated())
    .bind(project_id.hyphenated())
    .bind(request.name.trim())
    .bind(&request.description)
    .bind(request.mode)
    .bind(request.cluster_id.hyphenated())
    .bind(request.wildcard.trim())
    .bind(schedule.auto_stop)
    .bind(&schedule.timezone)
    .bind(schedule.start_time)
    .bind(schedule.stop_time)
    .bind(weekdays(schedule))
    .bind(rule.priority_index)
    .bind(rule.created_at)
    .bind(rule.updated_at)
    .execute(conn)
    .await
    .on_unique_violation("name", "deployment rule")?;
    Ok(())
}

/// Deletes the rule and closes the gap in the order.
pub async fn delete(conn: &mut SqliteConnection, project_id: Uuid, id: Uuid) -> ApiResult<()> {
    let order: Vec<Uuid> = of_project(&mut *conn, project_id)
        .await?
        .into_iter()
        .map(|rule| rule.id)
        .filter(|rule| *rule != id)
        .collect();
    sqlx::query("DELETE FROM project_deployment_rules WHERE id = ?")
        .bind(id.hyphenated())
        .execute(&mut *conn)
        .await?;
    reorder(conn, project_id, &order).await
}

/// Puts the project's rules in this order, which must name each of them once (400 otherwise).
pub async fn reorder(
    conn: &mut SqliteConnection,
    project_id: Uuid,
    order: &[Uuid],
) -> ApiResult<()> {
    let mut known: Vec<Uuid> = of_project(&mut *conn, project_id)
        .await?
        .into_iter()
        .map(|rule| rule.id)
        .collect();
    let mut given = order.to_vec();
    known.sort();
    given.sort();
    if known != given {
        return Err(ApiError::invalid(vec![FieldError::new(
            "project_deployment_rule_ids_in_order",
            "must name each of the project's deployment rules once",
        )]));
    }
    for (index, id) in order.iter().enumerate() {
        sqlx::query("UPDATE project_deployment_rules SET priority_index = ? WHERE id = ?")
            .bind(index as i64)
            .bind(id.hyphenated())
            .execute(&mut *conn)
            .await?;
    }
    Ok(())
}

/// The first of the project's rules (in priority order) that matches a new environment's name.
pub async fn matching(
    conn: &mut SqliteConnection,
    project_id: Uuid,
    name: &str,
) -> sqlx::Result<Option<ProjectDeploymentRule>> {
    Ok(of_project(conn, project_id)
        .await?
        .into_iter()
        .find(|rule| wildcard_matches(&rule.rule.wildcard, name)))
}

/// Gives the environment the schedule of a project's rule.
pub async fn apply(
    conn: &mut SqliteConnection,
    environment_id: Uuid,
    schedule: &Schedule,
) -> sqlx::Result<()> {
    let request = EnvironmentDeploymentRuleRequest {
        on_demand_preview: false,
        auto_preview: false,
        schedule: schedule.clone(),
    };
    save_environment_rule(conn, environment_id, &request).await
}

#[cfg(test)]
mod tests {
    use platform_api::Weekday;

    /// Stored days are the document's values, as the enum writes them.
    #[test]
    fn weekdays_are_stored_as_the_documents_values() {
        let schedule = platform_api::Schedule {
            auto_stop: true,
            timezone: "Etc/UTC".into(),
            start_time: chrono::Utc::now(),
            stop_time: chrono::Utc::now(),
            weekdays: vec![Weekday::Monday, Weekday::Sunday],
        };
        assert_eq!(super::weekdays(&schedule), r#"["MONDAY","SUNDAY"]"#);
    }
}
