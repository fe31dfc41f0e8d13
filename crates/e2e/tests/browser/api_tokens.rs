//! The API tokens page: tokens listed with their role and expiry, never their secret; a token
//! created with a role and a lifetime (its rules checked first), its secret shown once with a copy
//! button and working against the API, gone from the page once dismissed; a token deleted and
//! refused at once.

use e2e::Browser;

/// Calls `GET /organization` with `token`; the HTTP status.
async fn organization_status(browser: &Browser, token: &str) -> anyhow::Result<u16> {
    let url = browser.url("/api/organization");
    let authorization = format!("Token {token}");
    Ok(tokio::task::spawn_blocking(move || {
        match ureq::get(&url).set("Authorization", &authorization).call() {
            Ok(answer) => answer.status(),
            Err(ureq::Error::Status(status, _)) => status,
            Err(error) => panic!("GET {url}: {error}"),
        }
    })
    .await?)
}

#[tokio::test(flavor = "multi_thread")]
async fn a_token_is_created_shown_once_and_deleted() -> anyhow::Result<()> {
    let browser = Browser::start(20.0).await?;
    browser.sign_in().await?;
    browser
        .click("a[href$='/settings/container-registries']")
        .await?;
    browser
        .click("a.tabs__tab[href$='/settings/api-tokens']")
        .await?;
    browser.wait_for_text("main h1", "API tokens").await?;
    // Who is signed in: the server's sign-in token, listed below.
    browser
        .wait_for_text("[data-account]", "Signed in as console sign-in, made")
        .await?;
    let sign_in = browser
        .wait_for_text("tr[data-token='console sign-in']", "ADMIN")
        .await?;
    assert!(sign_in.contains("Never"), "{sign_in}");

    // The rules of platform-api are checked before sending.
    browser.open_new("New API token").await?;
    browser
        .click("form[aria-label='Create an API token'] button[type=submit]")
        .await?;
    browser
        .wait_for_text(".field__error", "is required")
        .await?;

    let deploy = browser.role_id("DEPLOY").await?;
    browser.fill("#field-name", "ci-deploy").await?;
    browser
        .find(&format!("#field-role_id option[value='{deploy}']"))
        .await?
        .click()
        .await?;
    browser
        .find("#field-expires_at option[value='30']")
        .await?
        .click()
        .await?;
    browser
        .click("form[aria-label='Create an API token'] button[type=submit]")
        .await?;

    browser
        .wait_for_text(".shown-once", "It is shown this once")
        .await?;
    let secret = browser
        .find(".shown-once input")
        .await?
        .prop("value")
        .await?
        .unwrap_or_default();
    assert!(secret.starts_with("pt_"), "{secret:?}");
    let listed = browser
        .wait_for_text("tr[data-token=ci-deploy]", "DEPLOY")
        .await?;
    assert!(listed.contains("in 30 days"), "{listed}");
    browser.screenshot("api-token-shown-once").await?;
    assert_eq!(organization_status(&browser, &secret).await?, 200);

    browser.click(".shown-once .button--secondary").await?;
    browser.wait_until_gone(".shown-once").await?;
    assert!(
        !browser.client.source().await?.contains(&secret),
        "the secret stayed on the page"
    );

    browser
        .click("tr[data-token=ci-deploy] .button--danger")
        .await?;
    browser.accept_confirmation().await?;
    browser.wait_until_gone("tr[data-token=ci-deploy]").await?;
    assert_eq!(organization_status(&browser, &secret).await?, 401);
    browser.close().await
}
