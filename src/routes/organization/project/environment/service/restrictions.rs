//! A service's deployment restrictions, in its settings (the kinds built from git): which
//! changed paths a push must have to deploy it (MATCH) or does not count (EXCLUDE), added,
//! edited and deleted here, with a preview of which of the branch's latest commits the
//! restrictions as they are would have deployed (where the API lists the paths each changed).

use leptos::prelude::*;
use platform_api::{
    decide, short_id, CommitChanges, DeploymentRestriction, DeploymentRestrictionMode,
    DeploymentRestrictionRequest, DeploymentRestrictionType, PushDecision, ServiceType, WireEnum,
};
use uuid::Uuid;

use crate::api::use_api;
use crate::components::delete_button::DeleteButton;
use crate::components::form::{Form, SubmitButton};
use crate::components::form_field::{EnumSelect, FieldScope, TextField};
use crate::components::loaded::loaded;
use crate::components::new_dialog::NewDialog;
use crate::components::toggle_button::ToggleButton;
use crate::state::resource::resource;

use super::AddressedService;

/// The card, for services built from git.
#[component]
pub fn ServiceRestrictions(service: AddressedService) -> impl IntoView {
    let built_from_git = Memo::new(move |_| {
        let record = service.record.get()?.ok()?;
        // Every kind built from git has restrictions.
        record.git_repository()?;
        Some((record.kind(), record.id()))
    });
    move || {
        let (kind, id) = built_from_git.get()?;
        Some(view! { <Restrictions kind id/> })
    }
}

#[component]
fn Restrictions(kind: ServiceType, id: Uuid) -> impl IntoView {
    let api = use_api();
    let restrictions = resource(move || async move { api.deployment_restrictions(kind, id).await });
    let commits = resource(move || async move { api.commit_changes(kind, id).await });
    let changed = Callback::new(move |()| restrictions.refetch());
    // The restrictions as last read, for the preview.
    let rules = Signal::derive(move || {
        restrictions
            .get()
            .and_then(Result::ok)
            .unwrap_or_default()
            .into_iter()
            .map(|restriction| restriction.rule)
            .collect::<Vec<_>>()
    });
    view! {
        <section class="card" aria-labelledby="restrictions-title">
            <h2 id="restrictions-title">"Deployment restrictions"</h2>
            <p class="muted">"Which pushes deploy the service when auto-deploy is on: with a "
                <em>"match"</em>" rule, only a push that changes a path under it; paths under an "
                <em>"exclude"</em>" rule do not count. Paths are from the repository's root."</p>
            {loaded(restrictions, 2, move |restrictions| {
                if restrictions.is_empty() {
                    return view! { <p class="muted">"None: every push deploys."</p> }.into_any();
                }
                view! {
                    <ul class="record-list" aria-label="Restrictions">
                        {restrictions.into_iter().map(|restriction| view! {
                            <RestrictionItem kind service=id restriction on_changed=changed/>
                        }).collect_view()}
                    </ul>
                }.into_any()
            })}
            <NewDialog label="Add a restriction">
                <RestrictionForm kind service=id editing=None on_saved=changed/>
            </NewDialog>
            <h3>"Which of the latest commits would deploy"</h3>
            {loaded(commits, 3, move |commits| match commits {
                Some(commits) => view! { <Preview commits rules/> }.into_any(),
                None => view! {
                    <p class="muted">"This API does not list the paths each commit changed: no preview here."</p>
                }.into_any(),
            })}
        </section>
    }
}

#[component]
fn RestrictionItem(
    kind: ServiceType,
    service: Uuid,
    restriction: DeploymentRestriction,
    on_changed: Callback<()>,
) -> impl IntoView {
    let api = use_api();
    let editing = RwSignal::new(false);
    let id = restriction.id;
    let value = restriction.rule.value.clone();
    let edit_name = format!("Edit the restriction on {value}");
    let record = restriction.clone();
    view! {
        <li class="record">
            <div class="record__head">
                <span class="tag">{restriction.rule.mode.label()}</span>
                <span class="mono record__title">{value.clone()}</span>
            </div>
            <div class="record__actions">
                <ToggleButton open=editing label="Edit" open_label="Close the form" name=edit_name/>
                <DeleteButton question="Delete this restriction?" item=value
                    consequence="Pushes are decided without it from now on."
                    done="Restriction deleted."
                    delete=move || async move { api.delete_deployment_restriction((kind, service), id).await }
                    on_deleted=on_changed/>
            </div>
            <Show when=move || editing.get()>
                <RestrictionForm kind service editing=Some(record.clone()) on_saved=on_changed/>
            </Show>
        </li>
    }
}

/// Adds a restriction to the service, or, `editing` one, saves it.
#[component]
fn RestrictionForm(
    kind: ServiceType,
    service: Uuid,
    editing: Option<DeploymentRestriction>,
    on_saved: Callback<()>,
) -> impl IntoView {
    let api = use_api();
    let existing = editing.as_ref().map(|restriction| restriction.id);
    if let Some(id) = existing {
        provide_context(FieldScope(id.to_string()));
    }
    let mode = RwSignal::new(
        editing
            .as_ref()
            .map_or(DeploymentRestrictionMode::Match, |r| r.rule.mode),
    );
    let value = RwSignal::new(
        editing
            .as_ref()
            .map(|r| r.rule.value.clone())
            .unwrap_or_default(),
    );
    let form = Form::new(
        move |request: DeploymentRestrictionRequest| async move {
            match existing {
                Some(id) => {
                    api.update_deployment_restriction((kind, service), id, &request)
                        .await
                }
                None => {
                    api.create_deployment_restriction((kind, service), &request)
                        .await
                }
            }
        },
        move |saved: DeploymentRestriction| {
            if existing.is_none() {
                value.set(String::new());
            }
            on_saved.run(());
            format!("Restriction on {} saved.", saved.rule.value)
        },
    );
    let errors = form.errors;
    let submit = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        let request = DeploymentRestrictionRequest {
            mode: mode.get_untracked(),
            kind: DeploymentRestrictionType::Path,
            value: value.get_untracked().trim().to_string(),
        };
        let checked = request.validate();
        form.submit(request, checked);
    };
    let (label, button) = if existing.is_some() {
        ("Edit the restriction", "Save restriction")
    } else {
        ("Add a restriction", "Add restriction")
    };
    view! {
        <form class="card" on:submit=submit novalidate aria-label=label>
            <h2>{label}</h2>
            <div class="form-grid">
                <EnumSelect label="Rule" name="mode" value=mode errors/>
                <TextField label="Path" name="value" value errors required=true
                    placeholder="web/" hint="A folder (web/) or a file (Dockerfile), from the repository's root."/>
            </div>
            <SubmitButton form label=button/>
        </form>
    }
}

/// The branch's latest commits, each with whether a push of it would deploy the service under
/// `rules`, and why not.
#[component]
fn Preview(
    commits: Vec<CommitChanges>,
    rules: Signal<Vec<DeploymentRestrictionRequest>>,
) -> impl IntoView {
    if commits.is_empty() {
        return view! { <p class="muted">"The branch has no commit yet."</p> }.into_any();
    }
    view! {
        <ul class="record-list" aria-label="Latest commits">
            {commits.into_iter().map(|changes| {
                let CommitChanges { commit, changed_paths } = changes;
                let shown = match changed_paths.len() {
                    0 => "nothing".to_string(),
                    1..=3 => changed_paths.join(", "),
                    more => format!("{} and {} more", changed_paths[..3].join(", "), more - 3),
                };
                let decision = Memo::new(move |_| decide(&rules.get(), Some(&changed_paths)));
                view! {
                    <li class="record">
                        <div class="record__head">
                            <span class="mono">{short_id(&commit.git_commit_id)}</span>
                            <span class="record__title">{commit.message}</span>
                            {move || match decision.get() {
                                PushDecision::Deploy => view! {
                                    <span class="badge badge--success"><span class="badge__dot" aria-hidden="true"></span>"Would deploy"</span>
                                }.into_any(),
                                PushDecision::Skip(_) => view! {
                                    <span class="badge badge--neutral"><span class="badge__dot" aria-hidden="true"></span>"Would skip"</span>
                                }.into_any(),
                            }}
                        </div>
                        <p class="muted">"Changed: "<span class="mono">{shown}</span></p>
                        {move || match decision.get() {
                            PushDecision::Skip(reason) => Some(view! { <p>"Skipped: "{reason}"."</p> }),
                            PushDecision::Deploy => None,
                        }}
                    </li>
                }
            }).collect_view()}
        </ul>
    }
    .into_any()
}
