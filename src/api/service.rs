//! What every kind of service shares: listing, reading, status, actions, history, log. Each
//! kind's routes are its `ServiceType::item_path` and `collection_path`, the server's too.

use std::sync::Arc;

use futures::FutureExt;
use gloo_net::http::Method;
use platform_api::paths;
use platform_api::{
    ActionStatus, Application, CloneServiceRequest, Cloned, Commit, Container, Contributor,
    Credentials, Database, DatabaseConfiguration, DatabaseType, DatabaseVersion, DeployRequest,
    DeploymentHistoryEntry, DeploymentHistoryPage, DeploymentLogLine, GitRepository, GitSource,
    HelmDefaultValuesRequest, HelmRequest, HelmService, HistoryOutcome, IngressDeploymentStatus,
    InstanceLogLine, Job, JobRequest, JobType, Link, List, LogLine, Port, QueueWait, ServiceKind,
    ServiceType, Status, TerraformDeployAction, TerraformRequest, TerraformResource,
    TerraformService,
};
use platform_api::{Applications, Containers, HelmServices, Jobs, TerraformServices};
use serde::Deserialize;
use uuid::Uuid;

use super::service_facts::ServiceFacts;
use super::{decode, encode, Api, ApiError, Named, NoFields};
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

/// What a service's frame reads of its queued request (`QueuedDeploymentRequest`): its place
/// and what it waits for, the rest of the record left unread.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct QueuedPlace {
    pub position: Option<i64>,
    pub waiting_for: Option<QueueWait>,
}

pub(super) fn services_path(environment_id: Uuid) -> String {
    paths::ENVIRONMENT_SERVICES.at(&[environment_id])
}

fn unshown_kind(kind: &str) -> ApiError {
    ApiError::NotFound(format!(
        "This console does not show services of the kind {kind}."
    ))
}

/// A service's record as its frame reads it, once for every tab (`Api::service_answer`): the
/// fields the frame and most tabs read, decoded, and the answer itself, which the tabs that show
/// or write the whole record decode (`record`). The whole record's decoders (six kinds) are then
/// in those tabs' code, not in the frame's that every tab of a service fetches (its logs,
/// variables, monitoring and advanced settings 43 to 46 KB brotli lighter).
#[derive(Clone, Debug, PartialEq)]
pub struct ServiceAnswer {
    kind: ServiceType,
    head: Head,
    body: Arc<[u8]>,
}

/// What `ServiceAnswer` reads of a record, whichever its kind.
#[derive(Clone, Debug, Default, PartialEq)]
struct Head {
    id: Uuid,
    name: String,
    auto_deploy: Option<bool>,
    git_repository: Option<GitRepository>,
    image_tag: Option<String>,
    chart_version: Option<String>,
    ports: Vec<Port>,
    job_type: Option<JobType>,
    database_type: Option<DatabaseType>,
}

/// The fields of `Head` where the records keep them, read in one pass whichever the kind: one
/// decoder in the frame every service page fetches, where a decoder per kind was six (what the
/// answer has more is skipped unread). Which are required is each kind's record's rule
/// (platform_api), checked in `Head::read`.
#[derive(Deserialize)]
struct AnyHead {
    id: Uuid,
    name: String,
    auto_deploy: Option<bool>,
    git_repository: Option<GitRepository>,
    /// A container's.
    tag: Option<String>,
    /// A database's.
    #[serde(rename = "type")]
    database_type: Option<DatabaseType>,
    job_type: Option<JobType>,
    /// A job's or a helm service's.
    source: Option<SourceHead>,
    terraform_files_source: Option<SourceHead>,
}

/// An application's or a container's ports, read apart: a helm service's have another shape.
#[derive(Deserialize)]
struct PortsHead {
    #[serde(default)]
    ports: Vec<Port>,
}

/// A job's repository (`docker`), a helm service's or a terraform service's (`git`), a helm
/// service's chart (`repository`).
#[derive(Deserialize)]
struct SourceHead {
    #[serde(default)]
    docker: Option<RepositoryHead>,
    #[serde(default)]
    git: Option<RepositoryHead>,
    #[serde(default)]
    repository: Option<ChartHead>,
}

#[derive(Deserialize)]
struct RepositoryHead {
    git_repository: GitRepository,
}

#[derive(Deserialize)]
struct ChartHead {
    chart_version: String,
}

/// A field the record of the answer's kind must have, as serde says a missing one.
fn required<T>(value: Option<T>, field: &str) -> Result<T, ApiError> {
    value.ok_or_else(|| ApiError::Decode(format!("missing field `{field}`")))
}

impl Head {
    fn read(kind: &ServiceType, body: &[u8]) -> Result<Head, ApiError> {
        let any: AnyHead = decode(body)?;
        let named = Head::named(any.id, any.name);
        let auto_deploy = any.auto_deploy;
        Ok(match kind {
            ServiceType::Application => Head {
                auto_deploy: Some(auto_deploy.unwrap_or_default()),
                git_repository: Some(any.git_repository.unwrap_or_default()),
                ports: decode::<PortsHead>(body)?.ports,
                ..named
            },
            ServiceType::Container => Head {
                auto_deploy: Some(auto_deploy.unwrap_or_default()),
                image_tag: Some(required(any.tag, "tag")?),
                ports: decode::<PortsHead>(body)?.ports,
                ..named
            },
            ServiceType::Database => Head {
                database_type: Some(required(any.database_type, "type")?),
                ..named
            },
            ServiceType::Job => Head {
                auto_deploy: Some(auto_deploy.unwrap_or_default()),
                job_type: Some(required(any.job_type, "job_type")?),
                git_repository: required(any.source, "source")?
                    .docker
                    .map(|docker| docker.git_repository),
                ..named
            },
            ServiceType::Helm => {
                let auto_deploy = required(auto_deploy, "auto_deploy")?;
                let source = required(any.source, "source")?;
                Head {
                    auto_deploy: Some(auto_deploy),
                    git_repository: source.git.map(|git| git.git_repository),
                    chart_version: source.repository.map(|chart| chart.chart_version),
                    ..named
                }
            }
            ServiceType::Terraform => Head {
                auto_deploy: Some(required(auto_deploy, "auto_deploy")?),
                git_repository: any
                    .terraform_files_source
                    .and_then(|source| source.git)
                    .map(|git| git.git_repository),
                ..named
            },
            ServiceType::Other(kind) => return Err(unshown_kind(kind)),
        })
    }

    fn named(id: Uuid, name: String) -> Head {
        Head {
            id,
            name,
            ..Head::default()
        }
    }
}

impl ServiceAnswer {
    fn read(kind: ServiceType, body: Vec<u8>) -> Result<ServiceAnswer, ApiError> {
        Ok(ServiceAnswer {
            head: Head::read(&kind, &body)?,
            kind,
            body: body.into(),
        })
    }

    /// The whole record, in the shape of its kind.
    pub fn record(&self) -> Result<ServiceRecord, ApiError> {
        record_of(self.kind, &self.body)
    }

    /// The whole record of a service of kind `K` (the answer's kind, which the caller chose by).
    pub fn record_of_kind<K: ServiceKind>(&self) -> Result<K::Record, ApiError> {
        decode(&self.body)
    }

    /// What the overview shows beside the frame's fields, in the shape of its kind.
    pub fn facts(&self) -> Result<ServiceFacts, ApiError> {
        let body = &self.body;
        match self.kind {
            ServiceType::Application => decode(body).map(ServiceFacts::Application),
            ServiceType::Container => decode(body).map(ServiceFacts::Container),
            ServiceType::Database => decode(body).map(ServiceFacts::Database),
            ServiceType::Job => decode(body).map(|facts| ServiceFacts::Job(Box::new(facts))),
            ServiceType::Helm => decode(body).map(ServiceFacts::Helm),
            ServiceType::Terraform => decode(body).map(ServiceFacts::Terraform),
            ServiceType::Other(kind) => Err(unshown_kind(kind)),
        }
    }

    pub fn kind(&self) -> ServiceType {
        self.kind
    }

    pub fn id(&self) -> Uuid {
        self.head.id
    }

    pub fn name(&self) -> &str {
        &self.head.name
    }

    /// As `ServiceRecord::git_repository`.
    pub fn git_repository(&self) -> Option<&GitRepository> {
        self.head.git_repository.as_ref()
    }

    /// Whether the service deploys on every push of its branch; `None` for databases, which
    /// never do.
    pub fn auto_deploys(&self) -> Option<bool> {
        self.head.auto_deploy
    }

    /// As `ServiceRecord::image_tag`.
    pub fn image_tag(&self) -> Option<String> {
        self.head.image_tag.clone()
    }

    /// The chart version a helm service from a repository is configured to install.
    pub fn chart_version(&self) -> Option<String> {
        self.head.chart_version.clone()
    }

    pub fn ports(&self) -> &[Port] {
        &self.head.ports
    }

    pub fn job_type(&self) -> Option<JobType> {
        self.head.job_type
    }

    /// A database's type, where its record names one.
    pub fn database_type(&self) -> Option<DatabaseType> {
        self.head.database_type
    }
}

/// A service's record of `kind` from its answer.
fn record_of(kind: ServiceType, body: &[u8]) -> Result<ServiceRecord, ApiError> {
    match kind {
        ServiceType::Application => decode(body).map(ServiceRecord::Application),
        ServiceType::Container => decode(body).map(ServiceRecord::Container),
        ServiceType::Database => decode(body).map(ServiceRecord::Database),
        ServiceType::Job => decode(body).map(ServiceRecord::Job),
        ServiceType::Helm => decode(body).map(ServiceRecord::Helm),
        ServiceType::Terraform => decode(body).map(ServiceRecord::Terraform),
        ServiceType::Other(kind) => Err(unshown_kind(kind)),
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
        let body = self.service_body(&kind, id).await?;
        record_of(kind, &body)
    }

    /// The service's record as its frame reads it.
    pub async fn service_answer(
        &self,
        kind: ServiceType,
        id: Uuid,
    ) -> Result<ServiceAnswer, ApiError> {
        let body = self.service_body(&kind, id).await?;
        ServiceAnswer::read(kind, body)
    }

    async fn service_body(&self, kind: &ServiceType, id: Uuid) -> Result<Vec<u8>, ApiError> {
        if let ServiceType::Other(kind) = kind {
            return Err(unshown_kind(kind));
        }
        self.send_body(Method::GET, &kind.item_path(id), None).await
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
    pub async fn update_service<K: ServiceKind>(
        &self,
        id: Uuid,
        request: &K::Request,
    ) -> Result<ServiceAnswer, ApiError> {
        let body = encode(request)?;
        let saved = self
            .send_body(Method::PUT, &K::TYPE.item_path(id), Some(body))
            .await?;
        ServiceAnswer::read(K::TYPE, saved)
    }

    /// Turns off the service's deployments on every push where they are on, its other settings
    /// kept: a rollback that the next push would undo otherwise. Its record is read first, as it
    /// is then (the update is whole). The answer is the service as saved, none where nothing was
    /// saved (it was off, or a database, which is not deployed on push).
    pub async fn stop_auto_deploy_where_on(
        &self,
        kind: ServiceType,
        id: Uuid,
    ) -> Result<Option<ServiceAnswer>, ApiError> {
        let answer = self.service_answer(kind, id).await?;
        if answer.auto_deploys() != Some(true) {
            return Ok(None);
        }
        self.stop_auto_deploy(&answer.record()?).await
    }

    async fn stop_auto_deploy(
        &self,
        record: &ServiceRecord,
    ) -> Result<Option<ServiceAnswer>, ApiError> {
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
    pub async fn service_queue(&self, id: Uuid) -> Result<Option<QueuedPlace>, ApiError> {
        let list: List<QueuedPlace> = self.get(&paths::SERVICE_QUEUE.at(&[id])).await?;
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
        let empty = NoFields {};
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

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    const ID: &str = "0b8f2b5e-8c1e-4d3f-9a55-6f0a2c1d9e77";

    fn head(kind: ServiceType, fields: &str) -> Head {
        let body = format!(r#"{{"id":"{ID}","name":"front","unread":{{"deep":[1,2]}},{fields}}}"#);
        Head::read(&kind, body.as_bytes()).unwrap()
    }

    fn repository(commit: &str) -> String {
        format!(
            r#"{{"url":"https://git.example/a.git","branch":"main","deployed_commit_id":"{commit}"}}"#
        )
    }

    #[wasm_bindgen_test]
    fn each_kind_s_head_is_read_where_its_record_keeps_it() {
        let job = head(
            ServiceType::Job,
            &format!(
                r#""auto_deploy":true,"job_type":"CRON","source":{{"image":null,"docker":{{"git_repository":{},"dockerfile_path":"Dockerfile"}}}}"#,
                repository("abc")
            ),
        );
        assert_eq!(job.id.to_string(), ID);
        assert_eq!(job.name, "front");
        assert_eq!(job.job_type, Some(JobType::Cron));
        assert_eq!(job.auto_deploy, Some(true));
        let commit = job.git_repository.and_then(|git| git.deployed_commit_id);
        assert_eq!(commit.as_deref(), Some("abc"));

        // A helm service's ports are of another shape than an application's: not read.
        let chart = head(
            ServiceType::Helm,
            r#""auto_deploy":false,"ports":[{"port_type":"SERVICE_NAME","service_name":"web"}],"source":{"git":null,"repository":{"chart_name":"web","chart_version":"1.2.3"}}"#,
        );
        assert_eq!(chart.chart_version.as_deref(), Some("1.2.3"));
        assert_eq!(chart.git_repository, None);
        assert_eq!(chart.auto_deploy, Some(false));

        let terraform = head(
            ServiceType::Terraform,
            &format!(
                r#""auto_deploy":true,"terraform_files_source":{{"git":{{"git_repository":{}}}}}"#,
                repository("def")
            ),
        );
        let commit = terraform
            .git_repository
            .and_then(|git| git.deployed_commit_id);
        assert_eq!(commit.as_deref(), Some("def"));

        let container = head(
            ServiceType::Container,
            r#""auto_deploy":false,"tag":"1.27","ports":[]"#,
        );
        assert_eq!(container.image_tag.as_deref(), Some("1.27"));
        assert_eq!(container.git_repository, None);

        let application = head(
            ServiceType::Application,
            &format!(
                r#""git_repository":{},"ports":[{{"id":"{ID}","internal_port":8080,"publicly_accessible":true,"protocol":"HTTP","is_default":true}}]"#,
                repository("fed")
            ),
        );
        assert_eq!(application.auto_deploy, Some(false), "defaulted");
        assert_eq!(application.ports.len(), 1);
        assert_eq!(application.ports[0].internal_port, 8080);

        let database = head(ServiceType::Database, r#""type":"POSTGRESQL""#);
        assert_eq!(database.database_type, Some(DatabaseType::Postgresql));
        assert_eq!(database.auto_deploy, None);
    }

    #[wasm_bindgen_test]
    fn a_head_without_its_kinds_fields_is_an_error_that_says_so() {
        let body = format!(r#"{{"id":"{ID}","name":"front"}}"#);
        let error = Head::read(&ServiceType::Job, body.as_bytes()).unwrap_err();
        assert!(error.to_string().contains("job_type"), "{error}");
        let error = Head::read(&ServiceType::Helm, body.as_bytes()).unwrap_err();
        assert!(error.to_string().contains("auto_deploy"), "{error}");
        let error = Head::read(&ServiceType::Database, body.as_bytes()).unwrap_err();
        assert!(error.to_string().contains("`type`"), "{error}");
    }
}
