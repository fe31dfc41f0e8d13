//! Organization webhooks (spec 2.12): ADMIN only; the signing secret is never returned, only
//! `target_secret_set`.

use chrono::{DateTime, Utc};
use platform_api::{FieldError, Webhook, WebhookRequest};
use uuid::Uuid;

use super::organization_resources::OrganizationResource;
use crate::auth::Permission;
use crate::store::{Kind, Secrets};

const TARGET_SECRET: &str = "target_secret";

pub struct Webhooks;

impl OrganizationResource for Webhooks {
    const KIND: Kind = Kind {
        stored_as: "webhook",
        what: "webhook",
    };
    const COLLECTION: &'static str = "/organization/{organization_id}/webhook";
    const ITEM: &'static str = "/organization/{organization_id}/webhook/{webhook_id}";
    const READ: Permission = Permission::Admin;
    const WRITE: Permission = Permission::Admin;

    type Request = WebhookRequest;
    type Record = Webhook;

    fn validate(request: &Self::Request, _kept: &[&str]) -> Result<(), Vec<FieldError>> {
        request.validate()
    }

    fn build(
        id: Uuid,
        created_at: DateTime<Utc>,
        updated_at: Option<DateTime<Utc>>,
        request: Self::Request,
        _previous: Option<&Self::Record>,
    ) -> (Self::Record, Secrets) {
        let secrets = request
            .target_secret
            .filter(|secret| !secret.is_empty())
            .map(|secret| (TARGET_SECRET.to_string(), secret))
            .into_iter()
            .collect();
        let webhook = Webhook {
            id,
            created_at,
            updated_at,
            kind: request.kind,
            target_url: request.target_url.trim().to_string(),
            target_secret_set: false,
            description: request.description,
            enabled: request.enabled,
            events: request.events,
            project_names_filter: request.project_names_filter,
            environment_types_filter: request.environment_types_filter,
        };
        (webhook, secrets)
    }

    /// Webhooks have no name: each is its own.
    fn name(record: &Self::Record) -> String {
        record.id.to_string()
    }

    fn created_at(record: &Self::Record) -> DateTime<Utc> {
        record.created_at
    }

    fn reflect_secrets(record: &mut Self::Record, secrets: &Secrets) {
        record.target_secret_set = secrets.contains_key(TARGET_SECRET);
    }
}
