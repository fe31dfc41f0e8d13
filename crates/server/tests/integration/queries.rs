//! Reads at scale: statuses whose number of SQL statements does not grow with the number of
//! services (counted by SQLite itself, `sqlite3_trace_v2`, on the connection the read runs on),
//! and answers kept in memory that never outlive a change.

use crate::common;

use std::ffi::{c_char, c_int, c_uint, c_void, CStr};
use std::sync::atomic::{AtomicUsize, Ordering};

use axum::body::Body;
use axum::http::{HeaderValue, Request};
use common::TestServer;
use http_body_util::BodyExt;
use platform_server::engine::status;
use serde_json::{json, Value};
use sqlx::SqliteConnection;
use tower::ServiceExt;
use uuid::Uuid;

/// Counts each statement SQLite starts on the connection `context` was registered with.
unsafe extern "C" fn count_statement(
    _kind: c_uint,
    context: *mut c_void,
    _statement: *mut c_void,
    sql: *mut c_void,
) -> c_int {
    // SQLite reports the statements of triggers too, as comments ("-- ...").
    let sql = unsafe { CStr::from_ptr(sql as *const c_char) };
    if !sql.to_bytes().starts_with(b"--") {
        let counter = unsafe { &*(context as *const AtomicUsize) };
        counter.fetch_add(1, Ordering::Relaxed);
    }
    0
}

/// Sets (`Some`) or clears (`None`) the statement counter of `connection`.
async fn trace(connection: &mut SqliteConnection, counter: Option<&AtomicUsize>) {
    let mut handle = connection.lock_handle().await.unwrap();
    let database = handle.as_raw_handle().as_ptr();
    let (mask, callback, context) = match counter {
        Some(counter) => (
            libsqlite3_sys::SQLITE_TRACE_STMT as c_uint,
            Some(count_statement as _),
            counter as *const AtomicUsize as *mut c_void,
        ),
        None => (0, None, std::ptr::null_mut()),
    };
    // SAFETY: the connection is locked for the call; `counter` outlives the registration, which
    // `statements` clears before returning.
    let result = unsafe { libsqlite3_sys::sqlite3_trace_v2(database, mask, callback, context) };
    assert_eq!(result, libsqlite3_sys::SQLITE_OK);
}

/// The statements the environment's statuses take, and how many services they name.
async fn statuses_statements(server: &TestServer, environment: &str) -> (usize, usize) {
    let mut connection = server.state.db.acquire().await.unwrap();
    let counter = AtomicUsize::new(0);
    trace(&mut connection, Some(&counter)).await;
    let statuses = status::of_environment(&mut connection, environment.parse::<Uuid>().unwrap())
        .await
        .unwrap();
    trace(&mut connection, None).await;
    (counter.load(Ordering::Relaxed), statuses.all().count())
}

async fn deployed_environment(server: &TestServer, project: &str, services: usize) -> String {
    let environment = server
        .environment(project, &format!("env-{services}"))
        .await;
    for index in 0..services {
        server
            .application(&environment, &format!("app-{index}"))
            .await;
    }
    let deploy = server
        .post(&format!("/api/environment/{environment}/deploy"), json!({}))
        .await;
    assert_eq!(deploy.status.as_u16(), 202, "{}", deploy.body);
    let statuses = format!("/api/environment/{environment}/statuses");
    for _ in 0..3000 {
        let body = server.get(&statuses).await.body;
        if body["applications"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s["state"] == "DEPLOYED")
        {
            return environment;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    panic!("the {services} services of {environment} were never all deployed");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_environments_statuses_take_the_same_statements_for_10_or_200_services() {
    let server = TestServer::new().await;
    let project = server.project("scale").await;
    let small = deployed_environment(&server, &project, 10).await;
    let large = deployed_environment(&server, &project, 200).await;

    let (small_statements, small_services) = statuses_statements(&server, &small).await;
    let (large_statements, large_services) = statuses_statements(&server, &large).await;
    assert_eq!((small_services, large_services), (10, 200));
    assert_eq!(small_statements, large_statements);
    // The statuses; the steps only while actions run (none: every service is deployed).
    assert_eq!(large_statements, 1);
}

/// A still environment's statuses are answered from memory, and any commit (here one the API
/// did not make) ends that at once.
#[tokio::test]
async fn statuses_answered_from_memory_never_hide_a_change() {
    let server = TestServer::new().await;
    let (_, environment, application) = server.hierarchy().await;
    let deploy = server
        .post(&format!("/api/application/{application}/deploy"), json!({}))
        .await;
    assert_eq!(deploy.status.as_u16(), 202);
    server.settled_status(&application).await;
    let statuses = format!("/api/environment/{environment}/statuses");
    let state = |body: serde_json::Value| body["applications"][0]["state"].clone();
    assert_eq!(state(server.get(&statuses).await.body), "DEPLOYED");
    assert_eq!(state(server.get(&statuses).await.body), "DEPLOYED");
    let compressed = brotli_answer(&server, &statuses).await;
    assert_eq!(brotli_answer(&server, &statuses).await, compressed);
    assert_eq!(state(compressed.1), "DEPLOYED");
    // A client holding the answer is told nothing changed, and sent nothing.
    let held = server.get(&statuses).await.headers["etag"].clone();
    let unchanged = holding(&server, &statuses, &held).await;
    assert_eq!(unchanged.status.as_u16(), 304);
    assert_eq!(unchanged.body, Value::Null);

    sqlx::query("UPDATE service_statuses SET state = 'STOPPED'")
        .execute(&server.state.db)
        .await
        .unwrap();
    let changed = holding(&server, &statuses, &held).await;
    assert_eq!(changed.status.as_u16(), 200);
    assert_eq!(state(changed.body), "STOPPED");
    assert_eq!(state(brotli_answer(&server, &statuses).await.1), "STOPPED");
    assert_eq!(state(server.get(&statuses).await.body), "STOPPED");

    let restart = server
        .post(&format!("/api/environment/{environment}/deploy"), json!({}))
        .await;
    assert_eq!(restart.status.as_u16(), 202, "{}", restart.body);
    assert_ne!(state(server.get(&statuses).await.body), "STOPPED");
}

/// The answer at `path` as a browser asks for it (brotli): the bytes sent, and their JSON.
async fn brotli_answer(server: &TestServer, path: &str) -> (Vec<u8>, Value) {
    let request = Request::get(path)
        .header("Authorization", server.auth())
        .header("Accept-Encoding", "gzip, deflate, br, zstd")
        .body(Body::empty())
        .unwrap();
    let response = server.router.clone().oneshot(request).await.unwrap();
    assert_eq!(response.headers()["content-encoding"], "br");
    let sent = response
        .into_body()
        .collect()
        .await
        .unwrap()
        .to_bytes()
        .to_vec();
    let mut json = Vec::new();
    std::io::Read::read_to_end(&mut brotli::Decompressor::new(&sent[..], 4096), &mut json).unwrap();
    (sent, serde_json::from_slice(&json).unwrap())
}

/// The answer at `path` to a client that holds the one tagged `etag`.
async fn holding(server: &TestServer, path: &str, etag: &HeaderValue) -> common::Reply {
    let request = Request::get(path)
        .header("Authorization", server.auth())
        .header("Accept-Encoding", "identity")
        .header("If-None-Match", etag)
        .body(Body::empty())
        .unwrap();
    server.send(request).await
}
