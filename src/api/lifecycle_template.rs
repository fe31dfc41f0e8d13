use platform_api::{paths, LifecycleTemplate, LifecycleTemplateSummary, List};
use uuid::Uuid;

use super::{Api, ApiError};

impl Api {
    /// The lifecycle job templates of the environment's cloud.
    pub async fn lifecycle_templates(
        &self,
        environment: Uuid,
    ) -> Result<Vec<LifecycleTemplateSummary>, ApiError> {
        let listed: List<LifecycleTemplateSummary> = self
            .get(&paths::LIFECYCLE_TEMPLATES.at(&[environment]))
            .await?;
        Ok(listed.results)
    }

    pub async fn lifecycle_template(
        &self,
        environment: Uuid,
        template: Uuid,
    ) -> Result<LifecycleTemplate, ApiError> {
        self.get(&paths::LIFECYCLE_TEMPLATE.at(&[environment, template]))
            .await
    }
}
