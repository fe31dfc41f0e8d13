//! Requests per second of the API's heaviest reads, side by side with a bare axum handler that
//! answers the same body from memory (no auth, no database): how much of the machine's HTTP
//! speed each route keeps. Both run in this process on loopback and are called by the same
//! clients (keep-alive connections on threads), so the ratio is what to read. Each route is
//! asked twice: uncompressed, and as a browser asks (`Accept-Encoding: gzip, deflate, br`), the
//! bare handler then answering the route's brotli bytes from memory.
//!
//! `cargo bench -p platform-server --bench api_reads [-- SERVICES REQUESTS CLIENTS]`

use std::io::Read;
use std::time::{Duration, Instant};

use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;
use platform_server::{start, without_nagle, Config};
use serde_json::{json, Value};
use tempfile::TempDir;

/// What Chromium asks for.
const BROWSER_ENCODINGS: &str = "gzip, deflate, br";

struct Client {
    base: String,
    authorization: String,
}

impl Client {
    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let request = ureq::request(method, &format!("{}{path}", self.base))
            .set("Authorization", &self.authorization);
        let response = match body {
            Some(body) => request.send_json(body),
            None => request.call(),
        }
        .unwrap_or_else(|error| panic!("{method} {path}: {error}"));
        response.into_json().unwrap_or(Value::Null)
    }

    /// The bytes answered to a GET of `path`, compressed as `encoding` asks.
    fn body(&self, path: &str, encoding: Option<&str>) -> Vec<u8> {
        let mut request =
            ureq::get(&format!("{}{path}", self.base)).set("Authorization", &self.authorization);
        if let Some(encoding) = encoding {
            request = request.set("Accept-Encoding", encoding);
        }
        let mut body = Vec::new();
        request
            .call()
            .unwrap()
            .into_reader()
            .read_to_end(&mut body)
            .unwrap();
        body
    }
}

/// Requests per second and the 99th percentile latency of `requests` GETs of `url` sent by
/// `clients` threads, each on its own keep-alive connection.
fn load(
    url: &str,
    authorization: Option<&str>,
    encoding: Option<&'static str>,
    requests: usize,
    clients: usize,
) -> (f64, Duration) {
    let started = Instant::now();
    let threads: Vec<_> = (0..clients)
        .map(|_| {
            let (url, authorization) = (url.to_string(), authorization.map(str::to_string));
            std::thread::spawn(move || {
                let agent = ureq::agent();
                let mut latencies = Vec::new();
                for _ in 0..requests / clients {
                    let sent = Instant::now();
                    let mut request = agent.get(&url);
                    if let Some(authorization) = &authorization {
                        request = request.set("Authorization", authorization);
                    }
                    if let Some(encoding) = encoding {
                        request = request.set("Accept-Encoding", encoding);
                    }
                    let mut body = Vec::new();
                    let response = request.call().unwrap();
                    if encoding.is_some() {
                        assert_eq!(response.header("Content-Encoding"), Some("br"));
                    }
                    response.into_reader().read_to_end(&mut body).unwrap();
                    assert!(!body.is_empty());
                    latencies.push(sent.elapsed());
                }
                latencies
            })
        })
        .collect();
    let mut latencies: Vec<Duration> = threads
        .into_iter()
        .flat_map(|thread| thread.join().unwrap())
        .collect();
    let seconds = started.elapsed().as_secs_f64();
    latencies.sort();
    let p99 = latencies[latencies.len() * 99 / 100];
    (latencies.len() as f64 / seconds, p99)
}

/// A server answering `body` at `/` from memory, as fast as axum goes (`brotli`: `body` is
/// brotli's bytes, sent as such).
async fn bare_handler(body: Vec<u8>, brotli: bool) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/", listener.local_addr().unwrap());
    let router = Router::new().route(
        "/",
        get(move || {
            let body = body.clone();
            async move {
                let mut response = ([("content-type", "application/json")], body).into_response();
                if brotli {
                    let br = axum::http::HeaderValue::from_static("br");
                    response.headers_mut().insert("content-encoding", br);
                }
                response
            }
        }),
    );
    // Served as the server serves.
    let listener = without_nagle(listener);
    tokio::spawn(async move { axum::serve(listener, router).await });
    url
}

fn main() {
    let mut args = std::env::args().skip(1).filter(|a| !a.starts_with("--"));
    let services: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(1000);
    let requests: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(2000);
    let clients: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(8);
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let dir = TempDir::new().unwrap();
    let running = runtime
        .block_on(start(Config {
            engine_speed: 1e9,
            new_sign_in_token: true,
            rate_limit_per_minute: u32::MAX,
            ..Config::local(dir.path().to_path_buf())
        }))
        .unwrap();
    let client = Client {
        base: format!("http://{}/api", running.address),
        authorization: format!("Token {}", running.sign_in_token.clone().unwrap()),
    };
    let organization = client.call("GET", "/organization", None)["results"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    // An organization of 50 projects, one of which has an environment of `services` deployed
    // applications.
    let mut project = String::new();
    for index in 0..50 {
        let created = client.call(
            "POST",
            &format!("/organization/{organization}/project"),
            Some(json!({"name": format!("project-{index:02}")})),
        );
        project = created["id"].as_str().unwrap().to_string();
    }
    let environment = client.call(
        "POST",
        &format!("/project/{project}/environment"),
        Some(json!({"name": "production", "mode": "PRODUCTION"})),
    )["id"]
        .as_str()
        .unwrap()
        .to_string();
    for index in 0..services {
        client.call(
            "POST",
            &format!("/environment/{environment}/application"),
            Some(json!({"name": format!("app-{index:04}"),
                        "git_repository": {"url": "https://git.example.com/a.git"}})),
        );
    }
    client.call(
        "POST",
        &format!("/environment/{environment}/deploy"),
        Some(json!({})),
    );
    let statuses = format!("/environment/{environment}/statuses");
    while client.call("GET", &statuses, None)["environment"]["state"] != "DEPLOYED" {
        std::thread::sleep(Duration::from_millis(50));
    }

    println!(
        "{services} deployed applications, {requests} requests from {clients} clients each way"
    );
    println!(
        "{:<44} {:>9} {:>9} {:>9} {:>9} {:>7}",
        "route", "req/s", "p99 ms", "bare r/s", "p99 ms", "share"
    );
    for path in [
        statuses,
        format!("/environment/{environment}/application"),
        format!("/organization/{organization}/project"),
    ] {
        let url = format!("{}{path}", client.base);
        let route = path
            .replace(&environment, "{id}")
            .replace(&organization, "{id}");
        for encoding in [None, Some(BROWSER_ENCODINGS)] {
            let body = client.body(&path, encoding);
            let bare = runtime.block_on(bare_handler(body, encoding.is_some()));
            let (ours, our_p99) = load(
                &url,
                Some(&client.authorization),
                encoding,
                requests,
                clients,
            );
            let (theirs, their_p99) = load(&bare, None, encoding, requests, clients);
            let asked = format!("{route}{}", if encoding.is_some() { " (br)" } else { "" });
            println!(
                "{asked:<44} {ours:>9.0} {:>9.1} {theirs:>9.0} {:>9.1} {:>6.0}%",
                our_p99.as_secs_f64() * 1e3,
                their_p99.as_secs_f64() * 1e3,
                ours / theirs * 100.0
            );
        }
    }
}
