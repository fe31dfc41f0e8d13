//! What a running application's or container's instances print (`GET /application|container/{id}
//! /log`), simulated as the rest of the engine's cloud work is: each instance a deploy or a restart
//! starts says what it runs, on which ports it listens and that its probes pass; a stop or an
//! uninstall says it stopped. The lines are derived from the engine's record of the service's
//! actions, so the same history always gives the same lines.

use chrono::{DateTime, Duration, Utc};
use platform_api::{InstanceLogLine, ServiceState, INSTANCE_LOG_LINES};
use serde_json::Value;
use sqlx::SqlitePool;
use uuid::fmt::Hyphenated;
use uuid::Uuid;

use crate::error::ApiResult;

/// The most instances the log shows of one action: a service scaled far out would otherwise
/// fill the log with one action.
const MOST_INSTANCES: u64 = 10;

#[derive(sqlx::FromRow)]
struct Ended {
    #[sqlx(try_from = "Hyphenated")]
    id: Uuid,
    state: ServiceState,
    git_commit_id: Option<String>,
    finished_at: DateTime<Utc>,
    spec: Option<String>,
}

/// The service's instances' last `INSTANCE_LOG_LINES` lines, oldest first.
pub async fn instance_log(
    db: &SqlitePool,
    service_id: Uuid,
    service_name: &str,
) -> ApiResult<Vec<InstanceLogLine>> {
    // Each action writes a few lines per instance: the last actions give the last lines.
    let ended: Vec<Ended> = sqlx::query_as(
        "SELECT id, state, git_commit_id, finished_at, spec FROM deployments
         WHERE service_id = ? AND finished_at IS NOT NULL AND state IN (?, ?, ?, ?)
         ORDER BY finished_at DESC LIMIT ?",
    )
    .bind(service_id.hyphenated())
    .bind(ServiceState::Deployed)
    .bind(ServiceState::Restarted)
    .bind(ServiceState::Stopped)
    .bind(ServiceState::Deleted)
    .bind(INSTANCE_LOG_LINES)
    .fetch_all(db)
    .await?;
    let mut lines = Vec::new();
    // The instances running: those of the last deploy or restart, until a stop.
    let mut running: Vec<String> = Vec::new();
    for action in ended.into_iter().rev() {
        let deployment_id = action.id;
        let spec: Value = action
            .spec
            .as_deref()
            .and_then(|spec| serde_json::from_str(spec).ok())
            .unwrap_or(Value::Null);
        let version = action
            .git_commit_id
            .as_deref()
            .map(|commit| platform_api::short_id(commit).to_string())
            .or_else(|| spec["tag"].as_str().map(str::to_string));
        let (pods, said) = match action.state {
            ServiceState::Deployed | ServiceState::Restarted => {
                let instances = spec["min_running_instances"]
                    .as_u64()
                    .unwrap_or(1)
                    .clamp(1, MOST_INSTANCES);
                running = (0..instances)
                    .map(|instance| {
                        format!(
                            "{service_name}-{}-{instance}",
                            &deployment_id.simple().to_string()[..8]
                        )
                    })
                    .collect();
                (running.clone(), started(&spec, version.as_deref()))
            }
            _ => (
                std::mem::take(&mut running),
                vec![
                    "Received SIGTERM: stopping (simulated).".into(),
                    "Stopped.".into(),
                ],
            ),
        };
        // Each instance's lines a few milliseconds apart, in the order it printed them.
        for (at, (pod, message)) in pods
            .iter()
            .flat_map(|pod| said.iter().map(move |message| (pod, message)))
            .enumerate()
        {
            let number = lines.len() as u64;
            lines.push(InstanceLogLine {
                id: Uuid::from_u64_pair(deployment_id.as_u64_pair().0, number),
                created_at: action.finished_at + Duration::milliseconds(at as i64),
                message: message.clone(),
                pod_name: Some(pod.clone()),
                version: version.clone(),
            });
        }
    }
    let skipped = lines.len().saturating_sub(INSTANCE_LOG_LINES as usize);
    Ok(lines.split_off(skipped))
}

/// What a started instance prints, from the service's configuration at the action.
fn started(spec: &Value, version: Option<&str>) -> Vec<String> {
    let mut said = vec![format!(
        "Started {} on the simulated cluster (no container runs here).",
        version.unwrap_or("the configured version")
    )];
    let ports: Vec<i64> = spec["ports"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|port| port["internal_port"].as_i64())
        .collect();
    if ports.is_empty() {
        said.push("Running; it listens on no port.".into());
    }
    said.extend(
        ports
            .iter()
            .map(|port| format!("Listening on port {port}.")),
    );
    for (probe, name) in [
        ("readiness_probe", "Readiness"),
        ("liveness_probe", "Liveness"),
    ] {
        let kind = spec["healthchecks"][probe]["type"]
            .as_object()
            .and_then(|kinds| kinds.iter().find(|(_, given)| !given.is_null()))
            .map(|(kind, _)| kind.to_ascii_uppercase());
        if let Some(kind) = kind {
            said.push(format!("{name} probe ({kind}) passed."));
        }
    }
    said
}
