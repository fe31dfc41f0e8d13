//! A real identity provider for the browser tests: `oidc-provider` (OpenID Certified, from the
//! npm registry; `scripts/setup.sh` installs it), run by `identity-provider/provider.mjs` on a
//! loopback port, with the console as its one public client.

use std::process::Stdio;

use anyhow::{Context, Result};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

use crate::{free_port, repository_root, tools_dir};

/// The version `scripts/setup.sh` installs.
const VERSION: &str = "9.13.3";
/// The audience of its access tokens: the API's resource indicator.
pub const AUDIENCE: &str = "urn:platform:api";
pub const CLIENT_ID: &str = "platform-console";

pub struct IdentityProvider {
    pub issuer: String,
    port: u16,
    console_origin: String,
    access_token_seconds: u32,
    /// Its signing key, kept across a restart.
    keys: tempfile::TempDir,
    process: Child,
}

impl IdentityProvider {
    /// A provider whose client's callback is at `console_origin`; any login signs in.
    pub async fn start(console_origin: &str, access_token_seconds: u32) -> Result<Self> {
        let port = free_port()?;
        let keys = tempfile::TempDir::new()?;
        let process = spawn(port, console_origin, access_token_seconds, &keys).await?;
        Ok(Self {
            issuer: format!("http://127.0.0.1:{port}"),
            port,
            console_origin: console_origin.to_string(),
            access_token_seconds,
            keys,
            process,
        })
    }

    /// An access token for `person` living `seconds`, as a portal signed in through this
    /// provider holds (`provider.mjs`'s test route).
    pub fn access_token_url(&self, person: &str, seconds: u32) -> String {
        format!(
            "{}/test/access-token?sub={person}&seconds={seconds}",
            self.issuer
        )
    }

    /// The provider started again at the same address: every grant, refresh token and session
    /// it held is forgotten (it keeps them in memory), as a grant revoked by an administrator.
    pub async fn restart(&mut self) -> Result<()> {
        self.process.kill().await?;
        self.process = spawn(
            self.port,
            &self.console_origin,
            self.access_token_seconds,
            &self.keys,
        )
        .await?;
        Ok(())
    }
}

/// The provider's process, once it listens.
async fn spawn(
    port: u16,
    console_origin: &str,
    access_token_seconds: u32,
    keys: &tempfile::TempDir,
) -> Result<Child> {
    let module = tools_dir()
        .join(format!("oidc-provider-{VERSION}"))
        .join("node_modules/oidc-provider/lib/index.js");
    let mut process = Command::new("node")
        .arg(repository_root().join("crates/e2e/identity-provider/provider.mjs"))
        .args([
            port.to_string(),
            console_origin.to_string(),
            AUDIENCE.to_string(),
            access_token_seconds.to_string(),
        ])
        .env("OIDC_PROVIDER", &module)
        .env("KEY_FILE", keys.path().join("signing-key.json"))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .context("starting the identity provider (node; scripts/setup.sh installs it)")?;
    let mut lines = BufReader::new(process.stdout.take().context("its output")?).lines();
    tokio::time::timeout(crate::PATIENCE, async {
        while let Some(line) = lines.next_line().await? {
            if line == "listening" {
                return Ok(());
            }
        }
        anyhow::bail!("the identity provider stopped before listening ({module:?} installed?)")
    })
    .await
    .context("the identity provider did not listen in time")??;
    // What it says later is read and dropped: a closed pipe would stop it at its next line.
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    Ok(process)
}
