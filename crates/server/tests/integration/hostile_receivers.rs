//! What the server connects to on a caller's behalf, under hostile targets: an SMTP server that
//! answers a line at a time holds a sending no longer than its one deadline, and receivers that
//! never answer take no more than their share of the delivery slots (one attempt at a time per
//! target, a quarter of the slots per organization).

use std::time::{Duration, Instant};

use crate::common::TestServer;

use axum::http::StatusCode;
use serde_json::json;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpListener;

/// A TCP server on loopback that, to every connection, says `line` every `every` and nothing
/// else, forever.
async fn dripping(line: &'static [u8], every: Duration) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move {
        while let Ok((mut connection, _)) = listener.accept().await {
            tokio::spawn(async move {
                while connection.write_all(line).await.is_ok() {
                    tokio::time::sleep(every).await;
                }
            });
        }
    });
    address.to_string()
}

#[tokio::test]
async fn an_smtp_server_dripping_its_greeting_holds_a_sending_no_longer_than_its_deadline() {
    let server = TestServer::new().await;
    let smarthost = dripping(b"220-still greeting\r\n", Duration::from_secs(1)).await;
    let receiver = json!({"alert_receiver": {
        "organization_id": server.organization_id, "name": "mail", "description": "",
        "type": "EMAIL", "send_resolved": false, "to": "ops@example.com",
        "from": "alerts@example.com", "smarthost": smarthost, "auth_password": "pw",
        "require_tls": false}});
    let started = Instant::now();
    let refused = server.post("/api/alert-receivers/validate", receiver).await;
    let took = started.elapsed();
    assert_eq!(refused.status, StatusCode::BAD_REQUEST, "{}", refused.body);
    let message = refused.body["fields"][0]["message"].as_str().unwrap();
    assert!(message.contains("within 10 s"), "{message}");
    assert!(took < Duration::from_secs(20), "held {took:?}");
    println!("a dripping SMTP server held the test {took:?}");
}

#[tokio::test]
async fn receivers_that_never_answer_take_no_more_than_their_organizations_share() {
    let server = TestServer::new().await;
    // Accepts, then never answers: each attempt holds its slot until the deadline.
    let silent = dripping(b"", Duration::from_secs(3600)).await;
    for index in 0..6 {
        let created = server
            .post(
                &format!("/api/organization/{}/webhook", server.organization_id),
                json!({"target_url": format!("http://{silent}/hook{index}"),
                       "events": ["DEPLOYMENT_STARTED"]}),
            )
            .await;
        assert_eq!(created.status, StatusCode::CREATED, "{}", created.body);
    }
    let (_, _, application) = server.hierarchy().await;
    server
        .post(&format!("/api/application/{application}/deploy"), json!({}))
        .await;
    let attempting = || async {
        sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM webhook_deliveries WHERE attempting = 1")
            .fetch_one(&server.state.db)
            .await
            .unwrap()
    };
    let mut most = 0;
    for _ in 0..40 {
        most = most.max(attempting().await);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // Six deliveries due, four slots of the organization's: the others wait their turn.
    assert_eq!(most, 4);
}
