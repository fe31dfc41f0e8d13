//! Work the server does on its own, every so often, while the engine takes work (the git watch,
//! the previews, cron jobs, schedules): each round at the time it starts; a failed round is
//! logged and tried again at the next.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use crate::engine::Engine;

/// Runs `round` every `every` while `engine` takes work; `what` names it in the log.
pub fn every<F, Fut>(engine: Arc<Engine>, every: Duration, what: &'static str, round: F)
where
    F: Fn(Arc<Engine>) -> Fut + Send + 'static,
    Fut: Future<Output = anyhow::Result<()>> + Send,
{
    tokio::spawn(async move {
        let mut rounds = tokio::time::interval(every);
        rounds.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            rounds.tick().await;
            if !engine.is_running() {
                continue;
            }
            if let Err(error) = round(engine.clone()).await {
                tracing::warn!(%error, "{what} failed; tried again next round");
            }
        }
    });
}
