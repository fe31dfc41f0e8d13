//! Creating services from the environment page's "New service" dialog: the kind chosen first,
//! then its form; a database refused with a version that is not one, then created and listed
//! with its kind; a managed database offered what its cloud manages, on an instance it lists; a
//! cron job refused with a schedule that is not one, then created. The forms' code, fetched when
//! the dialog first opens, is said to be missing when it cannot be fetched.

use e2e::Browser;

#[tokio::test(flavor = "multi_thread")]
async fn a_database_and_a_job_are_created_from_the_environment_page() -> anyhow::Result<()> {
    let browser = Browser::start(20.0).await?;
    let place = browser
        .create_environment("shop", "staging", "STAGING")
        .await?;
    browser.sign_in().await?;
    browser.open(&place.page()).await?;
    browser.open_new("New service").await?;
    browser
        .find("form[aria-label='Create an application']")
        .await?;

    browser
        .click("input[name=service-kind][value=database]")
        .await?;
    browser.find("form[aria-label='Create a database']").await?;
    browser.fill("#field-name", "orders-db").await?;
    browser.fill("#field-version", "16.x").await?;
    browser
        .click("form[aria-label='Create a database'] button[type=submit]")
        .await?;
    browser
        .wait_for_text(
            ".field__error",
            "must be a version PostgreSQL runs: 13, 14, 15, 16, 17",
        )
        .await?;
    // MySQL, in one of the versions it runs (offered as the person types).
    browser
        .find("#field-type option[value=MYSQL]")
        .await?
        .click()
        .await?;
    browser
        .find("#field-version-suggestions option[value='8.4']")
        .await?;
    browser.fill("#field-version", "8.4").await?;
    browser
        .click("form[aria-label='Create a database'] button[type=submit]")
        .await?;
    let row = browser
        .wait_for_text("tr[data-service=orders-db]", "Database")
        .await?;
    assert!(row.contains("Not deployed"), "{row}");
    let databases = browser
        .api(
            "GET",
            &format!("/environment/{}/database", place.environment),
            serde_json::json!(null),
        )
        .await?;
    assert_eq!(databases["results"][0]["type"], "MYSQL");
    assert_eq!(databases["results"][0]["version"], "8.4");
    browser.screenshot("new-database").await?;

    // A job on a schedule, built from git: its schedule's rule first. The dialog closed once
    // the database was created.
    browser.open_new("New service").await?;
    browser.click("input[name=service-kind][value=job]").await?;
    browser.find("form[aria-label='Create a job']").await?;
    browser.fill("#field-name", "nightly-report").await?;
    browser
        .fill("#field-schedule-cronjob-scheduled_at", "61 * * * *")
        .await?;
    browser
        .fill(
            "#field-source-docker-git_repository-url",
            "https://git.example.com/acme/jobs.git",
        )
        .await?;
    browser
        .click("form[aria-label='Create a job'] button[type=submit]")
        .await?;
    browser
        .wait_for_text(
            "#field-schedule-cronjob-scheduled_at-error",
            "must be a cron expression",
        )
        .await?;
    browser
        .fill("#field-schedule-cronjob-scheduled_at", "0 3 * * *")
        .await?;
    browser
        .click("form[aria-label='Create a job'] button[type=submit]")
        .await?;
    browser
        .wait_for_text("tr[data-service=nightly-report]", "Job")
        .await?;
    let jobs = browser
        .api(
            "GET",
            &format!("/environment/{}/job", place.environment),
            serde_json::json!(null),
        )
        .await?;
    assert_eq!(
        jobs["results"][0]["schedule"]["cronjob"],
        serde_json::json!({"scheduled_at": "0 3 * * *", "timezone": "Etc/UTC", "arguments": []})
    );
    assert_eq!(jobs["results"][0]["job_type"], "CRON");

    // From an image, with no registry yet: the form says where to add one.
    browser.open_new("New service").await?;
    browser.click("input[name=service-kind][value=job]").await?;
    browser
        .click("input[name=job-source]:not(:checked)")
        .await?;
    browser
        .wait_for_text(
            "form[aria-label='Create a job']",
            "this organization has none yet",
        )
        .await?;
    browser.screenshot("new-job").await?;
    browser.close().await
}

/// The forms come with the service pages' code, fetched when the dialog first opens: when the
/// network drops it, the dialog says so, and the page loads again once the API is reached.
#[tokio::test(flavor = "multi_thread")]
async fn a_managed_database_is_offered_what_its_cloud_manages_and_sized_by_an_instance(
) -> anyhow::Result<()> {
    let browser = Browser::start(20.0).await?;
    let place = browser
        .create_environment("shop", "rack", "STAGING")
        .await?;
    let cluster = browser
        .create(
            &format!("/organization/{}/cluster", place.organization),
            serde_json::json!({"name": "paris", "cloud_provider": "AWS", "region": "eu-west-3"}),
        )
        .await?;
    let on_aws = browser
        .create(
            &format!("/project/{}/environment", place.project),
            serde_json::json!({"name": "aws", "mode": "STAGING", "cluster_id": cluster}),
        )
        .await?;
    browser.sign_in().await?;
    let form = "form[aria-label='Create a database']";
    let managed_database_form = |page: String| {
        let browser = &browser;
        async move {
            browser.open(&page).await?;
            browser.open_new("New service").await?;
            browser
                .click("input[name=service-kind][value=database]")
                .await?;
            browser.find(form).await?;
            browser
                .find("#field-mode option[value=MANAGED]")
                .await?
                .click()
                .await?;
            anyhow::Ok(())
        }
    };

    // The first environment's cluster is on premise: nothing there is managed.
    managed_database_form(place.page()).await?;
    browser
        .wait_for_text(
            form,
            "On premise manages no database: run it in the cluster.",
        )
        .await?;

    let aws_page = format!(
        "/organization/{}/project/{}/environment/{on_aws}/services",
        place.organization, place.project
    );
    managed_database_form(aws_page).await?;
    browser
        .wait_for_text(
            form,
            "Amazon Web Services manages PostgreSQL, MySQL, MongoDB, Redis.",
        )
        .await?;
    browser.fill("#field-name", "sessions").await?;
    browser
        .find("#field-type option[value=REDIS]")
        .await?
        .click()
        .await?;
    browser.fill("#field-version", "7").await?;
    // Sized by the instance: no cpu or memory to type, an instance to choose among those
    // offered.
    browser
        .find("#field-instance_type-suggestions option[value='cache.t3.small']")
        .await?;
    browser.wait_until_gone("#field-cpu").await?;
    browser
        .click(&format!("{form} button[type=submit]"))
        .await?;
    browser
        .wait_for_text(
            ".field__error",
            "must be one of the instances Amazon Web Services runs a managed Redis on",
        )
        .await?;
    browser.screenshot("new-managed-database").await?;
    browser
        .fill("#field-instance_type", "cache.t3.small")
        .await?;
    browser
        .click(&format!("{form} button[type=submit]"))
        .await?;
    browser
        .wait_for_text("tr[data-service=sessions]", "Database")
        .await?;
    let databases = browser
        .api(
            "GET",
            &format!("/environment/{on_aws}/database"),
            serde_json::json!(null),
        )
        .await?;
    assert_eq!(databases["results"][0]["instance_type"], "cache.t3.small");
    assert_eq!(databases["results"][0]["memory"], 1403);
    Ok(())
}

#[tokio::test(flavor = "multi_thread")]
async fn forms_whose_code_cannot_be_fetched_are_said_to_be_missing() -> anyhow::Result<()> {
    let browser = Browser::start(20.0).await?;
    let place = browser
        .create_environment("shop", "staging", "STAGING")
        .await?;
    // Blocked before signing in: the pages' code is fetched once the browser is idle.
    browser.block_urls(&["*split_application_form*"]).await?;
    browser.sign_in().await?;
    browser.open(&place.page()).await?;
    browser.open_new("New service").await?;
    browser
        .wait_for_text(
            "dialog.new-dialog[open] [role=alert]",
            "This form could not be loaded",
        )
        .await?;
    let violations = browser.axe_violations().await?;
    assert!(violations.is_empty(), "{violations:?}");
    browser.screenshot("new-service-code-missing").await?;

    browser.block_urls(&[]).await?;
    browser.wait_until_gone("dialog.new-dialog[open]").await?;
    browser.open_new("New service").await?;
    browser
        .find("form[aria-label='Create an application']")
        .await?;
    browser.close().await
}
