//! One module per page, folders mirroring the URL.

pub mod home;
pub mod not_found;
pub mod organization;
pub mod sign_in;

use leptos::prelude::*;
use leptos_router::hooks::use_params_map;
use uuid::Uuid;

/// The id in the route parameter `name`, reactively (route params change without remounting).
/// `None` when the URL holds something that is not a UUID.
pub fn param_id(name: &'static str) -> Memo<Option<Uuid>> {
    let params = use_params_map();
    Memo::new(move |_| params.with(|p| p.get(name)).and_then(|id| id.parse().ok()))
}

/// The addresses of the console's pages, in one place.
pub mod paths {
    use uuid::Uuid;

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

    pub fn organization(org: Uuid) -> String {
        format!("/organization/{org}/overview")
    }

    pub fn webhooks(org: Uuid) -> String {
        format!("/organization/{org}/settings/webhooks")
    }

    pub fn clusters(org: Uuid) -> String {
        format!("/organization/{org}/clusters")
    }

    pub fn cluster(org: Uuid, cluster: Uuid) -> String {
        format!("/organization/{org}/cluster/{cluster}/overview")
    }

    pub fn container_registries(org: Uuid) -> String {
        format!("/organization/{org}/settings/container-registries")
    }

    pub fn helm_repositories(org: Uuid) -> String {
        format!("/organization/{org}/settings/helm-repositories")
    }

    pub fn labels_annotations(org: Uuid) -> String {
        format!("/organization/{org}/settings/labels-annotations")
    }

    pub fn alert_receivers(org: Uuid) -> String {
        format!("/organization/{org}/settings/alert-receivers")
    }

    pub fn on_premise_credentials(org: Uuid) -> String {
        format!("/organization/{org}/settings/on-premise-credentials")
    }

    pub fn api_tokens(org: Uuid) -> String {
        format!("/organization/{org}/settings/api-tokens")
    }

    /// The organization's audit log, narrowed as `query` says (a project's, a service's...).
    pub fn audit_log(org: Uuid, query: &platform_api::audit::EventQuery) -> String {
        query.on(&format!("/organization/{org}/audit-log"))
    }

    pub fn project(org: Uuid, project: Uuid) -> String {
        format!("/organization/{org}/project/{project}/overview")
    }

    pub fn environment(org: Uuid, project: Uuid, environment: Uuid) -> String {
        format!("/organization/{org}/project/{project}/environment/{environment}/overview")
    }

    /// The pages of a service, one per tab, in the order of its tabs.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum ServiceTab {
        Overview,
        Deployments,
        Logs,
        Variables,
        Settings,
    }

    impl ServiceTab {
        pub const ALL: [ServiceTab; 5] = [
            ServiceTab::Overview,
            ServiceTab::Deployments,
            ServiceTab::Logs,
            ServiceTab::Variables,
            ServiceTab::Settings,
        ];

        /// The last segment of the tab's address: the route table's and the links'.
        pub fn segment(self) -> &'static str {
            match self {
                ServiceTab::Overview => "overview",
                ServiceTab::Deployments => "deployments",
                ServiceTab::Logs => "logs",
                ServiceTab::Variables => "variables",
                ServiceTab::Settings => "settings",
            }
        }

        pub fn label(self) -> &'static str {
            match self {
                ServiceTab::Overview => "Overview",
                ServiceTab::Deployments => "Deployments",
                ServiceTab::Logs => "Logs",
                ServiceTab::Variables => "Variables",
                ServiceTab::Settings => "Settings",
            }
        }
    }

    /// A service's overview.
    pub fn service(org: Uuid, project: Uuid, environment: Uuid, service: Uuid) -> String {
        service_tab(org, project, environment, service, ServiceTab::Overview)
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
    use super::paths::is_local;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn only_local_paths_are_returned_to() {
        assert!(is_local("/organization/x/overview"));
        assert!(!is_local("//evil.example"));
        assert!(!is_local("https://evil.example"));
        assert!(!is_local("/\\evil.example"));
    }
}
