//! Rolling a service back: deploying again exactly what an earlier successful deployment put in
//! place. Each deployment keeps the service's configuration as it was asked for (`spec`); a
//! rollback restores the parts of it that say what runs (an image, a chart version and values)
//! and deploys the commit that deployment deployed.

use platform_api::{ActionStatus, FieldError, StatusAction};
use serde_json::Value;
use sqlx::{SqliteConnection, SqlitePool};
use uuid::Uuid;

use super::history::action_status;
use crate::error::{ApiError, ApiResult};

/// What an earlier deployment put in place.
pub struct Deployed {
    pub execution_id: String,
    pub git_commit_id: Option<String>,
    /// The service's configuration when it was asked for; `None` for deployments recorded before
    /// configurations were kept.
    spec: Option<Value>,
}

#[derive(sqlx::FromRow)]
struct DeployedRow {
    action: StatusAction,
    state: platform_api::ServiceState,
    git_commit_id: Option<String>,
    spec: Option<String>,
}

/// The deployment of the service with this execution id, if it deployed successfully; else 400
/// naming `rollback_to`.
pub async fn deployed(
    db: &SqlitePool,
    service_id: Uuid,
    execution_id: &str,
) -> ApiResult<Deployed> {
    let row: Option<DeployedRow> = sqlx::query_as(
        "SELECT action, state, git_commit_id, spec FROM deployments
         WHERE service_id = ? AND execution_id = ?",
    )
    .bind(service_id.hyphenated())
    .bind(execution_id)
    .fetch_optional(db)
    .await?;
    let refused = |rule: &str| ApiError::invalid(vec![FieldError::new("rollback_to", rule)]);
    let row = row.ok_or_else(|| refused("names no deployment of this service"))?;
    let succeeded =
        row.action == StatusAction::Deploy && action_status(row.state) == ActionStatus::Success;
    if !succeeded {
        return Err(refused("must name a deployment that succeeded"));
    }
    Ok(Deployed {
        execution_id: execution_id.to_string(),
        git_commit_id: row.git_commit_id,
        spec: row
            .spec
            .map(|spec| serde_json::from_str(&spec))
            .transpose()
            .map_err(ApiError::internal)?,
    })
}

/// The value at a JSON path of SQLite's form (`$.source.image.tag`).
fn at<'a>(spec: &'a Value, path: &str) -> Option<&'a Value> {
    spec.pointer(&path.trim_start_matches('$').replace('.', "/"))
}

impl Deployed {
    /// The request's own `git_commit_id`, `image_tag` or `chart_version` (each `(field, path in
    /// the configuration, value)`, the commit's path `None`) must name what this deployment put
    /// in place: a platform without rollbacks reads them alone.
    pub fn agrees_with(&self, given: &[(&str, Option<&str>, &str)]) -> Result<(), Vec<FieldError>> {
        let problems: Vec<FieldError> = given
            .iter()
            .filter(|(_, path, value)| match path {
                None => !self
                    .git_commit_id
                    .as_deref()
                    .is_some_and(|commit| commit.starts_with(value.trim())),
                Some(path) => self
                    .spec
                    .as_ref()
                    .and_then(|spec| at(spec, path))
                    .is_some_and(|deployed| deployed.as_str() != Some(value.trim())),
            })
            .map(|(field, _, _)| {
                FieldError::new(
                    *field,
                    "differs from what the deployment rolled back to deployed",
                )
            })
            .collect();
        if problems.is_empty() {
            Ok(())
        } else {
            Err(problems)
        }
    }

    /// Puts back, in the service's configuration, the values this deployment had at `paths`.
    pub async fn restore(
        &self,
        tx: &mut SqliteConnection,
        service_id: Uuid,
        paths: &[&str],
    ) -> ApiResult<()> {
        let Some(spec) = &self.spec else {
            return Ok(());
        };
        for path in paths {
            let Some(value) = at(spec, path) else {
                continue;
            };
            sqlx::query(&format!(
                "UPDATE services SET spec = json_set(spec, '{path}', json(?)) WHERE id = ?"
            ))
            .bind(value.to_string())
            .bind(service_id.hyphenated())
            .execute(&mut *tx)
            .await?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rollback_checks_the_fields_given_with_it() {
        let deployed = Deployed {
            execution_id: "e1".into(),
            git_commit_id: Some("abcdef1234567".into()),
            spec: Some(serde_json::json!({"tag": "1.0", "source": {"image": {"tag": "2.0"}}})),
        };
        assert!(deployed
            .agrees_with(&[
                ("git_commit_id", None, "abcdef1"),
                ("image_tag", Some("$.tag"), "1.0")
            ])
            .is_ok());
        let fields: Vec<String> = deployed
            .agrees_with(&[
                ("git_commit_id", None, "0123456"),
                ("image_tag", Some("$.source.image.tag"), "1.0"),
            ])
            .unwrap_err()
            .into_iter()
            .map(|problem| problem.field)
            .collect();
        assert_eq!(fields, ["git_commit_id", "image_tag"]);
    }
}
