//! Databases: managed by the cloud provider, or run as a container in the cluster.

use platform_api::Databases;
use platform_api::{Database, FieldError, Reference, ServiceType};
use serde_json::Value;
use uuid::Uuid;

use crate::routes::services::resource::{over, timestamps, ServiceResource};

impl ServiceResource for Databases {
    const WHAT: &'static str = "database";

    fn validate(request: &Self::Request, _kept: &[&str]) -> Result<(), Vec<FieldError>> {
        request.validate()
    }

    fn build(
        id: Uuid,
        environment_id: Uuid,
        request: Self::Request,
        previous: Option<&Self::Record>,
    ) -> Self::Record {
        let (created_at, updated_at) = timestamps(previous.map(|p| p.created_at));
        Database {
            id,
            created_at,
            updated_at,
            icon_uri: ServiceType::Database.default_icon_uri(),
            environment: Reference { id: environment_id },
            name: request.name.trim().to_string(),
            description: request.description,
            service_type: ServiceType::Database,
            database_type: request.database_type,
            version: request.version,
            mode: request.mode,
            accessibility: request.accessibility,
            cpu: request.cpu,
            memory: request.memory,
            storage: request.storage,
        }
    }

    fn name(record: &Self::Record) -> &str {
        &record.name
    }

    /// The document's `DatabaseEditRequest` has no required field (nor type and mode at all).
    const PARTIAL_EDIT: bool = true;

    fn completed_update(previous: &Self::Record, body: Value) -> Value {
        over(previous.to_request(), body)
    }
}
