//! `GET /healthz` (the process answers) and `GET /readyz` (its database answers and its engine
//! runs), for a load balancer or an orchestrator: outside `/api`, its tokens and its rate limit.

use std::time::Duration;

use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{json, Value};

use crate::state::AppState;

/// How long the database may take to answer a readiness check.
const READY_WITHIN: Duration = Duration::from_secs(2);

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
    let engine = state.engine.is_running();
    let status = if database && engine {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    (
        status,
        Json(json!({
            "status": if status == StatusCode::OK { "ready" } else { "not ready" },
            "database": if database { "answers" } else { "does not answer" },
            "engine": if engine { "runs" } else { "stopped" },
        })),
    )
}
