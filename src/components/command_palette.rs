//! Ctrl-K (⌘-K): find any project, environment, service, cluster or settings page by name and
//! go there, or run a service's common actions (deploy, restart, open its logs or its address)
//! without opening it first. The index is read from the API when the palette opens.

use futures::future::{join_all, BoxFuture};
use leptos::ev;
use leptos::html::{Dialog, Input};
use leptos::prelude::*;
use leptos::wasm_split::SplitLoaderError;
use leptos_router::hooks::use_navigate;
use platform_api::{ServiceType, WireEnum};
use uuid::Uuid;

use crate::api::service::ServiceAction;
use crate::api::{use_api, Api};
use crate::case;
use crate::paths::{self, ServiceTab};
use crate::state::resource::resource;
use crate::state::shown_organization::use_shown_organization;
use crate::state::toasts::use_toasts;

/// How many matches are listed at once.
const SHOWN: usize = 12;

/// What choosing an entry does.
#[derive(Clone, Debug, PartialEq)]
enum Command {
    Open(String),
    /// A service's address, opened in a new tab.
    Visit(String),
    Act(ServiceType, Uuid, ServiceAction),
}

#[derive(Clone, Debug, PartialEq)]
struct Entry {
    /// What is searched and shown: "Deploy web".
    label: String,
    /// Where it is: "Service · shop › production".
    place: String,
    command: Command,
}

/// Every entry the organization offers, read from the API (what cannot be read is left out).
async fn index(api: Api, shown: Option<Uuid>) -> Vec<Entry> {
    let org = match shown {
        Some(org) => org,
        None => match api.organization_name().await {
            Ok(organization) => organization.id,
            Err(_) => return Vec::new(),
        },
    };
    let mut entries: Vec<Entry> = paths::settings_pages(org)
        .into_iter()
        .map(|(title, href)| Entry {
            label: title.to_string(),
            place: "Settings".into(),
            command: Command::Open(href),
        })
        .collect();
    entries.push(Entry {
        label: "Fleet".into(),
        place: "Organization".into(),
        command: Command::Open(paths::fleet(org)),
    });
    entries.push(Entry {
        label: "Clusters".into(),
        place: "Organization".into(),
        command: Command::Open(paths::clusters(org)),
    });
    entries.extend(
        api.cluster_names(org)
            .await
            .unwrap_or_default()
            .into_iter()
            .map(|cluster| Entry {
                label: cluster.name,
                place: "Cluster".into(),
                command: Command::Open(paths::cluster(org, cluster.id)),
            }),
    );
    let projects = api.project_names(org).await.unwrap_or_default();
    let environments = join_all(projects.iter().map(|project| async move {
        let environments = api.environment_names(project.id).await.unwrap_or_default();
        (project, environments)
    }))
    .await;
    for (project, environments) in &environments {
        entries.push(Entry {
            label: project.name.clone(),
            place: "Project".into(),
            command: Command::Open(paths::project(org, project.id)),
        });
        let services = join_all(environments.iter().map(|environment| async move {
            let (services, links) = futures::join!(
                api.services(environment.id),
                api.environment_links(environment.id)
            );
            (
                environment,
                services.unwrap_or_default(),
                links.unwrap_or_default(),
            )
        }))
        .await;
        for (environment, services, links) in services {
            let where_it_is = format!("{} › {}", project.name, environment.name);
            entries.push(Entry {
                label: environment.name.clone(),
                place: format!("Environment · {}", project.name),
                command: Command::Open(paths::environment(org, project.id, environment.id)),
            });
            for service in services {
                let (kind, id, name) = (service.service_type, service.id, service.name);
                let tab = |tab| paths::service_tab(org, project.id, environment.id, id, tab);
                let place = format!("{} · {where_it_is}", kind.label());
                entries.extend([
                    Entry {
                        label: name.clone(),
                        place: place.clone(),
                        command: Command::Open(tab(ServiceTab::Overview)),
                    },
                    Entry {
                        label: format!("Deploy {name}"),
                        place: place.clone(),
                        command: Command::Act(
                            kind,
                            id,
                            ServiceAction::Deploy {
                                plan_only: false,
                                git_commit_id: None,
                            },
                        ),
                    },
                    // The platform restarts some kinds; the others are redeployed.
                    if kind.restarts() {
                        Entry {
                            label: format!("Restart {name}"),
                            place: place.clone(),
                            command: Command::Act(kind, id, ServiceAction::Restart),
                        }
                    } else {
                        Entry {
                            label: format!("Redeploy {name}"),
                            place: place.clone(),
                            command: Command::Act(kind, id, ServiceAction::Redeploy),
                        }
                    },
                    Entry {
                        label: format!("Logs of {name}"),
                        place: place.clone(),
                        command: Command::Open(tab(ServiceTab::Logs)),
                    },
                ]);
                let address = links
                    .iter()
                    .find(|link| link.service_id == id && link.is_default);
                entries.extend(address.map(|link| Entry {
                    label: format!("Open {name}"),
                    place,
                    command: Command::Visit(link.url.clone()),
                }));
            }
        }
    }
    entries
}

/// Whether every word of `query` is in `label`, whatever the case: "dep web" finds "Deploy web".
fn matches(label: &str, query: &str) -> bool {
    let label = case::lower(label);
    case::lower(query)
        .split_whitespace()
        .all(|word| label.contains(word))
}

/// The entries `query` finds, those whose label starts with it first.
fn found<'a>(entries: &'a [Entry], query: &str) -> Vec<&'a Entry> {
    let mut found: Vec<&Entry> = entries
        .iter()
        .filter(|entry| {
            matches(&entry.label, query) || matches(&entry.place, query) && !query.trim().is_empty()
        })
        .collect();
    let query = case::lower(query.trim());
    found.sort_by_key(|entry| !case::lower(&entry.label).starts_with(&query));
    found.truncate(SHOWN);
    found
}

/// The palette's dialog, fetched the first time a person reaches for it (the shortcut, or the
/// button's focus or pointer): a split point of `app.rs`'s, provided as context so that no
/// component names one (the unit tests link without the split step).
#[derive(Clone, Copy)]
pub struct LoadPalette(
    pub fn(RwSignal<u32>) -> BoxFuture<'static, Result<AnyView, SplitLoaderError>>,
);

/// The button and the shortcut; the dialog once its code is fetched.
#[component]
pub fn CommandPalette() -> impl IntoView {
    let LoadPalette(load) = expect_context();
    let toasts = use_toasts();
    // Counts the openings: the dialog opens at each (once its code is there).
    let opened = RwSignal::new(0u32);
    let reached = RwSignal::new(false);
    let reach = move || {
        if !reached.get_untracked() {
            reached.set(true);
        }
    };
    let open = move || {
        reach();
        opened.update(|count| *count += 1);
    };
    let handle = window_event_listener(ev::keydown, move |event| {
        if event.key().eq_ignore_ascii_case("k") && (event.ctrl_key() || event.meta_key()) {
            event.prevent_default();
            open();
        }
    });
    on_cleanup(move || handle.remove());
    view! {
        <button type="button" class="button button--secondary button--small header__search"
            aria-keyshortcuts="Control+K Meta+K" on:click=move |_| open()
            on:focus=move |_| reach() on:pointerenter=move |_| reach()>
            "Search" <kbd>"Ctrl K"</kbd>
        </button>
        {move || reached.get().then(|| view! {
            <Suspense>
                {Suspend::new(async move {
                    load(opened).await.unwrap_or_else(|_| {
                        toasts.error(
                            "The console could not fetch the search (the connection dropped?); \
                             try again."
                                .to_string(),
                        );
                        reached.set(false);
                        ().into_any()
                    })
                })}
            </Suspense>
        })}
    }
}

/// Opens at each change of `opened`: the entries are read again each time, so that it knows
/// what was just created.
#[component]
pub fn PaletteDialog(opened: RwSignal<u32>) -> impl IntoView {
    let api = use_api();
    let shown = use_shown_organization();
    let toasts = use_toasts();
    let navigate = use_navigate();
    let dialog = NodeRef::<Dialog>::new();
    let input = NodeRef::<Input>::new();
    let query = RwSignal::new(String::new());
    let active = RwSignal::new(0usize);
    let entries = resource(move || {
        // Read again each time the palette opens, so that it knows what was just created.
        let opened = opened.get();
        async move {
            if opened == 0 {
                Vec::new()
            } else {
                index(api, shown.get_untracked()).await
            }
        }
    });
    // At each opening, and at once when the code came with the first (once the dialog is built).
    Effect::new(move |_| {
        let (count, Some(built)) = (opened.get(), dialog.get()) else {
            return;
        };
        if count == 0 {
            return;
        }
        query.set(String::new());
        active.set(0);
        show(built, input);
    });
    let close = move || {
        if let Some(dialog) = dialog.get() {
            dialog.close();
        }
    };
    let shown = move || {
        entries
            .get()
            .map(|entries| {
                found(&entries, &query.get())
                    .into_iter()
                    .cloned()
                    .collect::<Vec<_>>()
            })
            .unwrap_or_default()
    };
    let act = Action::new_local(
        move |(kind, id, action): &(ServiceType, Uuid, ServiceAction)| {
            let (kind, id, action) = (*kind, *id, action.clone());
            async move {
                match api.act_on_service(kind, id, &action).await {
                    Ok(_) => toasts.success(action.accepted()),
                    Err(error) => toasts.error(error.to_string()),
                }
            }
        },
    );
    let run = move |entry: Entry| {
        close();
        match entry.command {
            Command::Open(href) => navigate(&href, Default::default()),
            Command::Visit(url) => {
                let _ = window().open_with_url_and_target(&url, "_blank");
            }
            Command::Act(kind, id, action) => {
                act.dispatch_local((kind, id, action));
            }
        }
    };
    let run_active = {
        let run = run.clone();
        move || {
            if let Some(entry) = shown().get(active.get_untracked()).cloned() {
                run(entry);
            }
        }
    };
    let on_key = move |event: ev::KeyboardEvent| {
        let count = shown().len();
        match event.key().as_str() {
            "ArrowDown" if count > 0 => {
                event.prevent_default();
                active.update(|at| *at = (*at + 1) % count);
            }
            "ArrowUp" if count > 0 => {
                event.prevent_default();
                active.update(|at| *at = (*at + count - 1) % count);
            }
            "Enter" => {
                event.prevent_default();
                run_active();
            }
            _ => {}
        }
    };
    let option_id = |index: usize| format!("palette-option-{index}");

    view! {
        <dialog node_ref=dialog class="palette" aria-label="Go to or run">
            <input node_ref=input type="text" class="palette__input" role="combobox"
                aria-label="Find a project, environment, service, cluster, setting or action"
                aria-expanded="true" aria-controls="palette-options" aria-autocomplete="list"
                aria-activedescendant=move || (!shown().is_empty()).then(|| option_id(active.get()))
                placeholder="Find a service, an environment, a setting, or type “deploy web”"
                prop:value=move || query.get()
                on:input=move |event| {
                    query.set(event_target_value(&event));
                    active.set(0);
                }
                on:keydown=on_key/>
            <ul class="palette__options" id="palette-options" role="listbox" aria-label="Matches">
                {move || {
                    let shown = shown();
                    if entries.get().is_none() {
                        return view! { <li class="palette__empty">"Reading the organization…"</li> }.into_any();
                    }
                    if shown.is_empty() {
                        return view! { <li class="palette__empty">"Nothing matches."</li> }.into_any();
                    }
                    let run = run.clone();
                    shown.into_iter().enumerate().map(|(index, entry)| {
                        let run = run.clone();
                        let chosen = entry.clone();
                        view! {
                            <li id=option_id(index) role="option" class="palette__option"
                                aria-selected=move || (active.get() == index).to_string()
                                on:mousemove=move |_| active.set(index)
                                on:click=move |_| run(chosen.clone())>
                                <span class="palette__label">{entry.label}</span>
                                <span class="palette__place">{entry.place}</span>
                            </li>
                        }
                    }).collect_view().into_any()
                }}
            </ul>
        </dialog>
    }
}

/// Opens the dialog, focused on its search field, once it is in the document (a modal must be).
fn show(dialog: web_sys::HtmlDialogElement, input: NodeRef<Input>) {
    if !dialog.is_connected() {
        request_animation_frame(move || show(dialog, input));
        return;
    }
    if !dialog.open() {
        let _ = dialog.show_modal();
    }
    if let Some(input) = input.get_untracked() {
        let _ = input.focus();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    fn entry(label: &str, place: &str) -> Entry {
        Entry {
            label: label.into(),
            place: place.into(),
            command: Command::Open("/".into()),
        }
    }

    #[wasm_bindgen_test]
    fn every_word_typed_must_be_found_and_prefixes_come_first() {
        let entries = [
            entry("Restart web", "Application · shop › production"),
            entry("Deploy web", "Application · shop › production"),
            entry("web", "Application · shop › production"),
            entry("Webhooks", "Settings"),
        ];
        let labels = |query| {
            found(&entries, query)
                .into_iter()
                .map(|entry| entry.label.as_str())
                .collect::<Vec<_>>()
        };
        assert_eq!(labels("dep web"), ["Deploy web"]);
        assert_eq!(
            labels("WEB"),
            ["web", "Webhooks", "Restart web", "Deploy web"]
        );
        assert_eq!(labels("production"), ["Restart web", "Deploy web", "web"]);
        assert!(labels("nothing").is_empty());
    }
}
