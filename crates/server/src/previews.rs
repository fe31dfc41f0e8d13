//! Preview environments, made and removed on their own. At each round of the git watch, every
//! service with `auto_preview` whose repository this server reads, in an environment whose rule
//! has `auto_preview`, gets a preview environment for each other branch of its repository: a
//! branch stands for a pull request here (there is no forge to ask for those); the preview of a
//! branch that is gone is deleted. A new tag of a container's image announced to
//! `POST /organization/{id}/container/preview` makes, on demand, a preview of each environment
//! that allows previews (`auto_preview` or `on_demand_preview`) and has a container with
//! `auto_preview` running the image at another tag.
//!
//! A preview is a clone of its environment (mode PREVIEW, every service's `auto_preview` off in
//! it), the triggering service at the branch or the tag, deployed at once: with auto-deploy on, a
//! push to the branch deploys the preview again.

use std::collections::HashSet;
use std::sync::Arc;

use chrono::Utc;
use platform_api::audit::{EventType, Origin};
use platform_api::{
    preview_name, EnvironmentMode, ImagePaths, Preview, PreviewTrigger, ServiceType,
};
use sqlx::{Sqlite, SqlitePool, Transaction};
use uuid::fmt::Hyphenated;
use uuid::Uuid;

use crate::audit::{self, Change, Target};
use crate::engine::admission::AskedBy;
use crate::engine::environment::OnEachService;
use crate::engine::Engine;
use crate::error::ApiResult;
use crate::git;
use crate::rounds;
use crate::store::action::Action;
use crate::store::clones::{self, EnvironmentCopy};
use crate::store::previews as store;
use crate::store::scope::{self, Scope};
use crate::store::services;

/// Who the audit log and the deployments name as asking for a preview.
const ASKED_BY: &str = "Preview environments";

/// The longest name a preview is given: room for the environment's and a branch's.
const NAME_MAX_CHARS: usize = 63;

/// What a preview is made for: `reference` of the service `service_id` (of kind `kind`) in the
/// environment `source`.
pub struct Opening<'a> {
    pub organization_id: Uuid,
    pub source: Uuid,
    pub service_id: Uuid,
    pub kind: ServiceType,
    pub trigger: PreviewTrigger,
    pub reference: &'a str,
}

/// A preview made and its deployments queued, in a transaction that has not committed yet.
pub struct Opened {
    pub preview: Preview,
    deployments: Vec<Uuid>,
}

impl Opened {
    /// Starts the deployments, once the transaction that queued them has committed (the engine
    /// reads what it deploys outside it). Were the server to stop first, they would be picked
    /// up at its next start, as every queued action is.
    pub fn start(&self, engine: &Arc<Engine>) {
        for deployment in &self.deployments {
            engine.start(*deployment);
        }
    }
}

/// Makes the preview `opening` asks for in `tx` and queues the deployment of every service of
/// it there too: the copy and its deployment commit together, so that no preview is left made
/// and never deployed.
pub async fn open(
    engine: &Engine,
    tx: &mut Transaction<'_, Sqlite>,
    opening: Opening<'_>,
    asked_by: AskedBy<'_>,
) -> ApiResult<Opened> {
    #[derive(sqlx::FromRow)]
    struct Source {
        #[sqlx(try_from = "Hyphenated")]
        project_id: Uuid,
        name: String,
        #[sqlx(try_from = "Hyphenated")]
        cluster_id: Uuid,
    }
    let source: Source =
        sqlx::query_as("SELECT project_id, name, cluster_id FROM environments WHERE id = ?")
            .bind(opening.source.hyphenated())
            .fetch_one(&mut **tx)
            .await?;
    let name = preview_name(&source.name, opening.reference, NAME_MAX_CHARS);
    let copy = EnvironmentCopy {
        organization_id: opening.organization_id,
        project_id: source.project_id,
        name: &name,
        mode: EnvironmentMode::Preview,
        cluster_id: source.cluster_id,
    };
    let (id, services, _) = clones::copy_environment(tx, opening.source, copy).await?;
    sqlx::query(
        "UPDATE services SET spec = json_set(spec, '$.auto_preview', json('false'))
         WHERE environment_id = ?",
    )
    .bind(id.hyphenated())
    .execute(&mut **tx)
    .await?;
    let original = opening.service_id.to_string();
    if let Some((_, copy)) = services.iter().find(|(from, _)| *from == original) {
        let at = match opening.trigger {
            PreviewTrigger::Branch => opening
                .kind
                .git_repository_path()
                .map(|repository| format!("{repository}.branch")),
            PreviewTrigger::ImageTag => Some(ImagePaths::CONTAINER.tag.to_string()),
            PreviewTrigger::Other(_) => None,
        };
        if let Some(at) = at {
            sqlx::query("UPDATE services SET spec = json_set(spec, ?, ?) WHERE id = ?")
                .bind(at)
                .bind(opening.reference)
                .bind(copy)
                .execute(&mut **tx)
                .await?;
        }
    }
    let preview = Preview {
        environment_id: id,
        name,
        source_environment_id: opening.source,
        source_environment_name: source.name,
        service_id: opening.service_id,
        trigger: opening.trigger,
        reference: opening.reference.to_string(),
        created_at: Utc::now(),
    };
    store::insert(&mut **tx, &preview).await?;
    let target = Target::environment(tx, id).await?;
    let change = Change::new(EventType::Clone, target).after(&preview);
    audit::record_as(
        tx,
        (opening.organization_id, asked_by.name),
        asked_by.origin,
        change,
    )
    .await?;
    let deploy = OnEachService::Run(Action::Deploy);
    let deployments = engine
        .queue_on_environment(tx, preview.environment_id, deploy, asked_by)
        .await?;
    Ok(Opened {
        preview,
        deployments,
    })
}

/// A service that may have previews, with its repository.
#[derive(sqlx::FromRow)]
struct Previewed {
    #[sqlx(try_from = "Hyphenated")]
    id: Uuid,
    #[sqlx(try_from = "Hyphenated")]
    organization_id: Uuid,
    #[sqlx(try_from = "Hyphenated")]
    environment_id: Uuid,
    kind: ServiceType,
    url: Option<String>,
    branch: Option<String>,
}

/// One round over every service with previews: how many previews it made or removed.
pub async fn once(engine: &Arc<Engine>, db: &SqlitePool) -> anyhow::Result<usize> {
    let services: Vec<Previewed> = sqlx::query_as(&services::with_repository(
        "id, organization_id, environment_id, kind",
        "json_extract(spec, '$.auto_preview') = 1
         AND environment_id IN
             (SELECT environment_id FROM environment_deployment_rules WHERE auto_preview = 1)
         AND environment_id NOT IN (SELECT environment_id FROM preview_environments)",
    ))
    .fetch_all(db)
    .await?;
    let mut changed = 0;
    for service in services {
        let Some(read) = service
            .url
            .as_deref()
            .and_then(|url| engine.repositories.local(url).ok())
        else {
            continue;
        };
        let (branches, head) = git::read(move || git::branches(&read)).await?;
        let own = service.branch.clone().filter(|b| !b.is_empty()).or(head);
        let wanted: HashSet<&str> = branches
            .iter()
            .map(String::as_str)
            .filter(|branch| Some(*branch) != own.as_deref())
            .collect();
        let existing = store::of_environment(db, service.environment_id).await?;
        for branch in &wanted {
            let made = existing
                .iter()
                .any(|p| p.trigger == PreviewTrigger::Branch && p.reference == *branch);
            if !made {
                changed += usize::from(open_for_branch(engine, &service, branch).await);
            }
        }
        for gone in existing.iter().filter(|p| {
            p.trigger == PreviewTrigger::Branch
                && p.service_id == service.id
                && !wanted.contains(p.reference.as_str())
        }) {
            changed += usize::from(close(engine, service.organization_id, gone).await);
        }
    }
    Ok(changed)
}

/// Opens the preview of `branch`; whether it did (a name taken, say, waits for a later round).
async fn open_for_branch(engine: &Arc<Engine>, service: &Previewed, branch: &str) -> bool {
    let opening = Opening {
        organization_id: service.organization_id,
        source: service.environment_id,
        service_id: service.id,
        kind: service.kind,
        trigger: PreviewTrigger::Branch,
        reference: branch,
    };
    let asked_by = AskedBy {
        name: ASKED_BY,
        origin: Origin::Git,
    };
    let opened = async {
        let mut tx = engine.begin().await?;
        let opened = open(engine, &mut tx, opening, asked_by).await?;
        tx.commit().await?;
        opened.start(engine);
        anyhow::Ok(())
    };
    match opened.await {
        Ok(()) => true,
        Err(error) => {
            tracing::warn!(service = %service.id, branch, %error, "a preview could not be made; tried again next round");
            false
        }
    }
}

/// Deletes the preview whose branch is gone; whether it did (one still deploying waits).
async fn close(engine: &Engine, organization_id: Uuid, preview: &Preview) -> bool {
    let closed = async {
        let mut tx = engine.begin().await?;
        let target = Target::environment(&mut tx, preview.environment_id).await?;
        scope::delete_when_idle(&mut tx, Scope::Environment(preview.environment_id)).await?;
        let change = Change::new(EventType::Delete, target).before(preview);
        audit::record_as(&mut tx, (organization_id, ASKED_BY), Origin::Git, change).await?;
        tx.commit().await?;
        anyhow::Ok(())
    };
    match closed.await {
        Ok(()) => true,
        Err(error) => {
            tracing::info!(preview = %preview.environment_id, %error, "a preview whose branch is gone waits to be deleted");
            false
        }
    }
}

/// Runs `once` every `every` (the git watch's interval) while the engine takes work.
pub fn start(engine: Arc<Engine>, db: SqlitePool, every: std::time::Duration) {
    rounds::every(engine, every, "the previews' round", move |engine| {
        let db = db.clone();
        async move { once(&engine, &db).await.map(drop) }
    });
}
