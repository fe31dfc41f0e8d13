//! Auto-deploy on push: the branch of every service with `auto_deploy` whose repository this
//! server reads (the demo's, and those under `--git-root`) is read every round. A new tip is
//! acted on once it is still the tip at the next round, so that a burst of pushes deploys once,
//! at its newest: the service is deployed at that commit (origin GIT, by the commit's author),
//! unless its deployment restrictions leave none of the changed paths counting, and the push is
//! recorded either way, with why it was skipped. A service busy with another action is deployed
//! at a later round, at the branch's newest commit then. A service that does not deploy on push
//! and runs what is configured becomes out of date once its branch's tip is not the commit it runs.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use axum::http::StatusCode;
use chrono::Utc;
use platform_api::audit::Origin;
use platform_api::{
    decide, AutoDeployWatch, Commit, DeploymentStatus, Push, PushDecision, PushOutcome,
};
use sqlx::SqlitePool;
use uuid::fmt::Hyphenated;
use uuid::Uuid;

use crate::audit::{self, Change, Target};
use crate::engine::admission::AskedBy;
use crate::engine::Engine;
use crate::error::{ApiError, ApiResult};
use crate::git::{self, CommitQuery, GitError, Repository};
use crate::rounds;
use crate::store::action::{Action, Request};
use crate::store::auto_deploy::{self as store, Watch};
use crate::store::scope::{self, Scope};
use crate::store::services;

/// A service with a git repository, as its watch sees it.
#[derive(sqlx::FromRow)]
struct Watched {
    #[sqlx(try_from = "Hyphenated")]
    id: Uuid,
    #[sqlx(try_from = "Hyphenated")]
    organization_id: Uuid,
    auto_deploy: bool,
    url: Option<String>,
    branch: Option<String>,
    deployed_commit_id: Option<String>,
}

/// The services `condition` keeps, each with `auto_deploy` and its repository's `url` and
/// `branch`.
fn watched_query(condition: &str) -> String {
    services::with_repository(
        "id, organization_id, coalesce(json_extract(spec, '$.auto_deploy'), 0) AS auto_deploy",
        condition,
    )
}

/// The branch a service's watch reads: HEAD when the service names none.
fn branch_of(branch: Option<&str>) -> &str {
    branch.filter(|branch| !branch.is_empty()).unwrap_or("HEAD")
}

/// The tip of `branch` in `repository`.
fn tip(repository: &Repository, branch: &str) -> Result<Commit, GitError> {
    let query = CommitQuery {
        branch: None,
        start_after: None,
        only: Some(branch),
    };
    git::commits(repository, &query)?
        .into_iter()
        .next()
        .ok_or_else(|| GitError::Failed(format!("the branch {branch} has no commit")))
}

/// One round over every watched service; how many deployments it queued.
pub async fn once(engine: &Arc<Engine>, db: &SqlitePool) -> anyhow::Result<usize> {
    let watched: Vec<Watched> =
        sqlx::query_as(&watched_query("json_extract(spec, '$.auto_deploy') = 1"))
            .fetch_all(db)
            .await?;
    let mut deployed = 0;
    for service in watched {
        let Some(url) = service.url.clone() else {
            continue;
        };
        // Remote repositories are out of reach: the service's watch says so when read.
        let Ok(read) = engine.repositories.local(&url) else {
            continue;
        };
        match look(engine, db, &service, read).await {
            Ok(true) => deployed += 1,
            Ok(false) => {}
            Err(error) => {
                tracing::warn!(service = %service.id, %error, "auto-deploy could not read a push; tried again next round");
            }
        }
    }
    mark_behind_their_branch(engine, db).await?;
    Ok(deployed)
}

/// The services without auto-deploy that run what is configured but whose branch moved on: out
/// of date, as a settings change makes them.
async fn mark_behind_their_branch(engine: &Arc<Engine>, db: &SqlitePool) -> anyhow::Result<()> {
    let up_to_date: Vec<Watched> = sqlx::query_as(&watched_query(
        "id IN (SELECT service_id FROM service_statuses WHERE deployment_status = ?)
         AND coalesce(json_extract(spec, '$.auto_deploy'), 0) = 0",
    ))
    .bind(DeploymentStatus::UpToDate)
    .fetch_all(db)
    .await?;
    // Each branch read once a round, however many services it builds.
    let mut tips: HashMap<(String, String), Option<String>> = HashMap::new();
    for service in up_to_date {
        let (Some(url), Some(running)) = (&service.url, &service.deployed_commit_id) else {
            continue;
        };
        let branch = branch_of(service.branch.as_deref()).to_string();
        let key = (url.clone(), branch.clone());
        let tip_id = match tips.get(&key) {
            Some(known) => known.clone(),
            None => {
                let read = match engine.repositories.local(url) {
                    Ok(read) => git::read(move || tip(&read, &branch))
                        .await
                        .ok()
                        .map(|tip| tip.git_commit_id),
                    Err(_) => None,
                };
                tips.insert(key, read.clone());
                read
            }
        };
        if tip_id.is_some_and(|tip| &tip != running) {
            let mut tx = engine.begin().await?;
            scope::mark_scope_out_of_date(&mut tx, Scope::Service(service.id)).await?;
            tx.commit().await?;
        }
    }
    Ok(())
}

/// Reads the branch of one service now, as a round would (a sync of its webhook): a new tip
/// becomes the push acted on at the next read; whether it queued a deployment.
pub async fn read_now(engine: &Arc<Engine>, db: &SqlitePool, service_id: Uuid) -> ApiResult<bool> {
    let service: Watched = sqlx::query_as(&watched_query("id = ?"))
        .bind(service_id.hyphenated())
        .fetch_one(db)
        .await?;
    let Some(read) = service
        .url
        .as_deref()
        .filter(|_| service.auto_deploy)
        .and_then(|url| engine.repositories.local(url).ok())
    else {
        return Ok(false);
    };
    look(engine, db, &service, read)
        .await
        .map_err(ApiError::internal)
}

/// Reads the service's branch and acts on a new tip; whether it queued a deployment.
async fn look(
    engine: &Arc<Engine>,
    db: &SqlitePool,
    service: &Watched,
    repository: Repository,
) -> anyhow::Result<bool> {
    let branch = branch_of(service.branch.as_deref()).to_string();
    let read_branch = branch.clone();
    let read = repository.clone();
    let tip = git::read(move || tip(&read, &read_branch)).await?;
    let watch = store::watch(db, service.id).await?;
    let now = Utc::now();
    let next = |seen: &str, candidate: Option<&str>| Watch {
        branch: branch.clone(),
        seen_commit_id: seen.to_string(),
        candidate_commit_id: candidate.map(str::to_string),
        seen_at: now,
    };
    // A branch read for the first time (or another branch than before): what is there now is
    // where pushes count from.
    let Some(watch) = watch.filter(|watch| watch.branch == branch) else {
        save(engine, service.id, &next(&tip.git_commit_id, None)).await?;
        return Ok(false);
    };
    if watch.seen_commit_id == tip.git_commit_id {
        if watch.candidate_commit_id.is_some() {
            // Pushed, then undone before it was acted on.
            let undone = Watch {
                candidate_commit_id: None,
                ..watch
            };
            save(engine, service.id, &undone).await?;
        }
        return Ok(false);
    }
    if watch.candidate_commit_id.as_deref() != Some(tip.git_commit_id.as_str()) {
        // New since the last round: acted on at the next, if no other push follows.
        let waiting = Watch {
            candidate_commit_id: Some(tip.git_commit_id.clone()),
            ..watch
        };
        save(engine, service.id, &waiting).await?;
        return Ok(false);
    }
    let mut tx = engine.begin().await?;
    let (from, to) = (watch.seen_commit_id.clone(), tip.git_commit_id.clone());
    // A commit the repository lost (a forced push) leaves the changes unknown: the push deploys.
    let changed = git::read(move || git::changed_paths(&repository, &from, &to))
        .await
        .ok();
    let restrictions: Vec<_> = store::restrictions(&mut *tx, service.id)
        .await?
        .into_iter()
        .map(|restriction| restriction.rule)
        .collect();
    let mut push = Push {
        git_commit_id: tip.git_commit_id.clone(),
        message: tip.message.clone(),
        author_name: tip.author_name.clone(),
        seen_at: now,
        outcome: PushOutcome::Deployed,
        reason: None,
        execution_id: None,
    };
    let mut queued = None;
    match decide(&restrictions, changed.as_deref()) {
        PushDecision::Skip(reason) => {
            push.outcome = PushOutcome::Skipped;
            push.reason = Some(reason);
        }
        PushDecision::Deploy => {
            let request = Request {
                git_commit_id: Some(tip.git_commit_id.clone()),
                ..Request::from(Action::Deploy)
            };
            let asked_by = AskedBy {
                name: &tip.author_name,
                origin: Origin::Git,
            };
            match engine.queue(&mut tx, request, service.id, asked_by).await {
                Ok(deployment) => {
                    push.execution_id = Some(deployment.deployment_id.simple().to_string());
                    let target = Target::service(&mut tx, service.id).await?;
                    let change = Change::new(Action::Deploy.event_type(), target).after(
                        &serde_json::json!({ "git_commit_id": tip.git_commit_id, "pushed": tip.message }),
                    );
                    audit::record_as(
                        &mut tx,
                        (service.organization_id, &tip.author_name),
                        Origin::Git,
                        change,
                    )
                    .await?;
                    queued = Some(deployment.deployment_id);
                }
                // Busy with another action, or the queue full: the next round tries again.
                Err(refused)
                    if matches!(
                        refused.status(),
                        StatusCode::CONFLICT | StatusCode::SERVICE_UNAVAILABLE
                    ) =>
                {
                    tracing::info!(service = %service.id, status = %refused.status(), "a push waits: the service cannot be deployed now");
                    return Ok(false);
                }
                Err(error) => return Err(error.into()),
            }
        }
    }
    store::record_push(&mut tx, service.id, &push).await?;
    store::save_watch(&mut tx, service.id, &next(&tip.git_commit_id, None)).await?;
    tx.commit().await?;
    if let Some(deployment_id) = queued {
        engine.start(deployment_id);
    }
    Ok(queued.is_some())
}

/// Saves what the watch of the service's branch read, in a write of its own: a round writes
/// only when the branch changed.
async fn save(engine: &Engine, service_id: Uuid, watch: &Watch) -> anyhow::Result<()> {
    let mut tx = engine.begin().await?;
    store::save_watch(&mut tx, service_id, watch).await?;
    tx.commit().await?;
    Ok(())
}

/// Whether auto-deploy watches the service's branch, the last commit it read there, and the
/// pushes it acted on.
pub async fn watch_of(
    engine: &Engine,
    db: &SqlitePool,
    service_id: Uuid,
) -> ApiResult<AutoDeployWatch> {
    let service: Watched = sqlx::query_as(&watched_query("id = ?"))
        .bind(service_id.hyphenated())
        .fetch_one(db)
        .await?;
    let branch = branch_of(service.branch.as_deref()).to_string();
    let readable = service
        .url
        .as_deref()
        .map(|url| engine.repositories.local(url));
    let not_watching_because = match &readable {
        _ if !service.auto_deploy => {
            Some("Auto-deploy is off: a push to the branch does not deploy the service.".into())
        }
        None => Some("The service is not built from a git repository.".into()),
        Some(Err(unreadable)) => Some(unreadable.to_string()),
        Some(Ok(_)) => None,
    };
    let watch = store::watch(db, service_id)
        .await?
        .filter(|watch| watch.branch == branch);
    let last_seen = match (&watch, readable) {
        (Some(watch), Some(Ok(read))) => {
            let id = vec![watch.seen_commit_id.clone()];
            git::read(move || git::describe(&read, &id))
                .await
                .ok()
                .and_then(|commits| commits.into_iter().next())
        }
        _ => None,
    };
    Ok(AutoDeployWatch {
        watching: not_watching_because.is_none(),
        not_watching_because,
        branch: service.url.is_some().then_some(branch),
        last_seen,
        seen_at: watch.map(|watch| watch.seen_at),
        pushes: store::pushes(db, service_id).await?,
    })
}

/// Runs `once` every `every` while the engine takes work.
pub fn start(engine: Arc<Engine>, db: SqlitePool, every: Duration) {
    rounds::every(engine, every, "auto-deploy's round", move |engine| {
        let db = db.clone();
        async move { once(&engine, &db).await.map(drop) }
    });
}
