//! Several services of an environment acted on at once (the production document's
//! `DeployAllRequest` and `EnvironmentServiceIdsAllRequest`): each service named by its kind's
//! list, with what to deploy for each when deploying.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::deploy::{DeployRequest, TerraformDeployAction};
use crate::error::FieldError;
use crate::history::EnvironmentDeployment;
use crate::service_type::ServiceType;

/// An application to deploy, at a commit or the branch's latest.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ApplicationToDeploy {
    pub application_id: Uuid,
    #[serde(default)]
    pub git_commit_id: Option<String>,
    /// Ours: as `DeployRequest::rollback_to`.
    #[serde(default)]
    pub rollback_to: Option<String>,
}

/// A service of another kind to deploy: what it takes of `git_commit_id` (built from git),
/// `image_tag` (run from an image), `chart_version` (a chart of a helm repository), `action`
/// (terraform: PLAN).
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ServiceToDeploy {
    pub id: Uuid,
    #[serde(default)]
    pub git_commit_id: Option<String>,
    #[serde(default)]
    pub image_tag: Option<String>,
    #[serde(default)]
    pub chart_version: Option<String>,
    #[serde(default)]
    pub action: Option<TerraformDeployAction>,
    /// Ours: as `DeployRequest::rollback_to`.
    #[serde(default)]
    pub rollback_to: Option<String>,
}

/// Body of `POST /environment/{id}/service/deploy`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DeployAllRequest {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub applications: Vec<ApplicationToDeploy>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub databases: Vec<Uuid>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub containers: Vec<ServiceToDeploy>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub jobs: Vec<ServiceToDeploy>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub helms: Vec<ServiceToDeploy>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub terraforms: Vec<ServiceToDeploy>,
}

/// One service of a selection: the request's field that names it (`applications[1]`), its kind
/// and id.
#[derive(Clone, Debug, PartialEq)]
pub struct Selected {
    pub field: String,
    pub kind: ServiceType,
    pub id: Uuid,
}

impl DeployAllRequest {
    /// Every service to deploy, with its deploy as the kind's own route takes it.
    pub fn each(&self) -> Vec<(Selected, DeployRequest)> {
        let named = |list: &str, at: usize, kind, id| Selected {
            field: format!("{list}[{at}]"),
            kind,
            id,
        };
        let mut each = Vec::new();
        for (at, application) in self.applications.iter().enumerate() {
            each.push((
                named(
                    "applications",
                    at,
                    ServiceType::Application,
                    application.application_id,
                ),
                DeployRequest {
                    git_commit_id: application.git_commit_id.clone(),
                    rollback_to: application.rollback_to.clone(),
                    ..DeployRequest::default()
                },
            ));
        }
        for (at, id) in self.databases.iter().enumerate() {
            each.push((
                named("databases", at, ServiceType::Database, *id),
                DeployRequest::default(),
            ));
        }
        for (list, kind, services) in [
            ("containers", ServiceType::Container, &self.containers),
            ("jobs", ServiceType::Job, &self.jobs),
            ("helms", ServiceType::Helm, &self.helms),
            ("terraforms", ServiceType::Terraform, &self.terraforms),
        ] {
            for (at, service) in services.iter().enumerate() {
                each.push((
                    named(list, at, kind, service.id),
                    DeployRequest {
                        git_commit_id: service.git_commit_id.clone(),
                        image_tag: service.image_tag.clone(),
                        chart_version: service.chart_version.clone(),
                        action: service.action,
                        rollback_to: service.rollback_to.clone(),
                        ..DeployRequest::default()
                    },
                ));
            }
        }
        each
    }

    /// The deploy of these services as they are (the branch's latest, the tags they have).
    pub fn of(services: &[(ServiceType, Uuid)]) -> Self {
        let mut request = Self::default();
        for &(kind, id) in services {
            request.add(kind, id, DeployRequest::default());
        }
        request
    }

    /// The deploy that puts back what every service of an environment's deployment deployed
    /// (each as `DeployRequest::rolling_back_to`).
    pub fn rolling_back_to(deployment: &EnvironmentDeployment) -> Self {
        let mut request = Self::default();
        for entry in deployment.services() {
            request.add(
                entry.identifier.service_type,
                entry.identifier.service_id,
                DeployRequest::rolling_back_to(entry),
            );
        }
        request
    }

    /// One more service, deployed as `deploy` says.
    fn add(&mut self, kind: ServiceType, id: Uuid, deploy: DeployRequest) {
        let service = ServiceToDeploy {
            id,
            git_commit_id: deploy.git_commit_id.clone(),
            image_tag: deploy.image_tag,
            chart_version: deploy.chart_version,
            action: deploy.action,
            rollback_to: deploy.rollback_to.clone(),
        };
        match kind {
            ServiceType::Application => self.applications.push(ApplicationToDeploy {
                application_id: id,
                git_commit_id: deploy.git_commit_id,
                rollback_to: deploy.rollback_to,
            }),
            ServiceType::Database => self.databases.push(id),
            ServiceType::Container => self.containers.push(service),
            ServiceType::Job => self.jobs.push(service),
            ServiceType::Helm => self.helms.push(service),
            ServiceType::Terraform => self.terraforms.push(service),
            // Nothing deploys a kind this version does not know.
            ServiceType::Other(_) => {}
        }
    }
}

/// Body of `POST /environment/{id}/service/{restart-service|stop|uninstall|delete}`: the
/// services, by kind.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ServiceIds {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub application_ids: Vec<Uuid>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub container_ids: Vec<Uuid>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub database_ids: Vec<Uuid>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub job_ids: Vec<Uuid>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub helm_ids: Vec<Uuid>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub terraform_ids: Vec<Uuid>,
}

impl ServiceIds {
    fn lists(&self) -> [(&'static str, ServiceType, &Vec<Uuid>); 6] {
        [
            (
                "application_ids",
                ServiceType::Application,
                &self.application_ids,
            ),
            ("container_ids", ServiceType::Container, &self.container_ids),
            ("database_ids", ServiceType::Database, &self.database_ids),
            ("job_ids", ServiceType::Job, &self.job_ids),
            ("helm_ids", ServiceType::Helm, &self.helm_ids),
            ("terraform_ids", ServiceType::Terraform, &self.terraform_ids),
        ]
    }

    /// Every service named, with the field naming it (`container_ids[0]`).
    pub fn each(&self) -> Vec<Selected> {
        self.lists()
            .into_iter()
            .flat_map(|(list, kind, ids)| {
                ids.iter().enumerate().map(move |(at, id)| Selected {
                    field: format!("{list}[{at}]"),
                    kind,
                    id: *id,
                })
            })
            .collect()
    }

    /// These services, by kind.
    pub fn of(services: &[(ServiceType, Uuid)]) -> Self {
        let mut ids = Self::default();
        for &(kind, id) in services {
            match kind {
                ServiceType::Application => ids.application_ids.push(id),
                ServiceType::Container => ids.container_ids.push(id),
                ServiceType::Database => ids.database_ids.push(id),
                ServiceType::Job => ids.job_ids.push(id),
                ServiceType::Helm => ids.helm_ids.push(id),
                ServiceType::Terraform => ids.terraform_ids.push(id),
                ServiceType::Other(_) => {}
            }
        }
        ids
    }
}

/// A selection names at least one service, each once.
pub fn validate_selection(selected: &[Selected]) -> Result<(), Vec<FieldError>> {
    if selected.is_empty() {
        return Err(vec![FieldError::new(
            "services",
            "must name at least one service",
        )]);
    }
    let mut seen = std::collections::HashSet::new();
    let repeated: Vec<FieldError> = selected
        .iter()
        .filter(|service| !seen.insert(service.id))
        .map(|service| FieldError::new(&service.field, "names a service already named"))
        .collect();
    if repeated.is_empty() {
        Ok(())
    } else {
        Err(repeated)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_selection_reads_back_by_kind_with_its_fields() {
        let (a, b) = (Uuid::new_v4(), Uuid::new_v4());
        let ids = ServiceIds::of(&[(ServiceType::Container, a), (ServiceType::Application, b)]);
        let each = ids.each();
        assert_eq!(each[0].field, "application_ids[0]");
        assert_eq!(each[1].field, "container_ids[0]");
        assert!(validate_selection(&each).is_ok());
        let twice = ServiceIds::of(&[(ServiceType::Container, a), (ServiceType::Container, a)]);
        assert_eq!(
            validate_selection(&twice.each()).unwrap_err()[0].field,
            "container_ids[1]"
        );
        assert!(validate_selection(&[]).is_err());
        let deploy = DeployAllRequest::of(&[(ServiceType::Helm, a), (ServiceType::Application, b)]);
        let each = deploy.each();
        assert_eq!(
            (each[0].0.field.as_str(), each[0].0.id),
            ("applications[0]", b)
        );
        assert_eq!(each[1].0.field, "helms[0]");
    }
}
