//! Helm repositories (spec 2.11): credentials as a container registry's, secrets never returned.

use chrono::{DateTime, Utc};
use platform_api::audit::{SubTargetType, TargetType};
use platform_api::paths::{self, Template};
use platform_api::{FieldError, HelmRepository, HelmRepositoryRequest};
use uuid::Uuid;

use crate::routes::organization::container_registries::config_secrets;
use crate::routes::organization::resources::OrganizationResource;
use crate::seal::Secrets;
use crate::store::organization_resources::Kind;
use crate::store::organization_resources::UsedBy;

pub struct HelmRepositories;

impl OrganizationResource for HelmRepositories {
    const KIND: Kind = Kind {
        stored_as: "helm_repository",
        what: "helm repository",
    };
    const AUDITED_AS: (TargetType, Option<SubTargetType>) = (TargetType::HelmRepository, None);
    const COLLECTION: Template = paths::HELM_REPOSITORIES;
    const ITEM: Template = paths::HELM_REPOSITORY;

    type Request = HelmRepositoryRequest;
    type Record = HelmRepository;

    fn validate(request: &Self::Request, kept: &[&str]) -> Result<(), Vec<FieldError>> {
        request.validate(kept)
    }

    fn build(
        id: Uuid,
        _organization_id: Uuid,
        created_at: DateTime<Utc>,
        updated_at: Option<DateTime<Utc>>,
        request: Self::Request,
        _previous: Option<&Self::Record>,
    ) -> (Self::Record, Secrets) {
        let secrets = config_secrets(&request.config);
        let repository = HelmRepository {
            id,
            created_at,
            updated_at,
            name: request.name.trim().to_string(),
            kind: request.kind,
            description: request.description,
            url: request.url.trim().trim_end_matches('/').to_string(),
            skip_tls_verification: request.skip_tls_verification,
            associated_services_count: 0,
            config: (&request.config).into(),
        };
        (repository, secrets)
    }

    const USED_BY: UsedBy = UsedBy::Services;

    fn reflect_usage(record: &mut Self::Record, users: i64) {
        record.associated_services_count = users;
    }

    fn name(record: &Self::Record) -> String {
        record.name.clone()
    }

    fn created_at(record: &Self::Record) -> DateTime<Utc> {
        record.created_at
    }

    fn keeps_secrets(previous: &Self::Record, request: &Self::Request) -> bool {
        previous.kind == request.kind
    }
}
