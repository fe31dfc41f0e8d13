//! The addresses of the console's pages, in one place: the route table, links and redirects
//! all take them from here.

use leptos_router::{path, PossibleRouteMatch};
use uuid::Uuid;

/// What the route table takes as a page's path.
pub trait Pattern: PossibleRouteMatch + Clone + Send + 'static {}
impl<T: PossibleRouteMatch + Clone + Send + 'static> Pattern for T {}

/// The sign-in page, with the page to come back to afterwards.
pub fn sign_in(back_to: Option<&str>) -> String {
    match back_to.filter(|path| *path != "/" && is_local(path)) {
        Some(path) => format!("/sign-in?next={}", crate::api::query_value(path)),
        None => "/sign-in".to_string(),
    }
}

/// A path of this console (never another site: no open redirect after sign-in).
pub fn is_local(path: &str) -> bool {
    path.starts_with('/') && !path.starts_with("//") && !path.starts_with("/\\")
}

pub fn organization_route() -> impl Pattern {
    path!("/organization/:org/overview")
}

pub fn organization(org: Uuid) -> String {
    format!("/organization/{org}/overview")
}

pub fn webhooks_route() -> impl Pattern {
    path!("/organization/:org/settings/webhooks")
}

pub fn webhooks(org: Uuid) -> String {
    format!("/organization/{org}/settings/webhooks")
}

pub fn clusters_route() -> impl Pattern {
    path!("/organization/:org/clusters")
}

pub fn clusters(org: Uuid) -> String {
    format!("/organization/{org}/clusters")
}

pub fn cluster_route() -> impl Pattern {
    path!("/organization/:org/cluster/:cluster/overview")
}

pub fn cluster(org: Uuid, cluster: Uuid) -> String {
    format!("/organization/{org}/cluster/{cluster}/overview")
}

pub fn cluster_advanced_settings_route() -> impl Pattern {
    path!("/organization/:org/cluster/:cluster/advanced-settings")
}

pub fn cluster_advanced_settings(org: Uuid, cluster: Uuid) -> String {
    format!("/organization/{org}/cluster/{cluster}/advanced-settings")
}

pub fn container_registries_route() -> impl Pattern {
    path!("/organization/:org/settings/container-registries")
}

pub fn container_registries(org: Uuid) -> String {
    format!("/organization/{org}/settings/container-registries")
}

pub fn helm_repositories_route() -> impl Pattern {
    path!("/organization/:org/settings/helm-repositories")
}

pub fn helm_repositories(org: Uuid) -> String {
    format!("/organization/{org}/settings/helm-repositories")
}

pub fn labels_annotations_route() -> impl Pattern {
    path!("/organization/:org/settings/labels-annotations")
}

pub fn labels_annotations(org: Uuid) -> String {
    format!("/organization/{org}/settings/labels-annotations")
}

pub fn alert_receivers_route() -> impl Pattern {
    path!("/organization/:org/settings/alert-receivers")
}

pub fn alert_receivers(org: Uuid) -> String {
    format!("/organization/{org}/settings/alert-receivers")
}

pub fn on_premise_credentials_route() -> impl Pattern {
    path!("/organization/:org/settings/on-premise-credentials")
}

pub fn on_premise_credentials(org: Uuid) -> String {
    format!("/organization/{org}/settings/on-premise-credentials")
}

pub fn cloud_credentials_route() -> impl Pattern {
    path!("/organization/:org/settings/cloud-credentials")
}

pub fn cloud_credentials(org: Uuid) -> String {
    format!("/organization/{org}/settings/cloud-credentials")
}

pub fn general_settings_route() -> impl Pattern {
    path!("/organization/:org/settings/general")
}

pub fn general_settings(org: Uuid) -> String {
    format!("/organization/{org}/settings/general")
}

pub fn members_route() -> impl Pattern {
    path!("/organization/:org/settings/members")
}

pub fn members(org: Uuid) -> String {
    format!("/organization/{org}/settings/members")
}

pub fn invitation_route() -> impl Pattern {
    path!("/invitation/:org/:invitation")
}

pub fn git_tokens_route() -> impl Pattern {
    path!("/organization/:org/settings/git-tokens")
}

pub fn git_tokens(org: Uuid) -> String {
    format!("/organization/{org}/settings/git-tokens")
}

pub fn api_tokens_route() -> impl Pattern {
    path!("/organization/:org/settings/api-tokens")
}

pub fn api_tokens(org: Uuid) -> String {
    format!("/organization/{org}/settings/api-tokens")
}

pub fn fleet_route() -> impl Pattern {
    path!("/organization/:org/fleet")
}

/// Every service of the organization with its status, filtered.
pub fn fleet(org: Uuid) -> String {
    format!("/organization/{org}/fleet")
}

pub fn alerts_route() -> impl Pattern {
    path!("/organization/:org/alerts")
}

/// Every alert rule of the organization, with its state.
pub fn alerts(org: Uuid) -> String {
    format!("/organization/{org}/alerts")
}

pub fn audit_log_route() -> impl Pattern {
    path!("/organization/:org/audit-log")
}

/// The organization's audit log, narrowed as `query` says (a project's, a service's...).
pub fn audit_log(org: Uuid, query: &platform_api::audit::EventQuery) -> String {
    query.on(&format!("/organization/{org}/audit-log"))
}

pub fn project_route() -> impl Pattern {
    path!("/organization/:org/project/:project/overview")
}

pub fn project(org: Uuid, project: Uuid) -> String {
    format!("/organization/{org}/project/{project}/overview")
}

/// The pages of an environment, one per tab, in the order of its tabs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EnvironmentTab {
    Services,
    Deployments,
    Variables,
    Settings,
}

impl EnvironmentTab {
    pub const ALL: [EnvironmentTab; 4] = [
        EnvironmentTab::Services,
        EnvironmentTab::Deployments,
        EnvironmentTab::Variables,
        EnvironmentTab::Settings,
    ];

    /// The last segment of the tab's address: the route table's and the links'.
    pub fn segment(self) -> &'static str {
        match self {
            EnvironmentTab::Services => "services",
            EnvironmentTab::Deployments => "deployments",
            EnvironmentTab::Variables => "variables",
            EnvironmentTab::Settings => "settings",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            EnvironmentTab::Services => "Services",
            EnvironmentTab::Deployments => "Deployments",
            EnvironmentTab::Variables => "Variables",
            EnvironmentTab::Settings => "Settings",
        }
    }
}

/// The environment's pages, each of its tabs below it.
pub fn environment_route() -> impl Pattern {
    path!("/organization/:org/project/:project/environment/:env")
}

/// An environment's first tab: its services.
pub fn environment(org: Uuid, project: Uuid, environment: Uuid) -> String {
    environment_tab(org, project, environment, EnvironmentTab::Services)
}

/// The route of an environment's tab, below `environment_route`.
pub fn environment_tab_route(tab: EnvironmentTab) -> impl Pattern {
    (leptos_router::StaticSegment(tab.segment()),)
}

/// The environment's address of earlier versions, below `environment_route`: its first tab
/// now.
pub fn environment_overview_route() -> impl Pattern {
    path!("/overview")
}

pub fn environment_tab(org: Uuid, project: Uuid, environment: Uuid, tab: EnvironmentTab) -> String {
    format!(
        "/organization/{org}/project/{project}/environment/{environment}/{}",
        tab.segment()
    )
}

/// The pages of a service, one per tab, in the order of its tabs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ServiceTab {
    Overview,
    Monitoring,
    Deployments,
    Logs,
    Variables,
    Settings,
    AdvancedSettings,
}

impl ServiceTab {
    pub const ALL: [ServiceTab; 7] = [
        ServiceTab::Overview,
        ServiceTab::Monitoring,
        ServiceTab::Deployments,
        ServiceTab::Logs,
        ServiceTab::Variables,
        ServiceTab::Settings,
        ServiceTab::AdvancedSettings,
    ];

    /// The last segment of the tab's address: the route table's and the links'.
    pub fn segment(self) -> &'static str {
        match self {
            ServiceTab::Overview => "overview",
            ServiceTab::Monitoring => "monitoring",
            ServiceTab::Deployments => "deployments",
            ServiceTab::Logs => "logs",
            ServiceTab::Variables => "variables",
            ServiceTab::Settings => "settings",
            ServiceTab::AdvancedSettings => "advanced-settings",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            ServiceTab::Overview => "Overview",
            ServiceTab::Monitoring => "Monitoring",
            ServiceTab::Deployments => "Deployments",
            ServiceTab::Logs => "Logs",
            ServiceTab::Variables => "Variables",
            ServiceTab::Settings => "Settings",
            ServiceTab::AdvancedSettings => "Advanced settings",
        }
    }
}

/// The service's pages, each of its tabs below it.
pub fn service_route() -> impl Pattern {
    path!("/organization/:org/project/:project/environment/:env/service/:service")
}

/// A service's overview.
pub fn service(org: Uuid, project: Uuid, environment: Uuid, service: Uuid) -> String {
    service_tab(org, project, environment, service, ServiceTab::Overview)
}

/// A service's or an environment's address itself, below its route: no tab named.
pub fn without_tab_route() -> impl Pattern {
    path!("")
}

/// The route of a service's tab, below `service_route`.
pub fn tab_route(tab: ServiceTab) -> impl Pattern {
    (leptos_router::StaticSegment(tab.segment()),)
}

pub fn service_tab(
    org: Uuid,
    project: Uuid,
    environment: Uuid,
    service: Uuid,
    tab: ServiceTab,
) -> String {
    format!(
        "/organization/{org}/project/{project}/environment/{environment}/service/{service}/{}",
        tab.segment()
    )
}

/// Every settings page of the organization, by title, in the order of its tabs.
pub fn settings_pages(org: Uuid) -> [(&'static str, String); 11] {
    [
        ("General", general_settings(org)),
        ("Members", members(org)),
        ("Container registries", container_registries(org)),
        ("Helm repositories", helm_repositories(org)),
        ("Git tokens", git_tokens(org)),
        ("API tokens", api_tokens(org)),
        ("Webhooks", webhooks(org)),
        ("Alert receivers", alert_receivers(org)),
        ("Labels and annotations", labels_annotations(org)),
        ("Cloud credentials", cloud_credentials(org)),
        ("On-premise credentials", on_premise_credentials(org)),
    ]
}
