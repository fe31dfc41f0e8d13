//! The reads of the console (`src/api/`) that the production document has, with the type each
//! answer is read as: shared by the tests that feed them the document's samples.

use platform_api::*;
use serde::de::DeserializeOwned;

pub type Decoder = fn(serde_json::Value) -> Result<(), String>;

fn decodes<T: DeserializeOwned>(value: serde_json::Value) -> Result<(), String> {
    serde_json::from_value::<T>(value)
        .map(drop)
        .map_err(|error| error.to_string())
}

/// What the console reads of each service in its kind's list (`src/api/service.rs`).
#[derive(serde::Deserialize)]
#[allow(dead_code)]
struct Listed {
    id: uuid::Uuid,
    name: String,
}

/// What the console reads of a registry's container statuses (`src/api/registry.rs`).
#[derive(serde::Deserialize)]
#[allow(dead_code)]
struct RegistryContainerState {
    state: ServiceState,
}

/// The reads of the console (`src/api/`) that the document has, with the type each answer is
/// read as.
pub const CONSOLE_READS: &[(&str, Decoder)] = &[
    ("/organization", decodes::<CallersOrganizations>),
    ("/account", decodes::<AccountInfo>),
    ("/organization/{organizationId}", decodes::<Organization>),
    (
        "/organization/{organizationId}/project",
        decodes::<List<Project>>,
    ),
    (
        "/organization/{organizationId}/services",
        decodes::<List<ServiceLight>>,
    ),
    (
        "/organization/{organizationId}/environments",
        decodes::<List<OrganizationEnvironment>>,
    ),
    ("/project/{projectId}", decodes::<Project>),
    (
        "/project/{projectId}/environment",
        decodes::<List<Environment>>,
    ),
    ("/environment/{environmentId}", decodes::<Environment>),
    (
        "/environment/{environmentId}/lifecycleTemplate",
        decodes::<List<LifecycleTemplateSummary>>,
    ),
    (
        "/environment/{environmentId}/lifecycleTemplate/{lifecycleTemplateId}",
        decodes::<LifecycleTemplate>,
    ),
    (
        "/environment/{environmentId}/statuses",
        decodes::<EnvironmentStatuses>,
    ),
    (
        "/environment/{environmentId}/application",
        decodes::<List<Listed>>,
    ),
    (
        "/environment/{environmentId}/container",
        decodes::<List<Listed>>,
    ),
    (
        "/environment/{environmentId}/database",
        decodes::<List<Listed>>,
    ),
    ("/environment/{environmentId}/job", decodes::<List<Listed>>),
    ("/environment/{environmentId}/helm", decodes::<List<Listed>>),
    (
        "/environment/{environmentId}/terraform",
        decodes::<List<Listed>>,
    ),
    ("/application/{applicationId}", decodes::<Application>),
    ("/container/{containerId}", decodes::<Container>),
    ("/database/{databaseId}", decodes::<Database>),
    ("/job/{jobId}", decodes::<Job>),
    ("/helm/{helmId}", decodes::<HelmService>),
    ("/terraform/{terraformId}", decodes::<TerraformService>),
    ("/application/{applicationId}/status", decodes::<Status>),
    ("/container/{containerId}/status", decodes::<Status>),
    ("/database/{databaseId}/status", decodes::<Status>),
    ("/job/{jobId}/status", decodes::<Status>),
    ("/helm/{helmId}/status", decodes::<Status>),
    (
        "/application/{applicationId}/commit",
        decodes::<List<Commit>>,
    ),
    ("/job/{jobId}/commit", decodes::<List<Commit>>),
    ("/helm/{helmId}/commit", decodes::<List<Commit>>),
    ("/terraform/{terraformId}/commit", decodes::<List<Commit>>),
    (
        "/application/{applicationId}/deploymentHistoryV2",
        decodes::<DeploymentHistoryPage>,
    ),
    (
        "/container/{containerId}/deploymentHistoryV2",
        decodes::<DeploymentHistoryPage>,
    ),
    (
        "/database/{databaseId}/deploymentHistoryV2",
        decodes::<DeploymentHistoryPage>,
    ),
    (
        "/job/{jobId}/deploymentHistoryV2",
        decodes::<DeploymentHistoryPage>,
    ),
    (
        "/helm/{helmId}/deploymentHistoryV2",
        decodes::<DeploymentHistoryPage>,
    ),
    (
        "/terraform/{terraformId}/deploymentHistoryV2",
        decodes::<DeploymentHistoryPage>,
    ),
    (
        "/application/{applicationId}/log",
        decodes::<List<InstanceLogLine>>,
    ),
    (
        "/container/{containerId}/log",
        decodes::<List<InstanceLogLine>>,
    ),
    (
        "/environment/{environmentId}/logs",
        decodes::<Vec<DeploymentLogLine>>,
    ),
    (
        "/service/{serviceId}/deploymentQueue",
        decodes::<List<QueuedDeploymentRequest>>,
    ),
    ("/variable", decodes::<List<EnvironmentVariable>>),
    (
        "/organization/{organizationId}/cluster",
        decodes::<List<Cluster>>,
    ),
    (
        "/organization/{organizationId}/cluster/{clusterId}/status",
        decodes::<ClusterStatus>,
    ),
    ("/cluster/{clusterId}/token", decodes::<ClusterToken>),
    (
        "/organization/{organizationId}/cluster/status",
        decodes::<List<ClusterStatus>>,
    ),
    (
        "/organization/{organizationId}/cluster/{clusterId}/logs",
        decodes::<List<ClusterLogLine>>,
    ),
    (
        "/cluster/{clusterId}/environments",
        decodes::<List<ClusterEnvironment>>,
    ),
    (
        "/project/{projectId}/environment/status",
        decodes::<List<EnvironmentState>>,
    ),
    (
        "/organization/{organizationId}/project/stats",
        decodes::<List<ProjectStats>>,
    ),
    (
        "/organization/{organizationId}/containerRegistry/{containerRegistryId}/images",
        decodes::<List<ImageVersions>>,
    ),
    (
        "/organization/{organizationId}/containerRegistry",
        decodes::<List<ContainerRegistry>>,
    ),
    (
        "/organization/{organizationId}/helmRepository",
        decodes::<List<HelmRepository>>,
    ),
    (
        "/organization/{organizationId}/labelsGroups",
        decodes::<List<LabelsGroup>>,
    ),
    (
        "/organization/{organizationId}/annotationsGroups",
        decodes::<List<AnnotationsGroup>>,
    ),
    (
        "/organization/{organizationId}/webhook",
        decodes::<List<Webhook>>,
    ),
    (
        "/organization/{organizationId}/apiToken",
        decodes::<List<ApiToken>>,
    ),
    (
        "/organization/{organizationId}/availableRole",
        decodes::<List<CustomRole>>,
    ),
    (
        "/organization/{organizationId}/onPremise/credentials",
        decodes::<List<ClusterCredentials>>,
    ),
    (
        "/organization/{organizationId}/aws/credentials",
        decodes::<List<ClusterCredentials>>,
    ),
    (
        "/organization/{organizationId}/scaleway/credentials",
        decodes::<List<ClusterCredentials>>,
    ),
    (
        "/organization/{organizationId}/gcp/credentials",
        decodes::<List<ClusterCredentials>>,
    ),
    (
        "/organization/{organizationId}/azure/credentials",
        decodes::<List<ClusterCredentials>>,
    ),
    (
        "/terraform/{terraformId}/terraformResources",
        decodes::<List<TerraformResource>>,
    ),
    (
        "/application/{applicationId}/contributor",
        decodes::<List<Contributor>>,
    ),
    ("/aws/region", decodes::<List<ClusterRegion>>),
    ("/aws/clusterFeature", decodes::<List<ClusterFeature>>),
    ("/scaleway/clusterFeature", decodes::<List<ClusterFeature>>),
    ("/gcp/clusterFeature", decodes::<List<ClusterFeature>>),
    ("/azure/clusterFeature", decodes::<List<ClusterFeature>>),
    (
        "/aws/eks/instanceType/{region}",
        decodes::<List<ClusterInstanceType>>,
    ),
    (
        "/scaleway/instanceType/{zone}",
        decodes::<List<ClusterInstanceType>>,
    ),
    (
        "/gcp/instanceType/{region}",
        decodes::<List<ClusterInstanceType>>,
    ),
    (
        "/azure/aks/instanceType/{region}",
        decodes::<List<ClusterInstanceType>>,
    ),
    ("/scaleway/region", decodes::<List<ClusterRegion>>),
    ("/gcp/region", decodes::<List<ClusterRegion>>),
    ("/azure/region", decodes::<List<ClusterRegion>>),
    (
        "/organization/{organizationId}/credentials",
        decodes::<List<CredentialsWithClusters>>,
    ),
    (
        "/organization/{organizationId}/cluster/{clusterId}/cloudProviderInfo",
        decodes::<ClusterCloudProviderInfo>,
    ),
    (
        "/cluster/{clusterId}/dnsProvider",
        decodes::<ClusterDnsProvider>,
    ),
    (
        "/organization/{organizationId}/cluster/{clusterId}/routingTable",
        decodes::<ClusterRoutingTable>,
    ),
    (
        "/organization/{organizationId}/alert-receivers",
        decodes::<List<AlertReceiver>>,
    ),
    (
        "/organization/{organizationId}/account/gitAuthProvider",
        decodes::<List<GitAuthProvider>>,
    ),
    (
        "/organization/{organizationId}/account/github/repository",
        decodes::<List<HostedRepository>>,
    ),
    (
        "/organization/{organizationId}/account/gitlab/repository",
        decodes::<List<HostedRepository>>,
    ),
    (
        "/organization/{organizationId}/account/bitbucket/repository",
        decodes::<List<HostedRepository>>,
    ),
    (
        "/organization/{organizationId}/account/github/repository/branch",
        decodes::<List<GitRepositoryBranch>>,
    ),
    (
        "/organization/{organizationId}/account/gitlab/repository/branch",
        decodes::<List<GitRepositoryBranch>>,
    ),
    (
        "/organization/{organizationId}/account/bitbucket/repository/branch",
        decodes::<List<GitRepositoryBranch>>,
    ),
    (
        "/organization/{organizationId}/gitToken",
        decodes::<List<GitToken>>,
    ),
    (
        "/organization/{organizationId}/member",
        decodes::<List<Member>>,
    ),
    (
        "/organization/{organizationId}/inviteMember",
        decodes::<List<InviteMember>>,
    ),
    (
        "/organization/{organizationId}/gitToken/{gitTokenId}/associatedServices",
        decodes::<List<GitTokenAssociatedService>>,
    ),
    (
        "/application/{applicationId}/customDomain",
        decodes::<List<CustomDomain>>,
    ),
    (
        "/container/{containerId}/customDomain",
        decodes::<List<CustomDomain>>,
    ),
    ("/helm/{helmId}/customDomain", decodes::<List<CustomDomain>>),
    (
        "/application/{applicationId}/deploymentRestriction",
        decodes::<List<DeploymentRestriction>>,
    ),
    (
        "/environment/{environmentId}/deploymentStage",
        decodes::<List<DeploymentStage>>,
    ),
    (
        "/environment/{environmentId}/deploymentRule",
        decodes::<EnvironmentDeploymentRule>,
    ),
    (
        "/application/{applicationId}/advancedSettings",
        decodes::<advanced_settings::AdvancedSettings>,
    ),
    (
        "/container/{containerId}/advancedSettings",
        decodes::<advanced_settings::AdvancedSettings>,
    ),
    (
        "/job/{jobId}/advancedSettings",
        decodes::<advanced_settings::AdvancedSettings>,
    ),
    (
        "/helm/{helmId}/advancedSettings",
        decodes::<advanced_settings::AdvancedSettings>,
    ),
    (
        "/terraform/{terraformId}/advancedSettings",
        decodes::<advanced_settings::AdvancedSettings>,
    ),
    (
        "/organization/{organizationId}/cluster/{clusterId}/advancedSettings",
        decodes::<advanced_settings::AdvancedSettings>,
    ),
    (
        "/defaultApplicationAdvancedSettings",
        decodes::<advanced_settings::AdvancedSettings>,
    ),
    (
        "/defaultClusterAdvancedSettings",
        decodes::<advanced_settings::AdvancedSettings>,
    ),
    (
        "/project/{projectId}/deploymentRule",
        decodes::<List<ProjectDeploymentRule>>,
    ),
    (
        "/job/{jobId}/deploymentRestriction",
        decodes::<List<DeploymentRestriction>>,
    ),
    (
        "/helm/{helmId}/deploymentRestriction",
        decodes::<List<DeploymentRestriction>>,
    ),
    (
        "/terraform/{terraformId}/deploymentRestriction",
        decodes::<List<DeploymentRestriction>>,
    ),
    (
        "/application/{applicationId}/checkCustomDomain",
        decodes::<List<CheckedCustomDomain>>,
    ),
    (
        "/container/{containerId}/checkCustomDomain",
        decodes::<List<CheckedCustomDomain>>,
    ),
    (
        "/helm/{helmId}/checkCustomDomain",
        decodes::<List<CheckedCustomDomain>>,
    ),
    ("/application/{applicationId}/link", decodes::<List<Link>>),
    ("/container/{containerId}/link", decodes::<List<Link>>),
    ("/helm/{helmId}/link", decodes::<List<Link>>),
    ("/environment/{environmentId}/link", decodes::<List<Link>>),
    ("/database/{databaseId}/backup", decodes::<BackupPage>),
    (
        "/database/{databaseId}/masterCredentials",
        decodes::<Credentials>,
    ),
    (
        "/database/{databaseId}/version",
        decodes::<List<DatabaseVersion>>,
    ),
    (
        "/environment/{environmentId}/databaseConfiguration",
        decodes::<List<DatabaseConfiguration>>,
    ),
    (
        "/aws/managedDatabase/type",
        decodes::<List<ManagedDatabaseType>>,
    ),
    (
        "/scaleway/managedDatabase/type",
        decodes::<List<ManagedDatabaseType>>,
    ),
    (
        "/aws/managedDatabase/instanceType/{region}/{databaseType}",
        decodes::<List<ManagedDatabaseInstanceType>>,
    ),
    (
        "/terraform/availableVersion",
        decodes::<List<TerraformVersion>>,
    ),
    (
        "/service/{serviceId}/gitWebhookStatus",
        decodes::<GitWebhookStatus>,
    ),
    (
        "/organization/{organizationId}/cluster/{clusterId}/kubeconfig",
        decodes::<String>,
    ),
    (
        "/organization/{organizationId}/containerRegistry/{containerRegistryId}/container/status",
        decodes::<List<RegistryContainerState>>,
    ),
    (
        "/{serviceType}/{serviceId}/ingressDeploymentStatus",
        decodes::<IngressDeploymentStatus>,
    ),
    (
        "/environment/{environmentId}/terraformExport",
        decodes::<String>,
    ),
    (
        "/organization/{organizationId}/helmRepository/{helmRepositoryId}/charts",
        decodes::<List<ChartVersions>>,
    ),
];
