//! Storage of organization-level records: each kind's record as callers see it (JSON), and its
//! secrets in a column of their own that no answer is built from.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use serde::de::DeserializeOwned;
use serde::Serialize;
use sqlx::{SqliteConnection, SqlitePool};
use uuid::fmt::Hyphenated;
use uuid::Uuid;

use crate::error::{ApiError, ApiResult, UniqueViolation};
use crate::seal::Secrets;

/// What an organization-level record is: its kind in storage and its name in messages.
#[derive(Clone, Copy, Debug)]
pub struct Kind {
    pub stored_as: &'static str,
    pub what: &'static str,
}

/// Webhooks, as stored: what the routes write and the event deliveries read.
pub const WEBHOOKS: Kind = Kind {
    stored_as: "webhook",
    what: "webhook",
};

/// Alert receivers, as stored: what the routes write and the alert rounds send to.
pub const ALERT_RECEIVERS: Kind = Kind {
    stored_as: "alert_receiver",
    what: "alert receiver",
};

/// Git tokens, as stored: what the routes write, services name and the engine's clones read.
pub const GIT_TOKENS: Kind = Kind {
    stored_as: "git_token",
    what: "git token",
};

/// Clusters, as stored: what the routes write and a new environment is placed on.
pub const CLUSTERS: Kind = Kind {
    stored_as: "cluster",
    what: "cluster",
};

/// The name of a webhook's signing secret among its secrets.
pub const WEBHOOK_TARGET_SECRET: &str = "target_secret";

pub struct Stored<T> {
    pub record: T,
    pub secrets: Secrets,
}

/// A record to write: its id and name, what callers see, its secrets, and when it was written.
pub struct Entry<'a, T> {
    pub id: Uuid,
    pub name: &'a str,
    pub record: &'a T,
    pub secrets: &'a Secrets,
    pub at: DateTime<Utc>,
}

pub async fn insert<T: Serialize>(
    conn: &mut SqliteConnection,
    kind: Kind,
    organization_id: Uuid,
    entry: Entry<'_, T>,
) -> ApiResult<()> {
    sqlx::query(
        "INSERT INTO organization_resources (id, organization_id, kind, name, record, secrets, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(entry.id.hyphenated())
    .bind(organization_id.hyphenated())
    .bind(kind.stored_as)
    .bind(entry.name)
    .bind(serde_json::to_string(entry.record).map_err(ApiError::internal)?)
    .bind(serde_json::to_string(entry.secrets).map_err(ApiError::internal)?)
    .bind(entry.at)
    .execute(conn)
    .await
    .on_unique_violation("name", kind.what)?;
    Ok(())
}

pub async fn update<T: Serialize>(
    conn: &mut SqliteConnection,
    kind: Kind,
    entry: Entry<'_, T>,
) -> ApiResult<()> {
    sqlx::query(
        "UPDATE organization_resources SET name = ?, record = ?, secrets = ?, updated_at = ? WHERE id = ?",
    )
    .bind(entry.name)
    .bind(serde_json::to_string(entry.record).map_err(ApiError::internal)?)
    .bind(serde_json::to_string(entry.secrets).map_err(ApiError::internal)?)
    .bind(entry.at)
    .bind(entry.id.hyphenated())
    .execute(conn)
    .await
    .on_unique_violation("name", kind.what)?;
    Ok(())
}

/// The organization's records of `kind`, by name, each with its id.
pub async fn list<T: DeserializeOwned>(
    db: &SqlitePool,
    kind: Kind,
    organization_id: Uuid,
) -> ApiResult<Vec<(Uuid, T)>> {
    #[derive(sqlx::FromRow)]
    struct Row {
        #[sqlx(try_from = "Hyphenated")]
        id: Uuid,
        record: String,
    }
    let rows: Vec<Row> = sqlx::query_as(
        "SELECT id, record FROM organization_resources WHERE organization_id = ? AND kind = ? ORDER BY name",
    )
    .bind(organization_id.hyphenated())
    .bind(kind.stored_as)
    .fetch_all(db)
    .await?;
    rows.into_iter()
        .map(|row| {
            let record = serde_json::from_str(&row.record).map_err(ApiError::internal)?;
            Ok((row.id, record))
        })
        .collect()
}

/// The record with this id in the organization, or 404.
pub async fn find<'e, T: DeserializeOwned>(
    db: impl sqlx::SqliteExecutor<'e>,
    kind: Kind,
    organization_id: Uuid,
    id: Uuid,
) -> ApiResult<Stored<T>> {
    #[derive(sqlx::FromRow)]
    struct Row {
        record: String,
        secrets: String,
    }
    let row: Row = sqlx::query_as(
        "SELECT record, secrets FROM organization_resources WHERE id = ? AND organization_id = ? AND kind = ?",
    )
    .bind(id.hyphenated())
    .bind(organization_id.hyphenated())
    .bind(kind.stored_as)
    .fetch_optional(db)
    .await?
    .ok_or_else(|| ApiError::not_found(kind.what))?;
    Ok(Stored {
        record: serde_json::from_str(&row.record).map_err(ApiError::internal)?,
        secrets: serde_json::from_str(&row.secrets).map_err(ApiError::internal)?,
    })
}

/// Replaces the secrets of the record `id`, its record as it is.
pub async fn set_secrets(
    conn: &mut SqliteConnection,
    id: Uuid,
    secrets: &Secrets,
) -> ApiResult<()> {
    sqlx::query("UPDATE organization_resources SET secrets = ? WHERE id = ?")
        .bind(serde_json::to_string(secrets).map_err(ApiError::internal)?)
        .bind(id.hyphenated())
        .execute(conn)
        .await?;
    Ok(())
}

pub async fn delete(conn: &mut SqliteConnection, id: Uuid) -> ApiResult<()> {
    sqlx::query("DELETE FROM organization_resources WHERE id = ?")
        .bind(id.hyphenated())
        .execute(conn)
        .await?;
    Ok(())
}

/// What may use an organization-level record.
#[derive(Clone, Copy, PartialEq)]
pub enum UsedBy {
    Nothing,
    /// Services whose configuration names the record (a container's registry, a chart's
    /// repository, an application's labels group).
    Services,
    /// Environments that run on the record (a cluster).
    Environments,
    /// Clusters reached with the record (a set of credentials).
    Clusters,
}

impl UsedBy {
    pub fn what(self) -> &'static str {
        match self {
            UsedBy::Nothing => "",
            UsedBy::Services => "service",
            UsedBy::Environments => "environment",
            UsedBy::Clusters => "cluster",
        }
    }
}

/// How many use each of the organization's records of `kind` (`only` that one, when given), in
/// one query whatever the number of records; a record nothing uses is left out.
pub async fn usage<'e>(
    db: impl sqlx::SqliteExecutor<'e>,
    (used_by, kind): (UsedBy, Kind),
    organization_id: Uuid,
    only: Option<Uuid>,
) -> ApiResult<HashMap<Uuid, i64>> {
    let users = match used_by {
        UsedBy::Nothing => return Ok(HashMap::new()),
        // Ids are UUIDs, so a configuration that holds one names that record.
        UsedBy::Services => {
            "services u ON u.organization_id = r.organization_id AND instr(u.spec, r.id) > 0"
        }
        UsedBy::Environments => {
            "environments u ON u.organization_id = r.organization_id AND u.cluster_id = r.id"
        }
        UsedBy::Clusters => {
            "cluster_credentials u ON u.organization_id = r.organization_id AND u.credentials_id = r.id"
        }
    };
    #[derive(sqlx::FromRow)]
    struct Used {
        #[sqlx(try_from = "Hyphenated")]
        id: Uuid,
        users: i64,
    }
    let used: Vec<Used> = sqlx::query_as(&format!(
        "SELECT r.id, COUNT(*) AS users FROM organization_resources r JOIN {users}
         WHERE r.organization_id = ? AND r.kind = ? AND (? IS NULL OR r.id = ?)
         GROUP BY r.id"
    ))
    .bind(organization_id.hyphenated())
    .bind(kind.stored_as)
    .bind(only.map(|id| id.hyphenated()))
    .bind(only.map(|id| id.hyphenated()))
    .fetch_all(db)
    .await?;
    Ok(used.into_iter().map(|used| (used.id, used.users)).collect())
}

/// The names of what uses the record `id` of the organization, by name.
pub async fn user_names(
    conn: &mut SqliteConnection,
    used_by: UsedBy,
    organization_id: Uuid,
    id: Uuid,
) -> ApiResult<Vec<String>> {
    let (table, uses) = match used_by {
        UsedBy::Nothing => return Ok(Vec::new()),
        UsedBy::Services => ("services", "instr(spec, ?) > 0"),
        UsedBy::Environments => ("environments", "cluster_id = ?"),
        UsedBy::Clusters => (
            "organization_resources",
            "id IN (SELECT cluster_id FROM cluster_credentials WHERE credentials_id = ?)",
        ),
    };
    Ok(sqlx::query_scalar(&format!(
        "SELECT name FROM {table} WHERE organization_id = ? AND {uses} ORDER BY name"
    ))
    .bind(organization_id.hyphenated())
    .bind(id.hyphenated().to_string())
    .fetch_all(conn)
    .await?)
}
