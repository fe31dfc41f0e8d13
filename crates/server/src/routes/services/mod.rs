//! Services of every kind: each kind's settings (`applications`, `containers`, ...), the routes
//! every kind shares (`resource`), and what acts on several services at once.

mod actions;
pub(crate) mod applications;
mod backups;
mod clones;
pub(crate) mod containers;
mod custom_domains;
pub(crate) mod databases;
mod deployment_queue;
mod deployment_restrictions;
mod environment_services;
mod git_webhook;
pub(crate) mod helm;
mod helm_values;
mod image_auto_deploy;
pub(crate) mod jobs;
mod links;
pub(crate) mod records;
pub(crate) mod resource;
mod routes;
mod selected_services;
pub(crate) mod terraform;
mod tfvars;

use crate::routes::RouteTable;

/// The routes of one service kind: its resource's, then its clone.
fn service_kind<R: resource::ServiceResource>(routes: &mut RouteTable) {
    routes::register::<R>(routes);
    clones::register_service::<R>(routes);
}

pub fn register(routes: &mut RouteTable) {
    clones::register(routes);
    service_kind::<platform_api::Applications>(routes);
    service_kind::<platform_api::Containers>(routes);
    service_kind::<platform_api::Databases>(routes);
    service_kind::<platform_api::TerraformServices>(routes);
    service_kind::<platform_api::Jobs>(routes);
    service_kind::<platform_api::HelmServices>(routes);
    environment_services::register(routes);
    selected_services::register(routes);
    deployment_queue::register(routes);
    tfvars::register(routes);
    helm_values::register(routes);
    terraform::register(routes);
    links::register(routes);
    custom_domains::register(routes);
    databases::register(routes);
    backups::register(routes);
    deployment_restrictions::register(routes);
    image_auto_deploy::register(routes);
    git_webhook::register(routes);
}
