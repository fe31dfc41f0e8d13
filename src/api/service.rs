//! What every kind of service shares: listing, reading, status, actions, history, log. Each
//! kind's routes are its `ServiceType::item_path` and `collection_path`, the server's too.

use futures::FutureExt;
use platform_api::paths;
use platform_api::{
    ActionStatus, Application, CloneServiceRequest, Cloned, Commit, Container, Contributor,
    Credentials, Database, DatabaseConfiguration, DatabaseVersion, DeployRequest,
    DeploymentHistoryEntry, DeploymentHistoryPage, DeploymentLogLine, GitRepository, GitSource,
    HelmDefaultValuesRequest, HelmRequest, HelmService, HistoryOutcome, IngressDeploymentStatus,
    InstanceLogLine, Job, JobRequest, Link, List, LogLine, QueuedDeploymentRequest, ServiceKind,
    ServiceType, Status, TerraformDeployAction, TerraformRequest, TerraformResource,
    TerraformService,
};
use platform_api::{Applications, Containers, Databases, HelmServices, Jobs, TerraformServices};
use serde::Deserialize;
use uuid::Uuid;

use super::{Api, ApiError, Named};
use crate::case;

/// A service of any kind, as listed: enough to name it and reach it.
#[derive(Clone, Debug, PartialEq)]
pub struct ServiceSummary {
    pub id: Uuid,
    pub name: String,
    pub service_type: ServiceType,
}

/// What the console reads of a listed service (the rest of its record is left out).
#[derive(Deserialize)]
struct Listed {
    id: Uuid,
    name: String,
    /// Kept as text: the platform lists kinds this console does not show.
    service_type: String,
}

impl Listed {
    /// The keys kept of the list's answer: the list's and each service's.
    const FIELDS: &[&str] = &["results", "id", "name", "service_type"];
}

/// A service's record, in the shape of its kind.
// One lives per page: boxing the larger kinds would buy nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum ServiceRecord {
    Application(Application),
    Container(Container),
    Database(Database),
    Job(Job),
    Helm(HelmService),
    Terraform(TerraformService),
}

impl ServiceRecord {
    /// The repository the service is built from, if it is built from git.
    pub fn git_repository(&self) -> Option<&GitRepository> {
        match self {
            ServiceRecord::Application(service) => service.git_repository(),
            ServiceRecord::Container(service) => service.git_repository(),
            ServiceRecord::Database(service) => service.git_repository(),
            ServiceRecord::Job(service) => service.git_repository(),
            ServiceRecord::Helm(service) => service.git_repository(),
            ServiceRecord::Terraform(service) => service.git_repository(),
        }
    }

    /// Whether the service deploys on every push of its branch; `None` for the kinds that never
    /// do (databases).
    pub fn auto_deploys(&self) -> Option<bool> {
        match self {
            ServiceRecord::Application(service) => Applications::auto_deploys(service),
            ServiceRecord::Container(service) => Containers::auto_deploys(service),
            ServiceRecord::Database(service) => Databases::auto_deploys(service),
            ServiceRecord::Job(service) => Jobs::auto_deploys(service),
            ServiceRecord::Helm(service) => HelmServices::auto_deploys(service),
            ServiceRecord::Terraform(service) => TerraformServices::auto_deploys(service),
        }
    }

    /// The service's ports (none for the kinds without any); the public ones are its addresses.
    pub fn ports(&self) -> &[platform_api::Port] {
        match self {
            ServiceRecord::Application(service) => &service.ports,
            ServiceRecord::Container(service) => &service.ports,
            _ => &[],
        }
    }

    pub fn id(&self) -> Uuid {
        match self {
            ServiceRecord::Application(service) => service.id,
            ServiceRecord::Container(service) => service.id,
            ServiceRecord::Database(service) => service.id,
            ServiceRecord::Job(service) => service.id,
            ServiceRecord::Helm(service) => service.id,
            ServiceRecord::Terraform(service) => service.id,
        }
    }

    pub fn kind(&self) -> ServiceType {
        match self {
            ServiceRecord::Application(_) => ServiceType::Application,
            ServiceRecord::Container(_) => ServiceType::Container,
            ServiceRecord::Database(_) => ServiceType::Database,
            ServiceRecord::Job(_) => ServiceType::Job,
            ServiceRecord::Helm(_) => ServiceType::Helm,
            ServiceRecord::Terraform(_) => ServiceType::Terraform,
        }
    }

    /// The record as the API gives it, to compare with another.
    pub fn to_json(&self) -> serde_json::Value {
        let json = match self {
            ServiceRecord::Application(service) => serde_json::to_value(service),
            ServiceRecord::Container(service) => serde_json::to_value(service),
            ServiceRecord::Database(service) => serde_json::to_value(service),
            ServiceRecord::Job(service) => serde_json::to_value(service),
            ServiceRecord::Helm(service) => serde_json::to_value(service),
            ServiceRecord::Terraform(service) => serde_json::to_value(service),
        };
        json.unwrap_or_default()
    }

    /// What the service runs now: its deployed commit, or a container's configured image tag.
    pub fn running(&self) -> Option<String> {
        self.git_repository()
            .and_then(|repository| repository.deployed_commit_id.clone())
            .map(|commit| platform_api::short_id(&commit))
            .or_else(|| self.image_tag())
    }

    /// The image tag a container is configured to run.
    pub fn image_tag(&self) -> Option<String> {
        match self {
            ServiceRecord::Container(service) => Some(service.tag.clone()),
            _ => None,
        }
    }

    /// The chart version a helm service from a repository is configured to install.
    pub fn chart_version(&self) -> Option<String> {
        match self {
            ServiceRecord::Helm(service) => service
                .source
                .repository
                .as_ref()
                .map(|source| source.chart_version.clone()),
            _ => None,
        }
    }

    pub fn name(&self) -> &str {
        match self {
            ServiceRecord::Application(service) => &service.name,
            ServiceRecord::Container(service) => &service.name,
            ServiceRecord::Database(service) => &service.name,
            ServiceRecord::Job(service) => &service.name,
            ServiceRecord::Helm(service) => &service.name,
            ServiceRecord::Terraform(service) => &service.name,
        }
    }
}

/// What can be done to a service (canceling aside: `Api::cancel_service`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ServiceAction {
    /// At the given commit, or the branch's latest; a terraform service may only plan.
    Deploy {
        plan_only: bool,
        git_commit_id: Option<String>,
    },
    /// Deployed again at the version it runs: the platform's way for the kinds it does not
    /// restart.
    Redeploy,
    /// Only the kinds that `ServiceType::restarts`.
    Restart,
    /// Only the kinds that `ServiceType::stops`.
    Stop,
    /// Compute and data deleted, configuration kept.
    Uninstall,
}

impl ServiceAction {
    fn path_suffix(&self) -> &'static str {
        match self {
            ServiceAction::Deploy { .. } => "deploy",
            ServiceAction::Redeploy => "redeploy",
            ServiceAction::Restart => "restart-service",
            ServiceAction::Stop => "stop",
            ServiceAction::Uninstall => "uninstall",
        }
    }

    /// What the server accepted, said to the person.
    pub fn accepted(&self) -> String {
        match self {
            ServiceAction::Deploy {
                plan_only: true, ..
            } => "Plan queued.".into(),
            ServiceAction::Deploy {
                git_commit_id: Some(commit),
                ..
            } => format!(
                "Deployment of commit {} queued.",
                platform_api::short_id(commit)
            ),
            ServiceAction::Deploy { .. } => "Deployment queued.".into(),
            ServiceAction::Redeploy => "Redeployment of the running version queued.".into(),
            ServiceAction::Restart => "Restart queued.".into(),
            ServiceAction::Stop => "Stop queued.".into(),
            ServiceAction::Uninstall => "Uninstall queued.".into(),
        }
    }
}

/// What a cancel stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Canceled {
    /// The service's request, still in the queue: it never starts.
    Queued,
    /// The environment's deployment, this service's action with it.
    EnvironmentDeployment,
}

impl Canceled {
    pub fn said(self) -> &'static str {
        match self {
            Canceled::Queued => "Canceled: the request left the queue before it started.",
            Canceled::EnvironmentDeployment => {
                "Cancel requested: the environment's deployment stops now."
            }
        }
    }
}

/// What a history is narrowed to: an outcome, a commit (a prefix of its id), who asked (a part
/// of the name); empty text narrows nothing.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HistoryFilter {
    pub outcome: Option<HistoryOutcome>,
    pub commit: String,
    pub triggered_by: String,
}

pub(super) fn services_path(environment_id: Uuid) -> String {
    paths::ENVIRONMENT_SERVICES.at(&[environment_id])
}

fn unshown_kind(kind: &str) -> ApiError {
    ApiError::NotFound(format!(
        "This console does not show services of the kind {kind}."
    ))
}

/// A kind whose records the console shows as a `ServiceRecord`.
pub trait ShownKind: ServiceKind {
    fn shown(record: Self::Record) -> ServiceRecord;
}

impl ShownKind for Applications {
    fn shown(record: Application) -> ServiceRecord {
        ServiceRecord::Application(record)
    }
}

impl ShownKind for Containers {
    fn shown(record: Container) -> ServiceRecord {
        ServiceRecord::Container(record)
    }
}

impl ShownKind for Databases {
    fn shown(record: Database) -> ServiceRecord {
        ServiceRecord::Database(record)
    }
}

impl ShownKind for Jobs {
    fn shown(record: Job) -> ServiceRecord {
        ServiceRecord::Job(record)
    }
}

impl ShownKind for HelmServices {
    fn shown(record: HelmService) -> ServiceRecord {
        ServiceRecord::Helm(record)
    }
}

impl ShownKind for TerraformServices {
    fn shown(record: TerraformService) -> ServiceRecord {
        ServiceRecord::Terraform(record)
    }
}

impl Api {
    /// Every service of the environment, whatever its kind, by name, in one request; a kind this
    /// console does not know is left out.
    pub async fn services(&self, environment_id: Uuid) -> Result<Vec<ServiceSummary>, ApiError> {
        let list: List<Listed> = self
            .get_fields(&services_path(environment_id), Listed::FIELDS)
            .await?;
        let mut services: Vec<ServiceSummary> = list
            .results
            .into_iter()
            .filter_map(|listed| {
                Some(ServiceSummary {
                    service_type: listed.service_type.parse().ok()?,
                    id: listed.id,
                    name: listed.name,
                })
            })
            .collect();
        services.sort_by_cached_key(|service| case::lower(&service.name));
        for service in &services {
            self.kinds.learn(service.id, service.service_type);
        }
        Ok(services)
    }

    /// The kind of one of the environment's services: known if the console listed or made it,
    /// found in the environment's list of services otherwise (the console's addresses do not
    /// carry it).
    pub async fn service_kind(
        &self,
        environment_id: Uuid,
        service_id: Uuid,
    ) -> Result<ServiceType, ApiError> {
        if let Some(kind) = self.kinds.of(service_id) {
            return Ok(kind);
        }
        let api = *self;
        self.kinds
            .listing(environment_id, || {
                async move { api.services(environment_id).await.map(drop) }
                    .boxed_local()
                    .shared()
            })
            .await?;
        self.kinds
            .of(service_id)
            .ok_or_else(|| ApiError::NotFound("This environment has no such service.".into()))
    }

    /// How to sign in to a database, its password included: shown on request, never kept.
    pub async fn master_credentials(&self, database_id: Uuid) -> Result<Credentials, ApiError> {
        self.get(&paths::DATABASE_CREDENTIALS.at(&[database_id]))
            .await
    }

    /// The chart's own values (its `values.yaml`), to start a helm service's overrides from.
    pub async fn helm_default_values(
        &self,
        environment_id: Uuid,
        chart: &HelmDefaultValuesRequest,
    ) -> Result<String, ApiError> {
        self.post_text(&paths::HELM_DEFAULT_VALUES.at(&[environment_id]), chart)
            .await
    }

    /// The types, versions and modes a new database of the environment may run.
    pub async fn database_configurations(
        &self,
        environment_id: Uuid,
    ) -> Result<Vec<DatabaseConfiguration>, ApiError> {
        let list: List<DatabaseConfiguration> = self
            .get(&paths::DATABASE_CONFIGURATIONS.at(&[environment_id]))
            .await?;
        Ok(list.results)
    }

    /// The versions a database may be changed to, as the platform says.
    pub async fn database_versions(&self, database_id: Uuid) -> Result<Vec<String>, ApiError> {
        let list: List<DatabaseVersion> = self
            .get(&paths::DATABASE_VERSIONS.at(&[database_id]))
            .await?;
        Ok(list
            .results
            .into_iter()
            .map(|version| version.name)
            .collect())
    }

    /// Where the service is reached (`GET /{kind}/{id}/link`): the root of its address, then
    /// each public port's; none for the kinds the platform gives no address.
    pub async fn service_links(&self, kind: ServiceType, id: Uuid) -> Result<Vec<Link>, ApiError> {
        if !kind.has_links() {
            return Ok(Vec::new());
        }
        let links: List<Link> = self.get(&format!("{}/link", kind.item_path(id))).await?;
        Ok(links.results)
    }

    /// Where the ingress to the service's public ports stands.
    pub async fn ingress_status(
        &self,
        kind: ServiceType,
        id: Uuid,
    ) -> Result<IngressDeploymentStatus, ApiError> {
        self.get(&format!("{}/ingressDeploymentStatus", kind.item_path(id)))
            .await
    }

    /// Where each of the environment's services is reached (`GET /environment/{id}/link`).
    pub async fn environment_links(&self, environment_id: Uuid) -> Result<Vec<Link>, ApiError> {
        let links: List<Link> = self
            .get(&paths::ENVIRONMENT_LINKS.at(&[environment_id]))
            .await?;
        Ok(links.results)
    }

    pub async fn service_name(&self, kind: ServiceType, id: Uuid) -> Result<Named, ApiError> {
        self.get(&kind.item_path(id)).await
    }

    pub async fn service(&self, kind: ServiceType, id: Uuid) -> Result<ServiceRecord, ApiError> {
        match kind {
            ServiceType::Application => self.service_of::<Applications>(id).await,
            ServiceType::Container => self.service_of::<Containers>(id).await,
            ServiceType::Database => self.service_of::<Databases>(id).await,
            ServiceType::Job => self.service_of::<Jobs>(id).await,
            ServiceType::Helm => self.service_of::<HelmServices>(id).await,
            ServiceType::Terraform => self.service_of::<TerraformServices>(id).await,
            ServiceType::Other(kind) => Err(unshown_kind(kind)),
        }
    }

    async fn service_of<K: ShownKind>(&self, id: Uuid) -> Result<ServiceRecord, ApiError> {
        let record: K::Record = self.get(&K::TYPE.item_path(id)).await?;
        Ok(K::shown(record))
    }

    /// Creates a service of kind `K` in the environment; the answer names it.
    pub async fn create_service<K: ServiceKind>(
        &self,
        environment_id: Uuid,
        request: &K::Request,
    ) -> Result<ServiceSummary, ApiError> {
        let path = K::TYPE.collection_path(environment_id);
        let created: Listed = self.post(&path, request).await?;
        self.kinds.learn(created.id, K::TYPE);
        Ok(ServiceSummary {
            id: created.id,
            name: created.name,
            service_type: K::TYPE,
        })
    }

    /// Saves a service's settings: the update of its kind, whole. The answer is the service as
    /// saved.
    pub async fn update_service<K: ShownKind>(
        &self,
        id: Uuid,
        request: &K::Request,
    ) -> Result<ServiceRecord, ApiError> {
        let saved: K::Record = self.put(&K::TYPE.item_path(id), request).await?;
        Ok(K::shown(saved))
    }

    /// Turns off the service's deployments on every push where they are on, its record read
    /// first (an environment's rollback, which knows its services by id).
    pub async fn stop_auto_deploy_where_on(
        &self,
        kind: ServiceType,
        id: Uuid,
    ) -> Result<(), ApiError> {
        match self.service(kind, id).await? {
            record if record.auto_deploys() == Some(true) => {
                self.stop_auto_deploy(&record).await.map(drop)
            }
            _ => Ok(()),
        }
    }

    /// Turns off the service's deployments on every push, its other settings kept: a rollback
    /// that the next push would undo otherwise. The answer is the service as saved (none for a
    /// database, which is not deployed on push).
    pub async fn stop_auto_deploy(
        &self,
        record: &ServiceRecord,
    ) -> Result<Option<ServiceRecord>, ApiError> {
        let saved = match record {
            ServiceRecord::Application(service) => {
                let mut request = service.to_request();
                request.runtime.auto_deploy = false;
                self.update_service::<Applications>(service.id, &request)
                    .await
            }
            ServiceRecord::Container(service) => {
                let mut request = service.to_request();
                request.runtime.auto_deploy = false;
                self.update_service::<Containers>(service.id, &request)
                    .await
            }
            ServiceRecord::Job(service) => {
                let request = JobRequest {
                    auto_deploy: Some(false),
                    ..service.to_request()
                };
                self.update_service::<Jobs>(service.id, &request).await
            }
            ServiceRecord::Helm(service) => {
                let request = HelmRequest {
                    auto_deploy: false,
                    ..service.to_request()
                };
                self.update_service::<HelmServices>(service.id, &request)
                    .await
            }
            ServiceRecord::Terraform(service) => {
                let request = TerraformRequest {
                    auto_deploy: false,
                    ..service.to_request()
                };
                self.update_service::<TerraformServices>(service.id, &request)
                    .await
            }
            ServiceRecord::Database(_) => return Ok(None),
        };
        saved.map(Some)
    }

    /// A copy of the service, its variables and secrets, in an environment: nothing deployed.
    pub async fn clone_service(
        &self,
        kind: ServiceType,
        id: Uuid,
        request: &CloneServiceRequest,
    ) -> Result<Cloned<ServiceSummary>, ApiError> {
        let cloned: Cloned<Listed> = self
            .post(&format!("{}/clone", kind.item_path(id)), request)
            .await?;
        self.kinds.learn(cloned.copy.id, kind);
        Ok(Cloned {
            copy: ServiceSummary {
                id: cloned.copy.id,
                name: cloned.copy.name,
                service_type: kind,
            },
            left_out_variables: cloned.left_out_variables,
        })
    }

    /// The service's action waiting for a worker, if any, with its place in the queue.
    pub async fn service_queue(
        &self,
        id: Uuid,
    ) -> Result<Option<QueuedDeploymentRequest>, ApiError> {
        let list: List<QueuedDeploymentRequest> = self.get(&paths::SERVICE_QUEUE.at(&[id])).await?;
        Ok(list.results.into_iter().next())
    }

    /// Deploys again what an entry of the service's history deployed.
    pub async fn roll_back(
        &self,
        kind: ServiceType,
        id: Uuid,
        entry: &DeploymentHistoryEntry,
    ) -> Result<Status, ApiError> {
        self.post(
            &format!("{}/deploy", kind.item_path(id)),
            &DeployRequest::rolling_back_to(entry),
        )
        .await
    }

    pub async fn delete_service(&self, kind: ServiceType, id: Uuid) -> Result<(), ApiError> {
        self.delete(&kind.item_path(id)).await
    }

    /// The service's status: its own, or from its environment's for the kinds the platform
    /// gives none of their own (terraform).
    pub async fn service_status(
        &self,
        environment_id: Uuid,
        kind: ServiceType,
        id: Uuid,
    ) -> Result<Status, ApiError> {
        if kind.has_own_status() {
            return self.get(&format!("{}/status", kind.item_path(id))).await;
        }
        self.environment_statuses(environment_id)
            .await?
            .all()
            .find(|status| status.id == id)
            .cloned()
            .ok_or_else(|| {
                ApiError::NotFound("The environment has no status of this service.".into())
            })
    }

    /// Cancels what runs on the service, as the platform cancels: a request still waiting in
    /// the queue alone; a running action with its environment's deployment.
    pub async fn cancel_service(
        &self,
        environment_id: Uuid,
        status: &Status,
    ) -> Result<Canceled, ApiError> {
        let empty = serde_json::json!({});
        match status.deployment_request_id {
            Some(request) if status.status_details.status == ActionStatus::Queued => {
                let path = paths::QUEUED_CANCEL.at(&[request]);
                self.post::<_, serde::de::IgnoredAny>(&path, &empty).await?;
                Ok(Canceled::Queued)
            }
            _ => {
                let path = paths::ENVIRONMENT_CANCEL.at(&[environment_id]);
                self.post::<_, serde::de::IgnoredAny>(&path, &empty).await?;
                Ok(Canceled::EnvironmentDeployment)
            }
        }
    }

    pub async fn act_on_service(
        &self,
        kind: ServiceType,
        id: Uuid,
        action: &ServiceAction,
    ) -> Result<Status, ApiError> {
        let body = match action {
            ServiceAction::Deploy {
                plan_only,
                git_commit_id,
            } => DeployRequest {
                git_commit_id: git_commit_id.clone(),
                // The production document's form, which this server reads too.
                action: plan_only.then_some(TerraformDeployAction::Plan),
                ..DeployRequest::default()
            },
            _ => DeployRequest::default(),
        };
        self.post(
            &format!("{}/{}", kind.item_path(id), action.path_suffix()),
            &body,
        )
        .await
    }

    /// The latest commits of the branch the service is built from, newest first (at most 100).
    pub async fn service_commits(
        &self,
        kind: ServiceType,
        id: Uuid,
    ) -> Result<Vec<Commit>, ApiError> {
        let list: List<Commit> = self.get(&format!("{}/commit", kind.item_path(id))).await?;
        Ok(list.results)
    }

    /// Who committed to an application's repository, most recent first.
    pub async fn contributors(&self, application: Uuid) -> Result<Vec<Contributor>, ApiError> {
        let path = format!(
            "{}/contributor",
            ServiceType::Application.item_path(application)
        );
        let list: List<Contributor> = self.get(&path).await?;
        Ok(list.results)
    }

    /// The resources a terraform service's last deployment made or read.
    pub async fn terraform_resources(
        &self,
        terraform: Uuid,
    ) -> Result<Vec<TerraformResource>, ApiError> {
        let path = paths::TERRAFORM_RESOURCES.at(&[terraform]);
        let list: List<TerraformResource> = self.get(&path).await?;
        Ok(list.results)
    }

    /// One page (from 1) of the service's actions, newest first, filtered.
    pub async fn service_history(
        &self,
        kind: ServiceType,
        id: Uuid,
        page: u32,
        page_size: u32,
        filter: &HistoryFilter,
    ) -> Result<DeploymentHistoryPage, ApiError> {
        let mut path = format!(
            "{}/deploymentHistoryV2?page={page}&pageSize={page_size}",
            kind.item_path(id)
        );
        if let Some(outcome) = filter.outcome {
            path.push_str(&format!("&status={}", outcome.as_str()));
        }
        for (name, value) in [
            ("git_commit_id", &filter.commit),
            ("triggered_by", &filter.triggered_by),
        ] {
            if !value.trim().is_empty() {
                path.push_str(&format!("&{name}={}", super::query_value(value.trim())));
            }
        }
        self.get(&path).await
    }

    /// What the engine wrote for the service, oldest first: its lines among the last of its
    /// environment's deployment log, or of one execution (`version`).
    pub async fn service_log(
        &self,
        environment_id: Uuid,
        id: Uuid,
        version: Option<&str>,
    ) -> Result<Vec<LogLine>, ApiError> {
        let mut path = paths::ENVIRONMENT_LOGS.at(&[environment_id]);
        if let Some(version) = version {
            path.push_str(&format!("?version={}", super::query_value(version)));
        }
        let lines: Vec<DeploymentLogLine> = self.get(&path).await?;
        Ok(lines
            .iter()
            .filter(|line| line.service_id() == Some(id))
            .map(DeploymentLogLine::to_line)
            .collect())
    }

    /// What the service's running instances printed, oldest first (the kinds that
    /// `ServiceType::has_instance_log`).
    pub async fn instance_log(
        &self,
        kind: ServiceType,
        id: Uuid,
    ) -> Result<Vec<InstanceLogLine>, ApiError> {
        let list: List<InstanceLogLine> = self.get(&format!("{}/log", kind.item_path(id))).await?;
        Ok(list.results)
    }
}
