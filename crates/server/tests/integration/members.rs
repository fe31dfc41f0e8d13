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
