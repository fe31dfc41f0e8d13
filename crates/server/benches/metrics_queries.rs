//! The metrics route (`/cluster/{id}/metrics`, PromQL) over a week of simulated history: the
//! CPU of one service per instance, as the Monitoring tab asks it (its 7-day step, ~240 points)
//! and at a minute's step (10,080 points), and the CPU of every service of an environment of
//! SERVICES deployed applications per instance, the same two ways. Each deployment is moved a
//! week back first (`backdate`), so every series spans the whole range. Prints p50 and p99 of
//! each and the process's peak memory before and after. Then the worst queries one caller may
//! send (each just within the work one query may take, two callers at once): how long each
//! takes, the p99 of a cheap read by another caller meanwhile against its idle p99, and the
//! resident memory before and after.
//!
//! `cargo bench -p platform-server --bench metrics_queries [-- SERVICES REQUESTS]`

use std::time::{Duration, Instant};

use platform_api::monitoring::{QueryAnswer, Workload};
use platform_server::{backdate, start, Config};
use serde_json::{json, Value};
use tempfile::TempDir;

const WEEK: i64 = 7 * 86_400;

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

    /// The Prometheus answer to `params` on `cluster` and the bytes of the API's answer, or the
    /// API's refusal (a query past what one answer may compute is a 400).
    fn metrics(
        &self,
        cluster: &str,
        params: &[(&str, String)],
    ) -> Result<(QueryAnswer, usize), String> {
        let query: String = url::form_urlencoded::Serializer::new(String::new())
            .extend_pairs(params)
            .finish();
        let url = format!("{}/cluster/{cluster}/metrics?{query}", self.base);
        let body: Value = match ureq::get(&url)
            .set("Authorization", &self.authorization)
            .call()
        {
            Ok(answer) => answer.into_json().unwrap(),
            Err(ureq::Error::Status(code, answer)) => {
                return Err(format!(
                    "{code} {}",
                    answer.into_string().unwrap_or_default()
                ))
            }
            Err(error) => panic!("{params:?}: {error}"),
        };
        let metrics = body["metrics"]
            .as_str()
            .unwrap_or_else(|| panic!("{params:?}: {body}"));
        Ok((serde_json::from_str(metrics).unwrap(), metrics.len()))
    }
}

/// The process's peak resident memory, in MiB.
fn peak_memory_mib() -> u64 {
    memory_mib("VmHWM:")
}

/// A line of the process's status in MiB: `VmHWM:` (peak) or `VmRSS:` (now).
fn memory_mib(line: &str) -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find(|found| found.starts_with(line))
                .and_then(|found| found.split_whitespace().nth(1))
                .and_then(|kib| kib.parse::<u64>().ok())
        })
        .map_or(0, |kib| kib / 1024)
}

/// `count` cheap reads (the organization), each timed, sorted.
fn cheap_reads(client: &Client, organization: &str, count: usize) -> Vec<Duration> {
    let mut took: Vec<Duration> = (0..count)
        .map(|_| {
            let sent = Instant::now();
            client.call("GET", &format!("/organization/{organization}"), None);
            sent.elapsed()
        })
        .collect();
    took.sort();
    took
}

/// The worst queries admitted: two callers sending them in turn while a third reads cheaply.
fn worst_queries(client: &Client, organization: &str, cluster: &str, every_service: &str) {
    let idle = cheap_reads(client, organization, 300);
    let resident = memory_mib("VmRSS:");
    let end = chrono::Utc::now().timestamp() as f64;
    let worst = [
        // Points evaluated one by one: just within the work one query may take.
        "max_over_time(vector(1)[4h:10ms])".to_string(),
        // Every series of the environment, six hours of it at every 30 s.
        format!("max_over_time(({every_service})[6h:30s])"),
        // A week of every series' raw samples.
        "count(count_over_time(container_cpu_usage_seconds_total[7d]))".to_string(),
    ];
    println!(
        "{:<60} {:>9} {:>9}",
        "worst query (instant)", "ms", "answer"
    );
    for query in &worst {
        let sent = Instant::now();
        let answer = client.metrics(
            cluster,
            &[
                ("endpoint", "api/v1/query".into()),
                ("query", query.clone()),
                ("time", end.to_string()),
            ],
        );
        let said = match answer {
            Ok(_) => "200".to_string(),
            Err(refusal) => refusal.chars().take(60).collect(),
        };
        println!(
            "{:<60} {:>9.1} {said}",
            query.chars().take(60).collect::<String>(),
            sent.elapsed().as_secs_f64() * 1e3
        );
    }
    let busy = std::sync::atomic::AtomicBool::new(true);
    let during = std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                for _ in 0..3 {
                    for query in &worst {
                        let _ = client.metrics(
                            cluster,
                            &[
                                ("endpoint", "api/v1/query".into()),
                                ("query", query.clone()),
                                ("time", end.to_string()),
                            ],
                        );
                    }
                }
                busy.store(false, std::sync::atomic::Ordering::Relaxed);
            });
        }
        let mut took = Vec::new();
        while busy.load(std::sync::atomic::Ordering::Relaxed) {
            took.extend(cheap_reads(client, organization, 10));
        }
        took.sort();
        took
    });
    let idle_after = cheap_reads(client, organization, 300);
    println!(
        "a cheap read: idle p50 {:.1} ms p99 {:.1} ms (after: {:.1}, {:.1}); during two callers' worst queries p50 {:.1} ms p99 {:.1} ms ({} reads)",
        percentile(&idle, 50),
        percentile(&idle, 99),
        percentile(&idle_after, 50),
        percentile(&idle_after, 99),
        percentile(&during, 50),
        percentile(&during, 99),
        during.len()
    );
    println!(
        "resident memory {resident} MiB before the worst queries, {} MiB after (peak {} MiB)",
        memory_mib("VmRSS:"),
        peak_memory_mib()
    );
}

fn percentile(sorted: &[Duration], share: usize) -> f64 {
    sorted[(sorted.len() * share / 100).min(sorted.len() - 1)].as_secs_f64() * 1e3
}

fn main() {
    let mut args = std::env::args().skip(1).filter(|a| !a.starts_with("--"));
    let services: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(1000);
    let requests: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(50);
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
    let project = client.call(
        "POST",
        &format!("/organization/{organization}/project"),
        Some(json!({"name": "fleet"})),
    )["id"]
        .as_str()
        .unwrap()
        .to_string();
    let environment = client.call(
        "POST",
        &format!("/project/{project}/environment"),
        Some(json!({"name": "production", "mode": "PRODUCTION"})),
    );
    let (environment, cluster) = (
        environment["id"].as_str().unwrap().to_string(),
        environment["cluster_id"].as_str().unwrap().to_string(),
    );
    let mut ids = Vec::new();
    for index in 0..services {
        let created = client.call(
            "POST",
            &format!("/environment/{environment}/application"),
            Some(json!({"name": format!("app-{index:04}"),
                        "git_repository": {"url": "https://git.example.com/a.git"}})),
        );
        ids.push(created["id"].as_str().unwrap().parse().unwrap());
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
    runtime.block_on(async {
        for id in &ids {
            backdate(&running.state.writes, *id, 3600, WEEK + 3600)
                .await
                .unwrap();
        }
    });

    let lookup = |label: &str| {
        let (answer, _) = client
            .metrics(
                &cluster,
                &[
                    ("endpoint", Workload::lookup(label, ids[0])),
                    ("query", String::new()),
                ],
            )
            .unwrap();
        answer.values().first().cloned()
    };
    let one = Workload {
        service_id: ids[0],
        name: lookup("deployment"),
        namespace: lookup("namespace"),
        ..Workload::default()
    };
    let namespace = one.namespace.clone().unwrap();
    let every_service = format!(
        "sum by (pod) (rate(container_cpu_usage_seconds_total{{namespace=\"{namespace}\"}}[5m]))"
    );
    let worst_of_every_service = every_service.clone();
    let end = chrono::Utc::now().timestamp() as f64;
    let start = end - WEEK as f64;
    println!(
        "{services} applications deployed a week ago; {requests} requests each; peak memory {} MiB",
        peak_memory_mib()
    );
    println!(
        "{:<40} {:>7} {:>9} {:>9} {:>9} {:>9}",
        "query over 7 days", "series", "points", "bytes", "p50 ms", "p99 ms"
    );
    for (name, query, step, asked) in [
        (
            "one service, by instance",
            one.cpu_by_instance("5m"),
            2520,
            requests,
        ),
        (
            "one service, by instance",
            one.cpu_by_instance("5m"),
            60,
            requests,
        ),
        (
            "every service, by instance",
            every_service.clone(),
            2520,
            requests / 5,
        ),
        (
            "every service, by instance",
            every_service,
            60,
            requests / 10,
        ),
    ] {
        let mut took = Vec::new();
        let mut shape = (0, 0, 0);
        let mut refused = None;
        for _ in 0..asked.max(3) {
            let sent = Instant::now();
            let answer = client.metrics(
                &cluster,
                &[
                    ("endpoint", "api/v1/query_range".into()),
                    ("query", query.clone()),
                    ("start", start.to_string()),
                    ("end", end.to_string()),
                    ("step", format!("{step}s")),
                ],
            );
            took.push(sent.elapsed());
            match answer {
                Ok((answer, bytes)) => {
                    let series = answer.range_series();
                    let points = series.iter().map(|s| s.values.len()).sum();
                    assert!(points > 0, "{name}: no point");
                    shape = (series.len(), points, bytes);
                }
                Err(refusal) => refused = Some(refusal),
            }
        }
        took.sort();
        let label = format!("{name}, step {step} s");
        match refused {
            Some(refusal) => println!(
                "{label:<40} refused in {:.1} ms (p50): {refusal}",
                percentile(&took, 50)
            ),
            None => println!(
                "{label:<40} {:>7} {:>9} {:>9} {:>9.1} {:>9.1}",
                shape.0,
                shape.1,
                shape.2,
                percentile(&took, 50),
                percentile(&took, 99)
            ),
        }
    }
    println!("peak memory {} MiB", peak_memory_mib());
    worst_queries(&client, &organization, &cluster, &worst_of_every_service);
}
