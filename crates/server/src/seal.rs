//! Secrets at rest: every secret value the server stores (registry and helm passwords, webhook
//! and alert-receiver secrets, on-premise keys, secret variables, secret terraform variables) is
//! sealed with XChaCha20-Poly1305 before it reaches the database, and opened only where the
//! server itself uses it (signing a webhook delivery).
//!
//! The key is 32 bytes, given as 64 hex characters by `--secrets-key` or `PLATFORM_SECRETS_KEY`,
//! or else read from `<data-dir>/secrets.key`, which the first start creates (mode 0600). A
//! database copied without its key gives away no secret.

use std::path::Path;

use anyhow::Context;
use chacha20poly1305::aead::{Aead, KeyInit};
use chacha20poly1305::{XChaCha20Poly1305, XNonce};
use rand::RngCore;
use sqlx::SqlitePool;

/// Secret values by field name, as a record holds them (sealed at rest).
pub type Secrets = std::collections::BTreeMap<String, String>;

/// What a sealed value starts with: the format's version.
const SEALED: &str = "sealed:v1:";

pub struct Sealer {
    cipher: XChaCha20Poly1305,
}

impl Sealer {
    pub fn from_key(key: &[u8; 32]) -> Self {
        Self {
            cipher: XChaCha20Poly1305::new(key.into()),
        }
    }

    /// The configured key (hex), or the data folder's key file, created when missing.
    pub fn load(data_dir: &Path, configured: Option<&str>) -> anyhow::Result<Self> {
        let hex_key = match configured {
            Some(key) => key.trim().to_string(),
            None => key_file(&data_dir.join("secrets.key"))?,
        };
        let bytes = hex::decode(&hex_key).context("the secrets key is not hex")?;
        let key: [u8; 32] = bytes
            .try_into()
            .map_err(|_| anyhow::anyhow!("the secrets key must be 32 bytes (64 hex characters)"))?;
        Ok(Self::from_key(&key))
    }

    pub fn seal(&self, plain: &str) -> String {
        let mut nonce = [0u8; 24];
        rand::rng().fill_bytes(&mut nonce);
        let sealed = self
            .cipher
            .encrypt(XNonce::from_slice(&nonce), plain.as_bytes())
            .expect("sealing never fails for a value in memory");
        format!("{SEALED}{}{}", hex::encode(nonce), hex::encode(sealed))
    }

    /// Every value of `secrets` sealed.
    pub fn seal_all(&self, secrets: Secrets) -> Secrets {
        secrets
            .into_iter()
            .map(|(name, value)| (name, self.seal(&value)))
            .collect()
    }

    /// The value `seal` sealed; an error for a value sealed with another key or tampered with.
    pub fn open(&self, stored: &str) -> anyhow::Result<String> {
        let hex_text = stored
            .strip_prefix(SEALED)
            .context("the stored value is not sealed")?;
        let bytes = hex::decode(hex_text).context("a sealed value is not hex")?;
        anyhow::ensure!(bytes.len() > 24, "a sealed value is too short");
        let (nonce, sealed) = bytes.split_at(24);
        let plain = self
            .cipher
            .decrypt(XNonce::from_slice(nonce), sealed)
            .map_err(|_| anyhow::anyhow!("a sealed value does not open with this key"))?;
        Ok(String::from_utf8(plain)?)
    }

    /// Seals the secrets an earlier version stored in clear; what is sealed already stays.
    pub async fn seal_stored(&self, db: &SqlitePool) -> anyhow::Result<()> {
        for table in ["organization_resources", "services"] {
            #[derive(sqlx::FromRow)]
            struct Row {
                id: String,
                secrets: String,
            }
            let rows: Vec<Row> = sqlx::query_as(&format!(
                "SELECT id, secrets FROM {table} WHERE secrets != '{{}}'"
            ))
            .fetch_all(db)
            .await?;
            for Row { id, secrets } in rows {
                let secrets: Secrets = serde_json::from_str(&secrets)?;
                if secrets.values().all(|value| value.starts_with(SEALED)) {
                    continue;
                }
                let sealed: Secrets = secrets
                    .into_iter()
                    .map(|(name, value)| {
                        let value = if value.starts_with(SEALED) {
                            value
                        } else {
                            self.seal(&value)
                        };
                        (name, value)
                    })
                    .collect();
                sqlx::query(&format!("UPDATE {table} SET secrets = ? WHERE id = ?"))
                    .bind(serde_json::to_string(&sealed)?)
                    .bind(&id)
                    .execute(db)
                    .await?;
            }
        }
        #[derive(sqlx::FromRow)]
        struct Clear {
            id: String,
            secret_value: String,
        }
        let clear: Vec<Clear> = sqlx::query_as(
            "SELECT id, secret_value FROM variables
             WHERE secret_value IS NOT NULL AND secret_value NOT LIKE 'sealed:v1:%'",
        )
        .fetch_all(db)
        .await?;
        for Clear { id, secret_value } in clear {
            sqlx::query("UPDATE variables SET secret_value = ? WHERE id = ?")
                .bind(self.seal(&secret_value))
                .bind(&id)
                .execute(db)
                .await?;
        }
        Ok(())
    }
}

/// The key in the key file, created with a new random key (mode 0600) when missing.
fn key_file(path: &Path) -> anyhow::Result<String> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    if let Ok(key) = std::fs::read_to_string(path) {
        return Ok(key);
    }
    let mut key = [0u8; 32];
    rand::rng().fill_bytes(&mut key);
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
        .with_context(|| format!("creating the secrets key {}", path.display()))?;
    file.write_all(hex::encode(key).as_bytes())?;
    Ok(hex::encode(key))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sealed_value_opens_with_its_key_only() {
        let sealer = Sealer::from_key(&[7; 32]);
        let sealed = sealer.seal("hunter2");
        assert!(sealed.starts_with(SEALED));
        assert!(!sealed.contains("hunter2"));
        assert_ne!(
            sealed,
            sealer.seal("hunter2"),
            "a nonce of its own each time"
        );
        assert_eq!(sealer.open(&sealed).unwrap(), "hunter2");
        assert!(Sealer::from_key(&[8; 32]).open(&sealed).is_err());
        let mut tampered = sealed.clone();
        let last = tampered.pop().unwrap();
        tampered.push(if last == '0' { '1' } else { '0' });
        assert!(sealer.open(&tampered).is_err());
    }
}
