use std::net::SocketAddr;
use std::path::PathBuf;

use clap::Parser;
use tracing_subscriber::EnvFilter;

/// Reference server of the Deployment Platform Management API, serving the built console.
#[derive(Parser, Debug)]
#[command(version, args_override_self = true)]
struct Flags {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    listen: SocketAddr,
    /// Folder of the SQLite database; created when missing.
    #[arg(long, default_value = "data")]
    data_dir: PathBuf,
    /// Folder of the built console (trunk's dist/); not served when omitted.
    #[arg(long)]
    console_dir: Option<PathBuf>,
    /// Add demo projects, environments and applications when the organization is created.
    #[arg(long)]
    demo: bool,
    /// How many times faster than real life the deployment engine runs (10 makes a 45 s
    /// deployment take 4.5 s).
    #[arg(long, default_value_t = 1.0, value_parser = parse_speed)]
    engine_speed: f64,
    /// How many actions the engine runs at once; the others wait in their queued state.
    #[arg(long, default_value_t = 16)]
    engine_workers: usize,
    /// How many actions one organization may have waiting for a worker; past it, a request of
    /// another answers 503 with Retry-After.
    #[arg(long, default_value_t = platform_server::QUEUE_LIMIT)]
    queue_limit: usize,
    /// Create a new ADMIN sign-in token and print it; the previous sign-in token stops working.
    #[arg(long)]
    new_sign_in_token: bool,
    /// An origin allowed to embed the console and hand it a token (repeatable).
    #[arg(long = "embed-allowed-origin", value_parser = parse_origin)]
    embed_allowed_origins: Vec<String>,
    /// The OpenID Connect issuer people sign in through (https://sso.example.com/realms/acme):
    /// its access tokens are taken as `Authorization: Bearer`, checked against the keys its
    /// discovery document names, and the console signs in through it.
    #[arg(long, value_name = "URL")]
    oidc_issuer: Option<String>,
    /// The audience the provider's access tokens are for (the console's client id when left
    /// out); published to the console with the issuer.
    #[arg(long, value_name = "AUD", requires = "oidc_issuer")]
    oidc_audience: Option<String>,
    /// The console's client id at the provider (a public client, redirect URI
    /// <console origin>/sign-in/callback); published to the console in config.json.
    #[arg(long, value_name = "ID", requires = "oidc_issuer")]
    oidc_client_id: Option<String>,
    /// Requests one token may make per minute; more answer 429.
    #[arg(long, default_value_t = 1200)]
    rate_limit: u32,
    /// Milliseconds before a failed webhook delivery is retried; each retry waits twice as long,
    /// up to 6 attempts.
    #[arg(long, default_value_t = 5000)]
    webhook_retry_ms: u64,
    /// A network (CIDR, e.g. 10.0.0.0/8) webhooks may be sent to besides public addresses
    /// (repeatable); loopback, private and link-local addresses are refused otherwise.
    #[arg(long = "allow-target-network")]
    allowed_target_networks: Vec<ipnet::IpNet>,
    /// A folder whose git repositories (local paths and file:// URLs under it) services may be
    /// built from (repeatable); the demo's repositories are always readable, nothing else is.
    #[arg(long = "git-root")]
    git_roots: Vec<PathBuf>,
    /// Milliseconds between two reads of the branches auto-deploy watches; a push is deployed
    /// at the second read that finds it the branch's tip.
    #[arg(long, default_value_t = 2000)]
    git_watch_ms: u64,
    /// The key sealing the secrets the server stores: 64 hex characters (32 bytes). Without it,
    /// the key in <data-dir>/secrets.key, created at the first start.
    #[arg(long, env = "PLATFORM_SECRETS_KEY", hide_env_values = true)]
    secrets_key: Option<String>,
    /// Serve the console with its API forwarded to this one (the production platform's, e.g.
    /// https://api.example.com): requests to /api/* go there as they are, and nothing else of
    /// this server runs (no database, engine or demo).
    #[arg(long, value_name = "URL", conflicts_with_all = [
        "demo", "new_sign_in_token", "git_roots", "secrets_key",
        "allowed_target_networks",
    ])]
    api_upstream: Option<reqwest::Url>,
    /// Seconds the API given to --api-upstream may take to connect, to begin its answer, and
    /// between two parts of it, before the client is answered 504.
    #[arg(long, value_name = "SECONDS", default_value_t = platform_server::forward::ANSWER_WITHIN.as_secs(), requires = "api_upstream")]
    api_upstream_timeout: u64,
    /// Hours the ADMIN sign-in token printed at start is valid (0: until replaced). Create
    /// another with --new-sign-in-token.
    #[arg(long, default_value_t = 168)]
    sign_in_token_hours: u64,
    /// Days an audit entry is kept; older ones are deleted in the background (0 keeps them
    /// forever).
    #[arg(long, default_value_t = 365)]
    audit_retention_days: u64,
    /// The URL clients reach this server at (e.g. https://console.example.com), which links and
    /// config.json name; without it, the Host a request names when it is the listening address,
    /// a loopback name on its port, or an --allowed-host.
    #[arg(long, value_name = "URL")]
    public_url: Option<reqwest::Url>,
    /// A name (console.example.com) a request's Host may be, besides the listening address
    /// (repeatable).
    #[arg(long = "allowed-host", value_name = "NAME")]
    allowed_hosts: Vec<String>,
    /// How log lines are written: `text` for a person, `json` (one object per line) for a log
    /// collector.
    #[arg(long, value_enum, default_value_t = LogFormat::Text)]
    log_format: LogFormat,
    /// Milliseconds a write waits for the database's lock (held by another write) before its
    /// request answers 503 with Retry-After.
    #[arg(long, default_value_t = platform_server::db::BUSY_TIMEOUT.as_millis() as u64)]
    busy_timeout_ms: u64,
}

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum LogFormat {
    Text,
    Json,
}

/// Where to go and how to sign in. Printed, never logged: the token must not end up in log
/// files. A closed stdout (`platform-server | head`) must not stop the server, so write errors
/// are ignored rather than panicking as `println!` would.
fn print_banner(address: SocketAddr, sign_in_token: Option<&str>, lasts_hours: u64) {
    use std::io::Write;
    let mut banner = format!(
        "\n  Platform console  http://{address}/\n  API base URL      http://{address}/api\n"
    );
    match sign_in_token {
        Some(token) => banner.push_str(&format!(
            "  Sign in at        http://{address}/sign-in\n  with this ADMIN API token (shown once; only its hash is stored; {}):\n\n      {token}\n",
            match lasts_hours {
                0 => "valid until replaced".to_string(),
                hours => format!("valid for {hours} hours"),
            }
        )),
        None => banner.push_str(
            "  Sign in with the token printed at first start, or restart with --new-sign-in-token.\n",
        ),
    }
    banner.push('\n');
    let mut stdout = std::io::stdout();
    let _ = stdout
        .write_all(banner.as_bytes())
        .and_then(|()| stdout.flush());
}

/// Where the console is, and where its API goes.
fn print_forwarding_banner(address: SocketAddr, upstream: &reqwest::Url) {
    use std::io::Write;
    let banner = format!(
        "\n  Platform console  http://{address}/\n  API base URL      http://{address}/api, forwarded to {upstream}\n  Sign in with a token of that platform.\n\n"
    );
    let mut stdout = std::io::stdout();
    let _ = stdout
        .write_all(banner.as_bytes())
        .and_then(|()| stdout.flush());
}

fn parse_speed(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(speed) if speed.is_finite() && speed > 0.0 => Ok(speed),
        _ => Err("must be a number greater than 0".to_string()),
    }
}

fn parse_origin(text: &str) -> Result<String, String> {
    match platform_api::rules::origin("origin", text) {
        None => Ok(text.to_string()),
        Some(problem) => Err(problem.message),
    }
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let flags = Flags::parse();
    let logs = tracing_subscriber::fmt().with_env_filter(
        EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info")),
    );
    match flags.log_format {
        LogFormat::Text => logs.init(),
        LogFormat::Json => logs.json().init(),
    }
    let identity_provider =
        flags
            .oidc_issuer
            .map(|issuer| platform_server::oidc::IdentityProvider {
                issuer,
                audience: flags.oidc_audience,
                client_id: flags.oidc_client_id,
                keys_refetched_every: platform_server::oidc::REFETCH_EVERY,
            });
    if let Some(upstream) = flags.api_upstream {
        let forwarding = platform_server::forward::start(platform_server::forward::ForwardConfig {
            listen: flags.listen,
            upstream: upstream.clone(),
            console_dir: flags.console_dir,
            embed_allowed_origins: flags.embed_allowed_origins,
            identity_provider,
            public_url: flags.public_url,
            allowed_hosts: flags.allowed_hosts,
            answer_within: std::time::Duration::from_secs(flags.api_upstream_timeout.max(1)),
        })
        .await?;
        print_forwarding_banner(forwarding.address, &upstream);
        tokio::select! {
            served = forwarding.server => served??,
            stopped = stop_signal() => {
                stopped?;
                tracing::info!("stopping");
                end_at_the_latest_after(ENDED_WITHIN);
            }
        }
        return Ok(());
    }
    let sign_in_token_hours = flags.sign_in_token_hours;
    let running = platform_server::start(platform_server::Config {
        listen: flags.listen,
        data_dir: flags.data_dir,
        console_dir: flags.console_dir,
        demo: flags.demo,
        engine_speed: flags.engine_speed,
        engine_workers: flags.engine_workers,
        queue_limit: flags.queue_limit,
        new_sign_in_token: flags.new_sign_in_token,
        embed_allowed_origins: flags.embed_allowed_origins,
        identity_provider,
        rate_limit_per_minute: flags.rate_limit,
        webhook_retry_base: std::time::Duration::from_millis(flags.webhook_retry_ms),
        allowed_target_networks: flags.allowed_target_networks,
        git_roots: flags.git_roots,
        git_watch_every: std::time::Duration::from_millis(flags.git_watch_ms.max(1)),
        secrets_key: flags.secrets_key,
        busy_timeout: std::time::Duration::from_millis(flags.busy_timeout_ms),
        public_url: flags.public_url,
        allowed_hosts: flags.allowed_hosts,
        sign_in_token_lasts: (flags.sign_in_token_hours > 0)
            .then(|| std::time::Duration::from_secs(flags.sign_in_token_hours * 60 * 60)),
        audit_retention: (flags.audit_retention_days > 0)
            .then(|| std::time::Duration::from_secs(flags.audit_retention_days * 24 * 60 * 60)),
        alerts_every: platform_server::ALERTS_EVERY,
    })
    .await?;

    print_banner(
        running.address,
        running.sign_in_token.as_deref(),
        sign_in_token_hours,
    );
    stop_signal().await?;
    tracing::info!("stopping: no new work; finishing the answers in flight");
    end_at_the_latest_after(ENDED_WITHIN);
    running.stop(STOP_WITHIN).await
}

/// How long a stopping server finishes the answers in flight.
const STOP_WITHIN: std::time::Duration = std::time::Duration::from_secs(10);

/// How long after being asked to stop the process has ended, whatever still runs.
const ENDED_WITHIN: std::time::Duration = std::time::Duration::from_secs(15);

/// Ends the process `deadline` from now if it has not ended by then: work that never yields
/// (which the runtime waits for as it shuts down) cannot keep a stopped server alive.
fn end_at_the_latest_after(deadline: std::time::Duration) {
    std::thread::spawn(move || {
        std::thread::sleep(deadline);
        tracing::error!("still running {deadline:?} after being asked to stop: ending now");
        std::process::exit(1);
    });
}

/// Ctrl-C, or SIGTERM (what a service manager or an orchestrator sends).
async fn stop_signal() -> anyhow::Result<()> {
    let mut terminate = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())?;
    tokio::select! {
        interrupted = tokio::signal::ctrl_c() => interrupted?,
        _ = terminate.recv() => {}
    }
    Ok(())
}
