use platform_api::{
    EnvironmentVariable, List, OverrideRequest, VariableBulk, VariableBulkRequest,
    VariableCreation, VariableImport, VariableImportRequest, VariableRequest, VariableScope,
};
use uuid::Uuid;

use super::{Api, ApiError};

impl Api {
    /// Every variable and secret seen at `parent`: its own, those of the levels above it, and the
    /// built-in ones; a secret's value is always `None`.
    pub async fn variables(
        &self,
        scope: VariableScope,
        parent: Uuid,
    ) -> Result<Vec<EnvironmentVariable>, ApiError> {
        let list: List<EnvironmentVariable> = self
            .get(&format!(
                "/variable?parent_id={parent}&scope={}",
                scope.as_str()
            ))
            .await?;
        Ok(list.results)
    }

    pub async fn create_variable(
        &self,
        request: &VariableCreation,
    ) -> Result<EnvironmentVariable, ApiError> {
        self.post("/variable", request).await
    }

    /// A secret's `value` left out keeps the stored one.
    pub async fn update_variable(
        &self,
        variable: Uuid,
        request: &VariableRequest,
    ) -> Result<EnvironmentVariable, ApiError> {
        self.put(&format!("/variable/{variable}"), request).await
    }

    /// Imports variables at `parent` (of `scope`) or the levels above it, all or none.
    pub async fn import_variables(
        &self,
        scope: VariableScope,
        parent: Uuid,
        request: &VariableImportRequest,
    ) -> Result<VariableImport, ApiError> {
        self.post(&variables_of(scope, parent, "import")?, request)
            .await
    }

    /// Deletes, makes secret and sets variables defined at `parent` (of `scope`), all or none.
    pub async fn bulk_variables(
        &self,
        scope: VariableScope,
        parent: Uuid,
        request: &VariableBulkRequest,
    ) -> Result<VariableBulk, ApiError> {
        self.post(&variables_of(scope, parent, "bulk")?, request)
            .await
    }

    pub async fn delete_variable(&self, variable: Uuid) -> Result<(), ApiError> {
        self.delete(&format!("/variable/{variable}")).await
    }

    pub async fn override_variable(
        &self,
        variable: Uuid,
        request: &OverrideRequest,
    ) -> Result<EnvironmentVariable, ApiError> {
        self.post(&format!("/variable/{variable}/override"), request)
            .await
    }
}

/// `/{scope}/{parent}/environmentVariable/{action}`.
fn variables_of(scope: VariableScope, parent: Uuid, action: &str) -> Result<String, ApiError> {
    let segment = match scope {
        VariableScope::Project => "project",
        VariableScope::Environment => "environment",
        other => other
            .service_type()
            .map(|kind| kind.path_segment())
            .ok_or_else(|| ApiError::NotFound("Nothing holds built-in variables.".into()))?,
    };
    Ok(format!("/{segment}/{parent}/environmentVariable/{action}"))
}
