//! First start: the organization, its four roles and an ADMIN API token to sign in with (the
//! oldest organization's, when people have made others since).

use chrono::Utc;
use sqlx::SqlitePool;
use uuid::Uuid;

use crate::auth::{generate_token, hash_token};
use crate::store::organizations;

/// Name of the ADMIN token created at first start (and replaced by `--new-sign-in-token`).
pub const SIGN_IN_TOKEN_NAME: &str = "console sign-in";

pub struct Outcome {
    pub organization_id: Uuid,
    /// True when this start created the organization.
    pub created: bool,
    /// The token in clear, when this start created one: shown once, then only its hash is kept.
    pub sign_in_token: Option<String>,
}

/// The organization, and a sign-in token valid for `sign_in_token_lasts` (for ever when `None`)
/// when it is created or `new_sign_in_token` asks for one.
pub async fn ensure_organization(
    db: &SqlitePool,
    new_sign_in_token: bool,
    sign_in_token_lasts: Option<std::time::Duration>,
) -> anyhow::Result<Outcome> {
    let existing = organizations::oldest(db).await?;
    let mut tx = db.begin().await?;
    let (organization_id, created) = match existing {
        Some(id) => (id, false),
        None => {
            let id = organizations::insert(&mut tx, "My organization", None)
                .await
                .map_err(|error| anyhow::anyhow!("{error}"))?;
            (id, true)
        }
    };

    let sign_in_token = if created || new_sign_in_token {
        Some(sign_in_token(&mut tx, organization_id, sign_in_token_lasts).await?)
    } else {
        None
    };
    tx.commit().await?;
    Ok(Outcome {
        organization_id,
        created,
        sign_in_token,
    })
}

/// A new organization beside the others with its own sign-in token, for tools that fill a server
/// with organizations (the tenants bench) where no person signs in.
pub async fn another_organization(db: &SqlitePool, name: &str) -> anyhow::Result<(Uuid, String)> {
    let mut tx = db.begin().await?;
    let id = organizations::insert(&mut tx, name, None)
        .await
        .map_err(|error| anyhow::anyhow!("{error}"))?;
    let token = sign_in_token(&mut tx, id, None).await?;
    tx.commit().await?;
    Ok((id, token))
}

/// A new ADMIN sign-in token of the organization in place of the one before, in clear.
async fn sign_in_token(
    tx: &mut sqlx::SqliteConnection,
    organization_id: Uuid,
    lasts: Option<std::time::Duration>,
) -> anyhow::Result<String> {
    sqlx::query("DELETE FROM api_tokens WHERE organization_id = ? AND name = ?")
        .bind(organization_id.hyphenated())
        .bind(SIGN_IN_TOKEN_NAME)
        .execute(&mut *tx)
        .await?;
    let token = generate_token();
    sqlx::query(
        "INSERT INTO api_tokens (id, organization_id, role_id, name, description, token_hash,
             created_at, expires_at)
         SELECT ?, ?, id, ?, ?, ?, ?, ? FROM roles WHERE organization_id = ? AND name = 'ADMIN'",
    )
    .bind(Uuid::new_v4().hyphenated())
    .bind(organization_id.hyphenated())
    .bind(SIGN_IN_TOKEN_NAME)
    .bind("Created by the server at start to sign in to the console")
    .bind(hash_token(&token))
    .bind(Utc::now())
    .bind(
        lasts
            .map(|lasts| chrono::Duration::from_std(lasts).map(|lasts| Utc::now() + lasts))
            .transpose()?,
    )
    .bind(organization_id.hyphenated())
    .execute(&mut *tx)
    .await?;
    Ok(token)
}
