//! A webhook receiver on loopback: records what it is sent, answers 500 to the first few requests
//! if asked to, 200 after.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use axum::Router;

/// A request the receiver got.
#[derive(Clone, Debug)]
pub struct Received {
    pub path: String,
    pub headers: HeaderMap,
    pub body: String,
}

/// An HTTP server on loopback that records what it is sent and answers 500 to the first
/// `failures` requests, 200 after.
#[derive(Clone, Default)]
pub struct Receiver {
    received: Arc<Mutex<Vec<Received>>>,
    failures: Arc<AtomicUsize>,
}

impl Receiver {
    pub async fn start(failures: usize) -> (Self, String) {
        let receiver = Receiver::default();
        receiver.failures.store(failures, Ordering::SeqCst);
        let app = Router::new()
            .route("/{path}", post(receive))
            .with_state(receiver.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, app).await });
        (receiver, format!("http://{address}"))
    }

    pub fn received(&self) -> Vec<Received> {
        self.received.lock().unwrap().clone()
    }
}

async fn receive(
    State(receiver): State<Receiver>,
    Path(path): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> StatusCode {
    receiver.received.lock().unwrap().push(Received {
        path,
        headers,
        body: String::from_utf8(body.to_vec()).unwrap(),
    });
    let failing = receiver
        .failures
        .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |left| {
            left.checked_sub(1)
        })
        .is_ok();
    if failing {
        StatusCode::INTERNAL_SERVER_ERROR
    } else {
        StatusCode::OK
    }
}
