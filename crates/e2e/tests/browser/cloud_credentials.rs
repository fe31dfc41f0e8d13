//! Cloud credentials from the settings: added with the fields of the kind chosen (their rules
//! checked first), listed without their secret, chosen for a cluster on its page, kept from
//! deletion while the cluster uses them, deleted otherwise.

use e2e::Browser;

#[tokio::test(flavor = "multi_thread")]
async fn cloud_credentials_are_added_chosen_for_a_cluster_and_kept_while_used() -> anyhow::Result<()>
{
    let browser = Browser::start(20.0).await?;
    let org = browser.organization_id().await?;
    let cluster = browser
        .create(
            &format!("/organization/{org}/cluster"),
            serde_json::json!({"name": "edge", "cloud_provider": "AWS", "region": "eu-west-1"}),
        )
        .await?;
    browser.sign_in().await?;
    browser
        .open(&format!("/organization/{org}/settings/cloud-credentials"))
        .await?;
    browser
        .wait_for_text("main h1", "Cloud credentials")
        .await?;
    let form = "form[aria-label='Add cloud credentials']";

    // An access key needs its secret: checked before sending.
    browser.open_new("New credentials").await?;
    browser.fill("#field-name", "prod-aws").await?;
    browser.fill("#field-access_key_id", "AKIAPROD").await?;
    browser
        .click(&format!("{form} button[type=submit]"))
        .await?;
    browser
        .wait_for_text("#field-secret_access_key-error", "is required")
        .await?;
    let secret = "aws-s3cret-shown-nowhere";
    browser.fill("#field-secret_access_key", secret).await?;
    browser
        .click(&format!("{form} button[type=submit]"))
        .await?;
    browser
        .wait_for_text("tr[data-credentials=prod-aws]", "AKIAPROD")
        .await?;

    // Provider E's service account: the JSON key pasted, known by its account's address.
    browser.open_new("New credentials").await?;
    browser.fill("#field-name", "deployer").await?;
    browser.choose("#field-cloud", "2").await?;
    browser
        .wait_for_text(
            &format!("{form} label[for=field-provider_e_credentials]"),
            "Service account key",
        )
        .await?;
    let private_key = "provider-e-private-key-shown-nowhere";
    browser
        .fill(
            "#field-provider_e_credentials",
            &format!(r#"{{"type": "service_account", "client_email": "deployer@acme.example", "private_key": "{private_key}"}}"#),
        )
        .await?;
    browser
        .click(&format!("{form} button[type=submit]"))
        .await?;
    browser
        .wait_for_text("tr[data-credentials=deployer]", "deployer@acme.example")
        .await?;
    let source = browser.client.source().await?;
    assert!(!source.contains(secret) && !source.contains(private_key));
    browser.screenshot("cloud-credentials").await?;

    // Chosen for the cluster on its page.
    browser
        .open(&format!("/organization/{org}/cluster/{cluster}/overview"))
        .await?;
    browser
        .wait_for_text("#account-title", "Cloud account")
        .await?;
    browser
        .wait_for_text(
            "form[aria-label=\"Choose the cluster's credentials\"]",
            "prod-aws (AKIAPROD)",
        )
        .await?;
    browser
        .click("form[aria-label=\"Choose the cluster's credentials\"] button[type=submit]")
        .await?;
    browser
        .find("strong[data-credentials-chosen=prod-aws]")
        .await?;
    browser.screenshot("cluster-cloud-account").await?;

    // Kept while the cluster uses them; the list names the cluster.
    browser
        .open(&format!("/organization/{org}/settings/cloud-credentials"))
        .await?;
    browser
        .wait_for_text("tr[data-credentials=prod-aws]", "edge")
        .await?;
    browser
        .click("tr[data-credentials=prod-aws] .button--danger")
        .await?;
    browser.accept_confirmation().await?;
    browser
        .wait_for_text(".toast--error", "used by 1 cluster (edge)")
        .await?;
    browser.find("tr[data-credentials=prod-aws]").await?;
    browser
        .click("tr[data-credentials=deployer] .button--danger")
        .await?;
    browser.accept_confirmation().await?;
    browser
        .wait_until_gone("tr[data-credentials=deployer]")
        .await?;
    browser.close().await
}
