//! The smaller settings pages, reached through the settings tabs: a helm repository, an alert
//! receiver, labels and annotation groups (their pairs typed as lines) and on-premise credentials
//! each added (their rules checked first), listed without their secret, and deleted after a
//! confirmation.

use e2e::Browser;

#[tokio::test(flavor = "multi_thread")]
async fn repositories_receivers_and_credentials_are_kept_without_their_secrets(
) -> anyhow::Result<()> {
    let browser = Browser::start(20.0).await?;
    browser.sign_in().await?;
    browser
        .click("a[href$='/settings/container-registries']")
        .await?;

    browser
        .click("a.tabs__tab[href$='/settings/helm-repositories']")
        .await?;
    browser
        .wait_for_text("main h1", "Helm repositories")
        .await?;
    browser.open_new("New helm repository").await?;
    browser.fill("#field-name", "charts").await?;
    browser
        .fill("#field-url", "oci://charts.example.com")
        .await?;
    browser
        .click("form[aria-label='Add a helm repository'] button[type=submit]")
        .await?;
    browser
        .wait_for_text(
            "#field-url-error",
            "must start with https:// or http:// or file:// for HTTPS chart repository",
        )
        .await?;
    // An ECR repository asks for its key pair, the secret one typed unseen.
    browser
        .find("#field-kind option[value=OCI_ECR]")
        .await?
        .click()
        .await?;
    let key_type = browser
        .find("#field-config-secret_access_key")
        .await?
        .attr("type")
        .await?;
    assert_eq!(key_type.as_deref(), Some("password"));
    browser
        .find("#field-kind option[value=HTTPS]")
        .await?
        .click()
        .await?;
    browser
        .fill("#field-url", "https://charts.example.com")
        .await?;
    browser
        .fill("#field-config-password", "helm-s3cret")
        .await?;
    browser.fill("#field-config-username", "robot").await?;
    browser.click("input[name=skip_tls_verification]").await?;
    browser
        .click("form[aria-label='Add a helm repository'] button[type=submit]")
        .await?;
    let row = browser
        .wait_for_text("tr[data-source=charts]", "Certificate not checked")
        .await?;
    assert!(row.contains("No service"), "{row}");
    assert!(!browser.client.source().await?.contains("helm-s3cret"));

    browser
        .click("a.tabs__tab[href$='/settings/alert-receivers']")
        .await?;
    browser.wait_for_text("main h1", "Alert receivers").await?;
    browser.open_new("New alert receiver").await?;
    browser.fill("#field-webhook_url", "not a url").await?;
    browser
        .click("form[aria-label='Add an alert receiver'] button[type=submit]")
        .await?;
    browser
        .wait_for_text("#field-name-error", "is required")
        .await?;
    browser
        .wait_for_text("#field-webhook_url-error", "must be an absolute")
        .await?;
    let hook = "https://hooks.slack.com/services/T000/B000/secret-part";
    browser.fill("#field-name", "on-call").await?;
    browser
        .fill("#field-description", "The on-call channel")
        .await?;
    browser.fill("#field-webhook_url", hook).await?;
    browser.fill("#field-severity", "critical").await?;
    browser
        .click("form[aria-label='Add an alert receiver'] button[type=submit]")
        .await?;
    let row = browser
        .wait_for_text("tr[data-receiver=on-call]", "Slack")
        .await?;
    for shown in ["The on-call channel", "Sent", "critical"] {
        assert!(row.contains(shown), "{shown} missing from {row}");
    }
    assert!(!browser.client.source().await?.contains("secret-part"));
    browser
        .click("tr[data-receiver=on-call] .button--danger")
        .await?;
    browser.accept_confirmation().await?;
    browser.wait_until_gone("tr[data-receiver=on-call]").await?;

    browser
        .click("a.tabs__tab[href$='/settings/labels-annotations']")
        .await?;
    browser
        .wait_for_text("main h1", "Labels and annotations")
        .await?;
    browser.open_new("New labels group").await?;
    browser.fill("#labels-field-name", "team").await?;
    browser
        .fill("#field-labels", "team=payments\nowner")
        .await?;
    browser
        .click("form[aria-label='Add a labels group'] button[type=submit]")
        .await?;
    browser
        .wait_for_text("#field-labels-error", "Line 2 has no '=': write key=value.")
        .await?;
    browser
        .fill("#field-labels", "team=payments\nteam=ops")
        .await?;
    browser
        .click("form[aria-label='Add a labels group'] button[type=submit]")
        .await?;
    browser
        .wait_for_text(
            "#field-labels-error",
            "Line 2: the key team is listed more than once.",
        )
        .await?;
    browser
        .fill("#field-labels", "team=payments\ncost-center=42")
        .await?;
    browser
        .click("form[aria-label='Add a labels group'] button[type=submit]")
        .await?;
    browser
        .wait_for_text("tr[data-group=team]", "cost-center=42")
        .await?;
    browser.open_new("New annotation group").await?;
    browser
        .fill("#annotations-field-name", "monitoring")
        .await?;
    browser
        .fill("#field-annotations", "prometheus.io/scrape=true")
        .await?;
    browser
        .click("input[name=scopes][value=DEPLOYMENTS]")
        .await?;
    browser
        .click("form[aria-label='Add an annotation group'] button[type=submit]")
        .await?;
    browser
        .wait_for_text("#field-scopes-error", "must name at least one kind")
        .await?;
    browser.click("input[name=scopes][value=PODS]").await?;
    browser
        .click("form[aria-label='Add an annotation group'] button[type=submit]")
        .await?;
    let annotations = browser
        .wait_for_text("tr[data-group=monitoring]", "prometheus.io/scrape=true")
        .await?;
    assert!(annotations.contains("Pods"), "{annotations}");
    browser.screenshot("labels-annotations").await?;
    // Each row's Delete says which row it deletes.
    browser
        .find("button[aria-label='Delete monitoring']")
        .await?;
    browser.click("button[aria-label='Delete team']").await?;
    browser.accept_confirmation().await?;
    browser.wait_until_gone("tr[data-group=team]").await?;

    browser
        .click("a.tabs__tab[href$='/settings/on-premise-credentials']")
        .await?;
    browser
        .wait_for_text("main h1", "On-premise credentials")
        .await?;
    // The keys are optional, but come as a pair: checked before sending.
    browser.open_new("New credentials").await?;
    browser.fill("#field-name", "datacenter-1").await?;
    browser.fill("#field-access_key_id", "AKIAONPREM").await?;
    browser
        .click("form[aria-label='Add on-premise credentials'] button[type=submit]")
        .await?;
    browser
        .wait_for_text(
            "#field-secret_access_key-error",
            "is required with the other key",
        )
        .await?;
    let secret = "on-prem-s3cret-shown-nowhere";
    browser.fill("#field-secret_access_key", secret).await?;
    browser
        .click("form[aria-label='Add on-premise credentials'] button[type=submit]")
        .await?;
    browser
        .wait_for_text("tr[data-credentials=datacenter-1]", "AKIAONPREM")
        .await?;
    assert!(!browser.client.source().await?.contains(secret));
    browser.screenshot("on-premise-credentials").await?;
    browser
        .click("tr[data-credentials=datacenter-1] .button--danger")
        .await?;
    browser.accept_confirmation().await?;
    browser
        .wait_until_gone("tr[data-credentials=datacenter-1]")
        .await?;
    browser.close().await
}

/// The organization renamed from its general settings: the breadcrumb follows without a reload,
/// and a blank name is refused before sending.
#[tokio::test(flavor = "multi_thread")]
async fn the_organization_is_renamed_and_described() -> anyhow::Result<()> {
    let browser = Browser::start(20.0).await?;
    let org = browser.organization_id().await?;
    browser.sign_in().await?;
    browser
        .open(&format!("/organization/{org}/settings/general"))
        .await?;
    browser.wait_for_text("main h1", "General").await?;
    browser.find("#field-name").await?;
    let form = "form[aria-label='Edit the organization']";
    browser.fill("#field-name", " ").await?;
    browser
        .click(&format!("{form} button[type=submit]"))
        .await?;
    browser
        .wait_for_text("#field-name-error", "is required")
        .await?;
    browser.fill("#field-name", "Acme Platform").await?;
    browser
        .fill("#field-description", "Everything Acme runs")
        .await?;
    browser
        .save_form(form, "Organization Acme Platform saved.")
        .await?;
    browser
        .wait_for_text("nav[aria-label=Breadcrumb]", "Acme Platform")
        .await?;
    browser.screenshot("general-settings").await?;
    browser.close().await
}
