//! People signed in through the identity provider: their access tokens checked against the
//! provider's keys (every refusal said, a rotated key taken without a restart), their role the
//! one they have in the organization a request is about, and what only people do: make an
//! organization, own it, give it away, delete it, accept an invitation signed in, set where the
//! platform writes to them.

use std::time::Duration;

use axum::http::{Method, StatusCode};
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde_json::{json, Value};
use tempfile::TempDir;

use crate::common::oidc::{self, Key, TestIssuer, PUBLIC_RSA_PEM};
use crate::common::{assert_error, config, Reply, TestServer};

/// The writes only a person makes (an API token is refused them): each checked here, its audit
/// entry and the production document's shapes, rather than by the harnesses that drive every
/// write with a token (`audit`, `contract_writes`).
pub(crate) const WRITES_OF_PEOPLE: [(&str, &str); 4] = [
    ("POST", "/organization"),
    ("DELETE", "/organization/{organization_id}"),
    ("POST", "/organization/{organization_id}/transferOwnership"),
    (
        "POST",
        "/organization/{organization_id}/inviteMember/{invitation_id}",
    ),
];

async fn as_person(
    server: &TestServer,
    bearer: &str,
    method: Method,
    path: &str,
    body: Option<Value>,
) -> Reply {
    let body = body.map(|body| body.to_string());
    server
        .call(method, path, Some(bearer), body.as_deref())
        .await
}

/// A person's new organization: its id.
async fn organization_of(server: &TestServer, bearer: &str, name: &str) -> String {
    let made = as_person(
        server,
        bearer,
        Method::POST,
        "/api/organization",
        Some(json!({"name": name, "plan": "FREE"})),
    )
    .await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.body);
    made.body["id"].as_str().unwrap().to_string()
}

/// `email` invited to `organization` with `role` by `inviter`, and accepting signed in.
async fn join(
    server: &TestServer,
    (inviter, organization): (&str, &str),
    (bearer, email): (&str, &str),
    role: &str,
) {
    let invited = as_person(
        server,
        inviter,
        Method::POST,
        &format!("/api/organization/{organization}/inviteMember"),
        Some(json!({"email": email, "role": role})),
    )
    .await;
    assert_eq!(invited.status, StatusCode::CREATED, "{}", invited.body);
    let id = invited.body["id"].as_str().unwrap();
    let accepted = as_person(
        server,
        bearer,
        Method::POST,
        &format!("/api/organization/{organization}/inviteMember/{id}"),
        None,
    )
    .await;
    assert_eq!(accepted.status, StatusCode::CREATED, "{}", accepted.body);
}

#[tokio::test]
async fn every_refused_token_is_said_and_the_three_signatures_are_taken() {
    let server = TestServer::new().await;
    let issuer = oidc::shared();
    let claims = issuer.claims("ada@example.com");
    let now = chrono::Utc::now().timestamp();
    let with = |change: Value| {
        let mut changed = claims.clone();
        for (key, value) in change.as_object().unwrap() {
            changed[key] = value.clone();
        }
        changed
    };
    for key in [Key::Rsa, Key::Ec, Key::Ed] {
        let bearer = format!("Bearer {}", issuer.sign(key, &claims));
        let reply = as_person(&server, &bearer, Method::GET, "/api/account", None).await;
        assert_eq!(reply.status, StatusCode::OK, "{key:?}: {}", reply.body);
        assert_eq!(reply.body["communication_email"], "ada@example.com");
    }
    let unsigned = format!(
        "{}.{}.",
        base64url(&json!({"alg": "none"})),
        base64url(&claims)
    );
    let with_public_key = {
        let mut header = Header::new(Algorithm::HS256);
        header.kid = Some("rsa-1".into());
        jsonwebtoken::encode(&header, &claims, &EncodingKey::from_secret(PUBLIC_RSA_PEM)).unwrap()
    };
    let under_known_kid = {
        // Signed by the key not published yet, named as the published one.
        let mut header = Header::new(Algorithm::RS256);
        header.kid = Some("rsa-1".into());
        let rotated = EncodingKey::from_rsa_pem(include_bytes!("common/keys/rsa2.pem")).unwrap();
        jsonwebtoken::encode(&header, &claims, &rotated).unwrap()
    };
    let cases = [
        (
            "expired",
            issuer.sign(Key::Rsa, &with(json!({"exp": now - 5}))),
            "has expired",
        ),
        (
            "not yet valid",
            issuer.sign(Key::Rsa, &with(json!({"nbf": now + 300}))),
            "not valid yet",
        ),
        (
            "another audience",
            issuer.sign(Key::Rsa, &with(json!({"aud": "another-api"}))),
            "another audience",
        ),
        (
            "another issuer",
            issuer.sign(Key::Rsa, &with(json!({"iss": "https://evil.example"}))),
            "another provider",
        ),
        (
            "no subject",
            issuer.sign(Key::Rsa, &with(json!({"sub": ""}))),
            "no subject",
        ),
        ("alg none", unsigned, "not a signed JWT"),
        ("HS256 keyed with the public key", with_public_key, "HS256"),
        (
            "another key under a known kid",
            under_known_kid,
            "signature",
        ),
        (
            "an unknown key",
            issuer.sign(Key::RotatedRsa, &claims),
            "does not publish",
        ),
        ("malformed", "not.a.jwt".to_string(), "not a signed JWT"),
    ];
    for (case, token, said) in cases {
        let reply = as_person(
            &server,
            &format!("Bearer {token}"),
            Method::GET,
            "/api/account",
            None,
        )
        .await;
        assert_error(&reply, StatusCode::UNAUTHORIZED, "UNAUTHORIZED");
        let message = reply.body["message"].as_str().unwrap();
        assert!(message.contains(said), "{case}: {message}");
        assert!(
            token.len() < 12 || !message.contains(&token),
            "{case} quotes the token"
        );
    }
    // Without a provider, no access token is taken.
    let dir = TempDir::new().unwrap();
    let mut without = config(&dir);
    without.identity_provider = None;
    let plain = TestServer::with_config(dir, without).await;
    let reply = as_person(
        &plain,
        &issuer.bearer("ada@example.com"),
        Method::GET,
        "/api/account",
        None,
    )
    .await;
    assert_error(&reply, StatusCode::UNAUTHORIZED, "UNAUTHORIZED");
    assert!(reply.body["message"]
        .as_str()
        .unwrap()
        .contains("--oidc-issuer"));
}

#[tokio::test]
async fn a_key_the_provider_rotates_in_is_taken_without_a_restart() {
    let issuer = TestIssuer::start();
    let dir = TempDir::new().unwrap();
    let mut started = config(&dir);
    started.identity_provider = Some(platform_server::oidc::IdentityProvider {
        keys_refetched_every: Duration::from_millis(500),
        ..issuer.provider()
    });
    let server = TestServer::with_config(dir, started).await;
    let claims = issuer.claims("ada@example.com");
    let with = |key| format!("Bearer {}", issuer.sign(key, &claims));
    let first = as_person(&server, &with(Key::Rsa), Method::GET, "/api/account", None).await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.body);
    assert_eq!(issuer.fetched.load(std::sync::atomic::Ordering::SeqCst), 1);
    issuer.rotate();
    // Within the interval, an unknown key is not fetched for again: a flood of forged kids
    // costs the provider nothing.
    for _ in 0..5 {
        let refused = as_person(
            &server,
            &with(Key::RotatedRsa),
            Method::GET,
            "/api/account",
            None,
        )
        .await;
        assert_error(&refused, StatusCode::UNAUTHORIZED, "UNAUTHORIZED");
    }
    assert_eq!(issuer.fetched.load(std::sync::atomic::Ordering::SeqCst), 1);
    tokio::time::sleep(Duration::from_millis(600)).await;
    let rotated = as_person(
        &server,
        &with(Key::RotatedRsa),
        Method::GET,
        "/api/account",
        None,
    )
    .await;
    assert_eq!(rotated.status, StatusCode::OK, "{}", rotated.body);
    assert_eq!(issuer.fetched.load(std::sync::atomic::Ordering::SeqCst), 2);
}

#[tokio::test]
async fn a_persons_role_is_theirs_in_the_organization_each_request_is_about() {
    let server = TestServer::new().await;
    let issuer = oidc::shared();
    let (ada, bob) = (
        issuer.bearer("ada@example.com"),
        issuer.bearer("bob@example.com"),
    );
    // Nobody's member yet: their account and their (no) organizations, nothing else.
    let none = as_person(&server, &ada, Method::GET, "/api/organization", None).await;
    assert_eq!(none.body["results"], json!([]), "{}", none.body);
    let theirs = format!("/api/organization/{}", server.organization_id);
    let refused = as_person(&server, &ada, Method::GET, &theirs, None).await;
    assert_eq!(refused.status, StatusCode::NOT_FOUND, "{}", refused.body);

    let acme = organization_of(&server, &ada, "Acme").await;
    let globex = organization_of(&server, &bob, "Globex").await;
    join(
        &server,
        (&bob, &globex),
        (&ada, "ada@example.com"),
        "VIEWER",
    )
    .await;
    let listed = as_person(&server, &ada, Method::GET, "/api/organization", None).await;
    let names: Vec<&str> = listed.body["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|organization| organization["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Acme", "Globex"]);

    // Admin in Acme, viewer in Globex: a project made in one, refused in the other.
    let made = as_person(
        &server,
        &ada,
        Method::POST,
        &format!("/api/organization/{acme}/project"),
        Some(json!({"name": "web"})),
    )
    .await;
    assert_eq!(made.status, StatusCode::OK, "{}", made.body);
    let project = made.body["id"].as_str().unwrap().to_string();
    let viewer = as_person(
        &server,
        &ada,
        Method::POST,
        &format!("/api/organization/{globex}/project"),
        Some(json!({"name": "web"})),
    )
    .await;
    assert_error(&viewer, StatusCode::FORBIDDEN, "FORBIDDEN");
    // A record addressed by its own id is in its organization: Acme's project is not Bob's.
    let read = as_person(
        &server,
        &ada,
        Method::GET,
        &format!("/api/project/{project}"),
        None,
    )
    .await;
    assert_eq!(read.status, StatusCode::OK, "{}", read.body);
    let foreign = as_person(
        &server,
        &bob,
        Method::GET,
        &format!("/api/project/{project}"),
        None,
    )
    .await;
    assert_eq!(foreign.status, StatusCode::NOT_FOUND, "{}", foreign.body);
    // The audit log names the person.
    let events = as_person(
        &server,
        &ada,
        Method::GET,
        &format!("/api/organization/{acme}/events"),
        None,
    )
    .await;
    assert!(
        events.body.to_string().contains("ada@example.com"),
        "{}",
        events.body
    );
}

#[tokio::test]
async fn an_owner_gives_the_organization_away_and_only_an_owner_deletes_it() {
    let server = TestServer::new().await;
    let issuer = oidc::shared();
    let (ada, bob) = (
        issuer.bearer("ada@example.com"),
        issuer.bearer("bob@example.com"),
    );
    let acme = organization_of(&server, &ada, "Acme").await;
    join(&server, (&ada, &acme), (&bob, "bob@example.com"), "ADMIN").await;
    let organization = format!("/api/organization/{acme}");
    let read = as_person(&server, &ada, Method::GET, &organization, None).await;
    let members = as_person(
        &server,
        &ada,
        Method::GET,
        &format!("{organization}/member"),
        None,
    )
    .await;
    let member_of = |email: &str| {
        members.body["results"]
            .as_array()
            .unwrap()
            .iter()
            .find(|member| member["email"] == email)
            .unwrap()["id"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let (ada_member, bob_member) = (member_of("ada@example.com"), member_of("bob@example.com"));
    assert_eq!(read.body["owner"], ada_member);

    // The owner cannot leave nor stop being an admin; another admin cannot delete it.
    let leave = as_person(
        &server,
        &bob,
        Method::DELETE,
        &format!("{organization}/member"),
        Some(json!({"user_id": ada_member})),
    )
    .await;
    assert_error(&leave, StatusCode::CONFLICT, "CONFLICT");
    let not_owner = as_person(&server, &bob, Method::DELETE, &organization, None).await;
    assert_error(&not_owner, StatusCode::FORBIDDEN, "OWNER_ONLY");
    let not_owner = as_person(
        &server,
        &bob,
        Method::POST,
        &format!("{organization}/transferOwnership"),
        Some(json!({"user_id": bob_member})),
    )
    .await;
    assert_error(&not_owner, StatusCode::FORBIDDEN, "OWNER_ONLY");
    let nobody = as_person(
        &server,
        &ada,
        Method::POST,
        &format!("{organization}/transferOwnership"),
        Some(json!({"user_id": uuid::Uuid::new_v4()})),
    )
    .await;
    crate::common::assert_invalid_fields(&nobody, &["user_id"]);

    let given = as_person(
        &server,
        &ada,
        Method::POST,
        &format!("{organization}/transferOwnership"),
        Some(json!({"user_id": bob_member})),
    )
    .await;
    assert_eq!(given.status, StatusCode::NO_CONTENT, "{}", given.body);
    let read = as_person(&server, &ada, Method::GET, &organization, None).await;
    assert_eq!(read.body["owner"], bob_member);
    // Ada may leave now.
    let left = as_person(
        &server,
        &bob,
        Method::DELETE,
        &format!("{organization}/member"),
        Some(json!({"user_id": ada_member})),
    )
    .await;
    assert_eq!(left.status, StatusCode::NO_CONTENT, "{}", left.body);
    let gone = as_person(&server, &ada, Method::GET, &organization, None).await;
    assert_eq!(gone.status, StatusCode::NOT_FOUND);

    let deleted = as_person(&server, &bob, Method::DELETE, &organization, None).await;
    assert_eq!(deleted.status, StatusCode::NO_CONTENT, "{}", deleted.body);
    let listed = as_person(&server, &bob, Method::GET, "/api/organization", None).await;
    assert_eq!(listed.body["results"], json!([]));
    // An API token belongs to its organization: it makes none.
    let token = server
        .post(
            "/api/organization",
            json!({"name": "Other", "plan": "FREE"}),
        )
        .await;
    assert_error(&token, StatusCode::FORBIDDEN, "PEOPLE_ONLY");
}

#[tokio::test]
async fn an_invitation_is_accepted_by_the_person_invited_only() {
    let server = TestServer::new().await;
    let issuer = oidc::shared();
    let (ada, eve) = (
        issuer.bearer("ada@example.com"),
        issuer.bearer("eve@example.com"),
    );
    let organization = server.organization_id.clone();
    let invited = server
        .post(
            &format!("/api/organization/{organization}/inviteMember"),
            json!({"email": "ADA@example.com", "role": "ADMIN"}),
        )
        .await;
    let id = invited.body["id"].as_str().unwrap();
    let accept = format!("/api/organization/{organization}/inviteMember/{id}");
    let someone_else = as_person(&server, &eve, Method::POST, &accept, None).await;
    assert_eq!(
        someone_else.status,
        StatusCode::NOT_FOUND,
        "{}",
        someone_else.body
    );
    let accepted = as_person(&server, &ada, Method::POST, &accept, None).await;
    assert_eq!(accepted.status, StatusCode::CREATED, "{}", accepted.body);
    let again = as_person(&server, &ada, Method::POST, &accept, None).await;
    assert!(again.status.is_client_error(), "{}", again.body);
    // The organization made at first start had no owner: its first admin who is a person
    // owns it.
    let read = as_person(
        &server,
        &ada,
        Method::GET,
        &format!("/api/organization/{organization}"),
        None,
    )
    .await;
    assert!(read.body["owner"].is_string(), "{}", read.body);
    let projects = as_person(
        &server,
        &ada,
        Method::GET,
        &format!("/api/organization/{organization}/project"),
        None,
    )
    .await;
    assert_eq!(projects.status, StatusCode::OK, "{}", projects.body);
}

#[tokio::test]
async fn a_persons_account_is_their_name_and_address() {
    let server = TestServer::new().await;
    let ada = oidc::shared().bearer("ada@example.com");
    let account = as_person(&server, &ada, Method::GET, "/api/account", None).await;
    assert_eq!(account.body["first_name"], "Person");
    assert_eq!(account.body["last_name"], "ada@example.com");
    assert_eq!(account.body["nickname"], "ada");
    assert_eq!(account.body["communication_email"], "ada@example.com");
}

/// `value` as JSON in base64url without padding, as a JWT's parts are written.
fn base64url(value: &Value) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let bytes = value.to_string().into_bytes();
    let mut written = String::new();
    for chunk in bytes.chunks(3) {
        let word = chunk.iter().enumerate().fold(0u32, |word, (at, byte)| {
            word | u32::from(*byte) << (16 - 8 * at)
        });
        for at in 0..=chunk.len() {
            written.push(char::from(ALPHABET[(word >> (18 - 6 * at) & 63) as usize]));
        }
    }
    written
}

/// Each write of `WRITES_OF_PEOPLE`, made as a person: its request and answer in the production
/// document's shapes, and the audit entry it writes (none for an organization's deletion, which
/// takes its log along).
#[tokio::test]
async fn the_writes_of_people_take_the_documents_shapes_and_are_audited() {
    let server = TestServer::new().await;
    let document = contract::Document::production();
    let issuer = oidc::shared();
    let (ada, bob) = (
        issuer.bearer("ada@example.com"),
        issuer.bearer("bob@example.com"),
    );
    let mut checked = Vec::new();
    let mut write = |method: &'static str,
                     template: &'static str,
                     path: String,
                     body: Option<Value>,
                     who: String| {
        checked.push((method, template));
        let server = &server;
        let document = &document;
        async move {
            let operation = document.operation(method, template).unwrap();
            if let Some(body) = &body {
                operation
                    .check_request(body)
                    .unwrap_or_else(|errors| panic!("{template}: {errors:?}"));
            }
            let reply = as_person(server, &who, method.parse().unwrap(), &path, body).await;
            assert!(
                reply.status.is_success(),
                "{method} {template}: {}",
                reply.body
            );
            operation
                .check_response(reply.status.as_u16(), &reply.body)
                .unwrap_or_else(|errors| panic!("{method} {template}: {errors:?} {}", reply.body));
            reply
        }
    };
    let newest_entry = |organization: String| {
        let server = &server;
        let ada = ada.clone();
        async move {
            let events = as_person(
                server,
                &ada,
                Method::GET,
                &format!("/api/organization/{organization}/events"),
                None,
            )
            .await;
            events.body["events"][0].clone()
        }
    };

    let made = write(
        "POST",
        "/organization",
        "/api/organization".into(),
        Some(json!({"name": "Acme", "plan": "FREE"})),
        ada.clone(),
    )
    .await;
    let acme = made.body["id"].as_str().unwrap().to_string();
    let entry = newest_entry(acme.clone()).await;
    assert_eq!(
        (entry["event_type"].as_str(), entry["triggered_by"].as_str()),
        (Some("CREATE"), Some("ada@example.com")),
        "{entry}"
    );

    let invited = as_person(
        &server,
        &ada,
        Method::POST,
        &format!("/api/organization/{acme}/inviteMember"),
        Some(json!({"email": "bob@example.com", "role": "ADMIN"})),
    )
    .await;
    let invitation = invited.body["id"].as_str().unwrap();
    write(
        "POST",
        "/organization/{organizationId}/inviteMember/{inviteId}",
        format!("/api/organization/{acme}/inviteMember/{invitation}"),
        None,
        bob.clone(),
    )
    .await;
    let entry = newest_entry(acme.clone()).await;
    assert_eq!(
        (entry["event_type"].as_str(), entry["triggered_by"].as_str()),
        (Some("CREATE"), Some("bob@example.com")),
        "{entry}"
    );

    let members = as_person(
        &server,
        &ada,
        Method::GET,
        &format!("/api/organization/{acme}/member"),
        None,
    )
    .await;
    let bob_member = members.body["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|member| member["email"] == "bob@example.com")
        .unwrap()["id"]
        .clone();
    write(
        "POST",
        "/organization/{organizationId}/transferOwnership",
        format!("/api/organization/{acme}/transferOwnership"),
        Some(json!({"user_id": bob_member})),
        ada.clone(),
    )
    .await;
    let entry = newest_entry(acme.clone()).await;
    assert_eq!(
        (entry["event_type"].as_str(), entry["triggered_by"].as_str()),
        (Some("UPDATE"), Some("ada@example.com")),
        "{entry}"
    );

    write(
        "DELETE",
        "/organization/{organizationId}",
        format!("/api/organization/{acme}"),
        None,
        bob.clone(),
    )
    .await;
    let left: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM audit_events WHERE organization_id = ?")
            .bind(&acme)
            .fetch_one(&server.state.db)
            .await
            .unwrap();
    assert_eq!(left, 0, "the organization's log goes with it");
    assert_eq!(checked.len(), WRITES_OF_PEOPLE.len());
}
