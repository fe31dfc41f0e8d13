use platform_api::paths;
use platform_api::{
    AliasRequest, EnvironmentVariable, List, OverrideRequest, ServiceType, VariableBulk,
    VariableBulkRequest, VariableCreation, VariableImport, VariableImportRequest, VariableRequest,
    VariableScope, VARIABLE_PAGE_SIZE_MAX,
};
use uuid::Uuid;

use gloo_net::http::Method;

use super::{Api, ApiError, Enhancement};

impl Api {
    /// Every variable and secret seen at `parent`: its own, those of the levels above it, and the
    /// built-in ones; a secret's value is always `None`. Read by pages where the API pages the
    /// list (ours: a page is bounded), whole in one answer where it does not (the platform,
    /// `Enhancement::VariablePages`).
    pub async fn variables(
        &self,
        scope: VariableScope,
        parent: Uuid,
    ) -> Result<Vec<EnvironmentVariable>, ApiError> {
        let whole = format!(
            "{}?parent_id={parent}&scope={}",
            paths::VARIABLES,
            scope.as_str()
        );
        if self.lacks(Enhancement::VariablePages) {
            let list: List<EnvironmentVariable> = self.get(&whole).await?;
            return Ok(list.results);
        }
        let mut variables = Vec::new();
        for page in 1.. {
            let asked = format!("{whole}&pageSize={VARIABLE_PAGE_SIZE_MAX}&page={page}");
            let list: List<EnvironmentVariable> = match self.get(&asked).await {
                Ok(list) => list,
                // An API refusing the pages' parameters: the whole list, as the platform has it.
                Err(ApiError::Invalid { .. }) if page == 1 => {
                    self.learn_lacking(Enhancement::VariablePages);
                    self.get(&whole).await?
                }
                Err(error) => return Err(error),
            };
            if list.page_size.is_none() {
                // Answered whole: the parameters were ignored, as the platform does.
                self.learn_lacking(Enhancement::VariablePages);
            }
            let more = list.is_full_page();
            variables.extend(list.results);
            if !more {
                break;
            }
        }
        Ok(variables)
    }

    pub async fn create_variable(
        &self,
        request: &VariableCreation,
    ) -> Result<EnvironmentVariable, ApiError> {
        self.post(paths::VARIABLES.0, request).await
    }

    /// A secret's `value` left out keeps the stored one.
    pub async fn update_variable(
        &self,
        variable: Uuid,
        request: &VariableRequest,
    ) -> Result<EnvironmentVariable, ApiError> {
        self.put(&paths::VARIABLE.at(&[variable]), request).await
    }

    /// Imports variables at the service `parent` (of `kind`) or the levels above it, each at
    /// the scope it names, all or none.
    pub async fn import_variables(
        &self,
        kind: ServiceType,
        parent: Uuid,
        request: &VariableImportRequest,
    ) -> Result<VariableImport, ApiError> {
        let path = format!(
            "{}?service_id={parent}&service_type={}",
            paths::VARIABLES_IMPORT,
            kind.as_str()
        );
        self.post(&path, request).await
    }

    /// Deletes, makes secret and sets variables defined at `parent` (of `scope`), of which
    /// `current` are those seen there: in one request applied whole where the API has it, one
    /// request per variable where it does not (a failure stops there, saying how many were
    /// made).
    pub async fn bulk_variables(
        &self,
        scope: VariableScope,
        parent: Uuid,
        request: &VariableBulkRequest,
        current: &[EnvironmentVariable],
    ) -> Result<VariableBulk, ApiError> {
        let path = variables_of(scope, parent, "bulk")?;
        let whole = self
            .enhanced(
                Enhancement::VariableBulk,
                Method::POST,
                &path,
                Some(request),
            )
            .await?;
        match whole {
            Some(done) => Ok(done),
            None => {
                let mut done = VariableBulk::default();
                self.one_by_one(scope, parent, request, current, &mut done)
                    .await
                    .map_err(|error| match done.total() {
                        0 => error,
                        applied => ApiError::PartlyApplied {
                            applied,
                            error: Box::new(error),
                        },
                    })?;
                Ok(done)
            }
        }
    }

    /// `bulk_variables` as the platform does it, one variable at a time, counting in `done`.
    async fn one_by_one(
        &self,
        scope: VariableScope,
        parent: Uuid,
        request: &VariableBulkRequest,
        current: &[EnvironmentVariable],
        done: &mut VariableBulk,
    ) -> Result<(), ApiError> {
        for id in &request.delete {
            self.delete_variable(*id).await?;
            done.deleted += 1;
        }
        let creation = |key: &str,
                        value: Option<String>,
                        is_secret: bool,
                        of: Option<&EnvironmentVariable>| {
            VariableCreation {
                variable: VariableRequest {
                    key: key.to_string(),
                    value,
                    mount_path: of.and_then(|variable| variable.mount_path.clone()),
                    description: of.and_then(|variable| variable.description.clone()),
                    enable_interpolation_in_file: of
                        .is_some_and(|variable| variable.enable_interpolation_in_file),
                },
                is_secret,
                variable_scope: scope,
                variable_parent_id: parent,
            }
        };
        // A secret of the same key cannot stand beside the variable: the variable goes first,
        // and comes back if the secret is refused.
        for id in &request.to_secret {
            let variable = current
                .iter()
                .find(|variable| variable.id == *id)
                .ok_or_else(|| ApiError::NotFound("A variable to make secret is gone.".into()))?;
            self.delete_variable(*id).await?;
            let secret = creation(&variable.key, variable.value.clone(), true, Some(variable));
            if let Err(error) = self.create_variable(&secret).await {
                let plain = creation(&variable.key, variable.value.clone(), false, Some(variable));
                self.create_variable(&plain).await?;
                return Err(error);
            }
            done.moved_to_secret += 1;
        }
        for set in &request.set {
            match set.id {
                Some(id) => {
                    let update = VariableRequest {
                        key: set.key.clone(),
                        value: Some(set.value.clone()),
                        mount_path: None,
                        description: None,
                        enable_interpolation_in_file: false,
                    };
                    self.update_variable(id, &update).await?;
                    done.updated += 1;
                }
                None => {
                    self.create_variable(&creation(&set.key, Some(set.value.clone()), false, None))
                        .await?;
                    done.created += 1;
                }
            }
        }
        Ok(())
    }

    pub async fn delete_variable(&self, variable: Uuid) -> Result<(), ApiError> {
        self.delete(&paths::VARIABLE.at(&[variable])).await
    }

    /// Another key for `variable` at the level the request names, following its value.
    pub async fn alias_variable(
        &self,
        variable: Uuid,
        request: &AliasRequest,
    ) -> Result<EnvironmentVariable, ApiError> {
        self.post(&paths::VARIABLE_ALIAS.at(&[variable]), request)
            .await
    }

    pub async fn override_variable(
        &self,
        variable: Uuid,
        request: &OverrideRequest,
    ) -> Result<EnvironmentVariable, ApiError> {
        self.post(&paths::VARIABLE_OVERRIDE.at(&[variable]), request)
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
