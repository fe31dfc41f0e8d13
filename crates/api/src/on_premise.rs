//! On-premise credentials (spec 2.15): an access key id shown, its secret never. They are
//! answered as `ClusterCredentials` (`cloud_credentials`), like a cloud's.

use serde::{Deserialize, Serialize};

use crate::cloud_credentials::CredentialsKind;
use crate::error::FieldError;
use crate::rules::{self, Violations};

/// Body of `POST /organization/{id}/onPremise/credentials`; an update (`PUT`) needs only `name`
/// and keeps what it leaves out.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OnPremiseCredentialsRequest {
    pub name: String,
    #[serde(default)]
    pub access_key_id: Option<String>,
    /// Never returned.
    #[serde(default)]
    pub secret_access_key: Option<String>,
    #[serde(default)]
    pub object_type: Option<CredentialsKind>,
}

impl OnPremiseCredentialsRequest {
    /// `creating` is true for a `POST`. The production document creates credentials from a
    /// name alone; keys given come as a pair (a later update may leave the stored secret out).
    pub fn validate(&self, creating: bool) -> Result<(), Vec<FieldError>> {
        let mut violations = Violations::default();
        violations.check(rules::name("name", &self.name));
        let given = |value: &Option<String>| value.as_deref().is_some_and(|v| !v.trim().is_empty());
        if creating && given(&self.access_key_id) != given(&self.secret_access_key) {
            let missing = if given(&self.access_key_id) {
                "secret_access_key"
            } else {
                "access_key_id"
            };
            violations.check(Some(FieldError::new(
                missing,
                "is required with the other key of the pair",
            )));
        }
        violations.into_result()
    }
}
