//! Members and invitations: an invitation's rules, its link signing the new member in, the
//! member held to their role as it changes (a READ role refused a write), named in the audit
//! log, never the organization left without an admin member, and removal ending their session.

use crate::common::{assert_error, assert_invalid_fields, TestServer};

use axum::http::{Method, StatusCode};
use serde_json::{json, Value};

/// Accepts the invitation `invited` answered, by its link: the new member's session token.
async fn accept(server: &TestServer, invited: &Value) -> String {
    let link = invited["invitation_link"].as_str().unwrap();
    let code = link.split("#code=").nth(1).unwrap();
    let accepted = server
        .call(
            Method::POST,
            "/api/invitation/accept",
            None,
            Some(
                &json!({"organization_id": server.organization_id, "invitation_id": invited["id"],
                        "code": code})
                .to_string(),
            ),
        )
        .await;
    assert_eq!(accepted.status, StatusCode::CREATED, "{}", accepted.body);
    accepted.body["token"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn an_invited_colleague_joins_with_a_role_and_is_held_to_it() {
    let server = TestServer::new().await;
    let org = server.organization_id.clone();
    let invitations = format!("/api/organization/{org}/inviteMember");
    let members = format!("/api/organization/{org}/member");
    assert_eq!(server.get(&members).await.body["results"], json!([]));

    let bad = server
        .post(&invitations, json!({"email": "not an address"}))
        .await;
    assert_invalid_fields(&bad, &["email"]);
    let write_role = server.role_id("WRITE").await;
    let invited = server
        .post(
            &invitations,
            json!({"email": "ada@example.com", "role_id": write_role}),
        )
        .await;
    assert_eq!(invited.status, StatusCode::CREATED, "{}", invited.body);
    assert_eq!(invited.body["invitation_status"], "PENDING");
    assert_eq!(invited.body["role"], "DEVELOPER");
    let link = invited.body["invitation_link"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        link.contains("/invitation/") && link.contains("#code="),
        "{link}"
    );
    let again = server
        .post(&invitations, json!({"email": "ADA@example.com"}))
        .await;
    assert_eq!(again.status, StatusCode::CONFLICT, "{}", again.body);
    let reader = format!("Token {}", server.token_with_role("READ").await);
    let refused = server
        .call(
            Method::POST,
            &invitations,
            Some(&reader),
            Some(&json!({"email": "bob@example.com"}).to_string()),
        )
        .await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);

    // A wrong code signs no one in.
    let wrong = server
        .call(
            Method::POST,
            "/api/invitation/accept",
            None,
            Some(
                &json!({"organization_id": org, "invitation_id": invited.body["id"], "code": "guess"})
                    .to_string(),
            ),
        )
        .await;
    assert_eq!(wrong.status, StatusCode::NOT_FOUND, "{}", wrong.body);

    let ada = format!("Token {}", accept(&server, &invited.body).await);
    let listed = server.get(&members).await.body;
    assert_eq!(listed["results"][0]["email"], "ada@example.com");
    assert_eq!(listed["results"][0]["role_name"], "WRITE");
    assert!(server.get(&invitations).await.body["results"]
        .as_array()
        .unwrap()
        .is_empty());

    // Held to WRITE: a project yes, a token no; named in the audit log.
    let project = server
        .call(
            Method::POST,
            &format!("/api/organization/{org}/project"),
            Some(&ada),
            Some(&json!({"name": "ada-project"}).to_string()),
        )
        .await;
    assert!(project.status.is_success(), "{}", project.body);
    let token = server
        .call(
            Method::POST,
            &format!("/api/organization/{org}/apiToken"),
            Some(&ada),
            Some(&json!({"name": "mine", "role_id": write_role}).to_string()),
        )
        .await;
    assert_eq!(token.status, StatusCode::FORBIDDEN, "{}", token.body);
    let events = server
        .get(&format!("/api/organization/{org}/events?pageSize=100"))
        .await
        .body;
    let by_ada = events["events"]
        .as_array()
        .unwrap()
        .iter()
        .find(|event| event["target_name"] == "ada-project")
        .unwrap_or_else(|| panic!("{events}"));
    assert_eq!(by_ada["triggered_by"], "ada@example.com");
    assert!(!events
        .to_string()
        .contains(link.split("#code=").nth(1).unwrap()));
    let id = listed["results"][0]["id"].as_str().unwrap().to_string();
    assert!(!server.get(&members).await.body["results"][0]["last_activity_at"].is_null());

    // Given READ, refused a write at once.
    let read_role = server.role_id("READ").await;
    let demoted = server
        .put(&members, json!({"user_id": id, "role_id": read_role}))
        .await;
    assert_eq!(demoted.status, StatusCode::OK, "{}", demoted.body);
    let refused = server
        .call(
            Method::POST,
            &format!("/api/organization/{org}/project"),
            Some(&ada),
            Some(&json!({"name": "second"}).to_string()),
        )
        .await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN, "{}", refused.body);

    // The last admin member stays one.
    let admin_role = server.role_id("ADMIN").await;
    let promoted = server
        .put(&members, json!({"user_id": id, "role_id": admin_role}))
        .await;
    assert_eq!(promoted.status, StatusCode::OK, "{}", promoted.body);
    let last = server
        .put(&members, json!({"user_id": id, "role_id": read_role}))
        .await;
    assert_error(&last, StatusCode::CONFLICT, "CONFLICT");
    let remove = |id: String| {
        let server = &server;
        let members = members.clone();
        async move {
            server
                .call(
                    Method::DELETE,
                    &members,
                    Some(&server.auth()),
                    Some(&json!({"user_id": id}).to_string()),
                )
                .await
        }
    };
    assert_eq!(remove(id.clone()).await.status, StatusCode::CONFLICT);
    let second = server
        .post(
            &invitations,
            json!({"email": "grace@example.com", "role": "ADMIN"}),
        )
        .await;
    accept(&server, &second.body).await;
    let removed = remove(id).await;
    assert_eq!(removed.status, StatusCode::NO_CONTENT, "{}", removed.body);
    // Removed, their session ends.
    let ended = server
        .call(
            Method::GET,
            &format!("/api/organization/{org}"),
            Some(&ada),
            None,
        )
        .await;
    assert_eq!(ended.status, StatusCode::UNAUTHORIZED);
}

/// The last admin is kept through every route that can take it away: a custom role carried by
/// the only admin member lowered to READ is refused, as its deletion would be.
#[tokio::test]
async fn lowering_a_role_never_leaves_the_organization_without_an_admin() {
    let server = TestServer::new().await;
    let org = server.organization_id.clone();
    let roles = format!("/api/organization/{org}/customRole");
    let members = format!("/api/organization/{org}/member");
    let lead = server
        .post(
            &roles,
            json!({"name": "Lead", "description": "", "permission": "ADMIN"}),
        )
        .await;
    assert_eq!(lead.status, StatusCode::CREATED, "{}", lead.body);
    let lead = lead.body["id"].as_str().unwrap().to_string();
    let invitations = format!("/api/organization/{org}/inviteMember");
    let mut ids = Vec::new();
    for email in ["ada@example.com", "grace@example.com"] {
        let invited = server
            .post(&invitations, json!({"email": email, "role_id": lead}))
            .await;
        accept(&server, &invited.body).await;
        let listed = server.get(&members).await.body;
        let member = listed["results"]
            .as_array()
            .unwrap()
            .iter()
            .find(|member| member["email"] == email)
            .unwrap()
            .clone();
        ids.push(member["id"].as_str().unwrap().to_string());
    }
    // One of the two lowered to READ: the other still leads.
    let read_role = server.role_id("READ").await;
    let lowered = server
        .put(&members, json!({"user_id": ids[1], "role_id": read_role}))
        .await;
    assert_eq!(lowered.status, StatusCode::OK, "{}", lowered.body);
    // The role itself lowered to READ would leave no member an admin.
    let refused = server
        .put(
            &format!("{roles}/{lead}"),
            json!({"name": "Lead", "description": "", "permission": "READ"}),
        )
        .await;
    assert_error(&refused, StatusCode::CONFLICT, "CONFLICT");
    assert!(refused.body["message"]
        .as_str()
        .unwrap()
        .contains("last admin member"));
    let listed = server.get(&members).await.body;
    let ada = listed["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|member| member["id"] == ids[0].as_str())
        .unwrap()
        .clone();
    assert_eq!(ada["role_name"], "Lead", "the refused change was kept");
    let role = server.get(&format!("{roles}/{lead}")).await;
    assert_eq!(role.body["permission"], "ADMIN");
    // Renamed, it stays an admin role: that goes.
    let renamed = server
        .put(
            &format!("{roles}/{lead}"),
            json!({"name": "Leads", "description": "", "permission": "ADMIN"}),
        )
        .await;
    assert_eq!(renamed.status, StatusCode::OK, "{}", renamed.body);
}

#[tokio::test]
async fn the_account_is_who_signed_in_a_token_or_a_member() {
    let server = TestServer::new().await;
    let token = server.get("/api/account").await;
    assert_eq!(token.status, StatusCode::OK, "{}", token.body);
    assert_eq!(token.body["nickname"], "console sign-in", "{}", token.body);
    assert!(token.body["id"].is_string() && token.body["created_at"].is_string());
    assert!(token.body.get("communication_email").is_none());

    let org = &server.organization_id;
    let invited = server
        .post(
            &format!("/api/organization/{org}/inviteMember"),
            json!({"email": "grace@example.com"}),
        )
        .await;
    assert_eq!(invited.status, StatusCode::CREATED, "{}", invited.body);
    let grace = format!("Token {}", accept(&server, &invited.body).await);
    let member = server
        .call(Method::GET, "/api/account", Some(&grace), None)
        .await;
    assert_eq!(member.status, StatusCode::OK, "{}", member.body);
    assert_eq!(member.body["nickname"], "grace");
    assert_eq!(member.body["communication_email"], "grace@example.com");
    let unsigned = server.call(Method::GET, "/api/account", None, None).await;
    assert_eq!(unsigned.status, StatusCode::UNAUTHORIZED);
}
