use platform_api::{List, Project, ProjectRequest};
use uuid::Uuid;

use super::{Api, ApiError};

impl Api {
    pub async fn projects(&self, organization_id: Uuid) -> Result<Vec<Project>, ApiError> {
        let list: List<Project> = self
            .get(&format!("/organization/{organization_id}/project"))
            .await?;
        Ok(list.results)
    }

    pub async fn project(&self, project_id: Uuid) -> Result<Project, ApiError> {
        self.get(&format!("/project/{project_id}")).await
    }

    pub async fn create_project(
        &self,
        organization_id: Uuid,
        request: &ProjectRequest,
    ) -> Result<Project, ApiError> {
        self.post(&format!("/organization/{organization_id}/project"), request)
            .await
    }

    pub async fn update_project(
        &self,
        project_id: Uuid,
        request: &ProjectRequest,
    ) -> Result<Project, ApiError> {
        self.put(&format!("/project/{project_id}"), request).await
    }

    pub async fn delete_project(&self, project_id: Uuid) -> Result<(), ApiError> {
        self.delete(&format!("/project/{project_id}")).await
    }
}
