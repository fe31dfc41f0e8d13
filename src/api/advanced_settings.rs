//! Advanced settings of a service or a cluster, and the defaults of each owner.

use platform_api::advanced_settings::{AdvancedSettings, SettingsOf};
use platform_api::paths;
use platform_api::ServiceType;
use uuid::Uuid;

use super::{Api, ApiError};

/// What a page of advanced settings is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SettingsOwner {
    Service(ServiceType, Uuid),
    Cluster { organization: Uuid, cluster: Uuid },
}

impl SettingsOwner {
    /// The settings the owner has; `None` for a service without any (a database).
    pub fn settings_of(self) -> Option<SettingsOf> {
        match self {
            SettingsOwner::Service(kind, _) => SettingsOf::service(kind),
            SettingsOwner::Cluster { .. } => Some(SettingsOf::Cluster),
        }
    }

    fn path(self) -> String {
        match self {
            SettingsOwner::Service(kind, id) => {
                format!("{}/advancedSettings", kind.item_path(id))
            }
            SettingsOwner::Cluster {
                organization,
                cluster,
            } => paths::CLUSTER_ADVANCED_SETTINGS.at(&[organization, cluster]),
        }
    }
}

impl Api {
    pub async fn advanced_settings(
        &self,
        owner: SettingsOwner,
    ) -> Result<AdvancedSettings, ApiError> {
        self.get(&owner.path()).await
    }

    /// Sends every setting as `settings` has them; the answer is every setting as saved.
    pub async fn edit_advanced_settings(
        &self,
        owner: SettingsOwner,
        settings: &AdvancedSettings,
    ) -> Result<AdvancedSettings, ApiError> {
        self.put(&owner.path(), settings).await
    }

    pub async fn advanced_settings_defaults(
        &self,
        of: SettingsOf,
    ) -> Result<AdvancedSettings, ApiError> {
        self.get(&of.defaults_path()).await
    }
}
