use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::common::Reference;
use crate::error::FieldError;
use crate::history::PAGE_MAX;
use crate::rules::{self, Violations};

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Project {
    pub id: Uuid,
    pub created_at: DateTime<Utc>,
    pub updated_at: Option<DateTime<Utc>>,
    pub name: String,
    pub description: Option<String>,
    pub organization: Reference,
    #[serde(default)]
    pub associated_environments_count: i64,
}

/// Body of `POST /organization/{id}/project`.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ProjectRequest {
    pub name: String,
    #[serde(default)]
    pub description: Option<String>,
}

impl ProjectRequest {
    pub fn validate(&self) -> Result<(), Vec<FieldError>> {
        let mut violations = Violations::default();
        violations.check(rules::name("name", &self.name));
        violations.check(rules::description(
            "description",
            self.description.as_deref(),
        ));
        violations.into_result()
    }
}

/// Query of `GET /organization/{id}/project`. The production API pages nothing here, so without
/// `pageSize` every project is listed, as there; with it, `pageSize` 1 to `PROJECT_PAGE_SIZE_MAX`
/// and `page` from 1 to `PAGE_MAX`.
#[serde_with::skip_serializing_none]
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ProjectListQuery {
    #[serde(rename = "pageSize", default)]
    pub page_size: Option<i64>,
    #[serde(default)]
    pub page: Option<i64>,
}

pub const PROJECT_PAGE_SIZE_MAX: i64 = 1000;

impl ProjectListQuery {
    pub fn validate(&self) -> Result<(), Vec<FieldError>> {
        let mut violations = Violations::default();
        if let Some(size) = self.page_size {
            if !(1..=PROJECT_PAGE_SIZE_MAX).contains(&size) {
                violations.check(Some(FieldError::new(
                    "pageSize",
                    format!("must be from 1 to {PROJECT_PAGE_SIZE_MAX}"),
                )));
            }
        }
        if let Some(page) = self.page {
            if !(1..=PAGE_MAX).contains(&page) {
                violations.check(Some(FieldError::new(
                    "page",
                    format!("must be from 1 to {PAGE_MAX}"),
                )));
            }
        }
        violations.into_result()
    }

    /// The rows to read, as SQL's `LIMIT` and `OFFSET`: every row (`-1`) unless `pageSize` is given.
    pub fn limit_and_offset(&self) -> (i64, i64) {
        match self.page_size {
            Some(size) => (size, (self.page.unwrap_or(1) - 1) * size),
            None => (-1, 0),
        }
    }
}
