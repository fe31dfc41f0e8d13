//! The routes every service kind has, each with its permission and its document.

use axum::http::{Method, StatusCode};
use platform_api::{
    Commit, Contributor, DeployRequest, DeployedServicePage, DeploymentHistoryPage, HistoryOutcome,
    InstanceLogLine, ServiceDeployPage, ServiceType, Status,
};

use crate::caller::Permission;
use crate::routes::doc::{self, Doc};
use crate::routes::RouteTable;

use crate::routes::services::actions::{
    application_deploys, cancel, commits, contributors, deploy, deploys, history, instance_log,
    redeploy, restart, stop, uninstall,
};
use crate::routes::services::records::{create, delete, get_status, list, read, update};

use crate::routes::services::resource::ServiceResource;

pub fn register<R: ServiceResource>(routes: &mut RouteTable) {
    // The console reaches each kind by the same paths (`ServiceType::item_path`).
    let item = R::TYPE.item_template();
    record_routes::<R>(routes, &item);
    deploy_routes::<R>(routes, &item);
    history_routes::<R>(routes, &item);
    read_routes::<R>(routes, &item);
    lifecycle_routes::<R>(routes, &item);
}

/// The record: listed, created, read, updated, deleted, and its status.
fn record_routes<R: ServiceResource>(routes: &mut RouteTable, item: &str) {
    let what = R::WHAT;
    let collection = R::TYPE.collection_template();
    routes
        .add(
            Method::GET,
            collection.clone(),
            Permission::Read,
            Doc::new(format!("List the {what}s of an environment"))
                .answers_list_of::<R::Record>(StatusCode::OK),
            list::<R>,
        )
        .add(
            Method::POST,
            collection.clone(),
            Permission::Write,
            Doc::new(format!("Create a {what}"))
                .body::<R::Request>()
                .answers::<R::Record>(StatusCode::CREATED),
            create::<R>,
        )
        .add(
            Method::GET,
            item,
            Permission::Read,
            Doc::new(format!("Read a {what}")).answers::<R::Record>(StatusCode::OK),
            read::<R>,
        )
        .add(
            Method::PUT,
            item,
            Permission::Write,
            {
                let doc = Doc::new(format!(
                    "Update a {what}; a deployed one becomes OUT_OF_DATE"
                ));
                if R::PARTIAL_EDIT {
                    doc.edit_body::<R::Request>()
                } else {
                    doc.body::<R::Request>()
                }
            }
            .answers::<R::Record>(StatusCode::OK),
            update::<R>,
        )
        .add(
            Method::DELETE,
            item,
            Permission::Admin,
            Doc::new(format!("Delete a {what}")).answers_nothing(StatusCode::NO_CONTENT),
            delete::<R>,
        )
        .add(
            Method::GET,
            format!("{item}/status"),
            Permission::Read,
            Doc::new(format!("The status of a {what}")).answers::<Status>(StatusCode::OK),
            get_status::<R>,
        );
}

/// Deploy, deploy again, cancel.
fn deploy_routes<R: ServiceResource>(routes: &mut RouteTable, item: &str) {
    let what = R::WHAT;
    routes
        .add(
            Method::POST,
            format!("{item}/deploy"),
            Permission::Deploy,
            Doc::new(format!("Deploy a {what}, at a git commit if given"))
                .body::<DeployRequest>()
                .answers::<Status>(StatusCode::ACCEPTED),
            deploy::<R>,
        )
        .add(
            Method::POST,
            format!("{item}/redeploy"),
            Permission::Deploy,
            Doc::new(format!(
                "Deploy a {what} again at the version it runs (its last deployed commit, its image or chart as configured)"
            ))
            .answers::<Status>(StatusCode::ACCEPTED),
            redeploy::<R>,
        )
        .add(
            Method::POST,
            format!("{item}/cancel"),
            Permission::Deploy,
            Doc::new(format!("Cancel the action running on a {what}"))
                .answers::<Status>(StatusCode::ACCEPTED),
            cancel::<R>,
        );
}

/// The deployments, in the current shape and (but for terraform) the older one.
fn history_routes<R: ServiceResource>(routes: &mut RouteTable, item: &str) {
    let what = R::WHAT;
    routes.add(
            Method::GET,
            format!("{item}/deploymentHistoryV2"),
            Permission::Read,
            Doc::new(format!(
                "The deployments of a {what}, newest first (`pageSize` 1 to 100, 20 by default; `page` from 1); only those that ended in `status`, of `git_commit_id` (a prefix), asked for by `triggered_by` (a part of the name), when given"
            ))
            .query("page", false, doc::integer(1, platform_api::PAGE_MAX))
            .query("pageSize", false, doc::integer(1, 100))
            .query(
                "status",
                false,
                doc::one_of_enum::<HistoryOutcome>(),
            )
            .query("git_commit_id", false, doc::text())
            .query("triggered_by", false, doc::text())
            .answers::<DeploymentHistoryPage>(StatusCode::OK),
            history::<R>,
        );
    let deploys_doc = Doc::new(format!(
        "The older shape of a {what}'s history: its deploys, newest first, {} at a time, after the one `startId` names (none after an id that is not one of them)",
        platform_api::DEPLOYS_PAGE_SIZE
    ))
    .query("startId", false, doc::uuid());
    let deploys_path = format!("{item}/deploymentHistory");
    match R::TYPE {
        ServiceType::Application => routes.add(
            Method::GET,
            deploys_path,
            Permission::Read,
            deploys_doc.answers::<ServiceDeployPage>(StatusCode::OK),
            application_deploys::<R>,
        ),
        // Terraform came after the older history: the document gives it only the current one.
        ServiceType::Terraform => routes,
        _ => routes.add(
            Method::GET,
            deploys_path,
            Permission::Read,
            deploys_doc.answers::<DeployedServicePage>(StatusCode::OK),
            deploys::<R>,
        ),
    };
}

/// What the kinds that have them print and are built from: the instances' log, the commits.
fn read_routes<R: ServiceResource>(routes: &mut RouteTable, item: &str) {
    let what = R::WHAT;
    if matches!(R::TYPE, ServiceType::Application | ServiceType::Container) {
        routes.add(
            Method::GET,
            format!("{item}/log"),
            Permission::Read,
            Doc::new(format!(
                "What a {what}'s instances printed, simulated from its actions: the last {} lines",
                platform_api::INSTANCE_LOG_LINES
            ))
            .answers_list_of::<InstanceLogLine>(StatusCode::OK),
            instance_log::<R>,
        );
    }
    if R::TYPE.git_repository_path().is_some() {
        routes.add(
            Method::GET,
            format!("{item}/commit"),
            Permission::Read,
            Doc::new(format!(
                "The commits of a {what}'s git repository, newest first, at most 100 (`startId`: those after that one; `gitCommitId`: that one)"
            ))
            .query("startId", false, doc::text())
            .query("gitCommitId", false, doc::text())
            .answers_list_of::<Commit>(StatusCode::OK),
            commits::<R>,
        );
    }
    if R::TYPE == ServiceType::Application {
        routes.add(
            Method::GET,
            format!("{item}/contributor"),
            Permission::Read,
            Doc::new(format!(
                "Who committed to a {what}'s git repository: the authors of its last 100 commits"
            ))
            .answers_list_of::<Contributor>(StatusCode::OK),
            contributors::<R>,
        );
    }
}

/// Restart, stop, uninstall.
fn lifecycle_routes<R: ServiceResource>(routes: &mut RouteTable, item: &str) {
    let what = R::WHAT;
    routes
        .add(
            Method::POST,
            format!("{item}/restart-service"),
            Permission::Deploy,
            Doc::new(format!("Restart a running {what}")).answers::<Status>(StatusCode::ACCEPTED),
            restart::<R>,
        )
        .add(
            Method::POST,
            format!("{item}/stop"),
            Permission::Deploy,
            Doc::new(format!("Stop a running {what}")).answers::<Status>(StatusCode::ACCEPTED),
            stop::<R>,
        )
        .add(
            Method::POST,
            format!("{item}/uninstall"),
            Permission::Deploy,
            Doc::new(format!(
                "Delete the compute and data, keeping the configuration, of a {what}"
            ))
            .answers::<Status>(StatusCode::ACCEPTED),
            uninstall::<R>,
        );
}
