//! Cron jobs run at their times: every round, each CRON job whose expression was due since the
//! last time it was (in its time zone, read from the IANA database) is run once, as a deployment
//! of what it runs now, asked by its schedule (origin QOVERY_INTERNAL): the engine's simulated
//! run is that deployment's EXECUTING step. A job never deployed, stopped or uninstalled does
//! not run; a job still busy at its time skips that run, as a Kubernetes CronJob that forbids
//! overlapping runs does; times missed while the server was down run once, at the next round.
//! `once` takes the time it is, so that tests set the clock.

use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};
use platform_api::audit::Origin;
use sqlx::SqlitePool;
use uuid::fmt::Hyphenated;
use uuid::Uuid;

use crate::audit::{self, Change, Target};
use crate::engine::admission::AskedBy;
use crate::engine::status;
use crate::engine::Engine;
use crate::rounds;
use crate::store::action::{Action, Request};

#[derive(sqlx::FromRow)]
struct CronJob {
    #[sqlx(try_from = "Hyphenated")]
    id: Uuid,
    #[sqlx(try_from = "Hyphenated")]
    organization_id: Uuid,
    scheduled_at: String,
    timezone: Option<String>,
    last_due_at: Option<DateTime<Utc>>,
}

/// The last time `expression` was due at or before `now`, in `zone`; `None` when it does not
/// read (the rules keep such an expression out).
fn last_due(expression: &str, zone: &str, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
    let cron = platform_api::cron::parse(expression).ok()?;
    let zone: chrono_tz::Tz = zone.parse().ok()?;
    cron.find_previous_occurrence(&now.with_timezone(&zone), true)
        .ok()
        .map(|due| due.with_timezone(&Utc))
}

/// One round at `now`; how many runs it started.
pub async fn once(
    engine: &Arc<Engine>,
    db: &SqlitePool,
    now: DateTime<Utc>,
) -> anyhow::Result<usize> {
    let jobs: Vec<CronJob> = sqlx::query_as(
        "SELECT s.id, s.organization_id,
                json_extract(s.spec, '$.schedule.cronjob.scheduled_at') AS scheduled_at,
                json_extract(s.spec, '$.schedule.cronjob.timezone') AS timezone,
                c.last_due_at
         FROM services s LEFT JOIN cron_runs c ON c.service_id = s.id
         WHERE s.kind = 'JOB' AND json_extract(s.spec, '$.schedule.cronjob') IS NOT NULL",
    )
    .fetch_all(db)
    .await?;
    let mut started = 0;
    for job in jobs {
        let zone = job.timezone.as_deref().unwrap_or("Etc/UTC");
        let Some(due) = last_due(&job.scheduled_at, zone, now) else {
            continue;
        };
        // First seen: its schedule counts from now.
        let Some(last) = job.last_due_at else {
            remember(engine, job.id, now).await?;
            continue;
        };
        if due <= last {
            continue;
        }
        if run(engine, &job, zone, due).await? {
            started += 1;
        }
    }
    Ok(started)
}

/// Runs the job that was `due`, unless it does not run or is busy; whether it started.
async fn run(
    engine: &Arc<Engine>,
    job: &CronJob,
    zone: &str,
    due: DateTime<Utc>,
) -> anyhow::Result<bool> {
    let mut tx = engine.begin().await?;
    set_last_due(&mut tx, job.id, due).await?;
    let current = status::of_service(&mut tx, job.id).await?;
    if !current.runs() {
        tx.commit().await?;
        return Ok(false);
    }
    let schedule = format!("schedule {} ({zone})", job.scheduled_at);
    let asked_by = AskedBy {
        name: &schedule,
        origin: Origin::PlatformInternal,
    };
    let request = Request::redeploy(&mut tx, job.id).await?;
    let queued = match engine.queue(&mut tx, request, job.id, asked_by).await {
        Ok(queued) => queued,
        Err(refused) if refused.status().is_client_error() || refused.status().as_u16() == 503 => {
            tracing::info!(job = %job.id, %due, "a cron run was skipped: the job was busy");
            tx.commit().await?;
            return Ok(false);
        }
        Err(error) => return Err(error.into()),
    };
    let target = Target::service(&mut tx, job.id).await?;
    let change = Change::new(Action::Deploy.event_type(), target)
        .after(&serde_json::json!({ "scheduled_at": job.scheduled_at, "due_at": due }));
    audit::record_as(
        &mut tx,
        (job.organization_id, &schedule),
        Origin::PlatformInternal,
        change,
    )
    .await?;
    tx.commit().await?;
    engine.start(queued.deployment_id);
    Ok(true)
}

async fn remember(engine: &Engine, id: Uuid, due: DateTime<Utc>) -> anyhow::Result<()> {
    let mut tx = engine.begin().await?;
    set_last_due(&mut tx, id, due).await?;
    tx.commit().await?;
    Ok(())
}

async fn set_last_due(
    conn: &mut sqlx::SqliteConnection,
    id: Uuid,
    due: DateTime<Utc>,
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO cron_runs (service_id, last_due_at) VALUES (?, ?)
         ON CONFLICT (service_id) DO UPDATE SET last_due_at = excluded.last_due_at",
    )
    .bind(id.hyphenated())
    .bind(due)
    .execute(conn)
    .await
    .map(drop)
}

/// Runs `once` every `every` at the time it is, while the engine takes work.
pub fn start(engine: Arc<Engine>, db: SqlitePool, every: Duration) {
    rounds::every(engine, every, "the cron round", move |engine| {
        let db = db.clone();
        async move { once(&engine, &db, Utc::now()).await.map(drop) }
    });
}
