//! The console against the production platform as its API document describes it: a stand-in
//! answers every call the document has with a sample built from the document's schema (only the
//! required fields, a list holding one such item; each name "sample name") and nothing else.
//! The console signs in and shows the organization, a project, an environment, its services and
//! one service's page.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::http::{header, HeaderValue, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use contract::{Document, Fields};
use e2e::Browser;

/// What the stand-in answers: the document's sample for the operation, or 404.
fn answer(document: &Document, method: &Method, uri: &Uri) -> Response {
    let path = uri.path().strip_prefix("/api").unwrap_or(uri.path());
    let mut response = if method == Method::OPTIONS {
        StatusCode::NO_CONTENT.into_response()
    } else {
        let sample = document
            .operation(method.as_str(), path)
            .and_then(|operation| operation.sample_response(Fields::RequiredWithResults));
        match sample {
            Some((status, mut body)) => {
                one_id(&mut body);
                (
                    StatusCode::from_u16(status).expect("a document's code"),
                    axum::Json(body),
                )
                    .into_response()
            }
            None => (
                StatusCode::NOT_FOUND,
                axum::Json(serde_json::json!({"status": 404, "error": "NOT_FOUND",
                    "message": format!("The production document has no {method} {path}.")})),
            )
                .into_response(),
        }
    };
    // The console is served from the reference server's origin: the stand-in is another one.
    let headers = response.headers_mut();
    let any = HeaderValue::from_static("*");
    headers.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, any.clone());
    headers.insert(header::ACCESS_CONTROL_ALLOW_HEADERS, any.clone());
    headers.insert(header::ACCESS_CONTROL_ALLOW_METHODS, any);
    response
}

/// Every id of a sample made the same, so that what one answer names (a service in a list) the
/// next answers find (its status among the environment's).
fn one_id(value: &mut serde_json::Value) {
    const ID: &str = "0b7a7c36-5a3c-4c43-9d51-3f3d3c7e9a10";
    match value {
        serde_json::Value::String(text) if uuid::Uuid::parse_str(text).is_ok() => {
            *text = ID.to_string()
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(one_id),
        serde_json::Value::Object(fields) => fields.values_mut().for_each(one_id),
        _ => {}
    }
}

async fn start_stand_in() -> anyhow::Result<SocketAddr> {
    let document = Arc::new(Document::production());
    let app = axum::Router::new().fallback(move |method: Method, uri: Uri| {
        let document = document.clone();
        async move { answer(&document, &method, &uri) }
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let address = listener.local_addr()?;
    tokio::spawn(async move { axum::serve(listener, app).await });
    Ok(address)
}

#[tokio::test(flavor = "multi_thread")]
async fn the_console_works_against_the_documents_samples() -> anyhow::Result<()> {
    let stand_in = start_stand_in().await?;
    let browser = Browser::start(20.0).await?;
    browser.open("/sign-in").await?;
    browser.wait_for_value("#field-base_url", "/api").await?;
    browser
        .fill("#field-base_url", &format!("http://{stand_in}/api"))
        .await?;
    browser
        .fill("#field-token", "any-token-the-stand-in-takes")
        .await?;
    browser.click("button[type=submit]").await?;
    browser
        .wait_for_path(|path| path.ends_with("/overview"))
        .await?;

    // The organization, read from the document's list answer, and its one project.
    browser.wait_for_text("main h1", "Projects").await?;
    browser.wait_for_text("header", "sample name").await?;
    browser.wait_for_text(".table", "sample name").await?;
    browser.screenshot("stand-in-organization").await?;
    browser.click(".table a").await?;

    browser.wait_for_text("main h1", "Environments").await?;
    browser.wait_for_text(".table", "sample name").await?;
    browser.click(".table a").await?;

    // An environment's services, from its one list of every kind (`GET .../services`), whose
    // sample holds the first kind its `oneOf` names, each item telling its `service_type`.
    browser.wait_for_text("main h1", "Services").await?;
    let services = browser.wait_for_text(".table", "sample name").await?;
    browser.screenshot("stand-in-environment").await?;
    assert!(
        services.contains("Application"),
        "no Application in: {services}"
    );

    // A service's page reads its record, status and history from the document's samples too.
    browser.click(".table a").await?;
    browser.wait_for_text("main h1", "sample name").await?;
    browser
        .wait_for_text("main", "Steps of the last action")
        .await?;
    browser.wait_for_text("main", "0.5 vCPU · 512 MiB").await?;
    browser.screenshot("stand-in-service").await?;
    browser.close().await
}
