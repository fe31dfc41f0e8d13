use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::common::List;
use crate::error::FieldError;
use crate::rules::{self, Violations};

/// An organization, as `GET /organization/{id}` and the items of `GET /organization` give it.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Organization {
    pub id: Uuid,
    pub name: String,
    /// The platform's plan; the reference server's organization is on FREE.
    #[serde(default)]
    pub plan: String,
    #[serde(default)]
    pub description: Option<String>,
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    #[serde(default, with = "crate::timestamp::option")]
    pub updated_at: Option<DateTime<Utc>>,
    /// The member who owns it: who may delete it or give it to another member. None for an
    /// organization nobody signed in to yet.
    #[serde(default)]
    pub owner: Option<Uuid>,
}

/// Body of `PUT /organization/{id}`: its name and description; the plan is sent as it is (it is
/// changed through billing, which this console leaves to the platform).
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OrganizationEditRequest {
    pub name: String,
    pub plan: String,
    #[serde(default)]
    pub description: Option<String>,
}

impl OrganizationEditRequest {
    /// `current_plan` is the organization's: an edit keeps it.
    pub fn validate(&self, current_plan: &str) -> Result<(), Vec<FieldError>> {
        let mut violations = Violations::default();
        violations.check(rules::name("name", &self.name));
        violations.check(rules::description(
            "description",
            self.description.as_deref(),
        ));
        if self.plan != current_plan {
            violations.check(Some(FieldError::new(
                "plan",
                format!("must stay {current_plan}: a plan is changed through billing"),
            )));
        }
        violations.into_result()
    }
}

/// Body of `POST /organization`: a new organization, whose owner is the person who asks.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OrganizationRequest {
    pub name: String,
    pub plan: String,
    #[serde(default)]
    pub description: Option<String>,
}

impl OrganizationRequest {
    /// A name and description as an edit takes them, on the plan every organization of `plan`'s
    /// server is on.
    pub fn validate(&self, plan: &str) -> Result<(), Vec<FieldError>> {
        OrganizationEditRequest {
            name: self.name.clone(),
            plan: self.plan.clone(),
            description: self.description.clone(),
        }
        .validate(plan)
    }
}

/// Body of `POST /organization/{id}/transferOwnership`: the member who becomes the owner.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TransferOwnershipRequest {
    pub user_id: Uuid,
}

/// What `GET /organization` answers: the platform sends `{results: [...]}` (the caller's
/// organizations; the spec's usage example reads the first); a server that sends the record
/// alone is read too. The record is tried first: a list may leave `results` out, so any object
/// would read as an empty list. `T` is what is read of the record (the console reads only the
/// id and name in places).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum CallersOrganizations<T = Organization> {
    One(T),
    List(List<T>),
}

impl<T> CallersOrganizations<T> {
    /// The caller's organization: the first listed.
    pub fn first(self) -> Option<T> {
        match self {
            CallersOrganizations::List(list) => list.results.into_iter().next(),
            CallersOrganizations::One(organization) => Some(organization),
        }
    }

    /// Every organization of the caller: a person's several, a token's one.
    pub fn all(self) -> Vec<T> {
        match self {
            CallersOrganizations::List(list) => list.results,
            CallersOrganizations::One(organization) => vec![organization],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_forms_of_the_callers_organization_are_read() {
        let record = serde_json::json!({"id": Uuid::nil(), "name": "acme", "plan": "FREE",
                                        "created_at": "2026-01-02T03:04:05Z"});
        let list: CallersOrganizations =
            serde_json::from_value(serde_json::json!({"results": [record]})).unwrap();
        let one: CallersOrganizations = serde_json::from_value(record).unwrap();
        assert_eq!(list.first().unwrap().name, "acme");
        assert_eq!(one.first().unwrap().name, "acme");
        let none: CallersOrganizations =
            serde_json::from_value(serde_json::json!({"results": []})).unwrap();
        assert_eq!(none.first(), None);
    }
}
