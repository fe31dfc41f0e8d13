use platform_api::{List, TfVarsFile, TfVarsListingRequest};
use uuid::Uuid;

use super::{Api, ApiError};

impl Api {
    /// The `.tfvars` files of a repository, with their variables.
    pub async fn tfvars_files(
        &self,
        org: Uuid,
        request: &TfVarsListingRequest,
    ) -> Result<Vec<TfVarsFile>, ApiError> {
        let list: List<TfVarsFile> = self
            .post(
                &format!("/organization/{org}/listTfVarsFilesFromGitRepo"),
                request,
            )
            .await?;
        Ok(list.results)
    }
}
