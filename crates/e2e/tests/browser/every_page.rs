//! Every route of the console, at a desktop's width and a phone's (375 px): loaded with real
//! records, checked with axe-core (WCAG 2.1 A and AA, best practices) and for sideways scrolling,
//! and photographed into `target/e2e-screenshots/page-*.png`. One report of every failure.

use e2e::Browser;
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn every_page_is_accessible_and_fits_the_screen() -> anyhow::Result<()> {
    let browser = Browser::start(50.0).await?;
    let place = browser
        .create_environment("storefront", "production", "PRODUCTION")
        .await?;
    let org = &place.organization;
    let web = browser
        .create(
            &format!("/environment/{}/application", place.environment),
            json!({"name": "web", "git_repository": {"url": "https://git.example.com/acme/web.git"},
                   "ports": [{"internal_port": 8080, "external_port": 443, "publicly_accessible": true}]}),
        )
        .await?;
    browser.deployed(&web).await?;
    let database = browser
        .create(
            &format!("/environment/{}/database", place.environment),
            json!({"name": "orders", "type": "POSTGRESQL", "version": "16", "mode": "CONTAINER"}),
        )
        .await?;
    // What the newer pages list: a domain, a git token, a member and an invitation.
    browser
        .create(
            &format!("/application/{web}/customDomain"),
            json!({"domain": "shop.invalid", "generate_certificate": true}),
        )
        .await?;
    browser
        .create(
            &format!("/organization/{org}/gitToken"),
            json!({"name": "ci-reader", "type": "PROVIDER_C", "token": "t0k3n"}),
        )
        .await?;
    let invited = browser
        .api(
            "POST",
            &format!("/organization/{org}/inviteMember"),
            json!({"email": "ada@example.com", "role": "DEVELOPER"}),
        )
        .await?;
    let link = invited["invitation_link"].as_str().unwrap_or_default();
    let code = link.split("#code=").nth(1).unwrap_or_default();
    browser
        .api(
            "POST",
            "/invitation/accept",
            json!({"organization_id": org, "invitation_id": invited["id"], "code": code}),
        )
        .await?;
    browser
        .api(
            "POST",
            &format!("/organization/{org}/inviteMember"),
            json!({"email": "grace@example.com", "role": "VIEWER"}),
        )
        .await?;
    let clusters = browser
        .api("GET", &format!("/organization/{org}/cluster"), json!(null))
        .await?;
    let cluster = clusters["results"][0]["id"]
        .as_str()
        .unwrap_or_default()
        .to_string();

    let service = |id: &str, tab: &str| {
        format!(
            "/organization/{org}/project/{}/environment/{}/service/{id}/{tab}",
            place.project, place.environment
        )
    };
    let mut pages = vec![
        ("sign-in".to_string(), "/sign-in".to_string()),
        (
            "organization".into(),
            format!("/organization/{org}/overview"),
        ),
        ("fleet".into(), format!("/organization/{org}/fleet")),
        ("clusters".into(), format!("/organization/{org}/clusters")),
        ("audit-log".into(), format!("/organization/{org}/audit-log")),
        ("alerts".into(), format!("/organization/{org}/alerts")),
        ("timeline".into(), format!("/organization/{org}/timeline")),
        (
            "project".into(),
            format!("/organization/{org}/project/{}/overview", place.project),
        ),
        ("environment".into(), place.page()),
        ("environment-deployments".into(), place.tab("deployments")),
        ("environment-timeline".into(), place.tab("timeline")),
        ("environment-variables".into(), place.tab("variables")),
        ("environment-settings".into(), place.tab("settings")),
    ];
    if !cluster.is_empty() {
        pages.push((
            "cluster".into(),
            format!("/organization/{org}/cluster/{cluster}/overview"),
        ));
        pages.push((
            "cluster-advanced-settings".into(),
            format!("/organization/{org}/cluster/{cluster}/advanced-settings"),
        ));
    }
    for tab in e2e::SERVICE_TABS {
        pages.push((format!("service-{tab}"), service(&web, tab)));
    }
    pages.push(("database-overview".into(), service(&database, "overview")));
    pages.push((
        "database-monitoring".into(),
        service(&database, "monitoring"),
    ));
    for settings in e2e::SETTINGS_PAGES {
        pages.push((
            format!("settings-{settings}"),
            format!("/organization/{org}/settings/{settings}"),
        ));
    }
    // An invitation's link that no longer signs anyone in: the page says why.
    pages.push((
        "invitation".into(),
        format!("/invitation/{org}/{}#code=spent", uuid::Uuid::nil()),
    ));

    browser.sign_in().await?;
    let mut failures = Vec::new();
    for width in [1280, 375] {
        browser.set_width(width).await?;
        for (name, path) in &pages {
            if name == "sign-in" {
                browser
                    .client
                    .execute("sessionStorage.clear(); localStorage.clear();", vec![])
                    .await?;
            }
            browser.open(path).await?;
            browser.find("main h1").await?;
            // The page's records loaded: no skeleton left.
            browser.wait_until_gone(".skeleton").await?;
            for violation in browser.axe_violations().await? {
                failures.push(format!("{name} at {width} px: {violation}"));
            }
            let wide = browser.overflow().await?;
            if !wide.is_empty() {
                failures.push(format!(
                    "{name} at {width} px scrolls sideways: {}",
                    wide.join(", ")
                ));
            }
            browser.screenshot(&format!("page-{name}-{width}")).await?;
            // A page's "New …" dialog, open, is checked the same way.
            if let Ok(opener) = browser.find_now(".new-dialog__opener button").await {
                opener.click().await?;
                browser.find("dialog.new-dialog[open]").await?;
                for violation in browser.axe_violations().await? {
                    failures.push(format!("{name}'s new dialog at {width} px: {violation}"));
                }
                let wide = browser.overflow().await?;
                if !wide.is_empty() {
                    failures.push(format!(
                        "{name}'s new dialog at {width} px scrolls sideways: {}",
                        wide.join(", ")
                    ));
                }
                browser
                    .screenshot(&format!("page-{name}-new-{width}"))
                    .await?;
                // Sent empty, it shows its rules' errors: checked again.
                browser
                    .click("dialog.new-dialog[open] button[type=submit]")
                    .await?;
                browser
                    .find("dialog.new-dialog[open] .field--invalid")
                    .await?;
                for violation in browser.axe_violations().await? {
                    failures.push(format!("{name}'s refused form at {width} px: {violation}"));
                }
            }
            if name == "sign-in" {
                browser.sign_in().await?;
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    browser.close().await
}
