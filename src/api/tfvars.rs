//! A terraform service's files and versions: the `.tfvars` files of a repository, the versions
//! of each engine.

use platform_api::paths;
use platform_api::{List, TerraformVersion, TfVarsFile, TfVarsListingRequest};
use uuid::Uuid;

use super::{Api, ApiError};

impl Api {
    /// The `.tfvars` files of a repository, with their variables.
    pub async fn tfvars_files(
        &self,
        org: Uuid,
        request: &TfVarsListingRequest,
    ) -> Result<Vec<TfVarsFile>, ApiError> {
        let list: List<TfVarsFile> = self.post(&paths::TFVARS_FILES.at(&[org]), request).await?;
        Ok(list.results)
    }
}

impl Api {
    /// The versions of each engine a terraform service may run.
    pub async fn terraform_versions(&self) -> Result<Vec<TerraformVersion>, ApiError> {
        let list: List<TerraformVersion> = self.get(paths::TERRAFORM_VERSIONS.0).await?;
        Ok(list.results)
    }
}
