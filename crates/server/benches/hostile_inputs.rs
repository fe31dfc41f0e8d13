//! One caller sending its worst, everyone else reading. A server whose allowed folder holds a
//! repository of hostile terraform files (a module nested 1,000 deep, one of 50 MB in a single
//! file); one attacker sends, in a loop for SECONDS, the request of a scenario while a reader
//! reads `GET /organization` (a cheap read) as fast as it is answered. Printed per scenario: the
//! attacker's answers (status, median and slowest time), the reader's p50 and p99 beside its p99
//! alone over the SECONDS just before, and the process's resident memory before, at its peak and
//! two seconds after.
//!
//! The attacker sends at most `RATE` requests a second: by default 20, what `--rate-limit`'s
//! default (1,200 a minute) lets one token send; 0 sends as fast as answers come, beyond what
//! the server lets one caller do (the bench's server has no rate limit, so that the reader is
//! never refused).
//!
//! `cargo bench -p platform-server --bench hostile_inputs [-- SECONDS RATE [SCENARIO...]]`,
//! scenarios `deep-module`, `large-module`, `deep-body`, and `benign` (a well-formed module at
//! the same pace, the control), all by default. The scenarios run in
//! one process, against one server: one that stops the process (a stack overflow) ends the
//! bench there.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use platform_server::{start, Config};
use serde_json::{json, Value};
use tempfile::TempDir;

/// One call's status and time.
fn call(
    agent: &ureq::Agent,
    authorization: &str,
    url: &str,
    body: Option<&str>,
) -> (u16, Duration) {
    let sent = Instant::now();
    let request = match body {
        Some(_) => agent.post(url).set("Content-Type", "application/json"),
        None => agent.get(url),
    }
    .set("Authorization", authorization);
    let outcome = match body {
        Some(body) => request.send_string(body),
        None => request.call(),
    };
    let status = match outcome {
        Ok(response) => response.status(),
        Err(ureq::Error::Status(status, _)) => status,
        Err(_) => 0,
    };
    (status, sent.elapsed())
}

/// The process's resident memory and its peak so far, in MiB.
fn memory() -> (u64, u64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find(|line| line.starts_with(name))
            .and_then(|line| line.split_whitespace().nth(1))
            .and_then(|kib| kib.parse::<u64>().ok())
            .unwrap_or(0)
            / 1024
    };
    (field("VmRSS:"), field("VmHWM:"))
}

fn percentile(times: &mut [Duration], share: f64) -> Duration {
    if times.is_empty() {
        return Duration::ZERO;
    }
    times.sort();
    times[((times.len() - 1) as f64 * share).round() as usize]
}

/// One request of a caller: its status and time.
type Request = Box<dyn Fn() -> (u16, Duration) + Send>;

/// The reader's times over `seconds`, while `attack` runs in a loop on another thread at most
/// `rate` times a second (none: the server idle); the attacker's answers.
fn measure(
    seconds: u64,
    reader: impl Fn() -> (u16, Duration) + Send + Sync + 'static,
    attack: Option<(Request, u32)>,
) -> (Vec<Duration>, Vec<(u16, Duration)>) {
    let stop = Arc::new(AtomicBool::new(false));
    let attacker = attack.map(|(attack, rate)| {
        let stop = stop.clone();
        std::thread::spawn(move || {
            let mut answers = Vec::new();
            let every = (rate > 0).then(|| Duration::from_secs(1) / rate);
            let mut next = Instant::now();
            while !stop.load(Ordering::Relaxed) {
                if let Some(every) = every {
                    std::thread::sleep(next.saturating_duration_since(Instant::now()));
                    next += every;
                }
                answers.push(attack());
            }
            answers
        })
    });
    // The attacker's first request is under way before reads are counted.
    std::thread::sleep(Duration::from_millis(100));
    let until = Instant::now() + Duration::from_secs(seconds);
    let mut times = Vec::new();
    while Instant::now() < until {
        let (status, took) = reader();
        assert_eq!(status, 200, "a cheap read failed");
        times.push(took);
    }
    stop.store(true, Ordering::Relaxed);
    let answers = attacker
        .map(|attacker| attacker.join().unwrap())
        .unwrap_or_default();
    (times, answers)
}

fn main() {
    let mut args = std::env::args().skip(1).filter(|a| !a.starts_with("--"));
    let seconds: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(10);
    let rate: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(20);
    let mut scenarios: Vec<String> = args.collect();
    if scenarios.is_empty() {
        scenarios = ["benign", "deep-module", "large-module", "deep-body"]
            .map(String::from)
            .to_vec();
    }
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let dir = TempDir::new().unwrap();
    let repository = dir.path().join("hostile");
    let deep = format!(
        "variable \"x\" {{\n  default = {}1{}\n}}\n",
        "[".repeat(1000),
        "]".repeat(1000)
    );
    let large: String = (0..400_000)
        .map(|n| {
            format!(
                "variable \"v{n}\" {{\n  default = \"{}\"\n}}\n",
                "x".repeat(90)
            )
        })
        .collect();
    platform_server::git::create_repository(
        &repository,
        &[(
            "hostile",
            &[
                ("deep/main.tf", deep.as_str()),
                ("large/main.tf", large.as_str()),
                (
                    "fine/main.tf",
                    "variable \"region\" {\n  default = \"eu\"\n}\n",
                ),
            ],
        )],
    )
    .unwrap();
    println!(
        "hostile_inputs: a module nested 1,000 deep ({} bytes), one of {:.1} MB in one file",
        deep.len(),
        large.len() as f64 / 1e6
    );
    let running = runtime
        .block_on(start(Config {
            new_sign_in_token: true,
            rate_limit_per_minute: u32::MAX,
            git_roots: vec![dir.path().to_path_buf()],
            ..Config::local(dir.path().join("data"))
        }))
        .unwrap();
    let base = format!("http://{}/api", running.address);
    let authorization = format!("Token {}", running.sign_in_token.clone().unwrap());
    let agent = ureq::agent();
    let organizations: Value = agent
        .get(&format!("{base}/organization"))
        .set("Authorization", &authorization)
        .call()
        .unwrap()
        .into_json()
        .unwrap();
    let organization = organizations["results"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();

    let read_url = format!("{base}/organization");
    let reader = {
        let (agent, authorization) = (ureq::agent(), authorization.clone());
        move || call(&agent, &authorization, &read_url, None)
    };
    let reader = Arc::new(reader);
    println!("resident at start: {} MiB", memory().0);
    for scenario in scenarios {
        let (url, body) = match scenario.as_str() {
            "deep-module" | "large-module" => (
                format!("{base}/organization/{organization}/parseTerraformVariablesFromGitRepo"),
                json!({"git_repository": {
                    "url": format!("file://{}", repository.display()),
                    "root_path": if scenario == "deep-module" { "/deep" } else { "/large" },
                }})
                .to_string(),
            ),
            "deep-body" => (
                format!("{base}/organization/{organization}/project"),
                format!("{}{}", "[".repeat(500_000), "]".repeat(500_000)),
            ),
            // The control: a benign caller at the same pace, what any other caller costs.
            "benign" => (
                format!("{base}/organization/{organization}/parseTerraformVariablesFromGitRepo"),
                json!({"git_repository": {
                    "url": format!("file://{}", repository.display()),
                    "root_path": "/fine",
                }})
                .to_string(),
            ),
            other => panic!("no scenario {other}"),
        };
        // The reads' pace on this machine just before: the figure the attacked one is held to
        // (a shared machine's pace drifts over a run).
        let (mut idle, _) = {
            let reader = reader.clone();
            measure(seconds, move || reader(), None)
        };
        let idle_p99 = percentile(&mut idle, 0.99);
        // The peak counted from here (Linux: 5 resets it to the current size).
        let _ = std::fs::write("/proc/self/clear_refs", "5");
        let before = memory().0;
        let attack: Request = {
            let (agent, authorization) = (ureq::agent(), authorization.clone());
            Box::new(move || call(&agent, &authorization, &url, Some(&body)))
        };
        let reader = reader.clone();
        let (mut reads, answers) = measure(seconds, move || reader(), Some((attack, rate)));
        let (_, peak) = memory();
        std::thread::sleep(Duration::from_secs(2));
        let after = memory().0;
        let mut attacker_times: Vec<Duration> = answers.iter().map(|(_, took)| *took).collect();
        let mut statuses: Vec<u16> = answers.iter().map(|(status, _)| *status).collect();
        statuses.sort();
        statuses.dedup();
        let p99 = percentile(&mut reads, 0.99);
        println!(
            "{scenario} ({}): {} answers {:?}, median {:?}, slowest {:?}; cheap reads {} p50 {:?} p99 {:?}, idle just before {:?} ({:.1}x); resident {before} MiB before, peak {peak} MiB, {after} MiB 2 s after",
            if rate == 0 { "unpaced".to_string() } else { format!("{rate}/s") },
            answers.len(),
            statuses,
            percentile(&mut attacker_times, 0.5),
            attacker_times.last().copied().unwrap_or_default(),
            reads.len(),
            percentile(&mut reads, 0.5),
            p99,
            idle_p99,
            p99.as_secs_f64() / idle_p99.as_secs_f64(),
        );
    }
}
