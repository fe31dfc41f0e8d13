use platform_api::paths;
use platform_api::{
    CloneEnvironmentRequest, Cloned, DeployAllRequest, Environment, EnvironmentDeployment,
    EnvironmentDeploymentPage, EnvironmentRequest, EnvironmentState, EnvironmentStatuses, List,
    ServiceIds, ServiceType,
};
use uuid::Uuid;

use super::{Api, ApiError, Named, NoFields};

fn environments_path(project_id: Uuid) -> String {
    paths::ENVIRONMENTS.at(&[project_id])
}

fn statuses_path(environment_id: Uuid) -> String {
    paths::ENVIRONMENT_STATUSES.at(&[environment_id])
}

fn environment_path(environment_id: Uuid) -> String {
    paths::ENVIRONMENT.at(&[environment_id])
}

impl Api {
    pub async fn environments(&self, project_id: Uuid) -> Result<Vec<Environment>, ApiError> {
        let list: List<Environment> = self.get(&environments_path(project_id)).await?;
        Ok(list.results)
    }

    /// The state of every environment of the project, in one request.
    pub async fn environment_states(
        &self,
        project_id: Uuid,
    ) -> Result<Vec<EnvironmentState>, ApiError> {
        let path = paths::ENVIRONMENTS_STATUS.at(&[project_id]);
        let list: List<EnvironmentState> = self.get(&path).await?;
        Ok(list.results)
    }

    pub async fn environment_names(&self, project_id: Uuid) -> Result<Vec<Named>, ApiError> {
        let list: List<Named> = self.get(&environments_path(project_id)).await?;
        Ok(list.results)
    }

    pub async fn environment(&self, environment_id: Uuid) -> Result<Environment, ApiError> {
        self.get(&environment_path(environment_id)).await
    }

    pub async fn environment_name(&self, environment_id: Uuid) -> Result<Named, ApiError> {
        self.get(&environment_path(environment_id)).await
    }

    pub async fn create_environment(
        &self,
        project_id: Uuid,
        request: &EnvironmentRequest,
    ) -> Result<Environment, ApiError> {
        self.post(&environments_path(project_id), request).await
    }

    pub async fn update_environment(
        &self,
        environment_id: Uuid,
        request: &EnvironmentRequest,
    ) -> Result<Environment, ApiError> {
        self.put(&environment_path(environment_id), request).await
    }

    /// A copy of the environment, its services, variables and secrets: nothing deployed; and
    /// what it left out, where the API says.
    pub async fn clone_environment(
        &self,
        environment_id: Uuid,
        request: &CloneEnvironmentRequest,
    ) -> Result<Cloned<Environment>, ApiError> {
        self.post(&paths::ENVIRONMENT_CLONE.at(&[environment_id]), request)
            .await
    }

    /// The environment as Terraform manifests (`main.tf`): its services and variables, each
    /// secret an input variable to give, never its value.
    pub async fn terraform_export(&self, environment_id: Uuid) -> Result<String, ApiError> {
        self.get_text(&paths::ENVIRONMENT_TERRAFORM_EXPORT.at(&[environment_id]))
            .await
    }

    pub async fn delete_environment(&self, environment_id: Uuid) -> Result<(), ApiError> {
        self.delete(&environment_path(environment_id)).await
    }

    /// Every service status of the environment, in one call.
    pub async fn environment_statuses(
        &self,
        environment_id: Uuid,
    ) -> Result<EnvironmentStatuses, ApiError> {
        self.get(&statuses_path(environment_id)).await
    }

    /// What the environment's page reads first (its services and their statuses), asked for
    /// before its code has arrived.
    pub fn prefetch_environment_page(&self, environment_id: Uuid) {
        self.prefetch(super::service::services_path(environment_id));
        self.prefetch(statuses_path(environment_id));
    }

    /// Runs `action` on every service of the environment it applies to, as `statuses` stand. The
    /// answer is not read: the page polls the statuses.
    pub async fn act_on_environment(
        &self,
        environment_id: Uuid,
        action: EnvironmentAction,
        statuses: &EnvironmentStatuses,
    ) -> Result<(), ApiError> {
        let path = format!(
            "{}/{}",
            paths::ENVIRONMENT.at(&[environment_id]),
            action.path_suffix()
        );
        let sent = match action {
            // The platform restarts the services it names, of the kinds it restarts.
            EnvironmentAction::Restart => {
                let running: Vec<(ServiceType, Uuid)> = statuses
                    .all()
                    .filter(|status| status.runs())
                    .filter_map(|status| Some((statuses.kind_of(status.id)?, status.id)))
                    .filter(|(kind, _)| kind.restarts())
                    .collect();
                self.post::<_, serde::de::IgnoredAny>(&path, &ServiceIds::of(&running))
                    .await
            }
            _ => {
                self.post::<_, serde::de::IgnoredAny>(&path, &NoFields {})
                    .await
            }
        };
        sent.map(drop)
    }

    /// One page (from 1) of the environment's deployments, newest first.
    pub async fn environment_history(
        &self,
        environment_id: Uuid,
        page: u32,
        page_size: u32,
    ) -> Result<EnvironmentDeploymentPage, ApiError> {
        self.get(&format!(
            "{}?page={page}&pageSize={page_size}",
            paths::ENVIRONMENT_HISTORY.at(&[environment_id])
        ))
        .await
    }

    /// Deploys again what every service of an earlier deployment of the environment deployed.
    pub async fn roll_back_environment(
        &self,
        environment_id: Uuid,
        deployment: &EnvironmentDeployment,
    ) -> Result<(), ApiError> {
        self.post::<_, serde::de::IgnoredAny>(
            &paths::SELECTED_DEPLOY.at(&[environment_id]),
            &DeployAllRequest::rolling_back_to(deployment),
        )
        .await
        .map(|_| ())
    }

    /// Runs `action` on the services selected (each its kind and id): all of them, or none and
    /// the error naming each refused (`application_ids[1]`, in the order of
    /// `ServiceIds::of(services).each()`).
    pub async fn act_on_selected(
        &self,
        environment_id: Uuid,
        action: SelectedAction,
        services: &[(ServiceType, Uuid)],
    ) -> Result<(), ApiError> {
        let path = format!(
            "{}/service/{}",
            paths::ENVIRONMENT.at(&[environment_id]),
            action.path_suffix()
        );
        let sent = match action {
            SelectedAction::Deploy => {
                self.post::<_, serde::de::IgnoredAny>(&path, &DeployAllRequest::of(services))
                    .await
            }
            _ => {
                self.post::<_, serde::de::IgnoredAny>(&path, &ServiceIds::of(services))
                    .await
            }
        };
        sent.map(|_| ())
    }
}

/// What can be done to services selected in an environment, through the environment's calls on
/// selected services: the server checks every one before it starts any.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SelectedAction {
    Deploy,
    Restart,
    Stop,
    Delete,
}

impl SelectedAction {
    fn path_suffix(self) -> &'static str {
        match self {
            SelectedAction::Deploy => "deploy",
            SelectedAction::Restart => "restart-service",
            SelectedAction::Stop => "stop",
            SelectedAction::Delete => "delete",
        }
    }

    /// The action in a word, for the progress of a selection ("Restart").
    pub fn label(self) -> &'static str {
        match self {
            SelectedAction::Deploy => "Deploy",
            SelectedAction::Restart => "Restart",
            SelectedAction::Stop => "Stop",
            SelectedAction::Delete => "Delete",
        }
    }
}

/// What can be done to a whole environment: the platform runs it on each service it applies to
/// (a stop skips the services that run nothing; an uninstall those with nothing installed; a
/// restart names the running services of the kinds it restarts; a cancel stops every action
/// running or waiting).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EnvironmentAction {
    Deploy,
    /// Each deployed service deployed again at the version it runs.
    Redeploy,
    Restart,
    Stop,
    /// Each installed service's compute and data deleted, its configuration kept.
    Uninstall,
    Cancel,
}

impl EnvironmentAction {
    fn path_suffix(self) -> &'static str {
        match self {
            EnvironmentAction::Deploy => "deploy",
            EnvironmentAction::Redeploy => "redeploy",
            EnvironmentAction::Restart => "service/restart-service",
            EnvironmentAction::Stop => "stop",
            EnvironmentAction::Uninstall => "uninstall",
            EnvironmentAction::Cancel => "cancelDeployment",
        }
    }

    /// What the server accepted, said to the person.
    pub fn accepted(self) -> &'static str {
        match self {
            EnvironmentAction::Deploy => "Deployment of every service queued.",
            EnvironmentAction::Redeploy => "Redeployment of the deployed services queued.",
            EnvironmentAction::Restart => "Restart of the running services queued.",
            EnvironmentAction::Stop => "Stop of the running services queued.",
            EnvironmentAction::Uninstall => "Uninstall of the installed services queued.",
            EnvironmentAction::Cancel => {
                "Cancel requested: the environment's deployment stops now."
            }
        }
    }
}
