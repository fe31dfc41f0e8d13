//! The API's paths, each written once: the server registers its routes at these templates (and
//! documents them so), the console fills them in. A service kind's paths are `ServiceType`'s
//! (`item_path`, `item_template`); a template here names a resource of one kind.

use std::fmt;

use uuid::Uuid;

/// A path with `{name}` parameters, as the route table and the OpenAPI document write it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Template(pub &'static str);

impl Template {
    /// The path with its parameters filled in, in order: `PROJECT.at(&[id])`. Ids are written
    /// as the API writes them (hyphenated, lowercase), without the formatting machinery.
    pub fn at(self, ids: &[Uuid]) -> String {
        let mut path = String::with_capacity(self.0.len() + 36 * ids.len());
        let mut ids = ids.iter();
        let mut rest = self.0;
        let mut buffer = Uuid::encode_buffer();
        while let Some(open) = rest.find('{') {
            path.push_str(&rest[..open]);
            let close = rest[open..]
                .find('}')
                .map_or(rest.len(), |at| open + at + 1);
            match ids.next() {
                Some(id) => path.push_str(id.hyphenated().encode_lower(&mut buffer)),
                None => path.push_str(&rest[open..close]),
            }
            rest = &rest[close..];
        }
        path.push_str(rest);
        path
    }
}

impl Template {
    /// The path with its one parameter, a text (a region's name), filled in, encoded.
    pub fn with_text(self, value: &str) -> String {
        self.with_texts(&[value])
    }

    /// The path with its parameters filled in order by texts (a region's name, a type),
    /// encoded; a parameter left without one stays as it is written.
    pub fn with_texts(self, values: &[&str]) -> String {
        let mut path = String::with_capacity(self.0.len());
        let mut values = values.iter();
        let mut rest = self.0;
        while let (Some(open), Some(close)) = (rest.find('{'), rest.find('}')) {
            path.push_str(&rest[..open]);
            match values.next() {
                Some(value) => path.push_str(&crate::query::percent_encode(value)),
                None => path.push_str(&rest[open..=close]),
            }
            rest = &rest[close + 1..];
        }
        path.push_str(rest);
        path
    }
}

impl fmt::Display for Template {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(self.0)
    }
}

impl From<Template> for String {
    fn from(template: Template) -> Self {
        template.0.to_string()
    }
}

pub const ORGANIZATIONS: Template = Template("/organization");
pub const ORGANIZATION: Template = Template("/organization/{organization_id}");
pub const ACCOUNT: Template = Template("/account");
pub const CURRENT_ROLE: Template = Template("/organization/{organization_id}/currentRole");

pub const PROJECTS: Template = Template("/organization/{organization_id}/project");
pub const ORGANIZATION_SERVICES: Template = Template("/organization/{organization_id}/services");
pub const ORGANIZATION_ENVIRONMENTS: Template =
    Template("/organization/{organization_id}/environments");
pub const PROJECT_STATS: Template = Template("/organization/{organization_id}/project/stats");
pub const PROJECT: Template = Template("/project/{project_id}");

pub const ENVIRONMENTS: Template = Template("/project/{project_id}/environment");
pub const ENVIRONMENT: Template = Template("/environment/{environment_id}");
pub const ENVIRONMENT_STATUSES: Template = Template("/environment/{environment_id}/statuses");
pub const ENVIRONMENT_SERVICES: Template = Template("/environment/{environment_id}/services");
pub const LIFECYCLE_TEMPLATES: Template =
    Template("/environment/{environment_id}/lifecycleTemplate");
pub const LIFECYCLE_TEMPLATE: Template =
    Template("/environment/{environment_id}/lifecycleTemplate/{template_id}");
pub const ENVIRONMENT_CLONE: Template = Template("/environment/{environment_id}/clone");
pub const ENVIRONMENT_LOGS: Template = Template("/environment/{environment_id}/logs");
pub const ENVIRONMENT_CANCEL: Template = Template("/environment/{environment_id}/cancelDeployment");

pub const PROJECT_DEPLOYMENT_RULES: Template = Template("/project/{project_id}/deploymentRule");
pub const PROJECT_DEPLOYMENT_RULE: Template =
    Template("/project/{project_id}/deploymentRule/{project_rule_id}");
pub const ENVIRONMENT_DEPLOYMENT_RULE: Template =
    Template("/environment/{environment_id}/deploymentRule");
pub const ENVIRONMENT_DEPLOYMENT_RULE_ITEM: Template =
    Template("/environment/{environment_id}/deploymentRule/{environment_rule_id}");

pub const CLUSTERS: Template = Template("/organization/{organization_id}/cluster");
pub const CLUSTER: Template = Template("/organization/{organization_id}/cluster/{cluster_id}");
pub const CONTAINER_REGISTRIES: Template =
    Template("/organization/{organization_id}/containerRegistry");
pub const CONTAINER_REGISTRY: Template =
    Template("/organization/{organization_id}/containerRegistry/{container_registry_id}");
pub const HELM_REPOSITORIES: Template = Template("/organization/{organization_id}/helmRepository");
pub const HELM_REPOSITORY: Template =
    Template("/organization/{organization_id}/helmRepository/{helm_repository_id}");
pub const GIT_TOKENS: Template = Template("/organization/{organization_id}/gitToken");
pub const GIT_TOKEN: Template = Template("/organization/{organization_id}/gitToken/{git_token_id}");
pub const LABELS_GROUPS: Template = Template("/organization/{organization_id}/labelsGroups");
pub const LABELS_GROUP: Template =
    Template("/organization/{organization_id}/labelsGroups/{labels_group_id}");
pub const ANNOTATIONS_GROUPS: Template =
    Template("/organization/{organization_id}/annotationsGroups");
pub const ANNOTATIONS_GROUP: Template =
    Template("/organization/{organization_id}/annotationsGroups/{annotations_group_id}");
pub const ON_PREMISE_CREDENTIALS: Template =
    Template("/organization/{organization_id}/onPremise/credentials");
pub const ON_PREMISE_CREDENTIAL: Template =
    Template("/organization/{organization_id}/onPremise/credentials/{credentials_id}");
pub const AWS_CREDENTIALS: Template = Template("/organization/{organization_id}/aws/credentials");
pub const AWS_CREDENTIAL: Template =
    Template("/organization/{organization_id}/aws/credentials/{aws_credentials_id}");
pub const PROVIDER_A_CREDENTIALS: Template =
    Template("/organization/{organization_id}/scaleway/credentials");
pub const PROVIDER_A_CREDENTIAL: Template =
    Template("/organization/{organization_id}/scaleway/credentials/{provider_a_credentials_id}");
pub const PROVIDER_E_CREDENTIALS: Template =
    Template("/organization/{organization_id}/gcp/credentials");
pub const PROVIDER_E_CREDENTIAL: Template =
    Template("/organization/{organization_id}/gcp/credentials/{provider_e_credentials_id}");
pub const PROVIDER_F_CREDENTIALS: Template =
    Template("/organization/{organization_id}/azure/credentials");
pub const PROVIDER_F_CREDENTIAL: Template =
    Template("/organization/{organization_id}/azure/credentials/{provider_f_credentials_id}");
/// Every set of credentials of the organization, with the clusters using each.
pub const ORGANIZATION_CREDENTIALS: Template =
    Template("/organization/{organization_id}/credentials");
pub const CLUSTER_CLOUD_PROVIDER_INFO: Template =
    Template("/organization/{organization_id}/cluster/{cluster_id}/cloudProviderInfo");
pub const AWS_REGIONS: Template = Template("/aws/region");
pub const PROVIDER_A_REGIONS: Template = Template("/scaleway/region");
pub const PROVIDER_E_REGIONS: Template = Template("/gcp/region");
pub const PROVIDER_F_REGIONS: Template = Template("/azure/region");
pub const WEBHOOKS: Template = Template("/organization/{organization_id}/webhook");
pub const WEBHOOK: Template = Template("/organization/{organization_id}/webhook/{webhook_id}");

pub const API_TOKENS: Template = Template("/organization/{organization_id}/apiToken");
pub const API_TOKEN: Template = Template("/organization/{organization_id}/apiToken/{api_token_id}");
pub const CUSTOM_ROLES: Template = Template("/organization/{organization_id}/customRole");
pub const AVAILABLE_ROLES: Template = Template("/organization/{organization_id}/availableRole");
pub const CUSTOM_ROLE: Template = Template("/organization/{organization_id}/customRole/{role_id}");

pub const ORGANIZATION_EVENTS: Template = Template("/organization/{organization_id}/events");
pub const MEMBERS: Template = Template("/organization/{organization_id}/member");
pub const INVITATIONS: Template = Template("/organization/{organization_id}/inviteMember");
pub const INVITATION_ACCEPT: Template = Template("/invitation/accept");
pub const TFVARS_FILES: Template =
    Template("/organization/{organization_id}/listTfVarsFilesFromGitRepo");
pub const TERRAFORM_VERSIONS: Template = Template("/terraform/availableVersion");
pub const ALERT_RULES: Template = Template("/alert-rules");
pub const ALERT_RULE: Template = Template("/alert-rules/{alert_rule_id}");
pub const ORGANIZATION_ALERT_RULES: Template =
    Template("/organization/{organization_id}/alert-rules");
pub const ALERT_RECEIVERS: Template = Template("/alert-receivers");
pub const ALERT_RECEIVER: Template = Template("/alert-receivers/{alert_receiver_id}");
pub const ALERT_RECEIVERS_VALIDATE: Template = Template("/alert-receivers/validate");
pub const ALERT_RECEIVER_VALIDATE: Template =
    Template("/alert-receivers/{alert_receiver_id}/validate");
pub const CLUSTER_LOCK: Template = Template("/cluster/{cluster_id}/lock");
pub const CLUSTER_UPGRADE: Template = Template("/cluster/{cluster_id}/upgrade");
pub const CLUSTER_TOKEN: Template = Template("/cluster/{cluster_id}/token");
pub const CLUSTER_DNS_PROVIDER: Template = Template("/cluster/{cluster_id}/dnsProvider");
pub const CLUSTER_ENVIRONMENTS: Template = Template("/cluster/{cluster_id}/environments");
pub const CLUSTER_METRICS: Template = Template("/cluster/{cluster_id}/metrics");
pub const CLUSTER_LOGS: Template = Template("/cluster/{cluster_id}/logs");
pub const CLUSTER_EVENTS: Template = Template("/cluster/{cluster_id}/events");
pub const ENVIRONMENT_HISTORY: Template =
    Template("/environment/{environment_id}/deploymentHistoryV2");
pub const ENVIRONMENT_PREVIEWS: Template = Template("/environment/{environment_id}/previews");
pub const ENVIRONMENT_STAGES: Template = Template("/environment/{environment_id}/deploymentStage");
pub const DEPLOYMENT_STAGE: Template = Template("/deploymentStage/{deployment_stage_id}");
pub const CHECK_DOCKERFILE: Template = Template("/environment/{environment_id}/checkDockerfile");
pub const CHECK_CONTAINER_IMAGE: Template =
    Template("/environment/{environment_id}/checkContainerImage");
pub const SERVICE_QUEUE: Template = Template("/service/{service_id}/deploymentQueue");
pub const QUEUED_CANCEL: Template =
    Template("/deploymentQueue/{deployment_request_id}/cancelDeployment");
pub const DATABASE_CREDENTIALS: Template = Template("/database/{database_id}/masterCredentials");
pub const DATABASE_VERSIONS: Template = Template("/database/{database_id}/version");
pub const HELM_DEFAULT_VALUES: Template =
    Template("/environment/{environment_id}/helmDefaultValues");
pub const DATABASE_CONFIGURATIONS: Template =
    Template("/environment/{environment_id}/databaseConfiguration");
pub const DATABASE_BACKUPS: Template = Template("/database/{database_id}/backup");
pub const VARIABLES: Template = Template("/variable");
pub const VARIABLES_IMPORT: Template = Template("/variable/import");
pub const VARIABLE: Template = Template("/variable/{variable_id}");
pub const VARIABLE_ALIAS: Template = Template("/variable/{variable_id}/alias");
pub const VARIABLE_OVERRIDE: Template = Template("/variable/{variable_id}/override");

pub const ORGANIZATION_ALERT_RECEIVERS: Template =
    Template("/organization/{organization_id}/alert-receivers");
pub const ENVIRONMENT_LINKS: Template = Template("/environment/{environment_id}/link");
pub const ENVIRONMENT_TERRAFORM_EXPORT: Template =
    Template("/environment/{environment_id}/terraformExport");
pub const SELECTED_DEPLOY: Template = Template("/environment/{environment_id}/service/deploy");

// Reads and actions below a collection or one of its items.
pub const WEBHOOK_TEST: Template =
    Template("/organization/{organization_id}/webhook/{webhook_id}/test");
pub const WEBHOOK_DELIVERIES: Template =
    Template("/organization/{organization_id}/webhook/{webhook_id}/delivery");
pub const WEBHOOK_EVENTS: Template =
    Template("/organization/{organization_id}/webhook/{webhook_id}/event");
pub const GIT_TOKEN_SERVICES: Template =
    Template("/organization/{organization_id}/gitToken/{git_token_id}/associatedServices");
pub const CLUSTER_STATUS: Template =
    Template("/organization/{organization_id}/cluster/{cluster_id}/status");
pub const CLUSTER_STATUSES: Template = Template("/organization/{organization_id}/cluster/status");
pub const CLUSTER_DEPLOY: Template =
    Template("/organization/{organization_id}/cluster/{cluster_id}/deploy");
pub const CLUSTER_STOP: Template =
    Template("/organization/{organization_id}/cluster/{cluster_id}/stop");
pub const CLUSTER_ACTION_LOG: Template =
    Template("/organization/{organization_id}/cluster/{cluster_id}/logs");
pub const CLUSTER_KUBECONFIG: Template =
    Template("/organization/{organization_id}/cluster/{cluster_id}/kubeconfig");
pub const CLUSTER_ADVANCED_SETTINGS: Template =
    Template("/organization/{organization_id}/cluster/{cluster_id}/advancedSettings");
pub const CLUSTER_ROUTING_TABLE: Template =
    Template("/organization/{organization_id}/cluster/{cluster_id}/routingTable");
pub const ENVIRONMENTS_STATUS: Template = Template("/project/{project_id}/environment/status");
pub const PROJECT_DEPLOYMENT_RULES_ORDER: Template =
    Template("/project/{project_id}/deploymentRule/order");
pub const DATABASE_BACKUP: Template = Template("/database/{database_id}/backup/{backup_id}");
pub const CONTAINER_REGISTRY_IMAGES: Template =
    Template("/organization/{organization_id}/containerRegistry/{container_registry_id}/images");
pub const CONTAINER_REGISTRY_STATUSES: Template = Template(
    "/organization/{organization_id}/containerRegistry/{container_registry_id}/container/status",
);
pub const HELM_REPOSITORY_CHARTS: Template =
    Template("/organization/{organization_id}/helmRepository/{helm_repository_id}/charts");
pub const GIT_ACCOUNTS: Template =
    Template("/organization/{organization_id}/account/gitAuthProvider");
pub const ACCOUNT_GIT_ACCOUNTS: Template = Template("/account/gitAuthProvider");
pub const PROVIDER_C_REPOSITORIES: Template =
    Template("/organization/{organization_id}/account/github/repository");
pub const PROVIDER_C_BRANCHES: Template =
    Template("/organization/{organization_id}/account/github/repository/branch");
pub const PROVIDER_D_REPOSITORIES: Template =
    Template("/organization/{organization_id}/account/gitlab/repository");
pub const PROVIDER_D_BRANCHES: Template =
    Template("/organization/{organization_id}/account/gitlab/repository/branch");
pub const PROVIDER_G_REPOSITORIES: Template =
    Template("/organization/{organization_id}/account/bitbucket/repository");
pub const PROVIDER_G_BRANCHES: Template =
    Template("/organization/{organization_id}/account/bitbucket/repository/branch");
pub const ACCOUNT_PROVIDER_C_REPOSITORIES: Template = Template("/account/github/repository");
pub const ACCOUNT_PROVIDER_C_BRANCHES: Template = Template("/account/github/repository/branch");
pub const ACCOUNT_PROVIDER_D_REPOSITORIES: Template = Template("/account/gitlab/repository");
pub const ACCOUNT_PROVIDER_D_BRANCHES: Template = Template("/account/gitlab/repository/branch");
pub const ACCOUNT_PROVIDER_G_REPOSITORIES: Template = Template("/account/bitbucket/repository");
pub const ACCOUNT_PROVIDER_G_BRANCHES: Template = Template("/account/bitbucket/repository/branch");
pub const REPOSITORY_DIRECTORIES: Template =
    Template("/organization/{organization_id}/listDirectoriesFromGitRepository");
pub const TERRAFORM_VARIABLES: Template =
    Template("/organization/{organization_id}/parseTerraformVariablesFromGitRepo");
pub const TERRAFORM_RESOURCES: Template = Template("/terraform/{terraform_id}/terraformResources");
pub const CLOUD_PROVIDERS: Template = Template("/cloudProvider");
pub const AWS_INSTANCE_TYPES: Template = Template("/aws/eks/instanceType/{aws_region}");
pub const AWS_ALL_INSTANCE_TYPES: Template = Template("/aws/instanceType");
pub const PROVIDER_A_INSTANCE_TYPES: Template =
    Template("/scaleway/instanceType/{provider_a_zone}");
pub const PROVIDER_A_ALL_INSTANCE_TYPES: Template = Template("/scaleway/instanceType");
pub const PROVIDER_E_INSTANCE_TYPES: Template = Template("/gcp/instanceType/{provider_e_region}");
pub const PROVIDER_F_INSTANCE_TYPES: Template =
    Template("/azure/aks/instanceType/{provider_f_region}");
pub const INVITATION: Template =
    Template("/organization/{organization_id}/inviteMember/{invitation_id}");
pub const TRANSFER_OWNERSHIP: Template =
    Template("/organization/{organization_id}/transferOwnership");
pub const AWS_MANAGED_DATABASE_TYPES: Template = Template("/aws/managedDatabase/type");
pub const AWS_CLUSTER_FEATURES: Template = Template("/aws/clusterFeature");
pub const PROVIDER_A_CLUSTER_FEATURES: Template = Template("/scaleway/clusterFeature");
pub const PROVIDER_E_CLUSTER_FEATURES: Template = Template("/gcp/clusterFeature");
pub const PROVIDER_F_CLUSTER_FEATURES: Template = Template("/azure/clusterFeature");
pub const PROVIDER_A_MANAGED_DATABASE_TYPES: Template = Template("/scaleway/managedDatabase/type");
pub const AWS_MANAGED_DATABASE_INSTANCE_TYPES: Template =
    Template("/aws/managedDatabase/instanceType/{aws_region}/{database_type}");

/// Every template above, for the test that each is served.
pub const ALL: &[Template] = &[
    ORGANIZATIONS,
    ORGANIZATION,
    CURRENT_ROLE,
    PROJECTS,
    ORGANIZATION_SERVICES,
    ORGANIZATION_ENVIRONMENTS,
    PROJECT_STATS,
    PROJECT,
    ENVIRONMENTS,
    ENVIRONMENT,
    ENVIRONMENT_STATUSES,
    ENVIRONMENT_SERVICES,
    LIFECYCLE_TEMPLATES,
    LIFECYCLE_TEMPLATE,
    ENVIRONMENT_CLONE,
    ENVIRONMENT_LOGS,
    ENVIRONMENT_CANCEL,
    PROJECT_DEPLOYMENT_RULES,
    PROJECT_DEPLOYMENT_RULE,
    ENVIRONMENT_DEPLOYMENT_RULE,
    ENVIRONMENT_DEPLOYMENT_RULE_ITEM,
    CLUSTERS,
    CLUSTER,
    CONTAINER_REGISTRIES,
    CONTAINER_REGISTRY,
    HELM_REPOSITORIES,
    HELM_REPOSITORY,
    GIT_TOKENS,
    GIT_TOKEN,
    LABELS_GROUPS,
    LABELS_GROUP,
    ANNOTATIONS_GROUPS,
    ANNOTATIONS_GROUP,
    ON_PREMISE_CREDENTIALS,
    ON_PREMISE_CREDENTIAL,
    AWS_CREDENTIALS,
    AWS_CREDENTIAL,
    PROVIDER_A_CREDENTIALS,
    PROVIDER_A_CREDENTIAL,
    PROVIDER_E_CREDENTIALS,
    PROVIDER_E_CREDENTIAL,
    PROVIDER_F_CREDENTIALS,
    PROVIDER_F_CREDENTIAL,
    ORGANIZATION_CREDENTIALS,
    CLUSTER_CLOUD_PROVIDER_INFO,
    AWS_REGIONS,
    PROVIDER_A_REGIONS,
    PROVIDER_E_REGIONS,
    PROVIDER_F_REGIONS,
    WEBHOOKS,
    WEBHOOK,
    API_TOKENS,
    API_TOKEN,
    CUSTOM_ROLES,
    AVAILABLE_ROLES,
    CUSTOM_ROLE,
    ORGANIZATION_EVENTS,
    MEMBERS,
    INVITATIONS,
    INVITATION_ACCEPT,
    TFVARS_FILES,
    CLOUD_PROVIDERS,
    AWS_MANAGED_DATABASE_TYPES,
    AWS_CLUSTER_FEATURES,
    PROVIDER_A_CLUSTER_FEATURES,
    PROVIDER_E_CLUSTER_FEATURES,
    PROVIDER_F_CLUSTER_FEATURES,
    PROVIDER_A_MANAGED_DATABASE_TYPES,
    AWS_MANAGED_DATABASE_INSTANCE_TYPES,
    TERRAFORM_RESOURCES,
    AWS_INSTANCE_TYPES,
    AWS_ALL_INSTANCE_TYPES,
    PROVIDER_A_INSTANCE_TYPES,
    PROVIDER_A_ALL_INSTANCE_TYPES,
    PROVIDER_E_INSTANCE_TYPES,
    PROVIDER_F_INSTANCE_TYPES,
    GIT_ACCOUNTS,
    ACCOUNT_GIT_ACCOUNTS,
    PROVIDER_C_REPOSITORIES,
    PROVIDER_C_BRANCHES,
    PROVIDER_D_REPOSITORIES,
    PROVIDER_D_BRANCHES,
    PROVIDER_G_REPOSITORIES,
    PROVIDER_G_BRANCHES,
    ACCOUNT_PROVIDER_C_REPOSITORIES,
    ACCOUNT_PROVIDER_C_BRANCHES,
    ACCOUNT_PROVIDER_D_REPOSITORIES,
    ACCOUNT_PROVIDER_D_BRANCHES,
    ACCOUNT_PROVIDER_G_REPOSITORIES,
    ACCOUNT_PROVIDER_G_BRANCHES,
    REPOSITORY_DIRECTORIES,
    TERRAFORM_VARIABLES,
    TERRAFORM_VERSIONS,
    ALERT_RULES,
    ALERT_RULE,
    ORGANIZATION_ALERT_RULES,
    ALERT_RECEIVERS,
    ALERT_RECEIVER,
    ALERT_RECEIVERS_VALIDATE,
    ALERT_RECEIVER_VALIDATE,
    CLUSTER_LOCK,
    CLUSTER_UPGRADE,
    CLUSTER_TOKEN,
    CLUSTER_DNS_PROVIDER,
    ACCOUNT,
    CLUSTER_ENVIRONMENTS,
    CLUSTER_METRICS,
    CLUSTER_LOGS,
    CLUSTER_EVENTS,
    ENVIRONMENT_HISTORY,
    ENVIRONMENT_PREVIEWS,
    ENVIRONMENT_STAGES,
    DEPLOYMENT_STAGE,
    CHECK_DOCKERFILE,
    CHECK_CONTAINER_IMAGE,
    SERVICE_QUEUE,
    QUEUED_CANCEL,
    DATABASE_CREDENTIALS,
    DATABASE_VERSIONS,
    DATABASE_CONFIGURATIONS,
    HELM_DEFAULT_VALUES,
    DATABASE_BACKUPS,
    VARIABLES,
    VARIABLES_IMPORT,
    VARIABLE,
    VARIABLE_ALIAS,
    VARIABLE_OVERRIDE,
    ORGANIZATION_ALERT_RECEIVERS,
    ENVIRONMENT_LINKS,
    ENVIRONMENT_TERRAFORM_EXPORT,
    SELECTED_DEPLOY,
    WEBHOOK_TEST,
    WEBHOOK_DELIVERIES,
    WEBHOOK_EVENTS,
    GIT_TOKEN_SERVICES,
    CLUSTER_STATUS,
    CLUSTER_STATUSES,
    CLUSTER_DEPLOY,
    CLUSTER_STOP,
    CLUSTER_ACTION_LOG,
    CLUSTER_KUBECONFIG,
    CLUSTER_ADVANCED_SETTINGS,
    CLUSTER_ROUTING_TABLE,
    ENVIRONMENTS_STATUS,
    PROJECT_DEPLOYMENT_RULES_ORDER,
    DATABASE_BACKUP,
    INVITATION,
    TRANSFER_OWNERSHIP,
    CONTAINER_REGISTRY_IMAGES,
    CONTAINER_REGISTRY_STATUSES,
    HELM_REPOSITORY_CHARTS,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_template_is_filled_in_order() {
        let (org, id) = (Uuid::from_u128(1), Uuid::nil());
        assert_eq!(
            WEBHOOK.at(&[org, id]),
            format!("/organization/{org}/webhook/{id}")
        );
        assert_eq!(ORGANIZATIONS.at(&[]), "/organization");
        // A value left out leaves its parameter as it was, for the server's tests to notice.
        assert_eq!(PROJECT.at(&[]), "/project/{project_id}");
    }

    #[test]
    fn texts_fill_a_template_in_order_encoded() {
        assert_eq!(
            AWS_MANAGED_DATABASE_INSTANCE_TYPES.with_texts(&["eu-west-3", "REDIS"]),
            "/aws/managedDatabase/instanceType/eu-west-3/REDIS"
        );
        assert_eq!(
            AWS_INSTANCE_TYPES.with_text("a b/c"),
            "/aws/eks/instanceType/a%20b%2Fc"
        );
        assert_eq!(
            AWS_MANAGED_DATABASE_INSTANCE_TYPES.with_texts(&["eu-west-3"]),
            "/aws/managedDatabase/instanceType/eu-west-3/{database_type}"
        );
    }
}
