//! The frame around every signed-in page: header with breadcrumbs and sign out, the rate-limit
//! countdown, and the page. Signed out, it sends the person to sign in and back afterwards.
//! Embedded in a host page, only the breadcrumbs stay, and the host page signs the person in.

use leptos::prelude::*;
use leptos_router::components::{Outlet, Redirect, A};
use leptos_router::hooks::use_location;
use uuid::Uuid;

/// How often the API is tried again while it cannot be reached.
const CONNECTION_RETRY: std::time::Duration = std::time::Duration::from_secs(5);

use super::command_palette::CommandPalette;
use super::toasts::ToastHost;
use crate::api::connection::use_connection;
use crate::api::rate_limit::use_rate_limit;
use crate::api::session::use_session;
use crate::api::{use_api, Api};
use crate::paths;
use crate::state::embed::{use_embed, EmbedWaiting};
use crate::state::names_changed::use_names_changed;
use crate::state::polling::poll;
use crate::state::resource::resource;
use crate::state::shown_organization::use_shown_organization;
use crate::state::theme::{use_theme, Theme};

#[component]
pub fn Shell() -> impl IntoView {
    let session = use_session();
    let embed = use_embed();
    let location = use_location();
    // The other pages' code, once this one is shown and the browser idle.
    crate::state::prefetch::prefetch_when_idle();
    let shown = use_shown_organization();
    Effect::new(move |_| {
        if let Some(organization) = path_ids(&location.pathname.get()).organization {
            shown.show(organization);
        }
    });
    if embed.is_active() {
        // A panel of the host page: no app chrome, only the way back up the hierarchy; the host
        // page signs it in. The page stays in place (hidden) while the host page hands a new
        // token over, and reads its data again once it has: a page dropped and built again
        // there would be built while its code is still being fetched.
        let signed_out = move || !session.is_signed_in();
        return view! {
            <Show when=signed_out><EmbedWaiting/></Show>
            <div class="embed-panel" hidden=signed_out>
                <div class="embed-bar"><Breadcrumbs/></div>
                <ConnectionBanner/>
                <RateLimitBanner/>
                <main class="page page--embedded" id="main"><Outlet/></main>
                <ToastHost/>
            </div>
        }
        .into_any();
    }
    (move || {
        if session.is_signed_in() {
            view! {
                <Header/>
                <ConnectionBanner/>
                <RateLimitBanner/>
                <main class="page" id="main"><Outlet/></main>
                <ToastHost/>
                {move || session.interrupted().then(|| view! { <SignInAgain/> })}
            }
            .into_any()
        } else {
            let back_to = format!(
                "{}{}",
                location.pathname.get_untracked(),
                location.search.get_untracked()
            );
            view! { <Redirect path=paths::sign_in(Some(&back_to))/> }.into_any()
        }
    })
    .into_any()
}

/// The dialog asking to sign in again, fetched when shown (with the identity provider's round
/// trip): a split point of `app.rs`'s, provided as context.
#[derive(Clone, Copy)]
pub struct LoadSignInAgain(
    pub  fn() -> futures::future::BoxFuture<
        'static,
        Result<AnyView, leptos::wasm_split::SplitLoaderError>,
    >,
);

/// Its code not fetched, the session ends as it would without it: to the sign-in page.
#[component]
fn SignInAgain() -> impl IntoView {
    let LoadSignInAgain(load) = expect_context();
    let session = use_session();
    view! {
        <Suspense>
            {Suspend::new(async move {
                load().await.unwrap_or_else(|_| {
                    session.end();
                    ().into_any()
                })
            })}
        </Suspense>
    }
}

#[component]
fn Header() -> impl IntoView {
    let session = use_session();
    let base_url = move || {
        session
            .credentials()
            .map(|c| c.base_url)
            .unwrap_or_default()
    };
    // Who signed in through the identity provider (an API token names nobody).
    let person = move || {
        session
            .credentials()
            .and_then(|credentials| credentials.provider)
            .and_then(|provider| provider.person)
    };
    view! {
        <header class="header">
            <a class="skip-link" href="#main">"Skip to content"</a>
            <A href="/" attr:class="header__brand">"Platform console"</A>
            <Breadcrumbs/>
            <div class="header__end">
                <CommandPalette/>
                <ThemeSelect/>
                <span class="header__api" title="API base URL">{base_url}</span>
                {move || person().map(|person| view! {
                    <a href=paths::ACCOUNT.at(&[]) class="header__person" title="Your account">{person}</a>
                })}
                <button type="button" class="button button--secondary button--small"
                    on:click=move |_| session.sign_out(&paths::sign_in(None))>"Sign out"</button>
            </div>
        </header>
    }
}

/// System, light or dark, remembered on this device.
#[component]
fn ThemeSelect() -> impl IntoView {
    let theme = use_theme();
    view! {
        <label class="visually-hidden" for="theme">"Theme"</label>
        <select id="theme" class="header__theme"
            on:change=move |event| {
                if let Some(chosen) = Theme::parse(&event_target_value(&event)) {
                    theme.set(chosen);
                }
            }>
            {Theme::ALL.into_iter().map(|option| view! {
                <option value=option.as_str() selected=move || theme.get() == option>{option.label()}</option>
            }).collect_view()}
        </select>
    }
}

/// While the API cannot be reached: says so, and tries again every few seconds.
#[component]
fn ConnectionBanner() -> impl IntoView {
    let api = use_api();
    let connection = use_connection();
    let probe = Action::new_local(move |_: &()| async move {
        // Its outcome is recorded by the client, whatever it is.
        let _ = api.organization_name().await;
    });
    poll(
        move || {
            connection.failures();
            connection.unreachable().map(|_| CONNECTION_RETRY)
        },
        move || {
            probe.dispatch_local(());
        },
    );
    move || {
        connection.unreachable().map(|base_url| {
            view! {
                <div class="banner banner--error" role="alert">
                    "Cannot reach the API at " {base_url} ". Trying again every "
                    {CONNECTION_RETRY.as_secs()} " s; the page refreshes once it answers."
                </div>
            }
        })
    }
}

#[component]
fn RateLimitBanner() -> impl IntoView {
    let rate_limit = use_rate_limit();
    move || {
        rate_limit.seconds_left().map(|seconds| {
            view! {
                <div class="banner banner--warning" role="status">
                    "The API asked to wait (too many requests, or busy); retrying in " {seconds} " s."
                </div>
            }
        })
    }
}

/// Ids of the hierarchy named by the current URL.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct PathIds {
    organization: Option<Uuid>,
    project: Option<Uuid>,
    environment: Option<Uuid>,
    service: Option<Uuid>,
    /// On the clusters page or a cluster's page.
    clusters: bool,
    cluster: Option<Uuid>,
}

fn path_ids(pathname: &str) -> PathIds {
    let segments: Vec<&str> = pathname.split('/').filter(|s| !s.is_empty()).collect();
    let after = |key: &str| {
        segments
            .windows(2)
            .find(|pair| pair[0] == key)
            .and_then(|pair| pair[1].parse().ok())
    };
    PathIds {
        organization: after("organization"),
        project: after("project"),
        environment: after("environment"),
        service: after("service"),
        clusters: segments.iter().any(|s| *s == "clusters" || *s == "cluster"),
        cluster: after("cluster"),
    }
}

/// organization > project > environment > service, each a link, named from the API.
#[component]
fn Breadcrumbs() -> impl IntoView {
    let api = use_api();
    let location = use_location();
    let ids = Memo::new(move |_| path_ids(&location.pathname.get()));

    // Names are read again once the API answers after an outage, so a page opened while it could
    // not be reached is named as soon as it can be; a rename gives its new name itself.
    let renamed = use_names_changed();
    let connection = use_connection();
    let session = use_session();
    let read_again = move || {
        connection.restored();
        session.is_signed_in();
    };
    // A person may be in several organizations: the one of the address is named.
    let organization = resource(move || {
        read_again();
        let id = ids.get().organization;
        async move {
            let names = api.organization_names().await.ok()?;
            names
                .into_iter()
                .find(|organization| Some(organization.id) == id)
                .map(|organization| organization.name)
        }
    });
    let project = resource(move || {
        read_again();
        let id = ids.get().project;
        async move {
            match id {
                Some(id) => api.project_name(id).await.ok().map(|p| p.name),
                None => None,
            }
        }
    });
    let environment = resource(move || {
        read_again();
        let id = ids.get().environment;
        async move {
            match id {
                Some(id) => api.environment_name(id).await.ok().map(|e| e.name),
                None => None,
            }
        }
    });
    let service = resource(move || {
        read_again();
        let PathIds {
            environment,
            service,
            ..
        } = ids.get();
        async move {
            let (environment, service) = (environment?, service?);
            let kind = api.service_kind(environment, service).await.ok()?;
            api.service_name(kind, service).await.ok().map(|s| s.name)
        }
    });

    let cluster = resource(move || {
        read_again();
        let PathIds {
            organization,
            cluster,
            ..
        } = ids.get();
        async move {
            let (organization, cluster) = (organization?, cluster?);
            api.cluster_name(organization, cluster)
                .await
                .ok()
                .map(|c| c.name)
        }
    });

    let crumbs = move || {
        let ids = ids.get();
        let name = |resource: LocalResource<Option<String>>, id: Uuid| {
            renamed
                .and_then(|names| names.name_of(id))
                .or_else(|| resource.get().flatten())
                .unwrap_or_else(|| "…".to_string())
        };
        let mut crumbs = Vec::new();
        let Some(org) = ids.organization else {
            return crumbs;
        };
        crumbs.push((
            name(organization, org),
            paths::organization(org),
            Some(Siblings::Organizations),
        ));
        if ids.clusters {
            crumbs.push(("Clusters".to_string(), paths::clusters(org), None));
            if let Some(cluster_id) = ids.cluster {
                crumbs.push((
                    name(cluster, cluster_id),
                    paths::cluster(org, cluster_id),
                    None,
                ));
            }
        }
        if let Some(project_id) = ids.project {
            crumbs.push((
                name(project, project_id),
                paths::project(org, project_id),
                Some(Siblings::Projects(org)),
            ));
            if let Some(environment_id) = ids.environment {
                crumbs.push((
                    name(environment, environment_id),
                    paths::environment(org, project_id, environment_id),
                    Some(Siblings::Environments(org, project_id)),
                ));
                if let Some(service_id) = ids.service {
                    crumbs.push((
                        name(service, service_id),
                        paths::service(org, project_id, environment_id, service_id),
                        Some(Siblings::Services(org, project_id, environment_id)),
                    ));
                }
            }
        }
        crumbs
    };

    // The browser's tab says where the page is, most specific first.
    Effect::new(move |_| {
        let names: Vec<String> = crumbs().into_iter().map(|(name, _, _)| name).collect();
        document().set_title(&document_title(&names));
    });

    view! {
        <nav class="breadcrumbs" aria-label="Breadcrumb">
            <ol>
                {move || {
                    let crumbs = crumbs();
                    let last = crumbs.len().saturating_sub(1);
                    crumbs.into_iter().enumerate().map(|(index, (name, href, siblings))| {
                        let current = (index == last).then_some("page");
                        let switcher = siblings.map(|siblings| view! { <Switcher siblings name=name.clone()/> });
                        view! { <li><a href=href aria-current=current>{name}</a>{switcher}</li> }
                    }).collect_view()
                }}
            </ol>
        </nav>
    }
}

/// The records beside one of the breadcrumb, that its switcher lists.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Siblings {
    Organizations,
    Projects(Uuid),
    Environments(Uuid, Uuid),
    Services(Uuid, Uuid, Uuid),
}

impl Siblings {
    /// Each sibling's name and page, read from the API.
    async fn read(self, api: Api) -> Vec<(String, String)> {
        match self {
            Siblings::Organizations => api
                .organization_names()
                .await
                .unwrap_or_default()
                .into_iter()
                .map(|organization| (organization.name, paths::organization(organization.id)))
                .chain([(
                    "New organization…".to_string(),
                    paths::NEW_ORGANIZATION.at(&[]),
                )])
                .collect(),
            Siblings::Projects(org) => api
                .project_names(org)
                .await
                .unwrap_or_default()
                .into_iter()
                .map(|project| (project.name, paths::project(org, project.id)))
                .collect(),
            Siblings::Environments(org, project) => api
                .environment_names(project)
                .await
                .unwrap_or_default()
                .into_iter()
                .map(|environment| {
                    let href = paths::environment(org, project, environment.id);
                    (environment.name, href)
                })
                .collect(),
            Siblings::Services(org, project, environment) => api
                .services(environment)
                .await
                .unwrap_or_default()
                .into_iter()
                .map(|service| {
                    let href = paths::service(org, project, environment, service.id);
                    (service.name, href)
                })
                .collect(),
        }
    }

    fn what(self) -> &'static str {
        match self {
            Siblings::Organizations => "organization",
            Siblings::Projects(_) => "project",
            Siblings::Environments(..) => "environment",
            Siblings::Services(..) => "service",
        }
    }
}

/// A crumb's list of its siblings, read when opened: another project, environment or service
/// in one click.
#[component]
fn Switcher(siblings: Siblings, name: String) -> impl IntoView {
    let api = use_api();
    let open = RwSignal::new(false);
    let listed = resource(move || {
        let open = open.get();
        async move {
            if open {
                siblings.read(api).await
            } else {
                Vec::new()
            }
        }
    });
    let label = format!("Switch {} (now {name})", siblings.what());
    view! {
        <details class="switcher" prop:open=move || open.get()
            on:toggle=move |event| {
                let element: web_sys::HtmlDetailsElement = event_target(&event);
                open.set(element.open());
            }>
            <summary class="switcher__toggle" aria-label=label>"▾"</summary>
            <ul class="switcher__list">
                {move || listed.get().unwrap_or_default().into_iter().map(|(sibling, href)| {
                    let current = (sibling == name).then_some("page");
                    view! { <li><a href=href aria-current=current on:click=move |_| open.set(false)>{sibling}</a></li> }
                }).collect_view()}
            </ul>
        </details>
    }
}

/// The title of a page from its breadcrumb, most specific first ("web · production ·
/// storefront — Platform console"); the organization only when nothing is below it, and names
/// still loading ("…") left out.
pub fn document_title(crumbs: &[String]) -> String {
    let known: Vec<&str> = crumbs
        .iter()
        .map(String::as_str)
        .filter(|name| *name != "…")
        .collect();
    let shown: Vec<&str> = match known.as_slice() {
        [] => Vec::new(),
        [organization] => vec![*organization],
        [_, below @ ..] => below.iter().rev().copied().collect(),
    };
    if shown.is_empty() {
        "Platform console".to_string()
    } else {
        format!("{} — Platform console", shown.join(" · "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn a_page_is_titled_by_where_it_is() {
        let names = |list: &[&str]| list.iter().map(|n| n.to_string()).collect::<Vec<_>>();
        assert_eq!(
            document_title(&names(&["Acme", "storefront", "production", "api"])),
            "api · production · storefront — Platform console"
        );
        assert_eq!(document_title(&names(&["Acme"])), "Acme — Platform console");
        assert_eq!(
            document_title(&names(&["Acme", "storefront", "…"])),
            "storefront — Platform console"
        );
        assert_eq!(document_title(&[]), "Platform console");
    }

    #[wasm_bindgen_test]
    fn ids_come_from_the_path() {
        let org = Uuid::from_u128(1);
        let project = Uuid::from_u128(2);
        let ids = path_ids(&format!("/organization/{org}/project/{project}/overview"));
        assert_eq!(ids.organization, Some(org));
        assert_eq!(ids.project, Some(project));
        assert_eq!(ids.environment, None);
        assert!(!ids.clusters);
        assert_eq!(path_ids("/sign-in"), PathIds::default());
        let cluster = Uuid::from_u128(3);
        let ids = path_ids(&format!("/organization/{org}/cluster/{cluster}/overview"));
        assert!(ids.clusters);
        assert_eq!(ids.cluster, Some(cluster));
        assert!(path_ids(&format!("/organization/{org}/clusters")).clusters);
    }
}
