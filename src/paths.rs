//! The addresses of the console's pages, in one place: the route table, links and redirects
//! all take them from here.

use std::borrow::Cow;

use leptos_router::{PartialPathMatch, PathSegment, PossibleRouteMatch};
use uuid::Uuid;

/// A page's address, written once for the route table and the links: segments, `:name` for a
/// parameter. One type for every route, so that the router's code for a route is compiled once
/// (a `path!` is a tuple type per shape of path, each with its own matching code).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Address(&'static str);

impl Address {
    fn segments(self) -> impl Iterator<Item = &'static str> {
        self.0.split('/').filter(|segment| !segment.is_empty())
    }

    /// The link: the address with `ids` for its parameters, in order, written as the API
    /// writes them (`platform_api::paths::Template::at`).
    pub fn at(self, ids: &[Uuid]) -> String {
        let mut ids = ids.iter();
        let mut link = String::with_capacity(self.0.len() + 36 * ids.len());
        let mut buffer = Uuid::encode_buffer();
        for segment in self.segments() {
            link.push('/');
            match segment.starts_with(':').then(|| ids.next()).flatten() {
                Some(id) => link.push_str(id.hyphenated().encode_lower(&mut buffer)),
                None => link.push_str(segment),
            }
        }
        link
    }
}

impl PossibleRouteMatch for Address {
    fn optional(&self) -> bool {
        false
    }

    /// Each segment in turn: a static one matches itself, a parameter any text up to the next
    /// `/`; what follows is left for the routes below.
    fn test<'a>(&self, path: &'a str) -> Option<PartialPathMatch<'a>> {
        let mut rest = path;
        let mut params = Vec::new();
        for segment in self.segments() {
            let after = rest.strip_prefix('/')?;
            let (value, remaining) = after.split_at(after.find('/').unwrap_or(after.len()));
            match segment.strip_prefix(':') {
                Some(name) if !value.is_empty() => {
                    params.push((Cow::Borrowed(name), value.to_string()))
                }
                None if value == segment => {}
                _ => return None,
            }
            rest = remaining;
        }
        let matched = &path[..path.len() - rest.len()];
        Some(PartialPathMatch::new(rest, params, matched))
    }

    fn generate_path(&self, path: &mut Vec<PathSegment>) {
        path.extend(
            self.segments()
                .map(|segment| match segment.strip_prefix(':') {
                    Some(name) => PathSegment::Param(name.into()),
                    None => PathSegment::Static(segment.into()),
                }),
        );
    }
}

pub const SIGN_IN: Address = Address("/sign-in");

/// Opens the identity provider's sign-in.
pub const SIGN_IN_PROVIDER: Address = Address("/sign-in/provider");

/// The provider's sign-in, coming back to `next`, for the API at `base_url`.
pub fn sign_in_through_provider(next: &str, base_url: &str) -> String {
    format!(
        "/sign-in/provider?next={}&api={}",
        crate::api::query_value(next),
        crate::api::query_value(base_url)
    )
}

/// Where the identity provider sends the browser back with the code (`redirect_uri`).
pub const SIGN_IN_CALLBACK: Address = Address("/sign-in/callback");

pub const HOME: Address = Address("/");

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

pub const ORGANIZATION: Address = Address("/organization/:org/overview");

/// Who is signed in, and their organizations.
pub const ACCOUNT: Address = Address("/account");

/// A new organization, owned by the person who makes it.
pub const NEW_ORGANIZATION: Address = Address("/organization/new");

pub fn organization(org: Uuid) -> String {
    ORGANIZATION.at(&[org])
}

pub const WEBHOOKS: Address = Address("/organization/:org/settings/webhooks");

pub fn webhooks(org: Uuid) -> String {
    WEBHOOKS.at(&[org])
}

/// What happened in the organization, as one story.
pub const TIMELINE: Address = Address("/organization/:org/timeline");

pub fn timeline(org: Uuid) -> String {
    TIMELINE.at(&[org])
}

pub const CLUSTERS: Address = Address("/organization/:org/clusters");

pub fn clusters(org: Uuid) -> String {
    CLUSTERS.at(&[org])
}

pub const CLUSTER: Address = Address("/organization/:org/cluster/:cluster/overview");

pub fn cluster(org: Uuid, cluster: Uuid) -> String {
    CLUSTER.at(&[org, cluster])
}

pub const CLUSTER_ADVANCED_SETTINGS: Address =
    Address("/organization/:org/cluster/:cluster/advanced-settings");

pub fn cluster_advanced_settings(org: Uuid, cluster: Uuid) -> String {
    CLUSTER_ADVANCED_SETTINGS.at(&[org, cluster])
}

pub const CONTAINER_REGISTRIES: Address =
    Address("/organization/:org/settings/container-registries");

pub fn container_registries(org: Uuid) -> String {
    CONTAINER_REGISTRIES.at(&[org])
}

pub const HELM_REPOSITORIES: Address = Address("/organization/:org/settings/helm-repositories");

pub fn helm_repositories(org: Uuid) -> String {
    HELM_REPOSITORIES.at(&[org])
}

pub const LABELS_ANNOTATIONS: Address = Address("/organization/:org/settings/labels-annotations");

pub fn labels_annotations(org: Uuid) -> String {
    LABELS_ANNOTATIONS.at(&[org])
}

pub const ALERT_RECEIVERS: Address = Address("/organization/:org/settings/alert-receivers");

pub fn alert_receivers(org: Uuid) -> String {
    ALERT_RECEIVERS.at(&[org])
}

pub const ON_PREMISE_CREDENTIALS: Address =
    Address("/organization/:org/settings/on-premise-credentials");

pub fn on_premise_credentials(org: Uuid) -> String {
    ON_PREMISE_CREDENTIALS.at(&[org])
}

pub const CLOUD_CREDENTIALS: Address = Address("/organization/:org/settings/cloud-credentials");

pub fn cloud_credentials(org: Uuid) -> String {
    CLOUD_CREDENTIALS.at(&[org])
}

pub const GENERAL_SETTINGS: Address = Address("/organization/:org/settings/general");

pub fn general_settings(org: Uuid) -> String {
    GENERAL_SETTINGS.at(&[org])
}

pub const MEMBERS: Address = Address("/organization/:org/settings/members");

pub fn members(org: Uuid) -> String {
    MEMBERS.at(&[org])
}

pub const INVITATION: Address = Address("/invitation/:org/:invitation");

pub const GIT_TOKENS: Address = Address("/organization/:org/settings/git-tokens");

pub fn git_tokens(org: Uuid) -> String {
    GIT_TOKENS.at(&[org])
}

pub const API_TOKENS: Address = Address("/organization/:org/settings/api-tokens");

pub fn api_tokens(org: Uuid) -> String {
    API_TOKENS.at(&[org])
}

pub const FLEET: Address = Address("/organization/:org/fleet");

/// Every service of the organization with its status, filtered.
pub fn fleet(org: Uuid) -> String {
    FLEET.at(&[org])
}

pub const ALERTS: Address = Address("/organization/:org/alerts");

/// Every alert rule of the organization, with its state.
pub fn alerts(org: Uuid) -> String {
    ALERTS.at(&[org])
}

pub const AUDIT_LOG: Address = Address("/organization/:org/audit-log");

/// The organization's audit log, narrowed as `query` says (a project's, a service's...).
pub fn audit_log(org: Uuid, query: &platform_api::audit::EventQuery) -> String {
    query.on(&AUDIT_LOG.at(&[org]))
}

pub const PROJECT: Address = Address("/organization/:org/project/:project/overview");

pub fn project(org: Uuid, project: Uuid) -> String {
    PROJECT.at(&[org, project])
}

/// The pages of an environment, one per tab, in the order of its tabs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EnvironmentTab {
    Services,
    Deployments,
    Timeline,
    Variables,
    Settings,
}

impl EnvironmentTab {
    pub const ALL: [EnvironmentTab; 5] = [
        EnvironmentTab::Services,
        EnvironmentTab::Deployments,
        EnvironmentTab::Timeline,
        EnvironmentTab::Variables,
        EnvironmentTab::Settings,
    ];

    /// The route of the tab, below `ENVIRONMENT`.
    pub fn route(self) -> Address {
        Address(self.segment())
    }

    /// The last segment of the tab's address: the route table's and the links'.
    pub fn segment(self) -> &'static str {
        match self {
            EnvironmentTab::Services => "services",
            EnvironmentTab::Deployments => "deployments",
            EnvironmentTab::Timeline => "timeline",
            EnvironmentTab::Variables => "variables",
            EnvironmentTab::Settings => "settings",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            EnvironmentTab::Services => "Services",
            EnvironmentTab::Deployments => "Deployments",
            EnvironmentTab::Timeline => "Timeline",
            EnvironmentTab::Variables => "Variables",
            EnvironmentTab::Settings => "Settings",
        }
    }
}

/// The environment's pages, each of its tabs below it.
pub const ENVIRONMENT: Address = Address("/organization/:org/project/:project/environment/:env");

/// An environment's first tab: its services.
pub fn environment(org: Uuid, project: Uuid, environment: Uuid) -> String {
    environment_tab(org, project, environment, EnvironmentTab::Services)
}

/// The environment's address of earlier versions, below `ENVIRONMENT`: its first tab
/// now.
pub const ENVIRONMENT_OVERVIEW: Address = Address("/overview");

pub fn environment_tab(org: Uuid, project: Uuid, environment: Uuid, tab: EnvironmentTab) -> String {
    format!(
        "{}/{}",
        ENVIRONMENT.at(&[org, project, environment]),
        tab.segment()
    )
}

/// The pages of a service, one per tab, in the order of its tabs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ServiceTab {
    Overview,
    Monitoring,
    Deployments,
    Timeline,
    Logs,
    Variables,
    Settings,
    AdvancedSettings,
}

impl ServiceTab {
    pub const ALL: [ServiceTab; 8] = [
        ServiceTab::Overview,
        ServiceTab::Monitoring,
        ServiceTab::Deployments,
        ServiceTab::Timeline,
        ServiceTab::Logs,
        ServiceTab::Variables,
        ServiceTab::Settings,
        ServiceTab::AdvancedSettings,
    ];

    /// The route of the tab, below `SERVICE`.
    pub fn route(self) -> Address {
        Address(self.segment())
    }

    /// The last segment of the tab's address: the route table's and the links'.
    pub fn segment(self) -> &'static str {
        match self {
            ServiceTab::Overview => "overview",
            ServiceTab::Monitoring => "monitoring",
            ServiceTab::Deployments => "deployments",
            ServiceTab::Timeline => "timeline",
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
            ServiceTab::Timeline => "Timeline",
            ServiceTab::Logs => "Logs",
            ServiceTab::Variables => "Variables",
            ServiceTab::Settings => "Settings",
            ServiceTab::AdvancedSettings => "Advanced settings",
        }
    }
}

/// The service's pages, each of its tabs below it.
pub const SERVICE: Address =
    Address("/organization/:org/project/:project/environment/:env/service/:service");

/// A service's overview.
pub fn service(org: Uuid, project: Uuid, environment: Uuid, service: Uuid) -> String {
    service_tab(org, project, environment, service, ServiceTab::Overview)
}

/// A route that takes no segment: the shell's, the frame of every page below it, and a service's
/// or an environment's address itself, below its route (`ENVIRONMENT`, `SERVICE`): no tab named.
pub const NO_SEGMENT: Address = Address("");

pub fn service_tab(
    org: Uuid,
    project: Uuid,
    environment: Uuid,
    service: Uuid,
    tab: ServiceTab,
) -> String {
    format!(
        "{}/{}",
        SERVICE.at(&[org, project, environment, service]),
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
