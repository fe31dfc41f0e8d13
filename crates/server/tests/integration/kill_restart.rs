//! The real server process killed in the middle of deployments and started again: every action
//! resumes and ends, none is lost or stuck in progress, and every webhook event is delivered.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tempfile::TempDir;

use crate::common::receiver::Receiver;

struct Server {
    child: Child,
    base: String,
}

/// Starts the binary on a free port and returns it with the sign-in token it printed.
fn start(data: &TempDir) -> (Server, String) {
    let (server, token, _) = start_with(data, &[], "warn");
    (server, token)
}

/// `start`, with more flags and the log level `log`: also what it prints after the token.
fn start_with(
    data: &TempDir,
    flags: &[&str],
    log: &str,
) -> (
    Server,
    String,
    std::io::Lines<BufReader<std::process::ChildStdout>>,
) {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut child = Command::new(env!("CARGO_BIN_EXE_platform-server"))
        .args(["--listen", &format!("127.0.0.1:{port}")])
        .args(["--data-dir", data.path().to_str().unwrap()])
        .args(["--engine-speed", "20", "--new-sign-in-token"])
        .args(["--allow-target-network", crate::common::LOOPBACK])
        .args(flags)
        .env("RUST_LOG", log)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let token = lines
        .by_ref()
        .map(Result::unwrap)
        .find_map(|line| {
            line.split_whitespace()
                .find(|w| w.starts_with("pt_"))
                .map(str::to_string)
        })
        .expect("the server prints a sign-in token");
    (
        Server {
            child,
            base: format!("http://127.0.0.1:{port}/api"),
        },
        token,
        lines,
    )
}

/// `method path` as `authorization` (`Token …` or `Bearer …`): its status and body, whatever
/// the status.
fn answer(
    server: &Server,
    authorization: &str,
    method: &str,
    path: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let request = ureq::request(method, &format!("{}{path}", server.base))
        .set("Authorization", authorization);
    let response = match body {
        Some(body) => request.send_json(body),
        None => request.call(),
    };
    match response {
        Ok(response) => (
            response.status(),
            response.into_json().unwrap_or(Value::Null),
        ),
        Err(ureq::Error::Status(status, response)) => {
            (status, response.into_json().unwrap_or(Value::Null))
        }
        Err(error) => panic!("{method} {path}: {error}"),
    }
}

fn call(server: &Server, token: &str, method: &str, path: &str, body: Option<Value>) -> Value {
    let request = ureq::request(method, &format!("{}{path}", server.base))
        .set("Authorization", &format!("Token {token}"));
    let response = match body {
        Some(body) => request.send_json(body),
        None => request.call(),
    }
    .unwrap_or_else(|error| panic!("{method} {path}: {error}"));
    response.into_json().unwrap_or(Value::Null)
}

#[test]
fn a_killed_server_resumes_every_deployment() {
    let data = TempDir::new().unwrap();
    let (mut server, token) = start(&data);
    let organization = call(&server, &token, "GET", "/organization", None)["results"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let (receiver, receiver_url) = runtime.block_on(Receiver::start(0));
    let target_url = format!("{receiver_url}/events");
    let webhook = call(
        &server,
        &token,
        "POST",
        &format!("/organization/{organization}/webhook"),
        Some(json!({"target_url": target_url, "events": ["DEPLOYMENT_STARTED", "DEPLOYMENT_SUCCESSFUL"]})),
    )["id"]
        .as_str()
        .unwrap()
        .to_string();
    let project = call(
        &server,
        &token,
        "POST",
        &format!("/organization/{organization}/project"),
        Some(json!({"name": "shop"})),
    );
    let environment = call(
        &server,
        &token,
        "POST",
        &format!("/project/{}/environment", project["id"].as_str().unwrap()),
        Some(json!({"name": "prod", "mode": "PRODUCTION"})),
    );
    let environment = environment["id"].as_str().unwrap().to_string();
    let mut applications = Vec::new();
    for name in ["web", "api", "worker"] {
        let application = call(
            &server,
            &token,
            "POST",
            &format!("/environment/{environment}/application"),
            Some(json!({"name": name, "git_repository": {"url": "https://git.example.com/a.git"}})),
        );
        let id = application["id"].as_str().unwrap().to_string();
        call(
            &server,
            &token,
            "POST",
            &format!("/application/{id}/deploy"),
            Some(json!({})),
        );
        applications.push(id);
    }

    // Kill it hard while the deployments run (about 2.3 s each at speed 20).
    std::thread::sleep(Duration::from_millis(800));
    let statuses = call(
        &server,
        &token,
        "GET",
        &format!("/environment/{environment}/statuses"),
        None,
    );
    assert!(
        statuses["applications"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["state"] != "DEPLOYED"),
        "the deployments were already over: {statuses}"
    );
    server.child.kill().unwrap();
    server.child.wait().unwrap();

    let (mut restarted, token) = start(&data);
    let deadline = Instant::now() + Duration::from_secs(60);
    let settled = loop {
        let statuses = call(
            &restarted,
            &token,
            "GET",
            &format!("/environment/{environment}/statuses"),
            None,
        );
        let states: Vec<String> = statuses["applications"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["state"].as_str().unwrap().to_string())
            .collect();
        if states.iter().all(|state| state == "DEPLOYED") {
            break statuses;
        }
        assert!(
            Instant::now() < deadline,
            "stuck after the restart: {states:?}"
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    for status in settled["applications"].as_array().unwrap() {
        assert_eq!(status["deployment_requests_count"], 0);
        let id = status["id"].as_str().unwrap();
        let own = call(
            &restarted,
            &token,
            "GET",
            &format!("/application/{id}/status"),
            None,
        );
        assert_eq!(own["steps"]["details"].as_array().unwrap().len(), 7);
    }
    let log = call(
        &restarted,
        &token,
        "GET",
        &format!("/environment/{environment}/logs"),
        None,
    );
    let resumed = applications.iter().filter(|id| {
        log.as_array().unwrap().iter().any(|line| {
            line["details"]["transmitter"]["id"] == **id
                && line["message"]["safe_message"]
                    .as_str()
                    .is_some_and(|text| text.contains("The server restarted during this action"))
        })
    });
    assert!(resumed.count() >= 1, "no deployment says it was resumed");

    // Every application started once and succeeded once, across the kill: six events, each
    // delivered (at least once; a delivery in flight at the kill is sent again).
    let deliveries = loop {
        let deliveries = call(
            &restarted,
            &token,
            "GET",
            &format!("/organization/{organization}/webhook/{webhook}/delivery"),
            None,
        )["results"]
            .as_array()
            .unwrap()
            .clone();
        if deliveries.len() == 6 && deliveries.iter().all(|d| d["status"] == "DELIVERED") {
            break deliveries;
        }
        assert!(
            Instant::now() < deadline,
            "deliveries not concluded: {deliveries:?}"
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    for application in &applications {
        let mut events: Vec<&str> = deliveries
            .iter()
            .filter(|d| d["payload"]["application_id"] == application.as_str())
            .map(|d| d["event_type"].as_str().unwrap())
            .collect();
        events.sort();
        assert_eq!(events, ["DEPLOYMENT_STARTED", "DEPLOYMENT_SUCCESSFUL"]);
    }
    let received: Vec<Value> = receiver
        .received()
        .iter()
        .map(|request| serde_json::from_str(&request.body).unwrap())
        .collect();
    for application in &applications {
        for event in ["DEPLOYMENT_STARTED", "DEPLOYMENT_SUCCESSFUL"] {
            assert!(
                received.iter().any(|body| body["event_type"] == event
                    && body["payload"]["application_id"] == application.as_str()),
                "{event} of {application} never reached the receiver"
            );
        }
    }
    restarted.child.kill().unwrap();
    restarted.child.wait().unwrap();
}

/// `GET` of `path` at the server's root (outside `/api`): its status and body.
fn probe(server: &Server, path: &str) -> (u16, Value) {
    let root = server.base.trim_end_matches("/api");
    match ureq::get(&format!("{root}{path}")).call() {
        Ok(response) => (response.status(), response.into_json().unwrap()),
        Err(ureq::Error::Status(status, response)) => (status, response.into_json().unwrap()),
        Err(error) => panic!("{path}: {error}"),
    }
}

#[test]
fn the_server_says_it_is_alive_and_ready_and_stops_on_sigterm() {
    let data = TempDir::new().unwrap();
    let (mut server, token, printed) = start_with(&data, &["--log-format", "json"], "info");
    let (status, alive) = probe(&server, "/healthz");
    assert_eq!((status, alive["status"].as_str()), (200, Some("alive")));
    let (status, ready) = probe(&server, "/readyz");
    assert_eq!(status, 200, "{ready}");
    assert_eq!(ready["engine"], "runs");
    // Without a token, and never counted against one's rate.
    for _ in 0..3 {
        assert_eq!(probe(&server, "/readyz").0, 200);
    }
    assert_eq!(
        call(&server, &token, "GET", "/organization", None)["results"]
            .as_array()
            .map(Vec::len),
        Some(1)
    );

    let (_, ended) = terminate(&mut server);
    assert!(ended.success(), "stopped with {ended}");
    // Its log, one JSON object a line for a collector, says so.
    let logged: Vec<Value> = printed
        .map_while(Result::ok)
        .filter(|line| !line.trim().is_empty())
        .map(|line| serde_json::from_str(&line).unwrap_or_else(|_| panic!("not JSON: {line}")))
        .collect();
    assert!(
        logged.iter().any(|line| line["fields"]["message"]
            .as_str()
            .is_some_and(|message| message.starts_with("stopping"))),
        "{logged:?}"
    );
}

/// A project "shop" with a production environment: the environment's id.
fn production(server: &Server, token: &str) -> String {
    let organization = call(server, token, "GET", "/organization", None)["results"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let project = call(
        server,
        token,
        "POST",
        &format!("/organization/{organization}/project"),
        Some(json!({"name": "shop"})),
    );
    call(
        server,
        token,
        "POST",
        &format!("/project/{}/environment", project["id"].as_str().unwrap()),
        Some(json!({"name": "prod", "mode": "PRODUCTION"})),
    )["id"]
        .as_str()
        .unwrap()
        .to_string()
}

/// A PostgreSQL database "orders" of the environment: its id.
fn database(server: &Server, token: &str, environment: &str) -> String {
    call(
        server,
        token,
        "POST",
        &format!("/environment/{environment}/database"),
        Some(json!({"name": "orders", "type": "POSTGRESQL", "version": "16", "mode": "CONTAINER"})),
    )["id"]
        .as_str()
        .unwrap()
        .to_string()
}

/// Waits until `check` holds of the answer to `GET path`, up to 60 s; the last answer.
fn wait_for(
    server: &Server,
    token: &str,
    path: &str,
    what: &str,
    check: impl Fn(&Value) -> bool,
) -> Value {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let answer = call(server, token, "GET", path, None);
        if check(&answer) {
            return answer;
        }
        assert!(Instant::now() < deadline, "never {what}: {answer}");
        // Within the server's rate limit (1,200 a minute) for the whole minute.
        std::thread::sleep(Duration::from_millis(60));
    }
}

#[test]
fn a_backup_killed_in_the_middle_ends_failed_or_finished_never_running() {
    let data = TempDir::new().unwrap();
    let (mut server, token) = start(&data);
    let environment = production(&server, &token);
    let database = database(&server, &token, &environment);
    call(
        &server,
        &token,
        "POST",
        &format!("/database/{database}/deploy"),
        Some(json!({})),
    );
    wait_for(
        &server,
        &token,
        &format!("/database/{database}/status"),
        "deployed",
        |status| status["state"] == "DEPLOYED",
    );
    let backups = format!("/database/{database}/backup");
    call(
        &server,
        &token,
        "POST",
        &backups,
        Some(json!({"name": "nightly", "message": "before the kill"})),
    );
    // Killed while the dump runs (about a second at speed 20).
    wait_for(&server, &token, &backups, "executing", |list| {
        list["results"][0]["status"]["state"] == "EXECUTING"
    });
    server.child.kill().unwrap();
    server.child.wait().unwrap();

    let (restarted, token) = start(&data);
    let listed = call(&restarted, &token, "GET", &backups, None);
    let backup = &listed["results"][0];
    let state = backup["status"]["state"].as_str().unwrap();
    // Never left running: an interrupted dump is not trusted, so it ends failed.
    assert_eq!(state, "DEPLOYMENT_ERROR", "{listed}");
    assert!(
        backup["message"]
            .as_str()
            .unwrap()
            .contains("The server stopped while the backup was being taken"),
        "{listed}"
    );
    // Another is taken after the restart.
    call(
        &restarted,
        &token,
        "POST",
        &backups,
        Some(json!({"name": "again", "message": "after the restart"})),
    );
    wait_for(&restarted, &token, &backups, "ready", |list| {
        list["results"][0]["status"]["state"] == "READY"
    });
}

#[test]
fn a_stage_waiting_when_the_server_is_killed_runs_after_the_restart_in_its_turn() {
    let data = TempDir::new().unwrap();
    let (mut server, token) = start(&data);
    let environment = production(&server, &token);
    let database = database(&server, &token, &environment);
    let web = call(
        &server,
        &token,
        "POST",
        &format!("/environment/{environment}/application"),
        Some(json!({"name": "web", "git_repository": {"url": "https://git.example.com/a.git"}})),
    )["id"]
        .as_str()
        .unwrap()
        .to_string();
    call(
        &server,
        &token,
        "POST",
        &format!("/environment/{environment}/deploy"),
        Some(json!({})),
    );
    // Killed while the database's stage runs and the application's waits for it.
    wait_for(
        &server,
        &token,
        &format!("/database/{database}/status"),
        "deploying",
        |status| status["state"] == "DEPLOYING",
    );
    server.child.kill().unwrap();
    server.child.wait().unwrap();

    let (restarted, token) = start(&data);
    for path in [
        format!("/database/{database}/status"),
        format!("/application/{web}/status"),
    ] {
        wait_for(&restarted, &token, &path, "deployed", |status| {
            status["state"] == "DEPLOYED"
        });
    }
    let history = call(
        &restarted,
        &token,
        "GET",
        &format!("/environment/{environment}/deploymentHistoryV2"),
        None,
    );
    let stages: Vec<&str> = history["results"][0]["stages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|stage| stage["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        stages,
        ["DATABASE DEFAULT", "APPLICATION DEFAULT"],
        "{history}"
    );
    // The application's deployment started once the database's had ended.
    let log = call(
        &restarted,
        &token,
        "GET",
        &format!("/environment/{environment}/logs"),
        None,
    );
    let lines: Vec<(&str, &str)> = log
        .as_array()
        .unwrap()
        .iter()
        .map(|line| {
            (
                line["details"]["transmitter"]["id"]
                    .as_str()
                    .unwrap_or_default(),
                line["message"]["safe_message"].as_str().unwrap_or_default(),
            )
        })
        .collect();
    let database_done = lines
        .iter()
        .rposition(|(id, _)| *id == database.as_str())
        .expect("the database's lines");
    let first_web_step = lines
        .iter()
        .position(|(id, message)| *id == web.as_str() && message.ends_with(": started."))
        .expect("a step of the application");
    assert!(first_web_step > database_done, "{lines:?}");
}

/// SIGTERM sent to `server`: how long it took to end, up to 20 s.
fn terminate(server: &mut Server) -> (Duration, std::process::ExitStatus) {
    let asked = Instant::now();
    let terminated = Command::new("kill")
        .args(["-TERM", &server.child.id().to_string()])
        .status()
        .unwrap();
    assert!(terminated.success());
    loop {
        if let Some(status) = server.child.try_wait().unwrap() {
            return (asked.elapsed(), status);
        }
        assert!(
            asked.elapsed() < Duration::from_secs(20),
            "the server did not stop within 20 s of SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// One organization's rule with a pattern that took a backtracking matcher exponential time,
/// matched while environments are created: the other organization's writes go on, each
/// answered, and SIGTERM still ends the process at once.
#[test]
fn one_organizations_pattern_stops_neither_the_others_writes_nor_the_shutdown() {
    let issuer = crate::common::oidc::shared();
    let data = TempDir::new().unwrap();
    let flags = [
        "--oidc-issuer",
        issuer.issuer.as_str(),
        "--oidc-audience",
        crate::common::oidc::AUDIENCE,
    ];
    let (mut server, token, _) = start_with(&data, &flags, "warn");
    let environment = production(&server, &token);
    let environment = call(
        &server,
        &token,
        "GET",
        &format!("/environment/{environment}"),
        None,
    );
    let project = environment["project"]["id"].as_str().unwrap().to_string();
    let cluster = environment["cluster_id"].as_str().unwrap().to_string();
    let rule = call(
        &server,
        &token,
        "POST",
        &format!("/project/{project}/deploymentRule"),
        Some(
            json!({"name": "slow", "mode": "PREVIEW", "cluster_id": cluster,
                    "wildcard": format!("{}b", "*a".repeat(100)), "timezone": "Etc/UTC",
                    "start_time": "1970-01-01T08:00:00.000Z",
                    "stop_time": "1970-01-01T19:00:00.000Z", "weekdays": ["MONDAY"]}),
        ),
    );
    assert!(rule["id"].is_string(), "{rule}");

    // Another organization on the same server, made by a person signed in by an access token.
    let bearer = issuer.bearer("admin@other.example");
    let (status, made) = answer(
        &server,
        &bearer,
        "POST",
        "/organization",
        Some(json!({"name": "other", "plan": "FREE"})),
    );
    assert_eq!(status, 201, "{made}");
    let other = made["id"].as_str().unwrap().to_string();

    std::thread::scope(|scope| {
        let matching = scope.spawn(|| {
            for index in 0..5 {
                let name = format!("{}{index}", "a".repeat(200));
                let (status, body) = answer(
                    &server,
                    &format!("Token {token}"),
                    "POST",
                    &format!("/project/{project}/environment"),
                    Some(json!({"name": name})),
                );
                assert_eq!(status, 201, "{body}");
            }
        });
        for index in 0..20 {
            let (status, body) = answer(
                &server,
                &bearer,
                "POST",
                &format!("/organization/{other}/project"),
                Some(json!({"name": format!("project-{index}")})),
            );
            assert!((200..300).contains(&status), "{status} {body}");
        }
        matching.join().unwrap();
    });
    let (took, ended) = terminate(&mut server);
    assert!(ended.success(), "stopped with {ended}");
    assert!(took < Duration::from_secs(15), "stopped after {took:?}");
}

/// The server killed while it makes a preview of a new image tag: after the restart, the preview
/// is there and deployed, or not there and made when asked again; never made and left undeployed.
#[test]
fn a_preview_killed_while_it_is_made_is_deployed_after_the_restart() {
    let data = TempDir::new().unwrap();
    let (mut server, mut token) = start(&data);
    let organization = call(&server, &token, "GET", "/organization", None)["results"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let environment = production(&server, &token);
    let registry = call(
        &server,
        &token,
        "POST",
        &format!("/organization/{organization}/containerRegistry"),
        Some(json!({"name": "hub", "kind": "GENERIC_CR", "url": "https://registry.example"})),
    )["id"]
        .as_str()
        .unwrap()
        .to_string();
    for name in ["web", "worker"] {
        call(
            &server,
            &token,
            "POST",
            &format!("/environment/{environment}/container"),
            Some(
                json!({"name": name, "registry_id": registry, "image_name": format!("shop/{name}"),
                        "tag": "1.0", "auto_preview": true, "ports": []}),
            ),
        );
    }
    let rule = format!("/environment/{environment}/deploymentRule");
    let rule_id = call(&server, &token, "GET", &rule, None)["id"]
        .as_str()
        .unwrap()
        .to_string();
    call(
        &server,
        &token,
        "PUT",
        &format!("{rule}/{rule_id}"),
        Some(json!({"on_demand_preview": true, "timezone": "Etc/UTC",
                    "start_time": "1970-01-01T08:00:00.000Z",
                    "stop_time": "1970-01-01T19:00:00.000Z", "weekdays": ["MONDAY"]})),
    );
    let preview = format!("/organization/{organization}/container/preview");
    // Killed later and later after the request, a millisecond more each time, until a few
    // previews were made before the kill: the first of those were killed in the middle.
    let mut made_before_the_kill = 0;
    for delay in 0..80 {
        let tag = format!("2.{delay}");
        let asking = {
            let base = server.base.clone();
            let (preview, token, tag) = (preview.clone(), token.clone(), tag.clone());
            std::thread::spawn(move || {
                let _ = ureq::post(&format!("{base}{preview}"))
                    .set("Authorization", &format!("Token {token}"))
                    .send_json(json!({"image_name": "shop/web", "tag": tag}));
            })
        };
        std::thread::sleep(Duration::from_millis(delay));
        server.child.kill().unwrap();
        server.child.wait().unwrap();
        let _ = asking.join();
        (server, token) = start(&data);
        let previews = call(
            &server,
            &token,
            "GET",
            &format!("/environment/{environment}/previews"),
            None,
        );
        let made = previews["previews"]
            .as_array()
            .unwrap()
            .iter()
            .find(|made| made["reference"] == tag.as_str())
            .map(|made| made["environment_id"].as_str().unwrap().to_string());
        let Some(made) = made else {
            // Not made before the kill: asked again, it is.
            let (status, body) = answer(
                &server,
                &format!("Token {token}"),
                "POST",
                &preview,
                Some(json!({"image_name": "shop/web", "tag": tag})),
            );
            assert_eq!(status, 202, "killed {delay} ms after: {body}");
            continue;
        };
        wait_for(
            &server,
            &token,
            &format!("/environment/{made}/statuses"),
            "the preview deployed",
            |statuses| {
                let containers = statuses["containers"].as_array().unwrap();
                containers.len() == 2 && containers.iter().all(|c| c["state"] == "DEPLOYED")
            },
        );
        made_before_the_kill += 1;
        if made_before_the_kill == 3 {
            break;
        }
    }
    assert_eq!(
        made_before_the_kill, 3,
        "the kill never came after the preview was made"
    );
    server.child.kill().unwrap();
    server.child.wait().unwrap();
}

/// A cluster's deployment killed in the middle resumes at the step it was running after the
/// restart, each step logged once, and ends deployed.
#[test]
fn a_cluster_deployment_killed_in_the_middle_resumes_at_its_step() {
    let data = TempDir::new().unwrap();
    let (mut server, token) = start(&data);
    let organization = call(&server, &token, "GET", "/organization", None)["results"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let cluster = call(
        &server,
        &token,
        "POST",
        &format!("/organization/{organization}/cluster"),
        Some(json!({"name": "edge", "cloud_provider": "AWS", "region": "eu-west-1"})),
    )["id"]
        .as_str()
        .unwrap()
        .to_string();
    let item = format!("/organization/{organization}/cluster/{cluster}");
    call(&server, &token, "POST", &format!("{item}/deploy"), None);
    // Killed once a step is logged and before the longest step (1 s at speed 20) ends.
    wait_for(
        &server,
        &token,
        &format!("{item}/logs"),
        "logging",
        |logs| {
            logs["results"]
                .as_array()
                .is_some_and(|lines| lines.len() >= 2)
        },
    );
    server.child.kill().unwrap();
    server.child.wait().unwrap();

    let (restarted, token) = start(&data);
    wait_for(
        &restarted,
        &token,
        &format!("{item}/status"),
        "deployed",
        |status| status["status"] == "DEPLOYED",
    );
    let logs = call(&restarted, &token, "GET", &format!("{item}/logs"), None);
    let steps: Vec<&str> = logs["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|line| line["step"].as_str().unwrap())
        .collect();
    assert_eq!(
        steps,
        [
            "LoadConfiguration",
            "RetrieveClusterConfig",
            "ValidateSystemRequirements",
            "Create",
            "Created"
        ],
        "{logs}"
    );
    let ready = call(&restarted, &token, "GET", &format!("{item}/isReady"), None);
    assert_eq!(ready["is_ready"], true);
}
