//! First start: the organization, its four roles and an ADMIN API token to sign in with.

use chrono::Utc;
use sqlx::SqlitePool;
use uuid::fmt::Hyphenated;
use uuid::Uuid;

use crate::auth::{generate_token, hash_token};
use crate::caller::BUILT_IN_ROLES;

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
    let existing: Option<Hyphenated> = sqlx::query_scalar("SELECT id FROM organizations LIMIT 1")
        .fetch_optional(db)
        .await?;
    let mut tx = db.begin().await?;
    let (organization_id, created) = match existing {
        Some(id) => (id.into_uuid(), false),
        None => {
            let id = Uuid::new_v4();
            sqlx::query("INSERT INTO organizations (id, name, created_at) VALUES (?, ?, ?)")
                .bind(id.hyphenated())
                .bind("My organization")
                .bind(Utc::now())
                .execute(&mut *tx)
                .await?;
            for (name, description, _) in BUILT_IN_ROLES {
                sqlx::query(
                    "INSERT INTO roles (id, organization_id, name, description, permission, built_in)
                     VALUES (?, ?, ?, ?, ?, 1)",
                )
                .bind(Uuid::new_v4().hyphenated())
                .bind(id.hyphenated())
                .bind(name)
                .bind(description)
                .bind(name)
                .execute(&mut *tx)
                .await?;
            }
            (id, true)
        }
    };

    let sign_in_token = if created || new_sign_in_token {
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
            sign_in_token_lasts
                .map(|lasts| chrono::Duration::from_std(lasts).map(|lasts| Utc::now() + lasts))
                .transpose()?,
        )
        .bind(organization_id.hyphenated())
        .execute(&mut *tx)
        .await?;
        Some(token)
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
