use platform_api::{
    AnnotationsGroup, AnnotationsGroupRequest, LabelsGroup, LabelsGroupRequest, List,
};
use uuid::Uuid;

use super::{Api, ApiError};

impl Api {
    pub async fn labels_groups(&self, org: Uuid) -> Result<Vec<LabelsGroup>, ApiError> {
        let list: List<LabelsGroup> = self
            .get(&format!("/organization/{org}/labelsGroups"))
            .await?;
        Ok(list.results)
    }

    pub async fn create_labels_group(
        &self,
        org: Uuid,
        request: &LabelsGroupRequest,
    ) -> Result<LabelsGroup, ApiError> {
        self.post(&format!("/organization/{org}/labelsGroups"), request)
            .await
    }

    pub async fn delete_labels_group(&self, org: Uuid, group: Uuid) -> Result<(), ApiError> {
        self.delete(&format!("/organization/{org}/labelsGroups/{group}"))
            .await
    }

    pub async fn annotations_groups(&self, org: Uuid) -> Result<Vec<AnnotationsGroup>, ApiError> {
        let list: List<AnnotationsGroup> = self
            .get(&format!("/organization/{org}/annotationsGroups"))
            .await?;
        Ok(list.results)
    }

    pub async fn create_annotations_group(
        &self,
        org: Uuid,
        request: &AnnotationsGroupRequest,
    ) -> Result<AnnotationsGroup, ApiError> {
        self.post(&format!("/organization/{org}/annotationsGroups"), request)
            .await
    }

    pub async fn delete_annotations_group(&self, org: Uuid, group: Uuid) -> Result<(), ApiError> {
        self.delete(&format!("/organization/{org}/annotationsGroups/{group}"))
            .await
    }
}
