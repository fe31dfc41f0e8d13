//! What belongs to an organization beside its projects: its record and events, tokens and
//! roles, clusters, and the records kept as `organization_resources` (registries, helm
//! repositories, webhooks, groups, credentials).

mod alert_receivers;
mod associated;
mod cloud_credentials;
mod cluster_actions;
mod cluster_credentials;
mod cluster_network;
pub(crate) mod clusters;
pub(crate) mod container_registries;
mod events;
mod fleet;
pub(crate) mod git_repositories;
pub(crate) mod git_tokens;
pub(crate) mod groups;
mod helm_charts;
pub(crate) mod helm_repositories;
mod kubeconfig;
pub(crate) mod members;
mod on_premise_credentials;
mod organizations;
mod registry_images;
mod registry_statuses;
pub(crate) mod resources;
mod roles;
mod tokens;
mod webhooks;

use crate::routes::RouteTable;

pub fn register(routes: &mut RouteTable) {
    organizations::register(routes);
    events::register(routes);
    fleet::register(routes);
    tokens::register(routes);
    roles::register(routes);
    alert_receivers::register(routes);
    clusters::register(routes);
    cluster_actions::register(routes);
    kubeconfig::register(routes);
    registry_images::register(routes);
    registry_statuses::register(routes);
    helm_charts::register(routes);
    resources::register::<container_registries::ContainerRegistries>(routes);
    webhooks::register(routes);
    resources::register::<helm_repositories::HelmRepositories>(routes);
    groups::register(routes);
    associated::register(routes);
    git_tokens::register(routes);
    git_repositories::register(routes);
    members::register(routes);
    resources::register::<on_premise_credentials::OnPremiseCredentialsResource>(routes);
    cloud_credentials::register(routes);
    cluster_credentials::register(routes);
    cluster_network::register(routes);
}
