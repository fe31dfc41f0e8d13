//! The advanced settings of services and clusters as stored: only those changed from their
//! defaults, one row per setting, its value as JSON.

use platform_api::advanced_settings::{AdvancedSettings, SettingsOf};
use serde_json::Value;
use sqlx::{SqliteConnection, SqliteExecutor};
use uuid::Uuid;

use crate::error::{ApiError, ApiResult};

#[derive(sqlx::FromRow)]
struct SettingRow {
    key: String,
    value: String,
}

/// The settings of `owner` changed from their defaults.
pub async fn changed<'e>(db: impl SqliteExecutor<'e>, owner: Uuid) -> ApiResult<AdvancedSettings> {
    let rows: Vec<SettingRow> =
        sqlx::query_as("SELECT key, value FROM advanced_settings WHERE owner_id = ? ORDER BY key")
            .bind(owner.hyphenated())
            .fetch_all(db)
            .await?;
    rows.into_iter()
        .map(|row| {
            let value: Value = serde_json::from_str(&row.value).map_err(ApiError::internal)?;
            Ok((row.key, value))
        })
        .collect()
}

/// Every setting of `owner`, an `of`: its defaults with its changes over them.
pub async fn all<'e>(
    db: impl SqliteExecutor<'e>,
    of: SettingsOf,
    owner: Uuid,
) -> ApiResult<AdvancedSettings> {
    Ok(of.with_changes(&changed(db, owner).await?))
}

/// Applies `edit` (checked) to `owner`'s settings: a setting set to its default loses its row.
pub async fn save(
    conn: &mut SqliteConnection,
    of: SettingsOf,
    owner: Uuid,
    edit: &AdvancedSettings,
) -> ApiResult<()> {
    for (key, value) in edit {
        let Some(setting) = of.setting(key) else {
            continue;
        };
        if *value == setting.default() {
            sqlx::query("DELETE FROM advanced_settings WHERE owner_id = ? AND key = ?")
                .bind(owner.hyphenated())
                .bind(key)
                .execute(&mut *conn)
                .await?;
        } else {
            sqlx::query(
                "INSERT INTO advanced_settings (owner_id, key, value) VALUES (?, ?, ?)
                 ON CONFLICT (owner_id, key) DO UPDATE SET value = excluded.value",
            )
            .bind(owner.hyphenated())
            .bind(key)
            .bind(value.to_string())
            .execute(&mut *conn)
            .await?;
        }
    }
    Ok(())
}

/// Gives `copy` the changed settings of `original` (a clone).
pub async fn copy(conn: &mut SqliteConnection, original: Uuid, copy: Uuid) -> ApiResult<()> {
    sqlx::query(
        "INSERT INTO advanced_settings (owner_id, key, value)
         SELECT ?, key, value FROM advanced_settings WHERE owner_id = ?",
    )
    .bind(copy.hyphenated())
    .bind(original.hyphenated())
    .execute(conn)
    .await?;
    Ok(())
}
