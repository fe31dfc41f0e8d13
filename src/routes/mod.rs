//! One module per page, folders mirroring the URL.

pub mod home;
pub mod invitation;
pub mod not_found;
pub mod organization;
pub mod sign_in;

use leptos::prelude::*;
use leptos_router::hooks::use_params;
use leptos_router::params::Params;
use uuid::Uuid;

/// The typed parameters of a page's address, as the route table names them (`:org`, `:env`...).
pub mod address {
    use leptos::Params;
    use leptos_router::params::Params;
    use uuid::Uuid;

    #[derive(Params, Clone, Copy, Debug, PartialEq)]
    pub struct OrganizationAddress {
        pub org: Uuid,
    }

    #[derive(Params, Clone, Copy, Debug, PartialEq)]
    pub struct ClusterAddress {
        pub org: Uuid,
        pub cluster: Uuid,
    }

    #[derive(Params, Clone, Copy, Debug, PartialEq)]
    pub struct ProjectAddress {
        pub org: Uuid,
        pub project: Uuid,
    }

    #[derive(Params, Clone, Copy, Debug, PartialEq)]
    pub struct EnvironmentAddress {
        pub org: Uuid,
        pub project: Uuid,
        pub env: Uuid,
    }

    #[derive(Params, Clone, Copy, Debug, PartialEq)]
    pub struct ServiceAddress {
        pub org: Uuid,
        pub project: Uuid,
        pub env: Uuid,
        pub service: Uuid,
    }
}

/// One id of the page's address, reactively (route parameters change without remounting):
/// `current_id(|a: &EnvironmentAddress| a.env)`; `None` while the URL holds something that does
/// not read (an id that is not a UUID).
pub fn current_id<A>(of: fn(&A) -> Uuid) -> Memo<Option<Uuid>>
where
    A: Params + Clone + PartialEq + Send + Sync + 'static,
{
    let params = use_params::<A>();
    Memo::new(move |_| params.with(|address| address.as_ref().ok().map(of)))
}

/// The addresses of the console's pages, in one place.
pub mod paths {
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

    pub fn environment_tab(
        org: Uuid,
        project: Uuid,
        environment: Uuid,
        tab: EnvironmentTab,
    ) -> String {
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
}

#[cfg(test)]
mod tests {
    use super::address::*;
    use super::paths::{self, is_local, EnvironmentTab, Pattern, ServiceTab};
    use leptos_router::params::{Params, ParamsMap};
    use uuid::Uuid;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn only_local_paths_are_returned_to() {
        assert!(is_local("/organization/x/overview"));
        assert!(!is_local("//evil.example"));
        assert!(!is_local("https://evil.example"));
        assert!(!is_local("/\\evil.example"));
    }

    /// What the route `pattern` reads from `link`, whole: the parameters, and what is left for
    /// the routes below it.
    fn read(pattern: impl Pattern, link: &str) -> (ParamsMap, String) {
        let matched = pattern
            .test(link)
            .unwrap_or_else(|| panic!("{link} is not reached by its route"));
        let remaining = matched.remaining().to_string();
        let mut params = ParamsMap::new();
        for (key, value) in matched.params() {
            params.insert(key, value);
        }
        (params, remaining)
    }

    fn reads_back<A: Params + PartialEq + std::fmt::Debug>(
        pattern: impl Pattern,
        link: &str,
        address: A,
    ) {
        let (params, remaining) = read(pattern, link);
        assert_eq!(remaining, "", "{link}");
        assert_eq!(A::from_map(&params).ok(), Some(address), "{link}");
    }

    #[wasm_bindgen_test]
    fn every_link_reaches_its_route_and_reads_back_as_its_address() {
        let [org, cluster, project, env, service] = [(); 5].map(|_| Uuid::new_v4());
        let organization = OrganizationAddress { org };
        reads_back(
            paths::organization_route(),
            &paths::organization(org),
            organization,
        );
        reads_back(paths::clusters_route(), &paths::clusters(org), organization);
        reads_back(paths::webhooks_route(), &paths::webhooks(org), organization);
        reads_back(
            paths::api_tokens_route(),
            &paths::api_tokens(org),
            organization,
        );
        let registries = paths::container_registries(org);
        reads_back(
            paths::container_registries_route(),
            &registries,
            organization,
        );
        let repositories = paths::helm_repositories(org);
        reads_back(
            paths::helm_repositories_route(),
            &repositories,
            organization,
        );
        let groups = paths::labels_annotations(org);
        reads_back(paths::labels_annotations_route(), &groups, organization);
        let receivers = paths::alert_receivers(org);
        reads_back(paths::alert_receivers_route(), &receivers, organization);
        let credentials = paths::on_premise_credentials(org);
        reads_back(
            paths::on_premise_credentials_route(),
            &credentials,
            organization,
        );
        reads_back(paths::members_route(), &paths::members(org), organization);
        let git_tokens = paths::git_tokens(org);
        reads_back(paths::git_tokens_route(), &git_tokens, organization);
        let all = platform_api::audit::EventQuery::default();
        let audit_log = paths::audit_log(org, &all);
        reads_back(paths::audit_log_route(), &audit_log, organization);
        reads_back(
            paths::cluster_route(),
            &paths::cluster(org, cluster),
            ClusterAddress { org, cluster },
        );
        reads_back(
            paths::cluster_advanced_settings_route(),
            &paths::cluster_advanced_settings(org, cluster),
            ClusterAddress { org, cluster },
        );
        reads_back(
            paths::project_route(),
            &paths::project(org, project),
            ProjectAddress { org, project },
        );
        for tab in EnvironmentTab::ALL {
            let link = paths::environment_tab(org, project, env, tab);
            let (params, remaining) = read(paths::environment_route(), &link);
            assert_eq!(
                EnvironmentAddress::from_map(&params).ok(),
                Some(EnvironmentAddress { org, project, env })
            );
            let (_, left) = read(paths::environment_tab_route(tab), &remaining);
            assert_eq!(left, "", "{link}");
        }
        for tab in ServiceTab::ALL {
            let link = paths::service_tab(org, project, env, service, tab);
            let (params, remaining) = read(paths::service_route(), &link);
            assert_eq!(
                ServiceAddress::from_map(&params).ok(),
                Some(ServiceAddress {
                    org,
                    project,
                    env,
                    service
                })
            );
            let (_, left) = read(paths::tab_route(tab), &remaining);
            assert_eq!(left, "", "{link}");
        }
    }
}
