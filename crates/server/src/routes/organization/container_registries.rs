//! Container registries (spec 2.9): the kinds' rules from `platform-api`, secrets kept apart and
//! never returned; an update may leave a secret out to keep it, unless it changes the kind.

use chrono::{DateTime, Utc};
use platform_api::audit::{SubTargetType, TargetType};
use platform_api::paths::{self, Template};
use platform_api::{
    ContainerRegistry, ContainerRegistryRequest, FieldError, RegistryConfigRequest,
};
use uuid::Uuid;

use crate::routes::organization::resources::OrganizationResource;
use crate::seal::Secrets;
use crate::store::organization_resources::Kind;
use crate::store::organization_resources::UsedBy;

pub struct ContainerRegistries;

impl OrganizationResource for ContainerRegistries {
    const KIND: Kind = Kind {
        stored_as: "container_registry",
        what: "container registry",
    };
    const AUDITED_AS: (TargetType, Option<SubTargetType>) = (TargetType::ContainerRegistry, None);
    const COLLECTION: Template = paths::CONTAINER_REGISTRIES;
    const ITEM: Template = paths::CONTAINER_REGISTRY;

    type Request = ContainerRegistryRequest;
    type Record = ContainerRegistry;

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
        let registry = ContainerRegistry {
            id,
            created_at,
            updated_at,
            url: request.resolved_url(),
            name: request.name.trim().to_string(),
            kind: request.kind,
            description: request.description,
            cluster: None,
            associated_services_count: 0,
            config: request.config.public(),
        };
        (registry, secrets)
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

/// The secret credentials of a registry's (or helm repository's) config, stored apart.
pub fn config_secrets(config: &RegistryConfigRequest) -> Secrets {
    config
        .secrets()
        .into_iter()
        .map(|(name, value)| (name.to_string(), value.to_string()))
        .collect()
}
