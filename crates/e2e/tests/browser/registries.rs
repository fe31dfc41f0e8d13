//! The container registries page: reached from the organization's settings; a registry added
//! through a form whose credential fields follow the kind (the kind's rules checked first), its
//! secret never on the page; the services using it counted, a failed container said, and its
//! delete refused while they do.

use e2e::Browser;

#[tokio::test(flavor = "multi_thread")]
async fn a_registry_is_added_with_the_fields_of_its_kind() -> anyhow::Result<()> {
    let browser = Browser::start(20.0).await?;
    browser.sign_in().await?;
    browser
        .click("a[href$='/settings/container-registries']")
        .await?;
    browser
        .wait_for_text("main h1", "Container registries")
        .await?;
    browser.wait_for_text(".empty", "No registry yet").await?;

    // A generic registry needs an address (its credentials are optional): checked before sending.
    browser.open_new("New container registry").await?;
    browser.fill("#field-name", "builds").await?;
    browser
        .click("form[aria-label='Add a container registry'] button[type=submit]")
        .await?;
    browser
        .wait_for_text("#field-url-error", "is required")
        .await?;

    // A kind with a fixed address says so; ECR asks for its key pair.
    browser
        .find("#field-kind option[value=PROVIDER_B_HUB]")
        .await?
        .click()
        .await?;
    browser
        .wait_for_text(
            "form[aria-label='Add a container registry']",
            "Fixed for this kind.",
        )
        .await?;
    browser
        .find("#field-kind option[value=ECR]")
        .await?
        .click()
        .await?;
    let secret = "ecr-s3cret-shown-nowhere";
    browser
        .fill("#field-url", "https://123456.dkr.ecr.example")
        .await?;
    browser.fill("#field-config-region", "eu-west-3").await?;
    browser
        .fill("#field-config-access_key_id", "AKIAEXAMPLE")
        .await?;
    browser
        .fill("#field-config-secret_access_key", secret)
        .await?;
    browser
        .click("form[aria-label='Add a container registry'] button[type=submit]")
        .await?;
    let row = browser
        .wait_for_text("tr[data-source=builds]", "ECR")
        .await?;
    assert!(row.contains("No service"), "{row}");
    assert!(
        !browser.client.source().await?.contains(secret),
        "the secret is on the page"
    );

    // A container made from the environment page runs one of its images; the registry counts it
    // and is kept while it does.
    let registries_page = browser.client.current_url().await?;
    let place = browser
        .create_environment("shop", "staging", "STAGING")
        .await?;
    browser.open(&place.page()).await?;
    browser.open_new("New service").await?;
    browser
        .click("input[name=service-kind][value=container]")
        .await?;
    browser
        .find("form[aria-label='Create a container']")
        .await?;
    browser
        .wait_for_text(
            "#field-registry_id",
            "builds (https://123456.dkr.ecr.example)",
        )
        .await?;
    browser.fill("#field-name", "api").await?;
    browser.fill("#field-image_name", "Acme/API").await?;
    browser.fill("#field-tag", "1.0").await?;
    browser
        .click("form[aria-label='Create a container'] button[type=submit]")
        .await?;
    browser
        .wait_for_text("#field-image_name-error", "must")
        .await?;
    browser.fill("#field-image_name", "acme/api").await?;
    browser
        .click("form[aria-label='Create a container'] button[type=submit]")
        .await?;
    browser
        .wait_for_text("tr[data-service=api]", "Container")
        .await?;
    // The next container's image is offered from those the registry holds and checked as it is
    // typed, before anything is saved: a tag the registry does not hold is said to be missing,
    // one it holds found.
    browser.open_new("New service").await?;
    browser
        .click("input[name=service-kind][value=container]")
        .await?;
    browser.fill("#field-image_name", "acme/api").await?;
    browser.fill("#field-tag", "9.9").await?;
    browser
        .wait_for_text(
            "form[aria-label='Create a container'] .field__check",
            "Not found",
        )
        .await?;
    browser.fill("#field-tag", "1.0").await?;
    browser
        .wait_for_text(
            "form[aria-label='Create a container'] .field__check",
            "Found",
        )
        .await?;
    let violations = browser.axe_violations().await?;
    assert!(violations.is_empty(), "{violations:?}");
    browser.screenshot("container-image-checked").await?;
    browser
        .click("dialog.new-dialog[open] .new-dialog__close")
        .await?;
    browser.client.goto(registries_page.as_str()).await?;
    browser
        .wait_for_text("tr[data-source=builds]", "1 service")
        .await?;
    // Its container deployed and failed (the documented way, docs/decisions.md): the registry
    // says so, where wrong credentials would show first.
    let containers = browser
        .api(
            "GET",
            &format!("/environment/{}/container", place.environment),
            serde_json::json!(null),
        )
        .await?;
    let api = containers["results"][0]["id"].as_str().unwrap().to_string();
    browser
        .api(
            "POST",
            &format!("/container/{api}/environmentVariable"),
            serde_json::json!({"key": "PLATFORM_FAIL_AT", "value": "DEPLOYMENT"}),
        )
        .await?;
    browser
        .api(
            "POST",
            &format!("/container/{api}/deploy"),
            serde_json::json!({}),
        )
        .await?;
    let status = format!("/container/{api}/status");
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(30);
    while browser.api("GET", &status, serde_json::json!(null)).await?["state"] != "DEPLOYMENT_ERROR"
    {
        anyhow::ensure!(
            tokio::time::Instant::now() < deadline,
            "the container never failed"
        );
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    browser.client.goto(registries_page.as_str()).await?;
    browser
        .wait_for_text("tr[data-source=builds]", "Its container failed to deploy")
        .await?;
    browser.screenshot("container-registries").await?;
    browser
        .click("tr[data-source=builds] .button--danger")
        .await?;
    browser.accept_confirmation().await?;
    browser
        .wait_for_text(".toast--error", "used by 1 service")
        .await?;
    browser.find("tr[data-source=builds]").await?;
    browser.close().await
}
