//! Signing in as oneself through a real identity provider (oidc-provider on loopback): from a
//! deep link through the provider's login page and back to the page, the code gone from the
//! address; the person's access token taken by the API once they accept an invitation; renewed
//! twice in place with a form half-filled; the person's account page; signing out ends the
//! provider's session and signs out every tab. A renewal the provider refuses asks to sign in
//! again in a window of the provider's, and the page goes on with what was typed in it.

use std::time::Duration;

use anyhow::Context;
use e2e::{Browser, PATIENCE};
use serde_json::json;

/// The organization's general settings form.
const GENERAL_FORM: &str = "form[aria-label='Edit the organization']";

/// What this tab keeps of the session (`src/api/session.rs`).
const SESSION: &str = "platform-console.session";

#[tokio::test(flavor = "multi_thread")]
async fn a_person_signs_in_through_the_provider_and_stays_signed_in() -> anyhow::Result<()> {
    // Access tokens live 20 s: renewed 10 s before their end.
    let (browser, _provider) = Browser::start_with_identity_provider(20, vec![]).await?;
    let organization = browser.organization_id().await?;
    // The invitation's link, opened signed out: through sign-in and back to it.
    let link = invitation_link(&browser, &organization, "ada@example.com").await?;

    browser.open(&link).await?;
    browser.wait_for_path(|path| path == "/sign-in").await?;
    // config.json fixes the API's address: it is not asked for; the token form is folded.
    browser
        .wait_for_text(".sign-in__provider", "Sign in with 127.0.0.1")
        .await?;
    assert!(browser
        .client
        .find_all(fantoccini::Locator::Css("#field-base_url"))
        .await?
        .is_empty());
    accessible_at_both_widths(&browser).await?;
    browser.screenshot("sign-in-through-provider").await?;
    let started = std::time::Instant::now();
    browser.click(".sign-in__provider").await?;
    browser.fill("input[name=login]", "ada@example.com").await?;
    browser.fill("input[name=password]", "any password").await?;
    browser.click("button[type=submit]").await?;
    // Back on the link, accepted as Ada: the organization opens.
    let overview = format!("/organization/{organization}/overview");
    browser.wait_for_path(|path| path == overview).await?;
    println!(
        "sign-in round trip, invitation accepted: {} ms",
        started.elapsed().as_millis()
    );
    browser.wait_for_text("main h1", "Projects").await?;
    browser.wait_for_text("header", "ada").await?;
    let address = browser.client.current_url().await?;
    assert_eq!(address.query(), None, "{address}");

    browser
        .open(&format!("/organization/{organization}/settings/general"))
        .await?;
    browser
        .wait_for_value("#field-name", "My organization")
        .await?;
    // Ada owns the organization: the first person to join it as an admin.
    browser
        .wait_for_text("#owner-title + p", "ada@example.com")
        .await?;
    accessible_at_both_widths(&browser).await?;
    browser.screenshot("organization-owner").await?;

    // Half a form typed, then two renewals: the same page, the same text, new tokens.
    browser.fill("#field-description", "half typed").await?;
    browser
        .client
        .execute("window.stayed = true", vec![])
        .await?;
    let mut token = session_token(&browser).await?;
    for _ in 0..2 {
        let renewed_at = std::time::Instant::now();
        token = renewed(&browser, &token).await?;
        println!("renewed after {} ms", renewed_at.elapsed().as_millis());
    }
    let stayed = browser
        .client
        .execute("return window.stayed === true", vec![])
        .await?;
    assert_eq!(stayed, json!(true), "the page was loaded again");
    browser
        .wait_for_value("#field-description", "half typed")
        .await?;
    // The renewed token is the API's: the page's reads still answer.
    browser.client.refresh().await?;
    browser
        .wait_for_value("#field-name", "My organization")
        .await?;

    // A person may make an organization of their own, and switch between theirs.
    browser
        .click(".breadcrumbs summary[aria-label='Switch organization (now My organization)']")
        .await?;
    browser
        .click_text(".switcher[open] .switcher__list a", "New organization…")
        .await?;
    browser.wait_for_text("main h1", "New organization").await?;
    accessible_at_both_widths(&browser).await?;
    browser.fill("#field-name", "Ada's lab").await?;
    browser.click("main button[type=submit]").await?;
    browser
        .wait_for_path(|path| path.ends_with("/overview") && path != overview)
        .await?;
    browser.wait_for_text(".breadcrumbs", "Ada's lab").await?;
    browser
        .click(".breadcrumbs summary[aria-label=\"Switch organization (now Ada's lab)\"]")
        .await?;
    browser
        .click_text(".switcher[open] .switcher__list a", "My organization")
        .await?;
    browser.wait_for_path(|path| path == overview).await?;

    // The header's name opens the person's account: who, and their organizations.
    browser.click("header a.header__person").await?;
    browser.wait_for_path(|path| path == "/account").await?;
    browser.wait_for_text("main dl", "ada@example.com").await?;
    browser.wait_for_text("main", "Ada's lab").await?;
    browser
        .wait_for_text("main", "Through your identity provider")
        .await?;
    accessible_at_both_widths(&browser).await?;
    browser.screenshot("account").await?;

    // A second tab, signed in by one click (the provider's session is open), is signed out
    // with the first.
    let first_tab = browser.client.window().await?;
    let second_tab = browser.client.new_window(true).await?.handle;
    browser.client.switch_to_window(second_tab.clone()).await?;
    browser.open(&overview).await?;
    browser.wait_for_path(|path| path == "/sign-in").await?;
    browser.click(".sign-in__provider").await?;
    browser.wait_for_path(|path| path == overview).await?;
    browser.client.switch_to_window(first_tab).await?;

    // Signing out ends the provider's session and comes back to sign in.
    browser.click_text("header button", "Sign out").await?;
    browser.click("button[name=logout][value=yes]").await?;
    browser.wait_for_path(|path| path == "/sign-in").await?;
    let kept = browser
        .client
        .execute(
            &format!("return sessionStorage.getItem('{SESSION}')"),
            vec![],
        )
        .await?;
    assert_eq!(kept, serde_json::Value::Null);
    browser.client.switch_to_window(second_tab).await?;
    browser.wait_for_path(|path| path == "/sign-in").await?;
    browser.close().await
}

async fn accessible_at_both_widths(browser: &Browser) -> anyhow::Result<()> {
    for width in [375, 1280] {
        browser.set_width(width).await?;
        assert_eq!(
            browser.axe_violations().await?,
            Vec::<String>::new(),
            "at {width} px"
        );
    }
    Ok(())
}

#[tokio::test(flavor = "multi_thread")]
async fn a_refused_renewal_asks_to_sign_in_again_and_returns_to_the_page() -> anyhow::Result<()> {
    let (browser, mut provider) = Browser::start_with_identity_provider(20, vec![]).await?;
    let organization = browser.organization_id().await?;
    let link = invitation_link(&browser, &organization, "ada@example.com").await?;
    browser.open(&link).await?;
    through_the_providers_login(&browser, "ada@example.com").await?;
    browser.wait_for_text("main h1", "Projects").await?;
    let page = format!("/organization/{organization}/settings/general");
    browser.open(&page).await?;
    browser
        .wait_for_value("#field-name", "My organization")
        .await?;

    // Half a form typed; then the provider forgets every grant: the next renewal is refused.
    browser
        .fill("#field-description", "typed before the end")
        .await?;
    browser
        .client
        .execute("window.stayed = true", vec![])
        .await?;
    provider.restart().await?;
    browser
        .wait_for_text("dialog[open]", "Your session has ended")
        .await?;
    accessible_at_both_widths(&browser).await?;
    browser.screenshot("sign-in-again").await?;

    // Signed in again in the provider's window, the page goes on as it was.
    let page_window = browser.client.window().await?;
    browser
        .click_text("dialog[open] button", "Sign in again")
        .await?;
    let popup = loop {
        let windows = browser.client.windows().await?;
        if let Some(popup) = windows.into_iter().find(|w| *w != page_window) {
            break popup;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    browser.client.switch_to_window(popup).await?;
    browser.fill("input[name=login]", "ada@example.com").await?;
    browser.fill("input[name=password]", "any password").await?;
    browser.click("button[type=submit]").await?;
    // The window closes itself once it has handed the session over.
    while browser.client.windows().await?.len() > 1 {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    browser.client.switch_to_window(page_window).await?;
    browser.wait_until_gone("dialog[open]").await?;
    let stayed = browser
        .client
        .execute("return window.stayed === true", vec![])
        .await?;
    assert_eq!(stayed, json!(true), "the page was loaded again");
    assert_eq!(browser.client.current_url().await?.path(), page);
    browser
        .wait_for_value("#field-description", "typed before the end")
        .await?;
    browser
        .save_form(GENERAL_FORM, "Organization My organization saved.")
        .await?;
    let saved = browser
        .api("GET", &format!("/organization/{organization}"), json!(null))
        .await?;
    assert_eq!(saved["description"], "typed before the end", "{saved}");
    browser.close().await
}

/// The link of an invitation of `email` to `organization` as an ADMIN, made with its token.
async fn invitation_link(
    browser: &Browser,
    organization: &str,
    email: &str,
) -> anyhow::Result<String> {
    let invitation = browser
        .api(
            "POST",
            &format!("/organization/{organization}/inviteMember"),
            json!({"email": email, "role": "ADMIN"}),
        )
        .await?;
    let id = invitation["id"].as_str().context("the invitation's id")?;
    Ok(format!("/invitation/{organization}/{id}"))
}

/// From the sign-in page, through the provider's login page as `login` (any password).
async fn through_the_providers_login(browser: &Browser, login: &str) -> anyhow::Result<()> {
    browser.wait_for_path(|path| path == "/sign-in").await?;
    browser.click(".sign-in__provider").await?;
    browser.fill("input[name=login]", login).await?;
    browser.fill("input[name=password]", "any password").await?;
    browser.click("button[type=submit]").await
}

async fn session_token(browser: &Browser) -> anyhow::Result<String> {
    let token = browser
        .client
        .execute(
            &format!("return JSON.parse(sessionStorage.getItem('{SESSION}')).token"),
            vec![],
        )
        .await?;
    token
        .as_str()
        .map(str::to_string)
        .context("a token kept for the tab")
}

/// The token once the console has renewed `before`.
async fn renewed(browser: &Browser, before: &str) -> anyhow::Result<String> {
    let deadline = tokio::time::Instant::now() + PATIENCE;
    loop {
        let now = session_token(browser).await?;
        if now != before {
            return Ok(now);
        }
        anyhow::ensure!(
            tokio::time::Instant::now() < deadline,
            "the access token was not renewed"
        );
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}
