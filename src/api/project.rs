use platform_api::paths;
use platform_api::{List, Project, ProjectRequest, ProjectStats};
use uuid::Uuid;

use super::{Api, ApiError, Named};

fn projects_path(organization_id: Uuid) -> String {
    paths::PROJECTS.at(&[organization_id])
}

fn project_path(project_id: Uuid) -> String {
    paths::PROJECT.at(&[project_id])
}

impl Api {
    pub async fn projects(&self, organization_id: Uuid) -> Result<Vec<Project>, ApiError> {
        let list: List<Project> = self.get(&projects_path(organization_id)).await?;
        Ok(list.results)
    }

    /// How many environments and services each project holds, for all of them in one request.
    pub async fn project_stats(
        &self,
        organization_id: Uuid,
    ) -> Result<Vec<ProjectStats>, ApiError> {
        let path = paths::PROJECT_STATS.at(&[organization_id]);
        let list: List<ProjectStats> = self.get(&path).await?;
        Ok(list.results)
    }

    pub async fn project_names(&self, organization_id: Uuid) -> Result<Vec<Named>, ApiError> {
        let list: List<Named> = self.get(&projects_path(organization_id)).await?;
        Ok(list.results)
    }

    pub async fn project(&self, project_id: Uuid) -> Result<Project, ApiError> {
        self.get(&project_path(project_id)).await
    }

    pub async fn project_name(&self, project_id: Uuid) -> Result<Named, ApiError> {
        self.get(&project_path(project_id)).await
    }

    pub async fn create_project(
        &self,
        organization_id: Uuid,
        request: &ProjectRequest,
    ) -> Result<Project, ApiError> {
        self.post(&projects_path(organization_id), request).await
    }

    pub async fn update_project(
        &self,
        project_id: Uuid,
        request: &ProjectRequest,
    ) -> Result<Project, ApiError> {
        self.put(&project_path(project_id), request).await
    }

    pub async fn delete_project(&self, project_id: Uuid) -> Result<(), ApiError> {
        self.delete(&project_path(project_id)).await
    }
}
