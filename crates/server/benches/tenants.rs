//! Many organizations on one server, much data, nobody in another's way. A server of ORGS
//! organizations holding VARIABLES variables and LOG_LINES deployment log lines in all runs for
//! SECONDS: one organization creates environments of 20 applications, imports 500 variables
//! into each and deletes them again, while each other organization creates variables and
//! projects, reads its lists and statuses and deploys. Printed: each organization's writes per
//! second, its p99, the count of 5xx of all, and the process's peak memory.
//!
//! `cargo bench -p platform-server --bench tenants [-- ORGS VARIABLES LOG_LINES SECONDS]`

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use platform_server::bootstrap::another_organization;
use platform_server::{start, Config};
use serde_json::{json, Value};
use sqlx::SqlitePool;
use tempfile::TempDir;
use uuid::Uuid;

/// Variables defined on one application of the data: near the most a scope holds, with room
/// for those the bench's writes add.
const VARIABLES_PER_APPLICATION: usize = 950;

struct Client {
    base: String,
    authorization: String,
    agent: ureq::Agent,
}

/// What one call answered: its status and how long it took.
struct Answer {
    status: u16,
    took: Duration,
    body: Value,
}

impl Client {
    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Answer {
        let sent = Instant::now();
        let request = self
            .agent
            .request(method, &format!("{}{path}", self.base))
            .set("Authorization", &self.authorization);
        let outcome = match body {
            Some(body) => request.send_json(body),
            None => request.call(),
        };
        let (status, body) = match outcome {
            Ok(response) => (
                response.status(),
                response.into_json().unwrap_or(Value::Null),
            ),
            Err(ureq::Error::Status(status, response)) => {
                (status, response.into_json().unwrap_or(Value::Null))
            }
            Err(error) => panic!("{method} {path}: {error}"),
        };
        Answer {
            status,
            took: sent.elapsed(),
            body,
        }
    }

    /// The created record's id; panics unless the call succeeded.
    fn create(&self, path: &str, body: Value) -> String {
        let answer = self.call("POST", path, Some(body));
        assert!(
            (200..300).contains(&answer.status),
            "{path}: {} {}",
            answer.status,
            answer.body
        );
        answer.body["id"].as_str().unwrap().to_string()
    }
}

/// An organization of the bench: its client, project, environment and applications.
struct Tenant {
    client: Client,
    organization: String,
    project: String,
    environment: String,
    applications: Vec<String>,
}

/// What one organization's work measured.
#[derive(Default)]
struct Measured {
    writes: usize,
    latencies: Vec<Duration>,
    server_errors: usize,
    statuses: std::collections::BTreeMap<u16, usize>,
}

impl Measured {
    fn note(&mut self, answer: &Answer, write: bool) {
        self.latencies.push(answer.took);
        *self.statuses.entry(answer.status).or_default() += 1;
        if answer.status >= 500 {
            self.server_errors += 1;
        } else if write && (200..300).contains(&answer.status) {
            self.writes += 1;
        }
    }

    fn p99(&mut self) -> Duration {
        self.latencies.sort();
        self.latencies
            .get(self.latencies.len() * 99 / 100)
            .copied()
            .unwrap_or_default()
    }
}

fn applications(client: &Client, environment: &str, count: usize, prefix: &str) -> Vec<String> {
    (0..count)
        .map(|n| {
            client.create(
                &format!("/environment/{environment}/application"),
                json!({"name": format!("{prefix}{n}"), "git_repository": {"url": "https://git.example.com/a/b.git"}}),
            )
        })
        .collect()
}

/// Another organization of the server, signed in with its ADMIN token.
async fn organization(db: &SqlitePool, index: usize) -> (String, String) {
    let (id, token) = another_organization(db, &format!("tenant-{index:02}"))
        .await
        .unwrap();
    (id.to_string(), format!("Token {token}"))
}

/// `VARIABLES_PER_APPLICATION` plain variables on each application, written straight to the
/// database (the data the bench works beside, not what it measures).
async fn fill_variables(db: &SqlitePool, organization: &str, applications: &[String]) {
    let mut tx = db.begin().await.unwrap();
    for application in applications {
        for chunk in (0..VARIABLES_PER_APPLICATION)
            .collect::<Vec<_>>()
            .chunks(200)
        {
            let mut insert = sqlx::QueryBuilder::new(
                "INSERT INTO variables (id, organization_id, scope, parent_id, key, value, is_secret,
                     variable_type, created_at) ",
            );
            insert.push_values(chunk, |mut row, n| {
                row.push_bind(Uuid::new_v4().to_string())
                    .push_bind(organization)
                    .push_bind("APPLICATION")
                    .push_bind(application)
                    .push_bind(format!("SETTING_{n:04}"))
                    .push_bind(format!("value of setting {n} of a busy application"))
                    .push_bind(false)
                    .push_bind("VALUE")
                    .push_bind(chrono::Utc::now());
            });
            insert.build().execute(&mut *tx).await.unwrap();
        }
    }
    tx.commit().await.unwrap();
}

/// `lines` deployment log lines spread over the deployments there are.
async fn fill_logs(db: &SqlitePool, lines: usize) {
    let deployments: Vec<(String, String)> =
        sqlx::query_as("SELECT id, service_id FROM deployments")
            .fetch_all(db)
            .await
            .unwrap();
    assert!(!deployments.is_empty(), "no deployment to log to");
    let per = lines.div_ceil(deployments.len());
    let mut tx = db.begin().await.unwrap();
    for (deployment, service) in &deployments {
        for chunk in (0..per).collect::<Vec<_>>().chunks(500) {
            let mut insert = sqlx::QueryBuilder::new(
                "INSERT INTO deployment_logs (deployment_id, service_id, created_at, message) ",
            );
            insert.push_values(chunk, |mut row, n| {
                row.push_bind(deployment)
                    .push_bind(service)
                    .push_bind(chrono::Utc::now())
                    .push_bind(format!("step {n}: pulled layer, wrote cache, went on"));
            });
            insert.build().execute(&mut *tx).await.unwrap();
        }
    }
    tx.commit().await.unwrap();
}

/// The busy organization: an environment of 20 applications, 500 variables imported into each,
/// deleted; again until `stop`.
fn churn(tenant: &Tenant, stop: &AtomicBool) -> Measured {
    let mut measured = Measured::default();
    let mut round = 0;
    while !stop.load(Ordering::Relaxed) {
        round += 1;
        let created = tenant.client.call(
            "POST",
            &format!("/project/{}/environment", tenant.project),
            Some(json!({"name": format!("churn-{round}")})),
        );
        measured.note(&created, true);
        let Some(environment) = created.body["id"].as_str().map(str::to_string) else {
            continue;
        };
        for application in applications(&tenant.client, &environment, 20, "churn") {
            let vars: Vec<Value> = (0..500)
                .map(|n| json!({"name": format!("IMPORTED_{n}"), "value": "imported value", "scope": "APPLICATION", "is_secret": false}))
                .collect();
            let imported = tenant.client.call(
                "POST",
                &format!("/application/{application}/environmentVariable/import"),
                Some(json!({"overwrite": false, "vars": vars})),
            );
            measured.note(&imported, true);
            if stop.load(Ordering::Relaxed) {
                break;
            }
        }
        let deleted = tenant
            .client
            .call("DELETE", &format!("/environment/{environment}"), None);
        measured.note(&deleted, true);
    }
    measured
}

/// Another organization's day: a variable created, a list and the statuses read, a deploy
/// asked, a project created and deleted; again until `stop`.
fn work(tenant: &Tenant, stop: &AtomicBool) -> Measured {
    let mut measured = Measured::default();
    let mut round = 0usize;
    while !stop.load(Ordering::Relaxed) {
        round += 1;
        let application = &tenant.applications[round % tenant.applications.len()];
        let created = tenant.client.call(
            "POST",
            &format!("/application/{application}/environmentVariable"),
            Some(json!({"key": format!("ADDED_{round}"), "value": "x"})),
        );
        measured.note(&created, true);
        let page = tenant.client.call(
            "GET",
            &format!("/application/{application}/environmentVariable?pageSize=100&page=3"),
            None,
        );
        measured.note(&page, false);
        let statuses = tenant.client.call(
            "GET",
            &format!("/environment/{}/statuses", tenant.environment),
            None,
        );
        measured.note(&statuses, false);
        if round.is_multiple_of(5) {
            let deployed = tenant.client.call(
                "POST",
                &format!("/application/{application}/deploy"),
                Some(json!({})),
            );
            // A deploy refused while the last one runs (409) is an answer, not a failure.
            measured.note(&deployed, deployed.status != 409);
        }
        let project = tenant.client.call(
            "POST",
            &format!("/organization/{}/project", tenant.organization),
            Some(json!({"name": format!("project-{round}")})),
        );
        measured.note(&project, true);
        if let Some(id) = project.body["id"].as_str() {
            let deleted = tenant
                .client
                .call("DELETE", &format!("/project/{id}"), None);
            measured.note(&deleted, true);
        }
    }
    measured
}

/// The process's peak resident memory, in MiB.
fn peak_memory_mib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find(|line| line.starts_with("VmHWM:"))
                .and_then(|line| line.split_whitespace().nth(1))
                .and_then(|kib| kib.parse::<u64>().ok())
        })
        .map_or(0, |kib| kib / 1024)
}

fn main() {
    let mut args = std::env::args().skip(1).filter(|a| !a.starts_with("--"));
    let orgs: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(20);
    let variables: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(300_000);
    let log_lines: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(500_000);
    let seconds: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(30);
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
    let db = running.state.db.clone();
    let base = format!("http://{}/api", running.address);
    let set_up = Instant::now();
    let applications_each = (variables / orgs)
        .div_ceil(VARIABLES_PER_APPLICATION)
        .max(1);
    let mut tenants = Vec::new();
    for index in 0..orgs {
        let (organization, authorization) = if index == 0 {
            let client = Client {
                base: base.clone(),
                authorization: format!("Token {}", running.sign_in_token.clone().unwrap()),
                agent: ureq::agent(),
            };
            let id = client.call("GET", "/organization", None).body["results"][0]["id"]
                .as_str()
                .unwrap()
                .to_string();
            (id, client.authorization)
        } else {
            runtime.block_on(organization(&db, index))
        };
        let client = Client {
            base: base.clone(),
            authorization,
            agent: ureq::agent(),
        };
        let project = client.create(
            &format!("/organization/{organization}/project"),
            json!({"name": "main"}),
        );
        let environment = client.create(
            &format!("/project/{project}/environment"),
            json!({"name": "production"}),
        );
        let applications = applications(&client, &environment, applications_each, "app");
        for application in &applications {
            client.call(
                "POST",
                &format!("/application/{application}/deploy"),
                Some(json!({})),
            );
        }
        runtime.block_on(fill_variables(&db, &organization, &applications));
        tenants.push(Tenant {
            client,
            organization,
            project,
            environment,
            applications,
        });
    }
    // The deployments asked above end at once (the engine runs far faster than life).
    std::thread::sleep(Duration::from_secs(2));
    runtime.block_on(fill_logs(&db, log_lines));
    let counted: (i64, i64) = runtime.block_on(async {
        (
            sqlx::query_scalar("SELECT COUNT(*) FROM variables")
                .fetch_one(&db)
                .await
                .unwrap(),
            sqlx::query_scalar("SELECT COUNT(*) FROM deployment_logs")
                .fetch_one(&db)
                .await
                .unwrap(),
        )
    });
    println!(
        "tenants: {orgs} organizations, {} variables, {} log lines, set up in {:.0?}",
        counted.0,
        counted.1,
        set_up.elapsed()
    );

    let stop = Arc::new(AtomicBool::new(false));
    let tenants = Arc::new(tenants);
    let started = Instant::now();
    let threads: Vec<_> = (0..orgs)
        .map(|index| {
            let (tenants, stop) = (tenants.clone(), stop.clone());
            std::thread::spawn(move || {
                let tenant = &tenants[index];
                if index == 0 {
                    churn(tenant, &stop)
                } else {
                    work(tenant, &stop)
                }
            })
        })
        .collect();
    std::thread::sleep(Duration::from_secs(seconds));
    stop.store(true, Ordering::Relaxed);
    let mut measured: Vec<Measured> = threads.into_iter().map(|t| t.join().unwrap()).collect();
    let elapsed = started.elapsed().as_secs_f64();

    let mut server_errors = 0;
    let mut others_p99 = Duration::ZERO;
    for (index, measured) in measured.iter_mut().enumerate() {
        server_errors += measured.server_errors;
        let p99 = measured.p99();
        if index > 0 {
            others_p99 = others_p99.max(p99);
        }
        println!(
            "  {} {:>6.1} writes/s  p99 {:>7.1} ms  {} calls  answers {:?}",
            if index == 0 { "churning" } else { "other   " },
            measured.writes as f64 / elapsed,
            p99.as_secs_f64() * 1000.0,
            measured.latencies.len(),
            measured.statuses
        );
    }
    println!(
        "tenants: {server_errors} answers 5xx; the others' worst p99 {:.1} ms; peak memory {} MiB",
        others_p99.as_secs_f64() * 1000.0,
        peak_memory_mib()
    );
}
