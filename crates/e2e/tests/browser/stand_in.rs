//! The console against the production platform as its API document describes it: a stand-in
//! (`contract::StandIn`) answers every operation the document has with a sample built from its
//! schema and 404s anything else. Here with the least the platform may send (only the required
//! fields, a list holding one item): the console signs in and shows the organization, a project,
//! an environment, its services and one service's page.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::body::Body;
use axum::http::{header, HeaderValue, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use contract::{Document, Fields, StandIn};
use e2e::Browser;

/// Serves `stand_in` on a free loopback port, its API under `/api`.
pub async fn serve(stand_in: Arc<StandIn>) -> anyhow::Result<SocketAddr> {
    serve_refusing(stand_in, Refusals::default()).await
}

/// Answers the platform sends instead of the operation's, each once, to the first `GET` whose
/// path ends as it says: (path's end, status, header, seconds).
pub type Refusals = Arc<std::sync::Mutex<Vec<(&'static str, StatusCode, &'static str, u32)>>>;

/// `serve`, each of `refusals` answered once in place of the stand-in's answer.
pub async fn serve_refusing(
    stand_in: Arc<StandIn>,
    refusals: Refusals,
) -> anyhow::Result<SocketAddr> {
    let app = axum::Router::new().fallback(
        move |method: Method, uri: Uri, headers: axum::http::HeaderMap| {
            let stand_in = stand_in.clone();
            let refusals = refusals.clone();
            async move {
                // As the platform, a call without a person's access token is refused (the
                // console signs in with one, as a person signed in through the provider does).
                let bearer = headers
                    .get(header::AUTHORIZATION)
                    .and_then(|value| value.to_str().ok())
                    .is_some_and(|value| value.starts_with("Bearer "));
                if method != Method::OPTIONS && !bearer {
                    return with_cors(StatusCode::UNAUTHORIZED.into_response());
                }
                let refusal = {
                    let mut refusals = refusals.lock().expect("the refusals");
                    let due = refusals
                        .iter()
                        .position(|(end, ..)| method == Method::GET && uri.path().ends_with(end));
                    due.map(|at| refusals.remove(at))
                };
                match refusal {
                    Some((_, status, header, seconds)) => {
                        with_cors((status, [(header, seconds.to_string())]).into_response())
                    }
                    None => answer(&stand_in, &method, &uri),
                }
            }
        },
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let address = listener.local_addr()?;
    tokio::spawn(async move { axum::serve(listener, app).await });
    Ok(address)
}

fn answer(stand_in: &StandIn, method: &Method, uri: &Uri) -> Response {
    let response = if method == Method::OPTIONS {
        StatusCode::NO_CONTENT.into_response()
    } else {
        let asked = uri.path_and_query().map_or(uri.path(), |p| p.as_str());
        let asked = asked.strip_prefix("/api").unwrap_or(asked);
        let answer = stand_in.answer(method.as_str(), asked);
        let status = StatusCode::from_u16(answer.status).expect("a document's code");
        match answer.body {
            Some(body) => (status, axum::Json(body)).into_response(),
            None => (status, Body::empty()).into_response(),
        }
    };
    with_cors(response)
}

/// The console is served from the reference server's origin: the stand-in is another one.
fn with_cors(mut response: Response) -> Response {
    let headers = response.headers_mut();
    let any = HeaderValue::from_static("*");
    headers.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, any.clone());
    headers.insert(header::ACCESS_CONTROL_ALLOW_HEADERS, any.clone());
    headers.insert(header::ACCESS_CONTROL_ALLOW_METHODS, any);
    headers.insert(
        header::ACCESS_CONTROL_EXPOSE_HEADERS,
        HeaderValue::from_static("Retry-After, X-RateLimit-Reset"),
    );
    response
}

/// The console served by a forwarding server (`--api-upstream`) whose upstream is a stand-in:
/// signed in on the console's own origin (the API address `config.json` gives), it reads the
/// stand-in's records through the forwarder.
#[tokio::test(flavor = "multi_thread")]
async fn the_console_signs_in_through_the_forwarder() -> anyhow::Result<()> {
    let stand_in = Arc::new(StandIn::new(
        Document::production(),
        Fields::RequiredWithResults,
    ));
    let upstream = serve(stand_in.clone()).await?;
    let dist = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../dist");
    let forwarding = platform_server::forward::start(platform_server::forward::ForwardConfig {
        identity_provider: None,
        listen: "127.0.0.1:0".parse()?,
        upstream: format!("http://{upstream}/api").parse()?,
        console_dir: Some(dist),
        embed_allowed_origins: vec![],
        public_url: None,
        allowed_hosts: vec![],
        answer_within: platform_server::forward::ANSWER_WITHIN,
    })
    .await?;
    let console = format!("http://{}", forwarding.address);
    let browser = Browser::start(20.0).await?;
    browser.client.goto(&format!("{console}/sign-in")).await?;
    browser
        .wait_for_value("#field-base_url", &format!("{console}/api"))
        .await?;
    browser.choose("#field-kind", "bearer").await?;
    browser
        .fill("#field-token", "a-token-of-the-platform")
        .await?;
    browser.click("button[type=submit]").await?;
    browser
        .wait_for_path(|path| path.ends_with("/overview"))
        .await?;
    browser.wait_for_text("main h1", "Projects").await?;
    browser.wait_for_text(".table", "sample name").await?;
    let seen = stand_in.seen();
    assert!(
        seen.iter()
            .any(|seen| seen.path.starts_with("/organization")),
        "the stand-in was not reached: {seen:?}"
    );
    browser.screenshot("forwarder-organization").await?;
    browser.close().await
}

/// Signs the browser in against the stand-in at `address`.
pub async fn sign_in(browser: &Browser, address: SocketAddr) -> anyhow::Result<()> {
    browser.open("/sign-in").await?;
    browser.wait_for_value("#field-base_url", "/api").await?;
    browser
        .fill("#field-base_url", &format!("http://{address}/api"))
        .await?;
    browser.choose("#field-kind", "bearer").await?;
    browser
        .fill("#field-token", "an-access-token-the-stand-in-takes")
        .await?;
    browser.click("button[type=submit]").await?;
    browser
        .wait_for_path(|path| path.ends_with("/overview"))
        .await?;
    Ok(())
}

#[tokio::test(flavor = "multi_thread")]
async fn the_console_works_against_the_documents_samples() -> anyhow::Result<()> {
    let stand_in = Arc::new(StandIn::new(
        Document::production(),
        Fields::RequiredWithResults,
    ));
    let address = serve(stand_in).await?;
    let browser = Browser::start(20.0).await?;
    sign_in(&browser, address).await?;

    // The organization, read from the document's list answer, and its one project.
    browser.wait_for_text("main h1", "Projects").await?;
    browser.wait_for_text("header", "sample name").await?;
    browser.wait_for_text(".table", "sample name").await?;
    browser.screenshot("stand-in-organization").await?;
    browser.click(".table a").await?;

    browser.wait_for_text("main h1", "Environments").await?;
    browser.wait_for_text(".table", "sample name").await?;
    browser.click(".table a").await?;

    // An environment's services, from its one list of every kind (`GET .../services`): one of
    // each kind, each item telling its `service_type`.
    browser
        .wait_for_text("main h2", "Services of this environment")
        .await?;
    let services = browser
        .wait_for_text(".table", "sample application")
        .await?;
    browser.screenshot("stand-in-environment").await?;
    for kind in [
        "Application",
        "Container",
        "Database",
        "Job",
        "Helm",
        "Terraform",
    ] {
        assert!(services.contains(kind), "no {kind} in: {services}");
    }

    // A service's page reads its record, status and history from the document's samples too.
    browser.click_text(".table a", "sample application").await?;
    browser.wait_for_text("main h1", "sample").await?;
    browser
        .wait_for_text("main", "Steps of the last action")
        .await?;
    browser.wait_for_text("main", "0.5 vCPU · 512 MiB").await?;
    browser.screenshot("stand-in-service").await?;
    browser.close().await
}

/// A platform newer than its document sends values of its enumerations that the document does
/// not list yet: the console shows them as they are, and the pages load.
#[tokio::test(flavor = "multi_thread")]
async fn values_the_document_does_not_list_yet_are_shown_as_they_are() -> anyhow::Result<()> {
    let stand_in = Arc::new(StandIn::with_unlisted_values(
        Document::production(),
        Fields::RequiredWithResults,
    ));
    let address = serve(stand_in).await?;
    let browser = Browser::start(20.0).await?;
    sign_in(&browser, address).await?;
    browser.click(".table a").await?;
    browser.wait_for_text("main h1", "Environments").await?;
    browser.click(".table a").await?;
    let services = browser
        .wait_for_text(".table", "sample application")
        .await?;
    // Each service's state, a word no list of this console has, in the words it came in.
    assert!(
        services
            .to_lowercase()
            .contains("a value of a newer platform"),
        "{services}"
    );
    browser.click_text(".table a", "sample application").await?;
    browser.wait_for_text("main h1", "sample").await?;
    let status = browser
        .wait_for_text("main", "Steps of the last action")
        .await?;
    assert!(
        status
            .to_lowercase()
            .contains("a value of a newer platform"),
        "{status}"
    );
    let errors = browser
        .client
        .find_all(fantoccini::Locator::Css(".notice--error, .toast--error"))
        .await?;
    assert!(errors.is_empty(), "the page shows an error");
    browser.screenshot("stand-in-unlisted-values").await?;
    browser.close().await
}
