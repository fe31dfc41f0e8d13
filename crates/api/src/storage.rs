//! Volumes of a service that runs instances: kept across deployments.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Storage {
    pub id: Uuid,
    #[serde(rename = "type")]
    pub storage_type: String,
    /// GiB
    pub size: i64,
    pub mount_point: String,
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct StorageRequest {
    /// The volume's id when an update keeps it (the production document names each by id).
    #[serde(default)]
    pub id: Option<Uuid>,
    #[serde(rename = "type")]
    pub storage_type: String,
    pub size: i64,
    pub mount_point: String,
}

impl From<&Storage> for StorageRequest {
    fn from(storage: &Storage) -> Self {
        Self {
            id: Some(storage.id),
            storage_type: storage.storage_type.clone(),
            size: storage.size,
            mount_point: storage.mount_point.clone(),
        }
    }
}
