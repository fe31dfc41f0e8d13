//! On-premise credentials (spec 2.15): created with a key pair, renamed by `PUT` with a name; the
//! secret key is never returned.

use chrono::{DateTime, Utc};
use platform_api::audit::{SubTargetType, TargetType};
use platform_api::paths::{self, Template};
use platform_api::{ClusterCredentials, CredentialsKind, FieldError, OnPremiseCredentialsRequest};
use uuid::Uuid;

use crate::routes::organization::resources::OrganizationResource;
use crate::seal::Secrets;
use crate::store::cluster_credentials::ON_PREMISE_CREDENTIALS;
use crate::store::organization_resources::{Kind, UsedBy};

const SECRET_ACCESS_KEY: &str = "secret_access_key";

pub struct OnPremiseCredentialsResource;

impl OrganizationResource for OnPremiseCredentialsResource {
    const KIND: Kind = ON_PREMISE_CREDENTIALS;
    const USED_BY: UsedBy = UsedBy::Clusters;
    const AUDITED_AS: (TargetType, Option<SubTargetType>) = (
        TargetType::Organization,
        Some(SubTargetType::ClusterCredentials),
    );
    const COLLECTION: Template = paths::ON_PREMISE_CREDENTIALS;
    const ITEM: Template = paths::ON_PREMISE_CREDENTIAL;

    type Request = OnPremiseCredentialsRequest;
    type Record = ClusterCredentials;

    /// An update keeps the stored key pair, so only a creation needs one.
    fn validate(request: &Self::Request, kept: &[&str]) -> Result<(), Vec<FieldError>> {
        request.validate(!kept.contains(&SECRET_ACCESS_KEY))
    }

    fn build(
        id: Uuid,
        _organization_id: Uuid,
        created_at: DateTime<Utc>,
        updated_at: Option<DateTime<Utc>>,
        request: Self::Request,
        previous: Option<&Self::Record>,
    ) -> (Self::Record, Secrets) {
        let secrets = request
            .secret_access_key
            .filter(|secret| !secret.trim().is_empty())
            .map(|secret| (SECRET_ACCESS_KEY.to_string(), secret))
            .into_iter()
            .collect();
        let access_key_id = request
            .access_key_id
            .filter(|key| !key.trim().is_empty())
            .or_else(|| previous.and_then(|p| p.access_key_id.clone()));
        // Credentials of a name alone hold no key: the document's generic kind.
        let kind_of_keys = if access_key_id.is_some() {
            CredentialsKind::Aws
        } else {
            CredentialsKind::Generic
        };
        let object_type = request
            .object_type
            .or(previous.map(|p| p.object_type))
            .unwrap_or(kind_of_keys);
        let mut credentials =
            ClusterCredentials::new(id, request.name.trim().to_string(), object_type);
        credentials.created_at = Some(created_at);
        credentials.updated_at = updated_at;
        credentials.access_key_id = access_key_id;
        (credentials, secrets)
    }

    fn name(record: &Self::Record) -> String {
        record.name.clone()
    }

    fn created_at(record: &Self::Record) -> DateTime<Utc> {
        // Always set on the records this server writes.
        record.created_at.unwrap_or_default()
    }
}
