//! Embedding: a portal on another origin frames the console with `?embed=1` and hands it a token
//! by `postMessage`. The panel shows no app chrome and keeps no token in storage, tells the portal
//! which page it shows, follows the portal's navigation, and asks again when the API refuses the
//! token. Opened on its own, the embedded address says what it is.

use axum::response::Html;
use axum::routing::get;
use axum::Router;
use e2e::Browser;
use fantoccini::Locator;
use serde_json::json;

/// The portal: frames the console, lists every message it gets from it, and answers each
/// `ready` with the token in `window.portalToken`.
const PORTAL_PAGE: &str = r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Portal</title></head>
<body style="margin:0;font-family:sans-serif">
<header style="padding:8px 16px;background:#222;color:#fff">Internal portal</header>
<iframe id="panel" title="Platform console" src="CONSOLE_SRC" style="width:100%;height:620px;border:0"></iframe>
<ol id="messages" style="font-size:11px"></ol>
<script>
  const consoleOrigin = "CONSOLE_ORIGIN";
  const panel = document.getElementById("panel");
  window.portalToken = "PORTAL_TOKEN";
  window.handOver = (message) => panel.contentWindow.postMessage(message, consoleOrigin);
  window.addEventListener("message", (event) => {
    if (event.origin !== consoleOrigin) return;
    const item = document.createElement("li");
    item.textContent = JSON.stringify(event.data);
    document.getElementById("messages").append(item);
    if (event.data.type === "platform-console:ready") {
      window.handOver({ type: "platform-console:sign-in", token: window.portalToken });
    }
  });
</script>
</body></html>"#;

#[tokio::test(flavor = "multi_thread")]
async fn a_portal_embeds_the_console_and_hands_it_a_token() -> anyhow::Result<()> {
    let portal = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let portal_origin = format!("http://{}", portal.local_addr()?);
    let browser = Browser::start_with(20.0, vec![portal_origin.clone()]).await?;
    let console_origin = format!("http://{}", browser.server.address);

    let organization = browser.organization_id().await?;
    let project = browser
        .create(
            &format!("/organization/{organization}/project"),
            json!({"name": "portal-shop"}),
        )
        .await?;
    // The portal signs the panel in with a token of its own, which is deleted later.
    let admin = browser.role_id("ADMIN").await?;
    let portal_token = browser
        .api(
            "POST",
            &format!("/organization/{organization}/apiToken"),
            json!({"name": "portal", "role_id": admin}),
        )
        .await?;

    let page = PORTAL_PAGE
        .replace(
            "CONSOLE_SRC",
            &browser.url(&format!("/organization/{organization}/overview?embed=1")),
        )
        .replace("CONSOLE_ORIGIN", &console_origin)
        .replace("PORTAL_TOKEN", portal_token["token"].as_str().unwrap());
    let app = Router::new().route("/", get(move || async move { Html(page) }));
    tokio::spawn(async move { axum::serve(portal, app).await });

    browser.client.goto(&format!("{portal_origin}/")).await?;
    // The panel asked for a token, got it, and says which page it shows (without the flag).
    browser
        .wait_for_text(
            "#messages",
            &format!(r#"{{"type":"platform-console:navigated","path":"/organization/{organization}/overview"}}"#),
        )
        .await?;
    let messages = browser.find("#messages").await?.text().await?;
    assert!(
        messages.contains(r#"{"type":"platform-console:ready","reason":"no_token"}"#),
        "{messages}"
    );

    browser.client.enter_frame(Some(0)).await?;
    browser.wait_for_text("main h1", "Projects").await?;
    browser.wait_for_text("main", "portal-shop").await?;
    browser
        .wait_for_text(".embed-bar", "My organization")
        .await?;
    assert!(
        browser
            .client
            .find_all(Locator::Css(".header"))
            .await?
            .is_empty(),
        "the embedded console shows the app's header"
    );
    let stored = browser
        .client
        .execute(
            "return [sessionStorage.getItem('platform-console.session'), \
                     localStorage.getItem('platform-console.session')]",
            vec![],
        )
        .await?;
    assert_eq!(stored, json!([null, null]), "the host's token was stored");
    browser.client.enter_parent_frame().await?;
    browser.screenshot("embedded-console").await?;

    // The portal's token is deleted; the portal keeps another one ready. The portal then
    // navigates the panel, whose next call is refused: it asks again and goes on.
    browser
        .client
        .execute(
            &format!("window.portalToken = {:?};", browser.token),
            vec![],
        )
        .await?;
    let deleted = format!(
        "/organization/{organization}/apiToken/{}",
        portal_token["id"].as_str().unwrap()
    );
    browser.api("DELETE", &deleted, json!(null)).await?;
    let project_page = format!("/organization/{organization}/project/{project}/overview");
    browser
        .client
        .execute(
            &format!(
                "window.handOver({{type: 'platform-console:navigate', path: {project_page:?}}});"
            ),
            vec![],
        )
        .await?;
    browser
        .wait_for_text(
            "#messages",
            r#"{"type":"platform-console:ready","reason":"token_refused"}"#,
        )
        .await?;
    browser
        .wait_for_text(
            "#messages",
            &format!(r#"{{"type":"platform-console:navigated","path":"{project_page}"}}"#),
        )
        .await?;
    browser.client.enter_frame(Some(0)).await?;
    browser.wait_for_text("main h1", "Environments").await?;
    browser.wait_for_text(".embed-bar", "portal-shop").await?;
    browser.client.enter_parent_frame().await?;

    // The panel follows the portal's theme.
    browser
        .client
        .execute(
            "window.handOver({type: 'platform-console:theme', theme: 'dark'});",
            vec![],
        )
        .await?;
    browser.client.enter_frame(Some(0)).await?;
    browser.find("html[data-theme=dark]").await?;
    browser.client.enter_parent_frame().await?;

    // A portal that signs the panel out and answers every `ready` with a stale token is told
    // once that the token was refused, and does not loop with the panel.
    browser
        .client
        .execute(
            "window.portalToken = 'pt_stale'; \
             document.getElementById('messages').replaceChildren(); \
             window.handOver({type: 'platform-console:sign-out'});",
            vec![],
        )
        .await?;
    browser.client.enter_frame(Some(0)).await?;
    browser
        .wait_for_text(".embed-waiting", "The API refused the token")
        .await?;
    browser.client.enter_parent_frame().await?;
    tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
    let messages = browser.find("#messages").await?.text().await?;
    assert_eq!(
        messages.lines().collect::<Vec<_>>(),
        [
            r#"{"type":"platform-console:ready","reason":"no_token"}"#,
            r#"{"type":"platform-console:ready","reason":"token_refused"}"#,
        ]
    );
    browser.screenshot("embedded-console-refused").await?;

    // The embedded address opened on its own says what it is, and leads to the full console.
    browser.open("/?embed=1").await?;
    browser
        .wait_for_text(".embed-waiting h1", "This is the embedded console")
        .await?;
    browser.click(".embed-waiting a[href='/?embed=0']").await?;
    browser.wait_for_path(|path| path == "/sign-in").await?;
    browser.wait_for_value("#field-base_url", "/api").await?;
    browser.close().await
}

/// A portal whose people sign in through the identity provider: it hands the panel their access
/// token, and a new one each time the panel asks (`renew`), until it stops answering.
const RENEWING_PORTAL_PAGE: &str = r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Portal</title></head>
<body style="margin:0;font-family:sans-serif">
<iframe id="panel" title="Platform console" src="CONSOLE_SRC" style="width:100%;height:620px;border:0"></iframe>
<ol id="messages" style="font-size:11px"></ol>
<script>
  const consoleOrigin = "CONSOLE_ORIGIN";
  const panel = document.getElementById("panel");
  window.answerRenewals = true;
  window.handedOver = 0;
  async function handOverNew() {
    const { access_token } = await (await fetch("TOKEN_URL")).json();
    panel.contentWindow.postMessage(
      { type: "platform-console:sign-in", token: access_token, token_type: "access_token" },
      consoleOrigin);
    window.handedOver += 1;
  }
  window.addEventListener("message", (event) => {
    if (event.origin !== consoleOrigin) return;
    const item = document.createElement("li");
    item.textContent = JSON.stringify(event.data);
    document.getElementById("messages").append(item);
    if (event.data.type === "platform-console:ready" && event.data.reason === "no_token") handOverNew();
    if (event.data.type === "platform-console:renew" && window.answerRenewals) handOverNew();
  });
</script>
</body></html>"#;

#[tokio::test(flavor = "multi_thread")]
async fn a_portal_renews_the_access_token_when_the_panel_asks() -> anyhow::Result<()> {
    let portal = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let portal_origin = format!("http://{}", portal.local_addr()?);
    let (browser, provider) =
        Browser::start_with_identity_provider(20, vec![portal_origin.clone()]).await?;
    let console_origin = format!("http://{}", browser.server.address);
    let organization = browser.organization_id().await?;

    // Pat, signed in to the portal through the provider, is a member of the organization.
    let invitation = browser
        .api(
            "POST",
            &format!("/organization/{organization}/inviteMember"),
            json!({"email": "pat@example.com", "role": "ADMIN"}),
        )
        .await?;
    let token_url = provider.access_token_url("pat@example.com", 20);
    let minted = {
        let url = token_url.clone();
        tokio::task::spawn_blocking(move || -> anyhow::Result<serde_json::Value> {
            Ok(ureq::get(&url).call()?.into_json()?)
        })
        .await??
    };
    browser
        .api_as(
            &format!("Bearer {}", minted["access_token"].as_str().unwrap()),
            "POST",
            &format!(
                "/organization/{organization}/inviteMember/{}",
                invitation["id"].as_str().unwrap()
            ),
            json!({}),
        )
        .await?;

    let page = RENEWING_PORTAL_PAGE
        .replace(
            "CONSOLE_SRC",
            &browser.url(&format!(
                "/organization/{organization}/settings/general?embed=1"
            )),
        )
        .replace("CONSOLE_ORIGIN", &console_origin)
        .replace("TOKEN_URL", &token_url);
    let app = Router::new().route("/", get(move || async move { Html(page) }));
    tokio::spawn(async move { axum::serve(portal, app).await });

    browser.client.goto(&format!("{portal_origin}/")).await?;
    let first_handed_over = std::time::Instant::now();
    browser.client.enter_frame(Some(0)).await?;
    browser
        .wait_for_value("#field-name", "My organization")
        .await?;
    // Half-filled, the form outlives the token it was opened with.
    browser.fill("#field-name", "Renamed in the panel").await?;
    browser.client.enter_parent_frame().await?;
    // Asked ten seconds before the 20-second token ends; the portal answers with a new one.
    browser
        .wait_for_text(
            "#messages",
            r#""type":"platform-console:renew","expires_at""#,
        )
        .await?;
    let handed_over = || async {
        browser
            .client
            .execute("return window.handedOver", vec![])
            .await
    };
    while handed_over().await? != json!(2) {
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    // Past the first token's end, the panel works on the second, on the same page.
    let first_end = std::time::Duration::from_secs(21);
    tokio::time::sleep(first_end.saturating_sub(first_handed_over.elapsed())).await;
    browser.client.enter_frame(Some(0)).await?;
    browser
        .wait_for_value("#field-name", "Renamed in the panel")
        .await?;
    browser
        .save_form(
            "form[aria-label='Edit the organization']",
            "Organization Renamed in the panel saved.",
        )
        .await?;
    browser.client.enter_parent_frame().await?;
    let named = browser
        .api("GET", &format!("/organization/{organization}"), json!(null))
        .await?;
    assert_eq!(named["name"], "Renamed in the panel", "{named}");

    // The portal stops answering: at the second token's end, the panel stops and says why.
    browser
        .client
        .execute("window.answerRenewals = false", vec![])
        .await?;
    browser
        .wait_for_text(
            "#messages",
            r#"{"type":"platform-console:ready","reason":"token_expired"}"#,
        )
        .await?;
    browser.client.enter_frame(Some(0)).await?;
    browser
        .wait_for_text(".embed-waiting", "sent no new one when asked")
        .await?;
    browser.client.enter_parent_frame().await?;
    browser.screenshot("embedded-token-ended").await?;
    Ok(())
}
