//! A database's backups (`/database/{id}/backup`): taken on request while the database runs,
//! each with the status of its taking.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::error::FieldError;
use crate::rules::{self, Violations};
use crate::status::Status;

/// Body of `POST /database/{id}/backup`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BackupRequest {
    pub name: String,
    /// Why it is taken: "before the migration to v2".
    pub message: String,
}

impl BackupRequest {
    pub fn validate(&self) -> Result<(), Vec<FieldError>> {
        let mut violations = Violations::default();
        violations.check(rules::name("name", &self.name));
        violations.check(rules::description("message", Some(&self.message)));
        violations.into_result()
    }
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Backup {
    pub id: Uuid,
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    #[serde(default, with = "crate::timestamp::option")]
    pub updated_at: Option<DateTime<Utc>>,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub message: String,
    pub status: Option<Status>,
}

/// `GET /database/{id}/backup`: one page of backups, newest first.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BackupPage {
    pub page: i64,
    pub page_size: i64,
    #[serde(default)]
    pub results: Vec<Backup>,
}
