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

#[cfg(test)]
mod tests {
    use super::address::*;
    use crate::paths::{self, is_local, EnvironmentTab, Pattern, ServiceTab};
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
        reads_back(paths::fleet_route(), &paths::fleet(org), organization);
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
