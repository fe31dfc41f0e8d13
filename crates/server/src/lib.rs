//! The reference server of the Deployment Platform Management API: the API under `/api`, the
//! deployment engine, and the built console with its generated `config.json`.

pub mod alerts;
pub mod audit;
pub mod auth;
pub mod auto_deploy;
pub mod bootstrap;
pub mod caller;
mod console;
pub mod cron_jobs;
pub mod db;
mod demo;
mod dns;
pub mod engine;
pub mod error;
pub mod events;
pub mod forward;
mod fresh;
pub mod git;
mod health;
mod kept;
mod lifecycle_templates;
pub mod notify;
mod offload;
pub mod oidc;
mod platform_fields;
pub mod previews;
pub mod public;
pub mod rate_limit;
mod raw_json;
pub mod rounds;
pub mod routes;
mod run_page;
pub mod schedules;
pub mod seal;
pub mod state;
mod store;
pub mod targets;
pub mod telemetry;
pub mod untrusted;
pub mod upkeep;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use axum::serve::ListenerExt;
use axum::Router;
use tower_http::compression::CompressionLayer;
use tower_http::trace::TraceLayer;

use crate::engine::Engine;
use crate::git::Repositories;
use crate::kept::Kept;
use crate::public::PublicAddress;
use crate::rate_limit::RateLimiter;
use crate::seal::Sealer;
pub use crate::state::AppState;
/// History moved back in time, for the tests and benches that read telemetry over hours or days.
pub use crate::store::runs::backdate;
use crate::targets::TargetPolicy;

/// Everything the server is started with; the binary fills it from its flags.
#[derive(Clone, Debug)]
pub struct Config {
    pub listen: SocketAddr,
    pub data_dir: PathBuf,
    /// Folder of the built console (trunk's `dist/`); the console is not served when absent.
    pub console_dir: Option<PathBuf>,
    /// Add demo projects, environments and applications when the organization is created.
    pub demo: bool,
    /// How many times faster than real life the engine runs its steps.
    pub engine_speed: f64,
    /// How many actions the engine runs at once; the others wait queued.
    pub engine_workers: usize,
    /// How many actions one organization may have waiting; past it, a request answers 503.
    pub queue_limit: usize,
    /// Replace the sign-in token printed at start with a new one (the old one stops working).
    pub new_sign_in_token: bool,
    /// Origins allowed to embed the console in their page and hand it a token; each keeps
    /// `platform_api::rules::origin`.
    pub embed_allowed_origins: Vec<String>,
    /// The identity provider people sign in through (`Authorization: Bearer` access tokens);
    /// none taken without it.
    pub identity_provider: Option<oidc::IdentityProvider>,
    /// Requests one token may make per minute.
    pub rate_limit_per_minute: u32,
    /// The wait before a failed webhook delivery's first retry; each retry waits twice the one
    /// before.
    pub webhook_retry_base: std::time::Duration,
    /// Networks the server may send webhooks to besides public addresses (`targets`).
    pub allowed_target_networks: Vec<ipnet::IpNet>,
    /// Folders whose git repositories the server reads, besides the demo's
    /// (`<data_dir>/demo-repositories`).
    pub git_roots: Vec<PathBuf>,
    /// The key sealing stored secrets (64 hex characters); `<data_dir>/secrets.key` without it.
    pub secrets_key: Option<String>,
    /// How long a write waits for the database's lock before its request answers 503.
    pub busy_timeout: std::time::Duration,
    /// How long the sign-in token printed at start is valid; for ever when `None`.
    pub sign_in_token_lasts: Option<std::time::Duration>,
    /// How long audit entries are kept; forever when `None`.
    pub audit_retention: Option<std::time::Duration>,
    /// How often auto-deploy reads the branches it watches; a push is acted on at the second
    /// read that finds it the branch's tip.
    pub git_watch_every: std::time::Duration,
    /// The URL clients reach the server at, for the links it writes (`public`).
    pub public_url: Option<reqwest::Url>,
    /// Names besides the listening address a request's `Host` may name (`public`).
    pub allowed_hosts: Vec<String>,
    /// How often the alert rules are evaluated.
    pub alerts_every: std::time::Duration,
}

impl Config {
    /// The server as `platform-server` starts without flags, on a free loopback port with its
    /// data in `data_dir`, and nothing of its own: what tests and benches start from, setting
    /// what they need.
    pub fn local(data_dir: PathBuf) -> Self {
        Self {
            listen: SocketAddr::from(([127, 0, 0, 1], 0)),
            data_dir,
            console_dir: None,
            demo: false,
            git_watch_every: GIT_WATCH_EVERY,
            engine_speed: 1.0,
            engine_workers: 16,
            queue_limit: QUEUE_LIMIT,
            new_sign_in_token: false,
            embed_allowed_origins: Vec::new(),
            identity_provider: None,
            rate_limit_per_minute: 1200,
            webhook_retry_base: std::time::Duration::from_secs(5),
            allowed_target_networks: Vec::new(),
            git_roots: Vec::new(),
            secrets_key: None,
            busy_timeout: db::BUSY_TIMEOUT,
            sign_in_token_lasts: None,
            audit_retention: None,
            public_url: None,
            allowed_hosts: Vec::new(),
            alerts_every: ALERTS_EVERY,
        }
    }
}

/// How many actions one organization may have waiting, unless the server is started with another.
pub const QUEUE_LIMIT: usize = 10_000;

/// How often the server's upkeep runs (`upkeep`).
/// How often auto-deploy reads the branches it watches, unless told otherwise.
pub const GIT_WATCH_EVERY: std::time::Duration = std::time::Duration::from_secs(2);

/// How often the cron jobs' and the environments' schedules are looked at: well within their
/// minute.
const CRON_EVERY: std::time::Duration = std::time::Duration::from_secs(5);
/// How often the alert rules are evaluated: as often as the platform's Prometheus does.
pub const ALERTS_EVERY: std::time::Duration = std::time::Duration::from_secs(30);

const UPKEEP_EVERY: std::time::Duration = std::time::Duration::from_secs(60);

/// The whole HTTP surface: the API under `/api`, `config.json`, and the console.
pub fn app(state: AppState, console_dir: Option<PathBuf>) -> Router {
    Router::new()
        .nest("/api", routes::api(&state))
        .merge(health::router())
        .merge(run_page::router())
        .merge(console::router(
            console_dir,
            Arc::new(console::Published {
                embed_allowed_origins: state.embed_allowed_origins.as_ref().clone(),
                identity_provider: state.identity_provider.clone(),
            }),
            state.public.clone(),
        ))
        // gzip or brotli, as the client accepts: the console's wasm shrinks to about a quarter.
        .layer(CompressionLayer::new())
        .layer(TraceLayer::new_for_http())
        .with_state(state)
}

/// A started server.
pub struct Running {
    pub address: SocketAddr,
    /// The sign-in token created at this start, if one was (first start or `new_sign_in_token`).
    pub sign_in_token: Option<String>,
    pub state: AppState,
    pub server: tokio::task::JoinHandle<std::io::Result<()>>,
    /// Stops the server (`stop`).
    stopping: tokio::sync::watch::Sender<bool>,
    /// Held while the server runs: no other server works on its data folder.
    _data_lock: std::fs::File,
}

/// Takes the data folder for this process: a second server started on it stops here, naming the
/// process that holds it. The lock goes with the process, however it ends.
pub fn lock_data_dir(data_dir: &std::path::Path) -> anyhow::Result<std::fs::File> {
    use std::io::{Read, Seek, Write};
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::create_dir_all(data_dir)?;
    let path = data_dir.join("platform.lock");
    let mut file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .mode(0o600)
        .open(&path)?;
    match file.try_lock() {
        Ok(()) => {
            file.set_len(0)?;
            file.rewind()?;
            write!(file, "{}", std::process::id())?;
            Ok(file)
        }
        Err(std::fs::TryLockError::WouldBlock) => {
            let mut holder = String::new();
            file.read_to_string(&mut holder)?;
            anyhow::bail!(
                "another platform-server (process {}) is using the data folder {}: stop it, or start this one with another --data-dir",
                holder.trim(),
                data_dir.display()
            )
        }
        Err(std::fs::TryLockError::Error(error)) => Err(error.into()),
    }
}

/// Opens (or creates) the database, makes sure the organization exists, resumes unfinished
/// deployments and adds the demo data: everything but listening.
pub async fn prepare(config: &Config) -> anyhow::Result<(AppState, bootstrap::Outcome)> {
    std::fs::create_dir_all(&config.data_dir)?;
    let database = config.data_dir.join("platform.sqlite");
    let commits = db::Commits::default();
    let db = db::open(&database, &commits, config.busy_timeout).await?;
    let sealer = Arc::new(Sealer::load(
        &config.data_dir,
        config.secrets_key.as_deref(),
    )?);
    sealer.seal_stored(&db).await?;
    let mut git_roots = config.git_roots.clone();
    git_roots.push(demo::repositories_folder(&config.data_dir));
    let (writes, write_lock) = db::writer(&database, &commits, config.busy_timeout).await?;
    let engine = Arc::new(Engine::new(
        db.clone(),
        writes.clone(),
        config.engine_speed,
        config.engine_workers,
        config.queue_limit,
        Repositories::new(git_roots),
    ));
    let targets = Arc::new(TargetPolicy::new(config.allowed_target_networks.clone()));
    let state = AppState {
        db: db.clone(),
        writes: writes.clone(),
        write_lock,
        telemetry: Arc::new(telemetry::Telemetry::default()),
        engine: engine.clone(),
        embed_allowed_origins: Arc::new(config.embed_allowed_origins.clone()),
        oidc: config
            .identity_provider
            .as_ref()
            .map(|provider| provider.provider().map(Arc::new))
            .transpose()?,
        identity_provider: config.identity_provider.clone(),
        rate_limiter: Arc::new(RateLimiter::new(config.rate_limit_per_minute)),
        notifier: notify::Notifier::new(targets.clone())?,
        targets,
        sealer: sealer.clone(),
        kept: Arc::new(Kept::new(&commits)),
        public: Arc::new(PublicAddress::new(
            config.public_url.as_ref(),
            config.listen,
            config.allowed_hosts.clone(),
        )),
    };
    let outcome =
        bootstrap::ensure_organization(&db, config.new_sign_in_token, config.sign_in_token_lasts)
            .await?;
    engine.resume_unfinished().await?;
    Arc::new(events::delivery::Deliverer::new(
        db.clone(),
        config.webhook_retry_base,
        engine.events_recorded.clone(),
        state.notifier.clone(),
        sealer,
    ))
    .start()
    .await?;
    upkeep::start(writes, config.audit_retention, UPKEEP_EVERY);
    auto_deploy::start(engine.clone(), db.clone(), config.git_watch_every);
    previews::start(engine.clone(), db.clone(), config.git_watch_every);
    cron_jobs::start(engine.clone(), db.clone(), CRON_EVERY);
    schedules::start(engine.clone(), db.clone(), CRON_EVERY);
    let alerting = alerts::Alerting {
        db: db.clone(),
        writes: state.writes.clone(),
        // The rounds' own evaluators: a heavy rule never takes a caller's turn, nor theirs its.
        telemetry: Arc::new(telemetry::Telemetry::default()),
        deliveries: engine.events_recorded.clone(),
    };
    alerts::start(engine.clone(), alerting, config.alerts_every);
    if config.demo && outcome.created {
        demo::populate(&state, outcome.organization_id, &config.data_dir).await?;
    }
    Ok((state, outcome))
}

/// `listener`, its connections sending each write at once. With Nagle's algorithm an answer's
/// last small segment waits for the client's delayed acknowledgement of the one before (40 ms on
/// Linux): a thousand services' statuses took 52 ms to arrive in Chromium, 12 without. The
/// benches serve what they compare the server with through it too.
pub fn without_nagle(
    listener: tokio::net::TcpListener,
) -> axum::serve::TapIo<tokio::net::TcpListener, fn(&mut tokio::net::TcpStream)> {
    fn no_delay(stream: &mut tokio::net::TcpStream) {
        if let Err(error) = stream.set_nodelay(true) {
            tracing::warn!("cannot set TCP_NODELAY on a connection: {error}");
        }
    }
    listener.tap_io(no_delay as fn(&mut tokio::net::TcpStream))
}

/// Takes the data folder, binds the port, then prepares the server (resuming what a previous
/// run left) and starts serving: a start that cannot have the folder or the port touches
/// nothing.
pub async fn start(config: Config) -> anyhow::Result<Running> {
    let data_lock = lock_data_dir(&config.data_dir)?;
    let listener = tokio::net::TcpListener::bind(config.listen)
        .await
        .map_err(|error| anyhow::anyhow!("cannot listen on {}: {error}", config.listen))?;
    let address = listener.local_addr()?;
    // Links name the address bound (`--listen` may ask for any free port).
    let config = Config {
        listen: address,
        ..config
    };
    let (state, outcome) = prepare(&config).await?;
    let router = app(state.clone(), config.console_dir.clone());
    let listener = without_nagle(listener);
    let (stopping, mut stopped) = tokio::sync::watch::channel(false);
    let server = tokio::spawn(async move {
        axum::serve(listener, router)
            .with_graceful_shutdown(async move {
                let _ = stopped.wait_for(|stop| *stop).await;
            })
            .await
    });
    Ok(Running {
        address,
        sign_in_token: outcome.sign_in_token,
        state,
        server,
        stopping,
        _data_lock: data_lock,
    })
}

impl Running {
    /// Stops taking work: no new connection or action; the answers in flight are finished, up to
    /// `within`, then the server ends. Actions running stop with the process and resume at the
    /// next start at the step they were in.
    pub async fn stop(self, within: std::time::Duration) -> anyhow::Result<()> {
        self.state.engine.stop();
        let _ = self.stopping.send(true);
        match tokio::time::timeout(within, self.server).await {
            Ok(served) => Ok(served??),
            Err(_) => {
                tracing::warn!("answers still in flight after {within:?}: stopping without them");
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use axum::serve::Listener;

    use super::*;

    #[tokio::test]
    async fn connections_send_without_waiting_for_acknowledgements() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let mut listener = without_nagle(listener);
        let _client = tokio::net::TcpStream::connect(address).await.unwrap();
        let (connection, _) = listener.accept().await;
        assert!(connection.nodelay().unwrap());
    }
}
