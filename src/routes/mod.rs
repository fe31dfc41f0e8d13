//! One module per page, folders mirroring the URL.

pub mod account;
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
    use crate::paths::{self, is_local, Address, EnvironmentTab, ServiceTab};
    use leptos_router::params::{Params, ParamsMap};
    use leptos_router::PossibleRouteMatch;
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
    fn read(pattern: Address, link: &str) -> (ParamsMap, String) {
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
        pattern: Address,
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
        reads_back(paths::ORGANIZATION, &paths::organization(org), organization);
        reads_back(paths::CLUSTERS, &paths::clusters(org), organization);
        reads_back(paths::FLEET, &paths::fleet(org), organization);
        reads_back(paths::WEBHOOKS, &paths::webhooks(org), organization);
        reads_back(paths::API_TOKENS, &paths::api_tokens(org), organization);
        let registries = paths::container_registries(org);
        reads_back(paths::CONTAINER_REGISTRIES, &registries, organization);
        let repositories = paths::helm_repositories(org);
        reads_back(paths::HELM_REPOSITORIES, &repositories, organization);
        let groups = paths::labels_annotations(org);
        reads_back(paths::LABELS_ANNOTATIONS, &groups, organization);
        let receivers = paths::alert_receivers(org);
        reads_back(paths::ALERT_RECEIVERS, &receivers, organization);
        let credentials = paths::on_premise_credentials(org);
        reads_back(paths::ON_PREMISE_CREDENTIALS, &credentials, organization);
        reads_back(paths::MEMBERS, &paths::members(org), organization);
        let git_tokens = paths::git_tokens(org);
        reads_back(paths::GIT_TOKENS, &git_tokens, organization);
        let all = platform_api::audit::EventQuery::default();
        let audit_log = paths::audit_log(org, &all);
        reads_back(paths::AUDIT_LOG, &audit_log, organization);
        reads_back(
            paths::CLUSTER,
            &paths::cluster(org, cluster),
            ClusterAddress { org, cluster },
        );
        reads_back(
            paths::CLUSTER_ADVANCED_SETTINGS,
            &paths::cluster_advanced_settings(org, cluster),
            ClusterAddress { org, cluster },
        );
        reads_back(
            paths::PROJECT,
            &paths::project(org, project),
            ProjectAddress { org, project },
        );
        for tab in EnvironmentTab::ALL {
            let link = paths::environment_tab(org, project, env, tab);
            let (params, remaining) = read(paths::ENVIRONMENT, &link);
            assert_eq!(
                EnvironmentAddress::from_map(&params).ok(),
                Some(EnvironmentAddress { org, project, env })
            );
            let (_, left) = read(tab.route(), &remaining);
            assert_eq!(left, "", "{link}");
        }
        for tab in ServiceTab::ALL {
            let link = paths::service_tab(org, project, env, service, tab);
            let (params, remaining) = read(paths::SERVICE, &link);
            assert_eq!(
                ServiceAddress::from_map(&params).ok(),
                Some(ServiceAddress {
                    org,
                    project,
                    env,
                    service
                })
            );
            let (_, left) = read(tab.route(), &remaining);
            assert_eq!(left, "", "{link}");
        }
    }

    #[wasm_bindgen_test]
    fn an_address_matches_whole_segments_and_leaves_the_rest() {
        let org = Uuid::new_v4();
        let fleet = paths::fleet(org);
        assert!(paths::FLEET.test(&format!("{fleet}s")).is_none());
        assert!(paths::FLEET.test(&fleet[..fleet.len() - 1]).is_none());
        assert!(paths::FLEET.test("/organization//fleet").is_none());
        assert!(paths::FLEET.test(&fleet[1..]).is_none());
        assert_eq!(read(paths::FLEET, &format!("{fleet}/")).1, "/");
        assert_eq!(read(paths::FLEET, &format!("{fleet}/x")).1, "/x");
        assert_eq!(read(paths::NO_SEGMENT, &fleet).1, fleet);
        assert_eq!(read(paths::HOME, "/").1, "/");
    }
}
