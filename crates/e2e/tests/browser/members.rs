//! A colleague invited from Settings › Members: the invitation's link copied, opened in a second
//! browser session (a tab of its own: the session is kept per tab), which signs the new member
//! in; the member seen in Members with their role, and refused what the role forbids.

use e2e::Browser;

#[tokio::test(flavor = "multi_thread")]
async fn a_colleague_is_invited_and_joins_with_their_role() -> anyhow::Result<()> {
    let browser = Browser::start(20.0).await?;
    let org = browser.organization_id().await?;
    let read_role = browser.role_id("READ").await?;
    browser.sign_in().await?;
    browser
        .open(&format!("/organization/{org}/settings/members"))
        .await?;
    browser.wait_for_text("main h1", "Members").await?;
    browser.wait_for_text(".empty", "No member yet").await?;

    browser.open_new("Invite a member").await?;
    browser.fill("#field-email", "ada@").await?;
    browser
        .click("form[aria-label='Invite a member'] button[type=submit]")
        .await?;
    browser
        .wait_for_text("#field-email-error", "must be an e-mail address")
        .await?;
    browser.fill("#field-email", "ada@example.com").await?;
    browser.choose("#field-role_id", &read_role).await?;
    browser
        .click("form[aria-label='Invite a member'] button[type=submit]")
        .await?;
    let invitation = browser
        .wait_for_text("[data-invitation='ada@example.com']", "Waiting")
        .await?;
    assert!(invitation.contains("READ"), "{invitation}");
    browser
        .click("[data-invitation='ada@example.com'] button[aria-label='Copy the invitation link']")
        .await?;
    browser
        .wait_for_text("[data-invitation='ada@example.com']", "Copied")
        .await?;
    let link = browser
        .find("[data-invitation='ada@example.com'] .invitation__link")
        .await?
        .text()
        .await?;
    assert!(link.contains("#code="), "{link}");
    browser.screenshot("members-invited").await?;
    let admin_tab = browser.client.window().await?;

    // A second session: a tab of its own, signed in by the link alone.
    let opened = browser.client.new_window(true).await?;
    browser.client.switch_to_window(opened.handle).await?;
    browser.open_url(&link).await?;
    browser
        .wait_for_path(|path| path == format!("/organization/{org}/overview"))
        .await?;
    browser
        .open(&format!("/organization/{org}/settings/members"))
        .await?;
    let row = browser
        .wait_for_text("[data-member='ada@example.com']", "READ")
        .await?;
    assert!(!row.contains("Never"), "her activity is noted: {row}");
    // READ: inviting and changing roles are refused before a click, with the reason.
    let invite = browser.find(".new-dialog__opener button").await?;
    assert!(
        invite.attr("disabled").await?.is_some(),
        "a READ member may invite"
    );
    assert!(
        browser
            .client
            .find_all(fantoccini::Locator::Css(
                "select[aria-label='Role of ada@example.com']"
            ))
            .await?
            .is_empty(),
        "a READ member is offered to change roles"
    );
    browser.screenshot("members-joined").await?;

    // The admin sees her in Members, and the invitation gone.
    browser.client.switch_to_window(admin_tab).await?;
    browser.client.refresh().await?;
    browser
        .wait_for_value("select[aria-label='Role of ada@example.com']", &read_role)
        .await?;
    browser
        .wait_for_text(
            "section[aria-labelledby=invitations-title]",
            "No invitation waiting",
        )
        .await?;
    browser.close().await
}
