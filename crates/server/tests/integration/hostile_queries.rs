//! The monitoring routes and alert rules under hostile input: a query of any shape within the
//! length limit is answered or refused with a 400 naming the parameter and the bound, before it
//! takes the server's time: nesting of every form (`1+1+…`, `---…1`, calls in calls), subqueries
//! of a tiny step, offsets of centuries; a stored rule is held to the same bounds, and one that
//! still fails at evaluation is marked failed and skipped, never stopping the round or the
//! process. A seeded fuzzer over the PromQL and LogQL grammars runs a bounded number of cases
//! and prints the slowest answer.

use std::time::{Duration, Instant};

use crate::alerts::{alerting, custom_rule, rule_state, slack_receiver};
use crate::common::receiver::Receiver;
use crate::common::{assert_invalid_fields, Reply, TestServer};
use crate::monitoring::{backdate, deployed_container, now};

use axum::http::StatusCode;
use chrono::Utc;
use platform_server::alerts;

const PROMQL_CASES: usize = 300;
const LOGQL_CASES: usize = 150;
const SEED: u64 = 0x5eed_0059;

async fn ask(server: &TestServer, cluster: &str, route: &str, params: &[(&str, String)]) -> Reply {
    let query: String = url::form_urlencoded::Serializer::new(String::new())
        .extend_pairs(params)
        .finish();
    server
        .get(&format!("/api/cluster/{cluster}/{route}?{query}"))
        .await
}

/// A query's parameters, as the route takes them.
type Params = Vec<(&'static str, String)>;

fn instant(query: &str) -> Params {
    vec![
        ("endpoint", "api/v1/query".to_string()),
        ("query", query.to_string()),
        ("time", now().to_string()),
    ]
}

fn range(query: &str, seconds: f64, step: &str) -> Params {
    let t = now();
    vec![
        ("endpoint", "api/v1/query_range".to_string()),
        ("query", query.to_string()),
        ("start", (t - seconds).to_string()),
        ("end", t.to_string()),
        ("step", step.to_string()),
    ]
}

/// The reply is a 400 naming `query`, its message saying `said`.
fn refused(reply: &Reply, said: &str, what: &str) {
    assert_invalid_fields(reply, &["query"]);
    let message = reply.body["fields"][0]["message"].as_str().unwrap();
    assert!(message.contains(said), "{what}: {message}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_shape_of_a_costly_query_is_a_400_naming_its_bound() {
    let server = TestServer::new().await;
    let (_, cluster, container) = deployed_container(&server, 512).await;
    let additions = vec!["1"; 1801].join("+");
    let powers = vec!["2"; 1500].join("^");
    let minuses = format!("{}up", "-".repeat(4000));
    let calls = format!("{}up{}", "abs(".repeat(70), ")".repeat(70));
    let cases: Vec<(&str, Params, &str)> = vec![
        (
            "a chain of 1,800 additions",
            instant(&additions),
            "nests deeper",
        ),
        ("a chain of powers", instant(&powers), "nests deeper"),
        ("4,000 minuses", instant(&minuses), "nests deeper"),
        ("70 calls in calls", instant(&calls), "nests deeper"),
        ("a subquery of 1 ms steps", instant("up[2d:1ms]"), "work"),
        (
            "a subquery of a number",
            instant("vector(1)[1h:1ms]"),
            "work",
        ),
        (
            "a subquery at every step of a range",
            range("max_over_time(up[1d:100ms])", 600.0, "30s"),
            "work",
        ),
        (
            "a week of a week's samples at each minute",
            range(
                "sum_over_time(container_cpu_usage_seconds_total[7d:15s])",
                7.0 * 86400.0,
                "60s",
            ),
            "work",
        ),
        (
            "an offset of 400 years",
            instant("up offset 400y"),
            "reaches further",
        ),
        (
            "an offset of 100,000 years",
            instant("up offset 100000y"),
            "offset",
        ),
        (
            "an @ of the year 5138",
            instant("up @ 99999999999"),
            "reaches further",
        ),
        (
            "a range of two years",
            instant("rate(up[730d])"),
            "reaches further",
        ),
    ];
    for (what, params, said) in cases {
        let started = Instant::now();
        let reply = ask(&server, &cluster, "metrics", &params).await;
        let took = started.elapsed();
        refused(&reply, said, what);
        println!("{what}: 400 in {took:?}");
    }
    let service = &container;
    let nested = format!(
        "{}count_over_time({{qovery_com_service_id=\"{service}\"}}[5m]){}",
        "sum(".repeat(40),
        ")".repeat(40)
    );
    let reply = ask(
        &server,
        &cluster,
        "logs",
        &[
            ("endpoint", "/loki/api/v1/query".to_string()),
            ("query", nested),
        ],
    )
    .await;
    refused(&reply, "nests aggregations deeper", "40 LogQL sums");
    // A month of a month's lines at each second, over a day of lines: refused from its count,
    // before any is read.
    backdate(&server, service, 60, 86_400).await;
    let t = now();
    let reply = ask(
        &server,
        &cluster,
        "logs",
        &[
            ("endpoint", "/loki/api/v1/query_range".to_string()),
            (
                "query",
                format!("count_over_time({{qovery_com_service_id=\"{service}\"}}[30d])"),
            ),
            ("start", (t - 3000.0).to_string()),
            ("end", t.to_string()),
            ("step", "1s".to_string()),
        ],
    )
    .await;
    refused(&reply, "lines", "a month of lines at each second");
}

#[tokio::test]
async fn a_rule_is_held_to_the_query_bounds_and_one_failing_at_evaluation_is_skipped() {
    let server = TestServer::new().await;
    let (_, cluster, container) = deployed_container(&server, 512).await;
    let (_, url) = Receiver::start(0).await;
    let receiver = slack_receiver(&server, &format!("{url}/x")).await;
    let rule = |promql: &str| custom_rule(&server, (&cluster, &container), vec![&receiver], promql);
    for (promql, said) in [
        (vec!["up"; 1000].join("+"), "nests deeper"),
        ("max_over_time(vector(1)[2d:1ms])".to_string(), "work"),
        ("up offset 400y".to_string(), "reaches further"),
    ] {
        let reply = server.post("/api/alert-rules", rule(&promql)).await;
        assert_invalid_fields(&reply, &["condition.promql"]);
        let message = reply.body["fields"][0]["message"].as_str().unwrap();
        assert!(message.contains(said), "{message}");
    }

    // Rules stored before these bounds (written to the database as an older server took them):
    // one enabled, one disabled, beside a sound one.
    let sound = server.create("/api/alert-rules", rule("vector(0)")).await;
    let failing = server.create("/api/alert-rules", rule("vector(0)")).await;
    let mut disabled = rule("vector(0)");
    disabled["enabled"] = false.into();
    let disabled = server.create("/api/alert-rules", disabled).await;
    let bomb = vec!["up"; 1000].join("+");
    for id in [&failing, &disabled] {
        let definition: String =
            sqlx::query_scalar("SELECT definition FROM alert_rules WHERE id = ?")
                .bind(id)
                .fetch_one(&server.state.db)
                .await
                .unwrap();
        let definition = definition.replace("vector(0)", &bomb);
        sqlx::query("UPDATE alert_rules SET definition = ? WHERE id = ?")
            .bind(definition)
            .bind(id)
            .execute(&server.state.writes)
            .await
            .unwrap();
    }
    let alerting = alerting(&server);
    for _ in 0..2 {
        alerts::once(&alerting, Utc::now()).await.unwrap();
    }
    assert_eq!(rule_state(&server, &sound).await["state"], "OK");
    assert_eq!(rule_state(&server, &disabled).await["state"], "UNDEPLOYED");
    let failure = |id: &str| {
        sqlx::query_scalar::<_, Option<String>>("SELECT failure FROM alert_rules WHERE id = ?")
            .bind(id.to_string())
            .fetch_one(&server.state.db)
    };
    let why = failure(&failing).await.unwrap().expect("marked failed");
    assert!(why.contains("nests deeper"), "{why}");
    assert_eq!(failure(&disabled).await.unwrap(), None);
    assert_eq!(rule_state(&server, &failing).await["is_up_to_date"], false);
    // Edited, it is evaluated again.
    let mut edit = rule("vector(0)");
    for field in ["organization_id", "cluster_id", "target"] {
        edit.as_object_mut().unwrap().remove(field);
    }
    let edited = server
        .put(&format!("/api/alert-rules/{failing}"), edit)
        .await;
    assert_eq!(edited.status, StatusCode::OK, "{}", edited.body);
    alerts::once(&alerting, Utc::now()).await.unwrap();
    assert_eq!(failure(&failing).await.unwrap(), None);
    assert_eq!(rule_state(&server, &failing).await["state"], "OK");
}

/// splitmix64: the cases are the same on every run.
struct Seeded(u64);

impl Seeded {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

const METRICS: &[&str] = &[
    "up",
    "container_memory_working_set_bytes",
    "container_cpu_usage_seconds_total",
    "kube_pod_container_status_restarts_total",
    "kube_deployment_spec_replicas",
    "nginx:req_rate:5m_by_status",
    "nothing_of_the_kind",
];
const RANGES: &[&str] = &["1ms", "1s", "30s", "5m", "1h", "2d", "30d", "400d"];
const OFFSETS: &[&str] = &["5m", "1h", "-1h", "7d", "400y", "100000y"];
const REGEXES: &[&str] = &[
    "(a+)+$",
    ".*.*.*.*x",
    "(x|xx)*y",
    "[[:alpha:]]{1,1000}",
    "web.*",
];
const BINARY: &[&str] = &[
    "+", "-", "*", "/", "%", "^", "==", "!=", ">", "<=", "and", "or", "unless",
];
const FUNCTIONS: &[&str] = &["abs", "ceil", "sqrt", "exp", "ln", "sort_desc", "timestamp"];
const OVER_TIME: &[&str] = &[
    "rate",
    "increase",
    "irate",
    "max_over_time",
    "avg_over_time",
];
const AGGREGATIONS: &[&str] = &["sum", "avg", "max", "count", "stddev"];

/// A PromQL expression at most `depth` deep, of any form the grammar has.
fn promql(random: &mut Seeded, depth: usize) -> String {
    let leaf = depth == 0;
    match if leaf {
        random.below(3)
    } else {
        random.below(12)
    } {
        0 => random.below(1000).to_string(),
        1 | 2 => {
            let mut selector = random.pick(METRICS).to_string();
            if random.below(3) == 0 {
                selector += &format!("{{pod=~\"{}\"}}", random.pick(REGEXES));
            }
            if random.below(4) == 0 {
                selector += &format!(" offset {}", random.pick(OFFSETS));
            }
            selector
        }
        3 => format!("-{}", promql(random, depth - 1)),
        4 => format!("({})", promql(random, depth - 1)),
        5 | 6 => format!(
            "{} {} {}",
            promql(random, depth - 1),
            random.pick(BINARY),
            promql(random, depth - 1)
        ),
        7 => format!(
            "{}({}[{}])",
            random.pick(OVER_TIME),
            random.pick(METRICS),
            random.pick(RANGES)
        ),
        8 => format!("{}({})", random.pick(FUNCTIONS), promql(random, depth - 1)),
        9 => format!(
            "{} by (pod) ({})",
            random.pick(AGGREGATIONS),
            promql(random, depth - 1)
        ),
        10 => format!(
            "max_over_time(({})[{}:{}])",
            promql(random, depth - 1),
            random.pick(RANGES),
            random.pick(RANGES)
        ),
        _ => {
            // Long and deep: chains and nests near and past the bounds.
            let n = 1 + random.below(2500);
            match random.below(4) {
                0 => vec!["1"; n].join(random.pick(&["+", "^", " or ", "*"])),
                1 => format!("{}up", "-".repeat(n.min(4000))),
                2 => format!("{}up{}", "abs(".repeat(n % 90), ")".repeat(n % 90)),
                _ => format!("{}up{}", "sum(".repeat(n % 90), ")".repeat(n % 90)),
            }
        }
    }
}

/// A LogQL query of any form this server reads, and some it does not.
fn logql(random: &mut Seeded, service: &str) -> String {
    let mut lines = format!("{{qovery_com_service_id=\"{service}\"");
    if random.below(2) == 0 {
        lines += &format!(", pod=~\"{}\"", random.pick(REGEXES));
    }
    lines.push('}');
    for _ in 0..random.below(4) {
        let filter = random.pick(&["|=", "!=", "|~", "!~"]);
        let text = if filter.ends_with('~') {
            random.pick(REGEXES)
        } else {
            random.pick(&["GET", "error", ""])
        };
        lines += &format!(" {filter} \"{text}\"");
    }
    match random.below(4) {
        0 => lines,
        1 => format!(
            "{}({lines}[{}])",
            random.pick(&["count_over_time", "rate"]),
            random.pick(RANGES)
        ),
        _ => {
            let depth = random.below(24);
            format!(
                "{}count_over_time({lines}[{}]){}",
                "sum by (pod) (".repeat(depth),
                random.pick(RANGES),
                ")".repeat(depth)
            )
        }
    }
}

/// A time range of a query: up to a month, at a step of a second to an hour.
fn window(random: &mut Seeded) -> (f64, &'static str) {
    let seconds = [60.0, 3600.0, 86400.0, 30.0 * 86400.0][random.below(4)];
    (seconds, random.pick(&["1s", "15s", "60s", "1h"]))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_query_grammars_hold_under_fuzzing() {
    let server = TestServer::new().await;
    let (_, cluster, service) = deployed_container(&server, 512).await;
    let mut random = Seeded(SEED);
    let mut slowest = (Duration::ZERO, String::new());
    let mut answered = [0usize; 2];
    for case in 0..PROMQL_CASES + LOGQL_CASES {
        let (route, params) = if case < PROMQL_CASES {
            let depth = 1 + random.below(6);
            let query = promql(&mut random, depth);
            let params = if random.below(2) == 0 {
                instant(&query)
            } else {
                let (seconds, step) = window(&mut random);
                range(&query, seconds, step)
            };
            ("metrics", params)
        } else {
            let query = logql(&mut random, &service);
            let (seconds, step) = window(&mut random);
            let t = now();
            let endpoint = random.pick(&["/loki/api/v1/query_range", "/loki/api/v1/query"]);
            (
                "logs",
                vec![
                    ("endpoint", endpoint.to_string()),
                    ("query", query),
                    ("start", (t - seconds).to_string()),
                    ("end", t.to_string()),
                    ("step", step.to_string()),
                    ("limit", "1000".to_string()),
                ],
            )
        };
        let started = Instant::now();
        let reply = ask(&server, &cluster, route, &params).await;
        let took = started.elapsed();
        let query = &params[1].1;
        match reply.status {
            StatusCode::OK => answered[0] += 1,
            // Past the length of an address the server reads.
            StatusCode::URI_TOO_LONG => answered[1] += 1,
            StatusCode::BAD_REQUEST => {
                answered[1] += 1;
                assert!(
                    reply.body["fields"][0]["field"].is_string(),
                    "{query}: {}",
                    reply.body
                );
            }
            status => panic!("{status} for {query:.200}: {}", reply.body),
        }
        if took > slowest.0 {
            slowest = (took, format!("{query:.120}"));
        }
    }
    println!(
        "{} cases: {} answered, {} refused; the slowest in {:?}: {}",
        PROMQL_CASES + LOGQL_CASES,
        answered[0],
        answered[1],
        slowest.0,
        slowest.1
    );
    assert!(answered[0] > 0 && answered[1] > 0, "{answered:?}");
}
