//! Receivers on loopback for what the server sends out: webhooks' deliveries, alerts' notices.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use axum::http::StatusCode;
use axum::routing::post;
use axum::Router;

/// What a receiver was sent: the bodies of the POSTs, in order.
#[derive(Clone, Default)]
pub struct Received {
    count: Arc<AtomicUsize>,
    bodies: Arc<Mutex<Vec<String>>>,
}

impl Received {
    pub fn count(&self) -> usize {
        self.count.load(Ordering::SeqCst)
    }

    pub fn bodies(&self) -> Vec<String> {
        self.bodies.lock().unwrap().clone()
    }
}

/// A receiver on loopback at `path` that keeps what it is POSTed and answers 200; its URL.
pub async fn receiver(path: &str) -> (Received, String) {
    let received = Received::default();
    let kept = received.clone();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let app = Router::new().route(
        path,
        post(move |body: String| {
            let kept = kept.clone();
            async move {
                kept.count.fetch_add(1, Ordering::SeqCst);
                kept.bodies.lock().unwrap().push(body);
                StatusCode::OK
            }
        }),
    );
    tokio::spawn(async move { axum::serve(listener, app).await });
    (received, format!("http://{address}{path}"))
}
