use platform_api::paths;
use platform_api::{
    AnnotationsGroup, AnnotationsGroupRequest, LabelsGroup, LabelsGroupRequest, List,
};
use uuid::Uuid;

use super::{Api, ApiError};

impl Api {
    pub async fn labels_groups(&self, org: Uuid) -> Result<Vec<LabelsGroup>, ApiError> {
        let list: List<LabelsGroup> = self.get(&paths::LABELS_GROUPS.at(&[org])).await?;
        Ok(list.results)
    }

    pub async fn create_labels_group(
        &self,
        org: Uuid,
        request: &LabelsGroupRequest,
    ) -> Result<LabelsGroup, ApiError> {
        self.post(&paths::LABELS_GROUPS.at(&[org]), request).await
    }

    pub async fn delete_labels_group(&self, org: Uuid, group: Uuid) -> Result<(), ApiError> {
        self.delete(&paths::LABELS_GROUP.at(&[org, group])).await
    }

    pub async fn annotations_groups(&self, org: Uuid) -> Result<Vec<AnnotationsGroup>, ApiError> {
        let list: List<AnnotationsGroup> = self.get(&paths::ANNOTATIONS_GROUPS.at(&[org])).await?;
        Ok(list.results)
    }

    pub async fn create_annotations_group(
        &self,
        org: Uuid,
        request: &AnnotationsGroupRequest,
    ) -> Result<AnnotationsGroup, ApiError> {
        self.post(&paths::ANNOTATIONS_GROUPS.at(&[org]), request)
            .await
    }

    pub async fn delete_annotations_group(&self, org: Uuid, group: Uuid) -> Result<(), ApiError> {
        self.delete(&paths::ANNOTATIONS_GROUP.at(&[org, group]))
            .await
    }
}
