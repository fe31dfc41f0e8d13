//! Providers and the whole route table, in one place.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use futures::future::{FutureExt, LocalBoxFuture};
use leptos::prelude::*;
use leptos::wasm_split::{wasm_split, SplitLoaderError};
use leptos_router::components::{ParentRoute, Route, Router, Routes};
use leptos_router::ChooseView;
use platform_api::ServiceType;

use crate::api::use_api;
use crate::components::command_palette::LoadPalette;
use crate::components::deploy_review::LoadReview;
use crate::components::page_not_loaded::PageNotLoaded;
use crate::components::shell::LoadSignInAgain;
use crate::components::shell::Shell;
use crate::components::unwell::LoadUnwell;
use crate::paths::{self, EnvironmentTab, ServiceTab};
use crate::routes::account::Account;
use crate::routes::address::EnvironmentAddress;
use crate::routes::current_id;
use crate::routes::home::Home;
use crate::routes::invitation::Invitation;
use crate::routes::not_found::NotFound;
use crate::routes::organization::alerts::Alerts;
use crate::routes::organization::audit_log::AuditLog;
use crate::routes::organization::cluster::advanced_settings::ClusterAdvancedSettings;
use crate::routes::organization::cluster::overview::ClusterOverview;
use crate::routes::organization::clusters::Clusters;
use crate::routes::organization::fleet::Fleet;
use crate::routes::organization::new::NewOrganization;
use crate::routes::organization::overview::OrganizationOverview;
use crate::routes::organization::project::environment::clone::LoadEnvironmentClone;
use crate::routes::organization::project::environment::deployments::EnvironmentDeploymentsTab;
use crate::routes::organization::project::environment::deployments::StopAutoDeploy;
use crate::routes::organization::project::environment::layout::{
    EnvironmentLayout, EnvironmentWithoutTab,
};
use crate::routes::organization::project::environment::service::advanced_settings::ServiceAdvancedSettings;
use crate::routes::organization::project::environment::service::clone::LoadServiceClone;
use crate::routes::organization::project::environment::service::commit_picker::LoadCommitList;
use crate::routes::organization::project::environment::service::deployments::ServiceDeployments;
use crate::routes::organization::project::environment::service::logs::ServiceLogs;
use crate::routes::organization::project::environment::service::monitoring::alerts::LoadPresetForm;
use crate::routes::organization::project::environment::service::monitoring::ServiceMonitoring;
use crate::routes::organization::project::environment::service::overview::ServiceOverview;
use crate::routes::organization::project::environment::service::overview_cards::LoadOverviewCards;
use crate::routes::organization::project::environment::service::settings::ServiceSettings;
use crate::routes::organization::project::environment::service::variables::ServiceVariables;
use crate::routes::organization::project::environment::service::{
    ServiceLayout, ServiceWithoutTab,
};
use crate::routes::organization::project::environment::service_form::of_kind::LoadServiceForm;
use crate::routes::organization::project::environment::services::EnvironmentServices;
use crate::routes::organization::project::environment::settings::EnvironmentSettings;
use crate::routes::organization::project::environment::variables::EnvironmentVariables;
use crate::routes::organization::project::overview::ProjectOverview;
use crate::routes::organization::project::variables::bulk::LoadEditAsText;
use crate::routes::organization::project::variables::import::LoadImport;
use crate::routes::organization::settings::alert_receivers::AlertReceivers;
use crate::routes::organization::settings::api_tokens::ApiTokens;
use crate::routes::organization::settings::cloud_credentials::CloudCredentialsPage;
use crate::routes::organization::settings::container_registries::ContainerRegistries;
use crate::routes::organization::settings::general::GeneralSettings;
use crate::routes::organization::settings::git_tokens::GitTokens;
use crate::routes::organization::settings::helm_repositories::HelmRepositories;
use crate::routes::organization::settings::labels_annotations::LabelsAnnotations;
use crate::routes::organization::settings::members::Members;
use crate::routes::organization::settings::on_premise_credentials::OnPremiseCredentialsPage;
use crate::routes::organization::settings::webhooks::Webhooks;
use crate::routes::organization::timeline::AnyTimeline;
use crate::routes::sign_in::callback::SignInCallback;
use crate::routes::sign_in::provider_page::SignInThroughProvider;
use crate::routes::sign_in::SignIn;
use crate::state;
use crate::state::embed::use_embed;
use crate::state::prefetch::PreloadEveryPage;

/// Each page is a route whose code is fetched the first time it is shown: the build cuts every
/// group of pages out of the main wasm into a module of its own (scripts/build-wasm.sh), so a
/// first visit loads the app and the pages of one group. Pages are grouped as people move
/// between them, and in few groups: each group makes the loader every page fetches larger (a
/// group per page made hundreds of modules); code every group needs is in the shell's file. Sign-in, every new visitor's first page and a small one, is in the main module;
/// the identity provider's round trip (its start and its return) is a group of its own.
/// A group that cannot be fetched (the network dropped) shows `PageNotLoaded`. A page may name
/// what it reads first (`reading f`): `f` runs as the router matches the address, to ask for it
/// while the page's code is on its way (`Api::prefetch`).
macro_rules! lazy_pages {
    ($($group:ident {
        $($route:ident($view:ident) => $page:ident $(reading $reads:path)?),* $(,)?
    })*) => {
        /// Every page whose code is fetched the first time it is shown. One type for them all:
        /// the router's code that chooses and preloads a view is compiled once, not once per page.
        #[derive(Clone, Copy)]
        pub enum LazyPage {
            $($($route,)*)*
        }

        impl LazyPage {
            /// What the page reads first, asked for as soon as the router matches the address:
            /// it is on its way while the page's code is.
            fn ask_first_reads(self) {
                match self {
                    $($(LazyPage::$route => { $($reads();)? })*)*
                }
            }

            /// The page, once its group's code is fetched.
            fn load(self) -> LocalBoxFuture<'static, Result<AnyView, SplitLoaderError>> {
                match self {
                    $($(LazyPage::$route => $view::$view().boxed_local(),)*)*
                }
            }

            /// Fetches the page's code without showing it.
            fn fetch_code(self) -> LocalBoxFuture<'static, Result<(), SplitLoaderError>> {
                match self {
                    $($(LazyPage::$route => $view::preload().boxed_local(),)*)*
                }
            }
        }

        $($(
            // A module per page, for its `preload` to have a name of its own.
            pub mod $view {
                use super::*;

                #[wasm_split($group, wasm_split_path = ::leptos::wasm_split, fallible, preload(preload))]
                pub fn $view() -> Result<AnyView, SplitLoaderError> {
                    Ok(view! { <$page/> }.into_any())
                }
            }
        )*)*

        /// Fetches the code of every page, a page after another (`state::prefetch`); a page
        /// whose code cannot be fetched is fetched again when it is opened.
        async fn preload_every_page() {
            $($(let _ = $view::preload().await;)*)*
        }
    };
}

/// A page of `LazyPage` as the router shows it.
#[derive(Clone)]
struct Lazily {
    page: LazyPage,
    /// Its first reads were asked for when the router preloaded it, before showing it.
    asked: Arc<AtomicBool>,
}

fn lazily(page: LazyPage) -> Lazily {
    Lazily {
        page,
        asked: Arc::default(),
    }
}

impl ChooseView for Lazily {
    async fn choose(self) -> AnyView {
        if !self.asked.swap(false, Ordering::Relaxed) {
            self.page.ask_first_reads();
        }
        match self.page.load().await {
            Ok(page) => page,
            Err(_) => view! { <PageNotLoaded/> }.into_any(),
        }
    }

    // The router preloads every level of the route it is about to show at once: a service's
    // page fetches the shell's, the environment's and its own code side by side rather than one
    // after the other. A failure here is met again by `choose`.
    async fn preload(&self) {
        self.asked.store(true, Ordering::Relaxed);
        self.page.ask_first_reads();
        let _ = self.page.fetch_code().await;
    }
}

lazy_pages! {
    // The identity provider's round trip: its code is fetched by who signs in through it.
    sign_in_provider {
        SignInProviderPage(sign_in_provider_page) => SignInThroughProvider,
        SignInCallbackPage(sign_in_callback_page) => SignInCallback,
    }
    // The frame of every signed-in page.
    shell {
        ShellPage(shell_page) => Shell,
    }
    // The pages a person lands on after signing in: a group of their own, not the shell's,
    // whose file every page fetches (they were 128 KB of its 188).
    overview {
        HomePage(home_page) => Home,
        OrganizationOverviewPage(organization_overview_page) => OrganizationOverview,
        NewOrganizationPage(new_organization_page) => NewOrganization,
    }
    // What happened, as one story: the organization's, an environment's and a service's
    // timeline, one page of the router (a split point is in every page's code).
    timeline {
        TimelinePage(timeline_page) => AnyTimeline,
    }
    // The person's account: few open it (5 KB on the organization's page in its group).
    account {
        AccountPage(account_page) => Account,
    }
    // A project's environments, deployment rules and stages: apart from the organization's
    // overview, which fetched them all (412 → 338 KB).
    project {
        ProjectOverviewPage(project_overview_page) => ProjectOverview,
    }
    // Every service of the organization with its status: a group of its own, so that the
    // clusters and the audit log do not fetch it.
    fleet {
        FleetPage(fleet_page) => Fleet,
    }
    // The clusters' list and its new-cluster form.
    organization {
        ClustersPage(clusters_page) => Clusters,
    }
    // The audit log's search: apart from the clusters, each fetched the other's code.
    audit_log {
        AuditLogPage(audit_log_page) => AuditLog,
    }
    // One cluster: its status, lock, last run, access and cloud account; a group of its own,
    // so that the clusters' list and the audit log do not fetch it.
    cluster {
        ClusterOverviewPage(cluster_overview_page) => ClusterOverview,
    }
    // The organization's settings, each a list of one kind of record with its form, a group
    // each: no settings page fetches another's code.
    webhooks {
        WebhooksPage(webhooks_page) => Webhooks,
    }
    alert_receivers {
        AlertReceiversPage(alert_receivers_page) => AlertReceivers,
    }
    api_tokens {
        ApiTokensPage(api_tokens_page) => ApiTokens,
    }
    git_tokens {
        GitTokensPage(git_tokens_page) => GitTokens,
    }
    container_registries {
        ContainerRegistriesPage(container_registries_page) => ContainerRegistries,
    }
    helm_repositories {
        HelmRepositoriesPage(helm_repositories_page) => HelmRepositories,
    }
    members {
        MembersPage(members_page) => Members,
    }
    labels_annotations {
        LabelsAnnotationsPage(labels_annotations_page) => LabelsAnnotations,
    }
    // The organization's name and description: a group of its own, so that the other settings
    // pages do not fetch its form.
    general_settings {
        GeneralSettingsPage(general_settings_page) => GeneralSettings,
    }
    // Credentials for on-premise infrastructure and for clouds, a group each: the other
    // settings pages do not fetch the kinds' tables and the key encoding, nor each the other's
    // forms.
    credentials {
        OnPremiseCredentialsRoute(on_premise_credentials_page) => OnPremiseCredentialsPage,
    }
    cloud_credentials {
        CloudCredentialsRoute(cloud_credentials_page) => CloudCredentialsPage,
    }
    // An environment's frame, which each of its tabs fetches.
    environment {
        EnvironmentLayoutPage(environment_layout_page) => EnvironmentLayout
            reading environment_page_reads,
    }
    // Its services: a group apart, so that its other tabs do not fetch the list, its selection
    // and the new-service dialog.
    environment_services {
        EnvironmentServicesPage(environment_services_page) => EnvironmentServices,
    }
    // An environment's deployments: a group of their own, so that its other tabs do not fetch
    // the history and its rollback.
    environment_deployments {
        EnvironmentDeploymentsPage(environment_deployments_page) => EnvironmentDeploymentsTab,
    }
    // An environment's settings: fetched when first opened, so that the services tab does not
    // wait for them.
    environment_settings {
        EnvironmentSettingsPage(environment_settings_page) => EnvironmentSettings,
    }
    // A service's frame: its header, actions and tabs, which every tab of a service fetches.
    service {
        ServiceLayoutPage(service_layout_page) => ServiceLayout,
    }
    // A service's overview, and its deployments: a group each, so that its other tabs do not
    // fetch them, nor each the other.
    service_overview {
        ServiceOverviewPage(service_overview_page) => ServiceOverview,
    }
    service_deployments {
        ServiceDeploymentsPage(service_deployments_page) => ServiceDeployments,
    }
    // The variables of an environment and of a service (one editor, its import and bulk forms):
    // a group of their own, so that no other tab of either fetches the editor. After the
    // service's group: every page's code is fetched in this order (`preload_every_page`), and
    // a group within the service's frame reads what it shares with it from the frame's file.
    variables {
        EnvironmentVariablesPage(environment_variables_page) => EnvironmentVariables,
        ServiceVariablesPage(service_variables_page) => ServiceVariables,
    }
    // How a service is doing: its charts, with the chart and query code no other page needs.
    monitoring {
        ServiceMonitoringPage(service_monitoring_page) => ServiceMonitoring,
    }
    // The organization's alert rules: apart from a service's charts, which they fetched.
    alerts {
        AlertsPage(alerts_page) => Alerts,
    }
    // A service's logs: its deployments' and its instances' lines, searched, paged and followed.
    logs {
        ServiceLogsPage(service_logs_page) => ServiceLogs,
    }
    // A service's settings: its restrictions, copy and deletion, and its kind's form (a group of
    // its own, `service_forms`).
    service_settings {
        ServiceSettingsPage(service_settings_page) => ServiceSettings,
    }
    // A service's advanced settings: few visits, and a catalogue of every setting that no other
    // page needs.
    advanced {
        ServiceAdvancedSettingsPage(service_advanced_settings_page) => ServiceAdvancedSettings,
    }
    // A cluster's: apart from a service's, each page fetched the other's catalogue.
    cluster_advanced {
        ClusterAdvancedSettingsPage(cluster_advanced_settings_page) => ClusterAdvancedSettings,
    }
}

/// The environment's services and statuses: at a thousand services, the answers the page waits
/// for longest.
fn environment_page_reads() {
    if let Some(environment) = current_id(|a: &EnvironmentAddress| a.env).get_untracked() {
        use_api().prefetch_environment_page(environment);
    }
}

/// Each kind's form, a service's settings' and the new-service dialog's: a group per kind, shown
/// within the service's frame (or the environment's dialog), so that a page fetches the one kind
/// it shows.
mod service_forms {
    use leptos::wasm_split::{wasm_split, SplitLoaderError};

    use crate::routes::organization::project::environment::service_form::of_kind::{
        self, KindFormOf,
    };

    #[wasm_split(
        application_form,
        wasm_split_path = ::leptos::wasm_split,
        fallible,
        preload(preload_application_form)
    )]
    pub fn application_form() -> Result<Option<KindFormOf>, SplitLoaderError> {
        Ok(Some(of_kind::application_form))
    }

    #[wasm_split(
        container_form,
        wasm_split_path = ::leptos::wasm_split,
        fallible,
        preload(preload_container_form)
    )]
    pub fn container_form() -> Result<Option<KindFormOf>, SplitLoaderError> {
        Ok(Some(of_kind::container_form))
    }

    #[wasm_split(
        database_form,
        wasm_split_path = ::leptos::wasm_split,
        fallible,
        preload(preload_database_form)
    )]
    pub fn database_form() -> Result<Option<KindFormOf>, SplitLoaderError> {
        Ok(Some(of_kind::database_form))
    }

    #[wasm_split(
        job_form,
        wasm_split_path = ::leptos::wasm_split,
        fallible,
        preload(preload_job_form)
    )]
    pub fn job_form() -> Result<Option<KindFormOf>, SplitLoaderError> {
        Ok(Some(of_kind::job_form))
    }

    #[wasm_split(
        helm_form,
        wasm_split_path = ::leptos::wasm_split,
        fallible,
        preload(preload_helm_form)
    )]
    pub fn helm_form() -> Result<Option<KindFormOf>, SplitLoaderError> {
        Ok(Some(of_kind::helm_form))
    }

    #[wasm_split(
        terraform_form,
        wasm_split_path = ::leptos::wasm_split,
        fallible,
        preload(preload_terraform_form)
    )]
    pub fn terraform_form() -> Result<Option<KindFormOf>, SplitLoaderError> {
        Ok(Some(of_kind::terraform_form))
    }
}

/// The clone forms of an environment and of a service, fetched when their dialog is first opened:
/// their code, and their reads of the places a copy can go, are no part of the settings pages
/// until then.
mod clone_forms {
    use leptos::wasm_split::{wasm_split, SplitLoaderError};

    use crate::routes::organization::project::environment::clone::{
        clone_environment_form, CloneEnvironmentOf,
    };
    use crate::routes::organization::project::environment::service::clone::{
        clone_service_form, CloneServiceOf,
    };

    #[wasm_split(
        clone,
        wasm_split_path = ::leptos::wasm_split,
        fallible,
        preload(preload_clone)
    )]
    pub fn clone_environment() -> Result<CloneEnvironmentOf, SplitLoaderError> {
        Ok(clone_environment_form)
    }

    #[wasm_split(clone, wasm_split_path = ::leptos::wasm_split, fallible)]
    pub fn clone_service() -> Result<CloneServiceOf, SplitLoaderError> {
        Ok(clone_service_form)
    }
}

/// "Edit as text…" and "Import .env…" of an environment's or a service's variables, fetched when
/// their dialog first opens: few open them, and their text, previews and changes are no part of
/// the variables' pages until then.
mod variables_text_forms {
    use leptos::wasm_split::{wasm_split, SplitLoaderError};

    use crate::routes::organization::project::variables::bulk::{edit_as_text_form, TextFormOf};
    use crate::routes::organization::project::variables::import::{import_form, ImportFormOf};

    #[wasm_split(
        variables_text,
        wasm_split_path = ::leptos::wasm_split,
        fallible,
        preload(preload_variables_text)
    )]
    pub fn edit_as_text() -> Result<TextFormOf, SplitLoaderError> {
        Ok(edit_as_text_form)
    }

    #[wasm_split(variables_text, wasm_split_path = ::leptos::wasm_split, fallible)]
    pub fn import() -> Result<ImportFormOf, SplitLoaderError> {
        Ok(import_form)
    }
}

/// A monitoring preset's form ("Alert me when…"), fetched when a preset is first opened: the
/// monitoring tab is read for its charts, and the form, its rule and its receivers are no part of
/// it until then.
mod alert_forms {
    use leptos::wasm_split::{wasm_split, SplitLoaderError};

    use crate::routes::organization::project::environment::service::monitoring::alerts::{
        preset_form, PresetFormOf,
    };

    #[wasm_split(
        alert_form,
        wasm_split_path = ::leptos::wasm_split,
        fallible,
        preload(preload_alert_form)
    )]
    pub fn preset() -> Result<PresetFormOf, SplitLoaderError> {
        Ok(preset_form)
    }
}

/// Turning auto-deploy off before a rollback (`StopAutoDeploy`), fetched with the review, which
/// already reads every kind's record and which a service's rollback shows when its dialog opens:
/// neither the deployments' pages nor the service's frame fetch every kind's decoder and
/// request for it.
mod auto_deploy {
    use futures::future::LocalBoxFuture;
    use leptos::wasm_split::{wasm_split, SplitLoaderError};
    use platform_api::ServiceType;
    use uuid::Uuid;

    use crate::api::service::ServiceAnswer;
    use crate::api::{Api, ApiError};

    type Stopping = LocalBoxFuture<'static, Result<Option<ServiceAnswer>, ApiError>>;

    #[wasm_split(review, wasm_split_path = ::leptos::wasm_split, fallible)]
    pub fn stop_where_on(
        api: Api,
        kind: ServiceType,
        id: Uuid,
    ) -> Result<Stopping, SplitLoaderError> {
        Ok(Box::pin(async move {
            api.stop_auto_deploy_where_on(kind, id).await
        }))
    }
}

/// What an overview reads after it is drawn (contributors, terraform resources, the ingress): no
/// part of the service group every page of a service loads.
mod overview_cards {
    use leptos::prelude::*;
    use leptos::wasm_split::{wasm_split, SplitLoaderError};
    use platform_api::ServiceType;
    use uuid::Uuid;

    use crate::routes::organization::project::environment::service::overview_cards::cards_of;

    #[wasm_split(
        overview_cards,
        wasm_split_path = ::leptos::wasm_split,
        fallible,
        preload(preload_overview_cards)
    )]
    pub fn overview_cards(kind: ServiceType, id: Uuid) -> Result<AnyView, SplitLoaderError> {
        Ok(cards_of(kind, id))
    }
}

/// What is unwell in the organization or an environment, fetched once their page is drawn: a
/// group of its own, so that a service's charts do not fetch it (a group costs the loader a line).
mod unwell_panel {
    use leptos::prelude::*;
    use leptos::wasm_split::{wasm_split, SplitLoaderError};
    use uuid::Uuid;

    use crate::components::unwell::{Scope, UnwellServices};

    #[wasm_split(unwell, wasm_split_path = ::leptos::wasm_split, fallible)]
    pub fn unwell_panel(org: Uuid, scope: Scope) -> Result<AnyView, SplitLoaderError> {
        Ok(view! { <UnwellServices org scope/> }.into_any())
    }
}

/// What a deploy changes, two deployments or two environments compared (`LoadReview`), fetched
/// once the browser is idle or when a review is first shown: the reading and comparing of commits,
/// events and records is no part of a page's first load. "Deploy a commit…"'s list (`LoadCommitList`) is fetched with it:
/// it reads and shows commits as the review does.
mod review {
    use leptos::prelude::*;
    use leptos::wasm_split::{wasm_split, SplitLoaderError};

    use crate::components::change_summary::ChangeSummary;
    use crate::components::deploy_review::{Review, Reviewed, ServicesReview};
    use crate::routes::organization::project::environment::compare::EnvironmentComparison;
    use crate::routes::organization::project::environment::service::commit_picker::{
        self, CommitListOf,
    };

    #[wasm_split(review, wasm_split_path = ::leptos::wasm_split, fallible)]
    pub fn commit_list() -> Result<CommitListOf, SplitLoaderError> {
        Ok(commit_picker::commit_list)
    }

    #[wasm_split(
        review,
        wasm_split_path = ::leptos::wasm_split,
        fallible,
        preload(preload_review)
    )]
    pub fn review(review: Review) -> Result<AnyView, SplitLoaderError> {
        Ok(match review {
            Review::Changes {
                service:
                    Reviewed {
                        kind,
                        id,
                        place,
                        git,
                    },
                from,
                to,
                until,
            } => view! { <ChangeSummary kind id place from to until git/> }.into_any(),
            Review::Services { place, services } => {
                view! { <ServicesReview place services/> }.into_any()
            }
            Review::Comparison { here, other } => {
                view! { <EnvironmentComparison here other/> }.into_any()
            }
        })
    }
}

/// The command palette's dialog, fetched when a person first reaches for it.
mod palette {
    use leptos::prelude::*;
    use leptos::wasm_split::{wasm_split, SplitLoaderError};

    use crate::components::command_palette::PaletteDialog;

    #[wasm_split(palette, wasm_split_path = ::leptos::wasm_split, fallible)]
    pub fn palette_dialog(opened: RwSignal<u32>) -> Result<AnyView, SplitLoaderError> {
        Ok(view! { <PaletteDialog opened/> }.into_any())
    }
}

/// The dialog asking to sign in again, with the identity provider's round trip.
mod sign_in_again {
    use leptos::prelude::*;
    use leptos::wasm_split::{wasm_split, SplitLoaderError};

    use crate::routes::sign_in::again::SignInAgain;

    #[wasm_split(sign_in_provider, wasm_split_path = ::leptos::wasm_split, fallible)]
    pub fn sign_in_again() -> Result<AnyView, SplitLoaderError> {
        Ok(view! { <SignInAgain/> }.into_any())
    }
}

/// The host page's side of embed mode, fetched only in it: few visits are embedded.
mod embed_bridge {
    use leptos::prelude::*;
    use leptos::wasm_split::{wasm_split, SplitLoaderError};

    use crate::state::embed::EmbedBridge;

    #[wasm_split(embed, wasm_split_path = ::leptos::wasm_split, fallible)]
    pub fn embed_bridge() -> Result<AnyView, SplitLoaderError> {
        Ok(view! { <EmbedBridge/> }.into_any())
    }
}

#[component]
pub fn App() -> impl IntoView {
    state::provide_all();
    let embed = use_embed();
    provide_context(LoadServiceForm(|kind| match kind {
        ServiceType::Application => Box::pin(service_forms::application_form()),
        ServiceType::Container => Box::pin(service_forms::container_form()),
        ServiceType::Database => Box::pin(service_forms::database_form()),
        ServiceType::Job => Box::pin(service_forms::job_form()),
        ServiceType::Helm => Box::pin(service_forms::helm_form()),
        ServiceType::Terraform => Box::pin(service_forms::terraform_form()),
        ServiceType::Other(_) => Box::pin(async { Ok(None) }),
    }));
    provide_context(LoadEnvironmentClone(|| {
        Box::pin(clone_forms::clone_environment())
    }));
    provide_context(LoadServiceClone(|| Box::pin(clone_forms::clone_service())));
    provide_context(LoadEditAsText(|| {
        Box::pin(variables_text_forms::edit_as_text())
    }));
    provide_context(LoadImport(|| Box::pin(variables_text_forms::import())));
    provide_context(LoadPresetForm(|| Box::pin(alert_forms::preset())));
    provide_context(LoadPalette(|opened| {
        Box::pin(palette::palette_dialog(opened))
    }));
    provide_context(LoadReview(|shown| Box::pin(review::review(shown))));
    provide_context(LoadSignInAgain(|| Box::pin(sign_in_again::sign_in_again())));
    provide_context(LoadCommitList(|| Box::pin(review::commit_list())));
    provide_context(PreloadEveryPage(|| {
        Box::pin(async {
            preload_every_page().await;
            // The overview's cards, fetched after its first paint, each kind's form, fetched with
            // a service's settings, the forms of dialogs fetched when opened, and the deploy
            // review with "Deploy a commit…"'s list are prefetched like a page.
            let _ = overview_cards::preload_overview_cards().await;
            let _ = service_forms::preload_application_form().await;
            let _ = service_forms::preload_container_form().await;
            let _ = service_forms::preload_database_form().await;
            let _ = service_forms::preload_job_form().await;
            let _ = service_forms::preload_helm_form().await;
            let _ = service_forms::preload_terraform_form().await;
            let _ = clone_forms::preload_clone().await;
            let _ = variables_text_forms::preload_variables_text().await;
            let _ = alert_forms::preload_alert_form().await;
            let _ = review::preload_review().await;
        })
    }));
    provide_context(LoadUnwell(|org, scope| {
        Box::pin(unwell_panel::unwell_panel(org, scope))
    }));
    provide_context(LoadOverviewCards(|kind, id| {
        Box::pin(overview_cards::overview_cards(kind, id))
    }));
    provide_context(StopAutoDeploy(|api, kind, id| {
        Box::pin(async move {
            match auto_deploy::stop_where_on(api, kind, id).await {
                Ok(stopping) => stopping.await.map_err(|error| error.to_string()),
                Err(_) => Err("the console could not fetch the code that does it (the \
                    connection dropped?); try again"
                    .to_string()),
            }
        })
    }));
    view! {
        <Router>
            {embed.is_active().then(|| view! {
                <Suspense>
                    {Suspend::new(async move {
                        embed_bridge::embed_bridge().await.unwrap_or_else(|_| {
                            embed.bridge_not_loaded();
                            ().into_any()
                        })
                    })}
                </Suspense>
            })}
            <Routes fallback=NotFound>
                <Route path=paths::SIGN_IN view=SignIn/>
                <Route path=paths::SIGN_IN_PROVIDER view={lazily(LazyPage::SignInProviderPage)}/>
                <Route path=paths::SIGN_IN_CALLBACK view={lazily(LazyPage::SignInCallbackPage)}/>
                <Route path=paths::INVITATION view=Invitation/>
                <ParentRoute path=paths::NO_SEGMENT view={lazily(LazyPage::ShellPage)}>
                    <Route path=paths::HOME view={lazily(LazyPage::HomePage)}/>
                    <Route path=paths::NEW_ORGANIZATION view={lazily(LazyPage::NewOrganizationPage)}/>
                    <Route path=paths::ACCOUNT view={lazily(LazyPage::AccountPage)}/>
                    <Route path=paths::ORGANIZATION view={lazily(LazyPage::OrganizationOverviewPage)}/>
                    <Route path=paths::CLUSTERS view={lazily(LazyPage::ClustersPage)}/>
                    <Route path=paths::AUDIT_LOG view={lazily(LazyPage::AuditLogPage)}/>
                    <Route path=paths::ALERTS view={lazily(LazyPage::AlertsPage)}/>
                    <Route path=paths::TIMELINE view={lazily(LazyPage::TimelinePage)}/>
                    <Route path=paths::FLEET view={lazily(LazyPage::FleetPage)}/>
                    <Route
                        path=paths::CLUSTER
                        view={lazily(LazyPage::ClusterOverviewPage)}
                    />
                    <Route
                        path=paths::CLUSTER_ADVANCED_SETTINGS
                        view={lazily(LazyPage::ClusterAdvancedSettingsPage)}
                    />
                    <Route path=paths::WEBHOOKS view={lazily(LazyPage::WebhooksPage)}/>
                    <Route path=paths::API_TOKENS view={lazily(LazyPage::ApiTokensPage)}/>
                    <Route
                        path=paths::CONTAINER_REGISTRIES
                        view={lazily(LazyPage::ContainerRegistriesPage)}
                    />
                    <Route
                        path=paths::HELM_REPOSITORIES
                        view={lazily(LazyPage::HelmRepositoriesPage)}
                    />
                    <Route
                        path=paths::MEMBERS
                        view={lazily(LazyPage::MembersPage)}
                    />
                    <Route
                        path=paths::GIT_TOKENS
                        view={lazily(LazyPage::GitTokensPage)}
                    />
                    <Route
                        path=paths::LABELS_ANNOTATIONS
                        view={lazily(LazyPage::LabelsAnnotationsPage)}
                    />
                    <Route
                        path=paths::ALERT_RECEIVERS
                        view={lazily(LazyPage::AlertReceiversPage)}
                    />
                    <Route
                        path=paths::ON_PREMISE_CREDENTIALS
                        view={lazily(LazyPage::OnPremiseCredentialsRoute)}
                    />
                    <Route
                        path=paths::GENERAL_SETTINGS
                        view={lazily(LazyPage::GeneralSettingsPage)}
                    />
                    <Route
                        path=paths::CLOUD_CREDENTIALS
                        view={lazily(LazyPage::CloudCredentialsRoute)}
                    />
                    <Route
                        path=paths::PROJECT
                        view={lazily(LazyPage::ProjectOverviewPage)}
                    />
                    <ParentRoute
                        path=paths::ENVIRONMENT
                        view={lazily(LazyPage::EnvironmentLayoutPage)}
                    >
                        <Route path=paths::NO_SEGMENT view=EnvironmentWithoutTab/>
                        <Route path=paths::ENVIRONMENT_OVERVIEW view=EnvironmentWithoutTab/>
                        <Route path=EnvironmentTab::Services.route() view={lazily(LazyPage::EnvironmentServicesPage)}/>
                        <Route path=EnvironmentTab::Deployments.route() view={lazily(LazyPage::EnvironmentDeploymentsPage)}/>
                        <Route path=EnvironmentTab::Timeline.route() view={lazily(LazyPage::TimelinePage)}/>
                        <Route path=EnvironmentTab::Variables.route() view={lazily(LazyPage::EnvironmentVariablesPage)}/>
                        <Route path=EnvironmentTab::Settings.route() view={lazily(LazyPage::EnvironmentSettingsPage)}/>
                    </ParentRoute>
                    <ParentRoute
                        path=paths::SERVICE
                        view={lazily(LazyPage::ServiceLayoutPage)}
                    >
                        <Route path=paths::NO_SEGMENT view=ServiceWithoutTab/>
                        <Route path=ServiceTab::Overview.route() view={lazily(LazyPage::ServiceOverviewPage)}/>
                        <Route path=ServiceTab::Monitoring.route() view={lazily(LazyPage::ServiceMonitoringPage)}/>
                        <Route path=ServiceTab::Deployments.route() view={lazily(LazyPage::ServiceDeploymentsPage)}/>
                        <Route path=ServiceTab::Timeline.route() view={lazily(LazyPage::TimelinePage)}/>
                        <Route path=ServiceTab::Logs.route() view={lazily(LazyPage::ServiceLogsPage)}/>
                        <Route path=ServiceTab::Variables.route() view={lazily(LazyPage::ServiceVariablesPage)}/>
                        <Route path=ServiceTab::Settings.route() view={lazily(LazyPage::ServiceSettingsPage)}/>
                        <Route path=ServiceTab::AdvancedSettings.route() view={lazily(LazyPage::ServiceAdvancedSettingsPage)}/>
                    </ParentRoute>
                </ParentRoute>
            </Routes>
        </Router>
    }
}
