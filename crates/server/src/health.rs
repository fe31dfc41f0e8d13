//! `GET /healthz` (the process answers) and `GET /readyz` (its database answers, no write has
//! held the writer long enough to make the others fail, and its engine runs), for a load
//! balancer or an orchestrator: outside `/api`, its tokens and its rate limit.

use std::time::Duration;

use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{json, Value};

use crate::state::AppState;

/// How long the database may take to answer a readiness check.
const READY_WITHIN: Duration = Duration::from_secs(2);

/// A write holding the writer this long makes the server not ready: the writes waiting behind it
/// are about to fail (they wait `db::BUSY_TIMEOUT` by default).
const WRITER_STUCK_AFTER: Duration = Duration::from_secs(5);

pub fn router() -> Router<AppState> {
    Router::new()
        .route(
            "/healthz",
            get(|| async { Json(json!({ "status": "alive" })) }),
        )
        .route("/readyz", get(readiness))
}

async fn readiness(State(state): State<AppState>) -> (StatusCode, Json<Value>) {
    let database = tokio::time::timeout(
        READY_WITHIN,
        sqlx::query_scalar::<_, i64>("SELECT 1").fetch_one(&state.db),
    )
    .await
    .is_ok_and(|answered| answered.is_ok());
    let writer = state
        .write_lock
        .held_for()
        .is_none_or(|held| held < WRITER_STUCK_AFTER);
    let engine = state.engine.is_running();
    let status = if database && writer && engine {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    (
        status,
        Json(json!({
            "status": if status == StatusCode::OK { "ready" } else { "not ready" },
            "database": if database { "answers" } else { "does not answer" },
            "writes": if writer { "flow" } else { "held by one write" },
            "engine": if engine { "runs" } else { "stopped" },
        })),
    )
}
