//! Providers and the whole route table, in one place.

use leptos::prelude::*;
use leptos_router::components::{ParentRoute, Route, Router, Routes};
use leptos_router::{path, StaticSegment};

use crate::components::shell::Shell;
use crate::routes::home::Home;
use crate::routes::not_found::NotFound;
use crate::routes::organization::audit_log::AuditLog;
use crate::routes::organization::cluster::overview::ClusterOverview;
use crate::routes::organization::clusters::Clusters;
use crate::routes::organization::overview::OrganizationOverview;
use crate::routes::organization::project::environment::overview::EnvironmentOverview;
use crate::routes::organization::project::environment::service::deployments::ServiceDeployments;
use crate::routes::organization::project::environment::service::logs::ServiceLogs;
use crate::routes::organization::project::environment::service::overview::ServiceOverview;
use crate::routes::organization::project::environment::service::settings::ServiceSettings;
use crate::routes::organization::project::environment::service::variables::ServiceVariables;
use crate::routes::organization::project::environment::service::ServiceLayout;
use crate::routes::organization::project::overview::ProjectOverview;
use crate::routes::organization::settings::alert_receivers::AlertReceivers;
use crate::routes::organization::settings::api_tokens::ApiTokens;
use crate::routes::organization::settings::container_registries::ContainerRegistries;
use crate::routes::organization::settings::helm_repositories::HelmRepositories;
use crate::routes::organization::settings::labels_annotations::LabelsAnnotations;
use crate::routes::organization::settings::on_premise_credentials::OnPremiseCredentialsPage;
use crate::routes::organization::settings::webhooks::Webhooks;
use crate::routes::paths::ServiceTab;
use crate::routes::sign_in::SignIn;
use crate::state;
use crate::state::embed::EmbedBridge;

#[component]
pub fn App() -> impl IntoView {
    state::provide_all();
    view! {
        <Router>
            <EmbedBridge/>
            <Routes fallback=NotFound>
                <Route path=path!("/sign-in") view=SignIn/>
                <ParentRoute path=path!("") view=Shell>
                    <Route path=path!("/") view=Home/>
                    <Route path=path!("/organization/:org/overview") view=OrganizationOverview/>
                    <Route path=path!("/organization/:org/clusters") view=Clusters/>
                    <Route path=path!("/organization/:org/audit-log") view=AuditLog/>
                    <Route
                        path=path!("/organization/:org/cluster/:cluster/overview")
                        view=ClusterOverview
                    />
                    <Route path=path!("/organization/:org/settings/webhooks") view=Webhooks/>
                    <Route path=path!("/organization/:org/settings/api-tokens") view=ApiTokens/>
                    <Route
                        path=path!("/organization/:org/settings/container-registries")
                        view=ContainerRegistries
                    />
                    <Route
                        path=path!("/organization/:org/settings/helm-repositories")
                        view=HelmRepositories
                    />
                    <Route
                        path=path!("/organization/:org/settings/labels-annotations")
                        view=LabelsAnnotations
                    />
                    <Route
                        path=path!("/organization/:org/settings/alert-receivers")
                        view=AlertReceivers
                    />
                    <Route
                        path=path!("/organization/:org/settings/on-premise-credentials")
                        view=OnPremiseCredentialsPage
                    />
                    <Route
                        path=path!("/organization/:org/project/:project/overview")
                        view=ProjectOverview
                    />
                    <Route
                        path=path!("/organization/:org/project/:project/environment/:env/overview")
                        view=EnvironmentOverview
                    />
                    <ParentRoute
                        path=path!("/organization/:org/project/:project/environment/:env/service/:service")
                        view=ServiceLayout
                    >
                        <Route path=tab(ServiceTab::Overview) view=ServiceOverview/>
                        <Route path=tab(ServiceTab::Deployments) view=ServiceDeployments/>
                        <Route path=tab(ServiceTab::Logs) view=ServiceLogs/>
                        <Route path=tab(ServiceTab::Variables) view=ServiceVariables/>
                        <Route path=tab(ServiceTab::Settings) view=ServiceSettings/>
                    </ParentRoute>
                </ParentRoute>
            </Routes>
        </Router>
    }
}

/// The route of a service's tab, from the segment its links use.
fn tab(tab: ServiceTab) -> (StaticSegment<&'static str>,) {
    (StaticSegment(tab.segment()),)
}
