//! Drives headless Chromium against the real server and the built console, as a person would.
//!
//! `Browser::start` starts `platform-server` on a free loopback port with a temporary database and
//! `dist/`, starts chromedriver, and opens a Chromium session. Build the console first
//! (`scripts/build-console.sh`); the test command does.

use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use fantoccini::elements::Element;
use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use platform_server::{Config, Running};
use tempfile::TempDir;
use tokio::process::{Child, Command};

pub mod identity_provider;
pub use identity_provider::IdentityProvider;

/// The organization's settings pages, by the last segment of their address.
pub const SETTINGS_PAGES: [&str; 11] = [
    "general",
    "members",
    "api-tokens",
    "git-tokens",
    "webhooks",
    "container-registries",
    "helm-repositories",
    "labels-annotations",
    "alert-receivers",
    "cloud-credentials",
    "on-premise-credentials",
];

/// A service's tabs, by the last segment of their address; a database has neither variables
/// nor advanced settings.
pub const SERVICE_TABS: [&str; 8] = [
    "overview",
    "monitoring",
    "deployments",
    "timeline",
    "logs",
    "variables",
    "settings",
    "advanced-settings",
];

/// How long a step may wait for the page to show what it expects.
pub const PATIENCE: Duration = Duration::from_secs(30);

pub struct Browser {
    pub client: Client,
    pub server: Running,
    /// The sign-in token the server printed at its first start.
    pub token: String,
    _chromedriver: Child,
    _data: TempDir,
    _profile: TempDir,
}

fn repository_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn free_port() -> Result<u16> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?
        .local_addr()?
        .port())
}

impl Browser {
    /// A fresh server (deployments run `engine_speed` times faster than real life) and a browser.
    pub async fn start(engine_speed: f64) -> Result<Self> {
        Self::start_with(engine_speed, vec![]).await
    }

    /// A server with the demo's data (`--demo`), as `bash scripts/run.sh` starts it.
    pub async fn start_demo(engine_speed: f64) -> Result<Self> {
        Self::start_configured(engine_speed, |config| config.demo = true).await
    }

    /// The same, with the origins allowed to embed the console (`--embed-allowed-origin`).
    pub async fn start_with(engine_speed: f64, embed_allowed_origins: Vec<String>) -> Result<Self> {
        Self::start_configured(engine_speed, |config| {
            config.embed_allowed_origins = embed_allowed_origins;
        })
        .await
    }

    /// A server whose people sign in through a real identity provider (`IdentityProvider`)
    /// whose access tokens live `access_token_seconds`, and a browser; the provider lives as long
    /// as what is returned.
    /// `embed_allowed_origins` as for `start_with`.
    pub async fn start_with_identity_provider(
        access_token_seconds: u32,
        embed_allowed_origins: Vec<String>,
    ) -> Result<(Self, IdentityProvider)> {
        let console = std::net::SocketAddr::from(([127, 0, 0, 1], free_port()?));
        let provider =
            IdentityProvider::start(&format!("http://{console}"), access_token_seconds).await?;
        let issuer = provider.issuer.clone();
        let browser = Self::start_configured(1.0, |config| {
            config.listen = console;
            config.embed_allowed_origins = embed_allowed_origins;
            config.identity_provider = Some(platform_server::oidc::IdentityProvider {
                issuer,
                audience: Some(identity_provider::AUDIENCE.to_string()),
                client_id: Some(identity_provider::CLIENT_ID.to_string()),
                keys_refetched_every: platform_server::oidc::REFETCH_EVERY,
            });
        })
        .await?;
        Ok((browser, provider))
    }

    async fn start_configured(
        engine_speed: f64,
        configure: impl FnOnce(&mut Config),
    ) -> Result<Self> {
        let dist = repository_root().join("dist");
        if !dist.join("index.html").exists() {
            bail!("the console is not built: run scripts/build-console.sh first");
        }
        let data = TempDir::new()?;
        let mut config = Config {
            console_dir: Some(dist),
            engine_speed,
            rate_limit_per_minute: 10_000,
            // The tests' webhook receivers listen on loopback.
            allowed_target_networks: vec!["127.0.0.0/8".parse()?],
            // The tests' repositories are temporary folders.
            git_roots: vec![std::env::temp_dir()],
            // A push is seen within half a second.
            git_watch_every: Duration::from_millis(200),
            // A rule is evaluated within two seconds of its condition holding.
            alerts_every: Duration::from_secs(2),
            ..Config::local(data.path().to_path_buf())
        };
        configure(&mut config);
        let server = platform_server::start(config).await?;
        let token = server
            .sign_in_token
            .clone()
            .context("a first start prints a sign-in token")?;

        let port = free_port()?;
        let chromedriver = Command::new(
            std::env::var("CHROMEDRIVER").unwrap_or_else(|_| "chromedriver".to_string()),
        )
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .context("starting chromedriver (apt-get install chromium-driver)")?;

        let profile = TempDir::new()?;
        let capabilities = serde_json::json!({
            "goog:chromeOptions": {
                "binary": std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".to_string()),
                "args": [
                    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                    "--disable-background-networking", "--disable-component-update",
                    "--disable-sync", "--disable-quic", "--no-first-run",
                    "--window-size=1280,900",
                    format!("--user-data-dir={}", profile.path().display()),
                ]
            }
        });
        let capabilities = match capabilities {
            serde_json::Value::Object(map) => map,
            _ => unreachable!("a JSON object literal"),
        };
        let webdriver = format!("http://127.0.0.1:{port}");
        let mut attempts = 0;
        let client = loop {
            match ClientBuilder::new(HttpConnector::new())
                .capabilities(capabilities.clone())
                .connect(&webdriver)
                .await
            {
                Ok(client) => break client,
                Err(_) if attempts < 50 => {
                    attempts += 1;
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                Err(error) => return Err(error).context("connecting to chromedriver"),
            }
        };
        Ok(Self {
            client,
            server,
            token,
            _chromedriver: chromedriver,
            _data: data,
            _profile: profile,
        })
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{}", self.server.address, path)
    }

    /// Calls the API as the signed-in person would, for set-up the console has no page for yet.
    pub async fn api(
        &self,
        method: &str,
        path: &str,
        body: serde_json::Value,
    ) -> Result<serde_json::Value> {
        self.api_as(&format!("Token {}", self.token), method, path, body)
            .await
    }

    /// The same, with another `Authorization` header.
    pub async fn api_as(
        &self,
        authorization: &str,
        method: &str,
        path: &str,
        body: serde_json::Value,
    ) -> Result<serde_json::Value> {
        let url = self.url(&format!("/api{path}"));
        let method = method.to_string();
        let authorization = authorization.to_string();
        tokio::task::spawn_blocking(move || {
            let request = ureq::request(&method, &url).set("Authorization", &authorization);
            // A read sends no body: a server answers a GET without reading one, and closing a
            // connection with unread bytes resets it, sometimes before the answer is read.
            let answer = if body.is_null() {
                request.call()
            } else {
                request.send_json(body)
            }
            .with_context(|| format!("{method} {url}"))?;
            // A delete answers 204 with no body.
            let text = answer.into_string()?;
            Ok(if text.is_empty() {
                serde_json::Value::Null
            } else {
                serde_json::from_str(&text)?
            })
        })
        .await?
    }

    /// Creates the record at `path` through the API and returns its id.
    pub async fn create(&self, path: &str, body: serde_json::Value) -> Result<String> {
        let created = self.api("POST", path, body).await?;
        created["id"]
            .as_str()
            .map(str::to_string)
            .with_context(|| format!("POST {path} answered no id: {created}"))
    }

    /// The id of the person's organization.
    pub async fn organization_id(&self) -> Result<String> {
        self.api("GET", "/organization", serde_json::json!(null))
            .await?["results"][0]["id"]
            .as_str()
            .map(str::to_string)
            .context("no organization")
    }

    /// The id of the organization's role named `name` (ADMIN, DEPLOY, ...).
    pub async fn role_id(&self, name: &str) -> Result<String> {
        let organization = self.organization_id().await?;
        let roles = self
            .api(
                "GET",
                &format!("/organization/{organization}/customRole"),
                serde_json::json!(null),
            )
            .await?;
        roles["results"]
            .as_array()
            .and_then(|roles| roles.iter().find(|role| role["name"] == name))
            .and_then(|role| role["id"].as_str())
            .map(str::to_string)
            .with_context(|| format!("no role {name}"))
    }

    /// Deploys the application through the API and waits until it is deployed.
    pub async fn deployed(&self, application: &str) -> Result<()> {
        self.service_deployed(&format!("/application/{application}"))
            .await
    }

    /// Deploys the service at `item` (`/terraform/{id}`) through the API and waits until it is
    /// deployed.
    pub async fn service_deployed(&self, item: &str) -> Result<()> {
        self.api("POST", &format!("{item}/deploy"), serde_json::json!({}))
            .await?;
        let deadline = tokio::time::Instant::now() + PATIENCE;
        let status = format!("{item}/status");
        while self.api("GET", &status, serde_json::json!(null)).await?["state"] != "DEPLOYED" {
            if tokio::time::Instant::now() > deadline {
                bail!("{item} was never deployed");
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        Ok(())
    }

    /// Moves the service's actions that finished in the last `recent` seconds `by` seconds back,
    /// for its charts to show hours of history at once.
    pub async fn backdate(&self, service: &str, recent: i64, by: i64) -> Result<()> {
        let moved = platform_server::backdate(
            &self.server.state.writes,
            uuid::Uuid::parse_str(service)?,
            recent,
            by,
        )
        .await?;
        if moved == 0 {
            bail!("no action of {service} finished in the last {recent} s");
        }
        Ok(())
    }

    /// Creates an application named `name` in `environment`, built from a git repository the
    /// server cannot read (so it deploys the branch's tip without a commit); returns its id.
    pub async fn create_application(&self, environment: &str, name: &str) -> Result<String> {
        self.create(
            &format!("/environment/{environment}/application"),
            serde_json::json!({"name": name,
                               "git_repository": {"url": "https://git.example.com/acme/web.git"}}),
        )
        .await
    }

    /// Creates an application in `environment` built from `repository`'s main branch, with the
    /// fields of `body` (its name at least); returns its id.
    pub async fn create_application_from(
        &self,
        environment: &str,
        repository: &Repository,
        mut body: serde_json::Value,
    ) -> Result<String> {
        body["git_repository"] = repository.git();
        self.create(&format!("/environment/{environment}/application"), body)
            .await
    }

    /// Creates a project and an environment of `mode` in it, in the person's organization.
    pub async fn create_environment(
        &self,
        project: &str,
        environment: &str,
        mode: &str,
    ) -> Result<TestEnvironment> {
        let organization = self.organization_id().await?;
        let project = self
            .create(
                &format!("/organization/{organization}/project"),
                serde_json::json!({"name": project}),
            )
            .await?;
        let environment = self
            .create(
                &format!("/project/{project}/environment"),
                serde_json::json!({"name": environment, "mode": mode}),
            )
            .await?;
        Ok(TestEnvironment {
            organization,
            project,
            environment,
        })
    }

    pub async fn open(&self, path: &str) -> Result<()> {
        self.client.goto(&self.url(path)).await?;
        Ok(())
    }

    /// Goes to a whole URL (a link a page gave), on this server or not.
    pub async fn open_url(&self, url: &str) -> Result<()> {
        self.client.goto(url).await?;
        Ok(())
    }

    /// The first element matching `css`, once it exists.
    pub async fn find(&self, css: &str) -> Result<Element> {
        self.client
            .wait()
            .at_most(PATIENCE)
            .for_element(Locator::Css(css))
            .await
            .with_context(|| format!("no element matches {css}"))
    }

    /// Types `value` into the input matching `css` in place of what it holds; typed again into
    /// the new input when the page draws it anew meanwhile (its form reading the API).
    pub async fn fill(&self, css: &str, value: &str) -> Result<()> {
        let deadline = tokio::time::Instant::now() + PATIENCE;
        loop {
            match self.fill_once(css, value).await {
                Err(_) if tokio::time::Instant::now() < deadline => {
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                filled => return filled,
            }
        }
    }

    async fn fill_once(&self, css: &str, value: &str) -> Result<()> {
        let input = self.find(css).await?;
        input.clear().await?;
        // WebDriver's clear fires no `input` event, which a person's clearing does: without it
        // the page would not learn that the field is now empty.
        self.client
            .execute(
                "arguments[0].dispatchEvent(new Event('input', {bubbles: true}));",
                vec![serde_json::to_value(&input)?],
            )
            .await?;
        input.send_keys(value).await?;
        Ok(())
    }

    /// The first element matching `css` now, without waiting for one.
    pub async fn find_now(&self, css: &str) -> Result<Element> {
        Ok(self.client.find(Locator::Css(css)).await?)
    }

    /// Opens the dialog of the page's "New …" button labelled `label` ("New cluster").
    pub async fn open_new(&self, label: &str) -> Result<()> {
        self.click_text(".new-dialog__opener button", label).await?;
        self.find("dialog.new-dialog[open]").await?;
        Ok(())
    }

    /// The file the page hands over when the button `button` is clicked, as `(name, text)`: the
    /// download link's click is caught and its object URL read.
    pub async fn downloaded(&self, button: &str) -> Result<(String, String)> {
        self.client
            .execute(
                "window.__downloads = [];
                 URL.revokeObjectURL = () => {};
                 HTMLAnchorElement.prototype.click = function () {
                     window.__downloads.push({name: this.download, href: this.href});
                 };",
                vec![],
            )
            .await?;
        self.click_text("button", button).await?;
        let file = self
            .client
            .execute_async(
                "const done = arguments[arguments.length - 1];
                 const wait = () => {
                     const file = window.__downloads[0];
                     if (!file) { setTimeout(wait, 50); return; }
                     fetch(file.href).then(r => r.text()).then(text => done([file.name, text]));
                 };
                 wait();",
                vec![],
            )
            .await?;
        Ok((
            file[0].as_str().unwrap_or_default().to_string(),
            file[1].as_str().unwrap_or_default().to_string(),
        ))
    }

    /// Clicks the first element matching `css` whose text is `text`, once it shows.
    pub async fn click_text(&self, css: &str, text: &str) -> Result<()> {
        let deadline = tokio::time::Instant::now() + PATIENCE;
        loop {
            for element in self.client.find_all(Locator::Css(css)).await? {
                if element.text().await.is_ok_and(|shown| shown.trim() == text) {
                    element.click().await?;
                    return Ok(());
                }
            }
            if tokio::time::Instant::now() > deadline {
                bail!("no {css} shows {text:?}");
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Chooses the option of value `value` in the select matching `css`, as a person would:
    /// once the select offers it, tried again while the page draws the select anew (its options
    /// read from the API after another field changed).
    pub async fn choose(&self, css: &str, value: &str) -> Result<()> {
        let deadline = tokio::time::Instant::now() + PATIENCE;
        loop {
            let chosen = self.find(css).await?.select_by_value(value).await;
            match chosen {
                Ok(()) => return Ok(()),
                Err(_) if tokio::time::Instant::now() < deadline => {
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                Err(error) => {
                    return Err(error).with_context(|| format!("{css} offers no {value:?}"));
                }
            }
        }
    }

    /// Submits the form at `form` and waits for the toast that says it was saved (`acknowledged`
    /// part of its text).
    pub async fn save_form(&self, form: &str, acknowledged: &str) -> Result<()> {
        self.click(&format!("{form} button[type=submit]")).await?;
        self.wait_for_text(".toast--success", acknowledged).await?;
        Ok(())
    }

    /// Clicks the first element matching `css`. Found again once where the page drew it anew
    /// between finding and clicking it (a toast list re-keyed as another toast came).
    pub async fn click(&self, css: &str) -> Result<()> {
        match self.find(css).await?.click().await {
            Err(error) if error.is_stale_element_reference() => {
                self.find(css).await?.click().await?
            }
            clicked => clicked?,
        }
        Ok(())
    }

    /// Clicks the first element matching `css` with Shift held, as a person extends a selection.
    pub async fn shift_click(&self, css: &str) -> Result<()> {
        use fantoccini::actions::{
            Actions, InputSource, KeyAction, KeyActions, MouseActions, PointerAction,
            MOUSE_BUTTON_LEFT,
        };
        let element = self.find(css).await?;
        let shift: char = fantoccini::key::Key::Shift.into();
        let none = Duration::ZERO;
        // One tick per column: Shift goes down, the pointer moves, presses and releases, then
        // Shift goes up.
        let keyboard = KeyActions::new("keyboard".into())
            .then(KeyAction::Down { value: shift })
            .pause(none)
            .pause(none)
            .pause(none)
            .then(KeyAction::Up { value: shift });
        let mouse = MouseActions::new("mouse".into())
            .pause(none)
            .then(PointerAction::MoveToElement {
                element,
                duration: None,
                x: 0,
                y: 0,
            })
            .then(PointerAction::Down {
                button: MOUSE_BUTTON_LEFT,
            })
            .then(PointerAction::Up {
                button: MOUSE_BUTTON_LEFT,
            })
            .pause(none);
        self.client
            .perform_actions(Actions::from(keyboard).and(mouse))
            .await?;
        self.client.release_actions().await?;
        Ok(())
    }

    /// Waits until the element matching `css` shows `text` (as part of its visible text).
    pub async fn wait_for_text(&self, css: &str, text: &str) -> Result<String> {
        let deadline = tokio::time::Instant::now() + PATIENCE;
        let mut last = String::new();
        loop {
            if let Ok(elements) = self.client.find_all(Locator::Css(css)).await {
                for element in elements {
                    if let Ok(shown) = element.text().await {
                        if shown.contains(text) {
                            return Ok(shown);
                        }
                        last = shown;
                    }
                }
            }
            if tokio::time::Instant::now() > deadline {
                bail!("{css} never showed {text:?}; last seen {last:?}");
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Waits until nothing on the page matches `css`.
    pub async fn wait_until_gone(&self, css: &str) -> Result<()> {
        self.client
            .wait()
            .at_most(PATIENCE)
            .for_element(Locator::Css(&format!("body:not(:has({css}))")))
            .await
            .with_context(|| format!("{css} stayed on the page"))?;
        Ok(())
    }

    /// Waits until the browser's tab shows `title`.
    pub async fn wait_for_title(&self, title: &str) -> Result<()> {
        let deadline = tokio::time::Instant::now() + PATIENCE;
        loop {
            let shown = self.client.title().await?;
            if shown == title {
                return Ok(());
            }
            if tokio::time::Instant::now() > deadline {
                bail!("the title stayed {shown:?}, not {title:?}");
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Waits until the URL's path matches `predicate`.
    pub async fn wait_for_path(&self, predicate: impl Fn(&str) -> bool) -> Result<String> {
        let deadline = tokio::time::Instant::now() + PATIENCE;
        loop {
            let url = self.client.current_url().await?;
            if predicate(url.path()) {
                return Ok(url.path().to_string());
            }
            if tokio::time::Instant::now() > deadline {
                bail!("the page stayed at {url}");
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// The query of the page's address (`range=6h&utc=1`), empty without one.
    pub async fn query(&self) -> Result<String> {
        let url = self.client.current_url().await?;
        Ok(url.query().unwrap_or_default().to_string())
    }

    /// Moves to `path` as a link of the console does: no reload, the router alone.
    pub async fn follow(&self, path: &str) -> Result<()> {
        self.client
            .execute(
                "history.pushState(null, '', arguments[0]);
                 dispatchEvent(new PopStateEvent('popstate'));",
                vec![serde_json::json!(path)],
            )
            .await?;
        Ok(())
    }

    /// The console's code (wasm, scripts, styles) the page fetched since `forget_requests`.
    pub async fn code_fetched(&self) -> Result<Vec<String>> {
        let paths = self
            .client
            .execute(
                "return performance.getEntriesByType('resource')
                    .map(e => new URL(e.name).pathname).filter(p => /[.](wasm|bin|js|css)$/.test(p))",
                vec![],
            )
            .await?;
        Ok(serde_json::from_value(paths)?)
    }

    /// Has deploy buttons open their review first, as they do for a person by default; takes
    /// effect at the next page opened.
    pub async fn review_deploys(&self) -> Result<()> {
        self.client
            .execute(
                "localStorage.removeItem('platform-console:deploy-without-review')",
                vec![],
            )
            .await?;
        Ok(())
    }

    /// Forgets the requests the page made so far (`api_requests` lists those made after).
    pub async fn forget_requests(&self) -> Result<()> {
        self.client
            .execute("performance.clearResourceTimings()", vec![])
            .await?;
        Ok(())
    }

    /// The paths of the API requests the page made (since `forget_requests`), in order, as the
    /// browser's Resource Timing API records them.
    pub async fn api_requests(&self) -> Result<Vec<String>> {
        let paths = self
            .client
            .execute(
                "return performance.getEntriesByType('resource')
                    .map(e => new URL(e.name).pathname).filter(p => p.startsWith('/api/'))",
                vec![],
            )
            .await?;
        Ok(serde_json::from_value(paths)?)
    }

    /// Saves what the page shows to `target/e2e-screenshots/NAME.png`, to look at.
    pub async fn screenshot(&self, name: &str) -> Result<PathBuf> {
        let folder = repository_root().join("target/e2e-screenshots");
        std::fs::create_dir_all(&folder)?;
        let path = folder.join(format!("{name}.png"));
        std::fs::write(&path, self.client.screenshot().await?)?;
        Ok(path)
    }

    /// The button of the page's actions whose text is `label`, once it shows.
    pub async fn action_button(&self, label: &str) -> Result<Element> {
        let xpath = format!(
            "//div[contains(concat(' ', @class, ' '), ' actions ')]/button[normalize-space()='{label}']"
        );
        self.client
            .wait()
            .at_most(PATIENCE)
            .for_element(Locator::XPath(&xpath))
            .await
            .with_context(|| format!("no {label:?} button"))
    }

    /// Clicks the button of the page's actions whose text is `label`, once it shows.
    pub async fn click_button(&self, label: &str) -> Result<()> {
        self.action_button(label).await?.click().await?;
        Ok(())
    }

    /// Confirms in the confirmation dialog the page opened (components/confirm_button.rs).
    pub async fn accept_confirmation(&self) -> Result<()> {
        self.click("dialog.confirm[open] .button--destructive")
            .await
            .context("no confirmation dialog")
    }

    /// Answers Cancel in the confirmation dialog the page opened, and waits until it is closed.
    pub async fn dismiss_confirmation(&self) -> Result<()> {
        self.click("dialog.confirm[open] .button--secondary")
            .await
            .context("no confirmation dialog")?;
        self.client
            .wait()
            .at_most(PATIENCE)
            .for_element(Locator::Css("dialog.confirm:not([open])"))
            .await?;
        Ok(())
    }

    /// Signs in through the sign-in page with the printed token.
    pub async fn sign_in(&self) -> Result<()> {
        self.sign_in_with(&self.token).await
    }

    /// Signs in through the sign-in page with `token`.
    pub async fn sign_in_with(&self, token: &str) -> Result<()> {
        self.open("/sign-in").await?;
        // Deploy buttons act at once, as a person who ticked "Deploy without reviewing" has
        // them: the tests of the review ask for it (`review_deploys`).
        self.client
            .execute(
                "localStorage.setItem('platform-console:deploy-without-review', '1')",
                vec![],
            )
            .await?;
        // The API address is filled from config.json.
        self.wait_for_value("#field-base_url", "/api").await?;
        self.fill("#field-token", token).await?;
        self.click("button[type=submit]").await?;
        self.wait_for_path(|path| path.ends_with("/overview"))
            .await?;
        Ok(())
    }

    /// Waits until the input matching `css` holds a value containing `part`, read again when the
    /// page draws the input anew between finding it and reading it.
    pub async fn wait_for_value(&self, css: &str, part: &str) -> Result<()> {
        let deadline = tokio::time::Instant::now() + PATIENCE;
        loop {
            let read = self.find(css).await?.prop("value").await;
            let value = match read {
                Ok(value) => value.unwrap_or_default(),
                Err(_) if tokio::time::Instant::now() < deadline => String::new(),
                Err(error) => return Err(error.into()),
            };
            if value.contains(part) {
                return Ok(());
            }
            if tokio::time::Instant::now() > deadline {
                bail!("{css} never held {part:?}; it holds {value:?}");
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Takes the network away from the page (every request fails, loopback included), or gives
    /// it back, as a person's connection would drop and return.
    pub async fn set_offline(&self, offline: bool) -> Result<()> {
        self.client
            .issue_cmd(NetworkConditions { offline })
            .await
            .context("chromedriver's network conditions")?;
        Ok(())
    }

    /// Fails every request whose address matches one of `patterns` (`*` for any text), as a
    /// dropped network would fail them; an empty list lets everything through again.
    pub async fn block_urls(&self, patterns: &[&str]) -> Result<()> {
        self.devtools("Network.enable", serde_json::json!({}))
            .await?;
        self.devtools(
            "Network.setBlockedURLs",
            serde_json::json!({ "urls": patterns }),
        )
        .await?;
        Ok(())
    }

    /// Sends a Chrome DevTools Protocol command to the page (`Performance.getMetrics`, ...) and
    /// returns its answer.
    pub async fn devtools(
        &self,
        command: &'static str,
        params: serde_json::Value,
    ) -> Result<serde_json::Value> {
        self.client
            .issue_cmd(DevTools { command, params })
            .await
            .with_context(|| format!("DevTools {command}"))
    }

    /// Shows the page as a screen `width` pixels wide would (a phone at 375), through Chromium's
    /// device emulation: a headless window cannot be made narrower than 500 px.
    pub async fn set_width(&self, width: u32) -> Result<()> {
        self.client
            .issue_cmd(DevTools {
                command: "Emulation.setDeviceMetricsOverride",
                params: serde_json::json!({
                    "width": width, "height": 900, "deviceScaleFactor": 1, "mobile": width < 600,
                }),
            })
            .await
            .context("chromedriver's device emulation")?;
        Ok(())
    }

    /// The rules of axe-core (WCAG 2.1 A and AA, and best practices) the page breaks, one line
    /// each: the rule, its impact, and the elements.
    pub async fn axe_violations(&self) -> Result<Vec<String>> {
        let axe = std::fs::read_to_string(axe_core_path()).context(
            "axe-core is not installed: run scripts/setup.sh (it fetches it from the npm registry)",
        )?;
        self.client.execute(&axe, vec![]).await?;
        let found = self
            .client
            .execute_async(
                "const done = arguments[arguments.length - 1];
                 axe.run(document, {runOnly: {type: 'tag',
                     values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']}})
                   .then(r => done(r.violations.map(v => v.id + ' (' + v.impact + '): '
                       + v.nodes.map(n => n.target.join(' ')).slice(0, 5).join(', '))))
                   .catch(e => done(['axe failed: ' + e]));",
                vec![],
            )
            .await?;
        Ok(serde_json::from_value(found)?)
    }

    /// The elements wider than the screen, when the page scrolls sideways; empty otherwise.
    pub async fn overflow(&self) -> Result<Vec<String>> {
        let wide = self
            .client
            .execute(
                "const width = document.documentElement.clientWidth;
                 if (document.documentElement.scrollWidth <= width) return [];
                 return [...document.querySelectorAll('body *')]
                   .filter(e => e.getBoundingClientRect().right > width + 1)
                   .slice(0, 8)
                   .map(e => e.tagName.toLowerCase() + (e.className ? '.' + e.className : '')
                        + ' ' + Math.round(e.getBoundingClientRect().right) + 'px');",
                vec![],
            )
            .await?;
        Ok(serde_json::from_value(wide)?)
    }

    pub async fn close(self) -> Result<()> {
        self.client.close().await?;
        Ok(())
    }
}

/// The ids of an environment a test made, and the console's addresses under it.
pub struct TestEnvironment {
    pub organization: String,
    pub project: String,
    pub environment: String,
}

impl TestEnvironment {
    /// The environment's page: its first tab, its services.
    pub fn page(&self) -> String {
        self.tab("services")
    }

    /// A tab of the environment: `services`, `deployments`, `variables`, `settings`.
    pub fn tab(&self, tab: &str) -> String {
        format!(
            "/organization/{}/project/{}/environment/{}/{tab}",
            self.organization, self.project, self.environment
        )
    }

    /// The page of one of its services.
    pub fn service_page(&self, service: &str) -> String {
        self.service_tab(service, "overview")
    }

    /// A tab of one of its services: `deployments`, `settings`...
    pub fn service_tab(&self, service: &str, tab: &str) -> String {
        format!(
            "/organization/{}/project/{}/environment/{}/service/{service}/{tab}",
            self.organization, self.project, self.environment
        )
    }
}

/// chromedriver's network emulation: offline, or back to the real network.
/// Where `scripts/setup.sh` installs the tests' tools.
fn tools_dir() -> PathBuf {
    std::env::var("PLATFORM_TOOLS_DIR").map_or_else(
        |_| {
            PathBuf::from(std::env::var("HOME").unwrap_or_default())
                .join(".cache/platform-console-tools")
        },
        PathBuf::from,
    )
}

/// Where `scripts/setup.sh` links axe-core's script.
fn axe_core_path() -> PathBuf {
    tools_dir().join("axe.min.js")
}

/// A Chrome DevTools command, through chromedriver.
#[derive(Debug)]
struct DevTools {
    command: &'static str,
    params: serde_json::Value,
}

impl fantoccini::wd::WebDriverCompatibleCommand for DevTools {
    fn endpoint(
        &self,
        base_url: &url::Url,
        session_id: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base_url.join(&format!(
            "session/{}/goog/cdp/execute",
            session_id.unwrap_or_default()
        ))
    }

    fn method_and_body(&self, _: &url::Url) -> (http::Method, Option<String>) {
        let body = serde_json::json!({"cmd": self.command, "params": self.params});
        (http::Method::POST, Some(body.to_string()))
    }
}

#[derive(Debug)]
struct NetworkConditions {
    offline: bool,
}

impl fantoccini::wd::WebDriverCompatibleCommand for NetworkConditions {
    fn endpoint(
        &self,
        base_url: &url::Url,
        session_id: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base_url.join(&format!(
            "session/{}/chromium/network_conditions",
            session_id.unwrap_or_default()
        ))
    }

    fn method_and_body(&self, _: &url::Url) -> (http::Method, Option<String>) {
        if self.offline {
            let conditions = serde_json::json!({"network_conditions": {
                "offline": true, "latency": 0, "download_throughput": -1, "upload_throughput": -1,
            }});
            (http::Method::POST, Some(conditions.to_string()))
        } else {
            (http::Method::DELETE, None)
        }
    }
}

/// What the benchmarks share.
pub mod bench {
    use std::time::Duration;

    use anyhow::{bail, Result};

    use super::Browser;

    /// Opens `url` and waits for the page to set `window.__rowsAt` (a script added with
    /// `Page.addScriptToEvaluateOnNewDocument` sets it in the first frame that shows the rows
    /// wanted); its value, in milliseconds after navigation.
    pub async fn rows_at(browser: &Browser, url: &str) -> Result<f64> {
        let [rows] = times_after_opening(browser, url, ["__rowsAt"]).await?;
        Ok(rows)
    }

    /// Opens `url` and waits until the page has set each of `names` on `window` (times, set by
    /// a script added with `Page.addScriptToEvaluateOnNewDocument`); their values, in
    /// milliseconds after navigation.
    pub async fn times_after_opening<const N: usize>(
        browser: &Browser,
        url: &str,
        names: [&str; N],
    ) -> Result<[f64; N]> {
        // From a blank page: a navigation's clock starts before the page it leaves is torn down,
        // and tearing down a page of a thousand rows is not what is measured.
        browser.client.goto("about:blank").await?;
        // And after the page left has been torn down (its memory given back), which would
        // otherwise fall on the next page's load.
        tokio::time::sleep(Duration::from_millis(500)).await;
        browser.client.goto(url).await?;
        let read = format!(
            "return [{}]",
            names.map(|name| format!("window.{name}")).join(", ")
        );
        let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
        loop {
            let times = browser.client.execute(&read, vec![]).await?;
            let times: Vec<f64> = times
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|time| time.as_f64())
                .collect();
            if let Ok(times) = <[f64; N]>::try_from(times) {
                return Ok(times);
            }
            if tokio::time::Instant::now() > deadline {
                bail!("{url} never set {names:?}");
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// The median of `values`.
    pub fn middle(mut values: Vec<f64>) -> f64 {
        values.sort_by(f64::total_cmp);
        values[values.len() / 2]
    }
}

/// A git repository on disk that the server reads (a `file://` URL), removed when dropped.
pub struct Repository {
    dir: TempDir,
}

impl Repository {
    /// A repository whose `main` branch has `commits`, oldest first: each a message and the
    /// files it writes.
    pub fn with(commits: &[(&str, &[(&str, &str)])]) -> Result<Self> {
        let dir = TempDir::new()?;
        platform_server::git::create_repository(dir.path(), commits)?;
        Ok(Self { dir })
    }

    pub fn path(&self) -> &std::path::Path {
        self.dir.path()
    }

    pub fn url(&self) -> String {
        format!("file://{}", self.dir.path().display())
    }

    /// A service's `git_repository` on this repository's main branch.
    pub fn git(&self) -> serde_json::Value {
        serde_json::json!({"url": self.url(), "branch": "main"})
    }
}
