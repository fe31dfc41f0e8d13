//! Credentials for clouds (`/organization/{id}/{aws,scaleway,gcp,azure}/credentials`): each
//! cloud's kind on the shared layer, its secrets sealed and never answered; a set a cluster is
//! reached with is not deleted. The simulated engine never calls a cloud, so credentials are
//! checked for form, not tried.

use std::marker::PhantomData;

use chrono::{DateTime, Utc};
use platform_api::audit::{SubTargetType, TargetType};
use platform_api::paths::{self, Template};
use platform_api::{
    AwsCredentialsRequest, ClusterCredentials, CredentialsRequest, FieldError,
    ProviderACredentialsRequest, ProviderECredentialsRequest, ProviderFCredentialsRequest,
};
use serde::de::DeserializeOwned;
use utoipa::ToSchema;
use uuid::Uuid;

use crate::routes::organization::resources::{self, OrganizationResource};
use crate::routes::RouteTable;
use crate::seal::Secrets;
use crate::store::cluster_credentials as store;
use crate::store::organization_resources::{Kind, UsedBy};

/// Where one cloud's credentials are kept and served.
pub trait CloudRequest:
    CredentialsRequest + DeserializeOwned + ToSchema + Send + Sync + 'static
{
    const KIND: Kind;
    const COLLECTION: Template;
    const ITEM: Template;
}

macro_rules! cloud_request {
    ($request:ty, $kind:expr, $collection:expr, $item:expr) => {
        impl CloudRequest for $request {
            const KIND: Kind = $kind;
            const COLLECTION: Template = $collection;
            const ITEM: Template = $item;
        }
    };
}

cloud_request!(
    AwsCredentialsRequest,
    store::AWS_CREDENTIALS,
    paths::AWS_CREDENTIALS,
    paths::AWS_CREDENTIAL
);
cloud_request!(
    ProviderACredentialsRequest,
    store::PROVIDER_A_CREDENTIALS,
    paths::PROVIDER_A_CREDENTIALS,
    paths::PROVIDER_A_CREDENTIAL
);
cloud_request!(
    ProviderECredentialsRequest,
    store::PROVIDER_E_CREDENTIALS,
    paths::PROVIDER_E_CREDENTIALS,
    paths::PROVIDER_E_CREDENTIAL
);
cloud_request!(
    ProviderFCredentialsRequest,
    store::PROVIDER_F_CREDENTIALS,
    paths::PROVIDER_F_CREDENTIALS,
    paths::PROVIDER_F_CREDENTIAL
);

pub struct CloudCredentials<R>(PhantomData<R>);

impl<R: CloudRequest> OrganizationResource for CloudCredentials<R> {
    const KIND: Kind = R::KIND;
    const AUDITED_AS: (TargetType, Option<SubTargetType>) = (
        TargetType::Organization,
        Some(SubTargetType::CloudProviderCredentials),
    );
    const COLLECTION: Template = R::COLLECTION;
    const ITEM: Template = R::ITEM;
    const USED_BY: UsedBy = UsedBy::Clusters;

    type Request = R;
    type Record = ClusterCredentials;

    fn validate(request: &R, kept: &[&str]) -> Result<(), Vec<FieldError>> {
        request.validate(kept)
    }

    fn build(
        id: Uuid,
        _organization_id: Uuid,
        created_at: DateTime<Utc>,
        updated_at: Option<DateTime<Utc>>,
        request: R,
        previous: Option<&ClusterCredentials>,
    ) -> (ClusterCredentials, Secrets) {
        let (mut record, secrets) = request.record(id, previous);
        record.created_at = Some(created_at);
        record.updated_at = updated_at;
        let secrets = secrets
            .into_iter()
            .map(|(name, value)| (name.to_string(), value))
            .collect();
        (record, secrets)
    }

    /// Secrets stay with credentials of the same kind: a role does not keep an access key's.
    fn keeps_secrets(previous: &ClusterCredentials, request: &R) -> bool {
        previous.object_type == request.variant().kind()
    }

    fn name(record: &ClusterCredentials) -> String {
        record.name.clone()
    }

    fn created_at(record: &ClusterCredentials) -> DateTime<Utc> {
        // Always set on the records this server writes.
        record.created_at.unwrap_or_default()
    }
}

pub fn register(routes: &mut RouteTable) {
    resources::register::<CloudCredentials<AwsCredentialsRequest>>(routes);
    resources::register::<CloudCredentials<ProviderACredentialsRequest>>(routes);
    resources::register::<CloudCredentials<ProviderECredentialsRequest>>(routes);
    resources::register::<CloudCredentials<ProviderFCredentialsRequest>>(routes);
}
