//! Containers: services run from an image of a container registry.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::autoscaling::Autoscaling;
use crate::common::Reference;
use crate::error::FieldError;
use crate::groups::{AnnotationsGroup, LabelsGroup};
use crate::ports::Port;
use crate::probes::Healthchecks;
use crate::registry::RegistryKind;
use crate::rules::{self, Violations};
use crate::runtime::{runtime_request_of, RuntimeRequest};
use crate::service_type::ServiceType;
use crate::storage::Storage;

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Container {
    pub id: Uuid,
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    #[serde(default, with = "crate::timestamp::option")]
    pub updated_at: Option<DateTime<Utc>>,
    pub environment: Reference,
    pub name: String,
    pub description: Option<String>,
    /// The platform requires one: the kind's own icon.
    #[serde(default)]
    pub icon_uri: String,
    pub service_type: ServiceType,
    /// The container registry the image comes from.
    pub registry: RegistryOfImage,
    pub image_name: String,
    pub tag: String,
    pub cpu: i64,
    pub memory: i64,
    pub gpu: i64,
    /// What the service may use at most: here, what it is given.
    pub maximum_cpu: i64,
    pub maximum_memory: i64,
    pub maximum_gpu: i64,
    pub min_running_instances: i64,
    pub max_running_instances: i64,
    /// Whether preview environments get this service.
    #[serde(default)]
    pub auto_preview: bool,
    #[serde(default)]
    pub auto_deploy: bool,
    #[serde(default)]
    pub arguments: Vec<String>,
    pub entrypoint: Option<String>,
    #[serde(default)]
    pub ports: Vec<Port>,
    #[serde(default)]
    pub storage: Vec<Storage>,
    pub healthchecks: Healthchecks,
    #[serde(default)]
    pub annotations_groups: Vec<AnnotationsGroup>,
    #[serde(default)]
    pub labels_groups: Vec<LabelsGroup>,
    #[serde(default)]
    pub autoscaling: Option<Autoscaling>,
}

/// The registry an image comes from, as a container or a job names it (the production
/// document's `ContainerRegistryProviderDetailsResponse`). The server stores its id; its name,
/// address and kind are the registry's own, read with the service.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RegistryOfImage {
    pub id: Uuid,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub url: String,
    #[serde(default)]
    pub kind: Option<RegistryKind>,
}

impl RegistryOfImage {
    /// The registry with this id, as stored (the rest is filled when read).
    pub fn stored(id: Uuid) -> Self {
        Self {
            id,
            name: String::new(),
            url: String::new(),
            kind: None,
        }
    }
}

/// Body of `POST /environment/{id}/container` and of its update.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ContainerRequest {
    pub name: String,
    #[serde(default)]
    pub description: Option<String>,
    pub registry_id: Uuid,
    pub image_name: String,
    pub tag: String,
    /// What it runs with and how it is deployed, as an application's request says it too.
    #[serde(flatten, deserialize_with = "crate::flat::strictly")]
    #[cfg_attr(feature = "openapi", schema(inline))]
    pub runtime: RuntimeRequest,
}

impl Container {
    /// The update that keeps the container as it is.
    pub fn to_request(&self) -> ContainerRequest {
        ContainerRequest {
            name: self.name.clone(),
            description: self.description.clone(),
            registry_id: self.registry.id,
            image_name: self.image_name.clone(),
            tag: self.tag.clone(),
            runtime: runtime_request_of!(self),
        }
    }
}

impl ContainerRequest {
    pub fn validate(&self) -> Result<(), Vec<FieldError>> {
        let mut violations = Violations::default();
        violations.check(rules::name("name", &self.name));
        violations.check(rules::description(
            "description",
            self.description.as_deref(),
        ));
        violations.check(rules::image_name("image_name", &self.image_name));
        violations.check(rules::image_tag("tag", &self.tag));
        self.runtime.check(&mut violations);
        violations.into_result()
    }
}
