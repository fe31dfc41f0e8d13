//! `/organization/:org/settings/labels-annotations`: the labels groups and annotation groups the
//! organization's services can carry, each with its pairs (and, for annotations, the kinds of
//! Kubernetes object they go on); forms that take the pairs as `key=value` lines; delete after a
//! confirmation.

use leptos::prelude::*;
use platform_api::{
    AnnotationScope, AnnotationsGroup, AnnotationsGroupRequest, FieldError, KeyValue, Label,
    LabelsGroup, LabelsGroupRequest, WireEnum,
};
use uuid::Uuid;

use crate::api::use_api;
use crate::components::delete_button::DeleteButton;
use crate::components::empty_state::EmptyState;
use crate::components::form::{Form, SubmitButton};
use crate::components::form_field::{error_for, key_value_lines, LinesField, TextField};
use crate::components::loaded::loaded;
use crate::components::new_dialog::NewDialog;
use crate::routes::address::OrganizationAddress;
use crate::routes::current_id;
use crate::routes::organization::organization_records;
use crate::routes::organization::settings::SettingsHeader;

#[component]
pub fn LabelsAnnotations() -> impl IntoView {
    let org = current_id(|a: &OrganizationAddress| a.org);
    let labels = organization_records(|api, org| async move { api.labels_groups(org).await });
    let annotations =
        organization_records(|api, org| async move { api.annotations_groups(org).await });
    let labels_changed = Callback::new(move |()| labels.refetch());
    let annotations_changed = Callback::new(move |()| annotations.refetch());
    view! {
        <SettingsHeader title="Labels and annotations"
            lead="Groups of key=value pairs that services put on what they run."/>
        <section class="card" aria-labelledby="labels-title">
            <h2 id="labels-title">"Labels groups"</h2>
            {loaded(labels, 2, move |(org, groups)| view! {
                <LabelsGroupList org groups on_deleted=labels_changed/>
            })}
        </section>
        {move || org.get().map(|org| view! { <NewDialog label="New labels group"><CreateLabelsGroup org on_created=labels_changed/></NewDialog> })}
        <section class="card" aria-labelledby="annotations-title">
            <h2 id="annotations-title">"Annotation groups"</h2>
            {loaded(annotations, 2, move |(org, groups)| view! {
                <AnnotationsGroupList org groups on_deleted=annotations_changed/>
            })}
        </section>
        {move || org.get().map(|org| view! {
            <NewDialog label="New annotation group"><CreateAnnotationsGroup org on_created=annotations_changed/></NewDialog>
        })}
    }
}

/// Pairs as chips: `key=value`. A view of its own type (`AnyView`): one naming the pairs'
/// iterator would borrow the group it was given.
fn pairs<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> AnyView {
    view! {
        <ul class="pairs">
            {pairs.into_iter().map(|(key, value)| view! {
                <li class="mono">{format!("{key}={value}")}</li>
            }).collect_view()}
        </ul>
    }
    .into_any()
}

#[component]
fn LabelsGroupList(org: Uuid, groups: Vec<LabelsGroup>, on_deleted: Callback<()>) -> impl IntoView {
    let api = use_api();
    if groups.is_empty() {
        return view! {
            <EmptyState title="No labels group yet" hint="Add one with the button below."/>
        }
        .into_any();
    }
    view! {
        <table class="table">
            <thead><tr>
                <th scope="col">"Name"</th>
                <th scope="col">"Labels"</th>
                <th scope="col"><span class="visually-hidden">"Actions"</span></th>
            </tr></thead>
            <tbody>
                {groups.into_iter().map(|group| {
                    let id = group.id;
                    let propagated = group.labels.iter().any(|l| l.propagate_to_cloud_provider);
                    view! {
                        <tr data-group=group.name.clone()>
                            <td>
                                <strong>{group.name.clone()}</strong>
                                {propagated.then(|| view! {
                                    <div class="muted cell-note">"Also on cloud resources"</div>
                                })}
                            </td>
                            <td>{pairs(group.labels.iter().map(|l| (l.key.as_str(), l.value.as_str())))}</td>
                            <td class="row-actions">
                                <DeleteButton question="Delete this labels group?" item=group.name.clone()
                                    consequence="Services stop putting its labels on what they run at their next deployment."
                                    done="Labels group deleted."
                                    delete=move || async move { api.delete_labels_group(org, id).await }
                                    on_deleted/>
                            </td>
                        </tr>
                    }
                }).collect_view()}
            </tbody>
        </table>
    }
    .into_any()
}

#[component]
fn AnnotationsGroupList(
    org: Uuid,
    groups: Vec<AnnotationsGroup>,
    on_deleted: Callback<()>,
) -> impl IntoView {
    let api = use_api();
    if groups.is_empty() {
        return view! {
            <EmptyState title="No annotation group yet" hint="Add one with the button below."/>
        }
        .into_any();
    }
    view! {
        <table class="table">
            <thead><tr>
                <th scope="col">"Name"</th>
                <th scope="col">"Annotations"</th>
                <th scope="col">"Put on"</th>
                <th scope="col"><span class="visually-hidden">"Actions"</span></th>
            </tr></thead>
            <tbody>
                {groups.into_iter().map(|group| {
                    let id = group.id;
                    let scopes = group.scopes.iter().map(|s| s.label()).collect::<Vec<_>>().join(", ");
                    view! {
                        <tr data-group=group.name.clone()>
                            <td><strong>{group.name.clone()}</strong></td>
                            <td>{pairs(group.annotations.iter().map(|a| (a.key.as_str(), a.value.as_str())))}</td>
                            <td class="cell-note">{scopes}</td>
                            <td class="row-actions">
                                <DeleteButton question="Delete this annotation group?" item=group.name.clone()
                                    consequence="Services stop putting its annotations on what they run at their next deployment."
                                    done="Annotation group deleted."
                                    delete=move || async move { api.delete_annotations_group(org, id).await }
                                    on_deleted/>
                            </td>
                        </tr>
                    }
                }).collect_view()}
            </tbody>
        </table>
    }
    .into_any()
}

/// The rules of a request, after the lines of its pairs were read.
fn checked(
    lines: Result<(), FieldError>,
    rules: Result<(), Vec<FieldError>>,
) -> Result<(), Vec<FieldError>> {
    let mut problems: Vec<FieldError> = lines.err().into_iter().collect();
    problems.extend(rules.err().unwrap_or_default());
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems)
    }
}

#[component]
fn CreateLabelsGroup(org: Uuid, on_created: Callback<()>) -> impl IntoView {
    let api = use_api();
    let name = RwSignal::new(String::new());
    let lines = RwSignal::new(String::new());
    let propagate = RwSignal::new(false);
    let form = Form::new(
        move |request: LabelsGroupRequest| async move { api.create_labels_group(org, &request).await },
        move |created: LabelsGroup| {
            name.set(String::new());
            lines.set(String::new());
            on_created.run(());
            format!("Labels group {} added.", created.name)
        },
    );
    let errors = form.errors;
    let submit = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        let read = key_value_lines("labels", &lines.get_untracked());
        let request = LabelsGroupRequest {
            name: name.get_untracked().trim().to_string(),
            labels: read
                .clone()
                .unwrap_or_default()
                .into_iter()
                .map(|(key, value)| Label {
                    key,
                    value,
                    propagate_to_cloud_provider: propagate.get_untracked(),
                })
                .collect(),
        };
        let rules = request.validate();
        form.submit(request, checked(read.map(drop), rules));
    };
    view! {
        <form class="card" on:submit=submit novalidate aria-label="Add a labels group">
            <h2>"New labels group"</h2>
            <div class="form-grid">
                <TextField label="Name" name="name" value=name errors required=true placeholder="team"
                    form_id="labels"/>
                <LinesField label="Labels" name="labels" value=lines errors
                    placeholder="team=payments\ncost-center=42" hint="One key=value per line."/>
            </div>
            <label class="checkbox">
                <input type="checkbox" name="propagate_to_cloud_provider" bind:checked=propagate/>
                " Also put them on the cloud provider's resources"
            </label>
            <SubmitButton form label="Add labels group"/>
        </form>
    }
}

#[component]
fn CreateAnnotationsGroup(org: Uuid, on_created: Callback<()>) -> impl IntoView {
    let api = use_api();
    let name = RwSignal::new(String::new());
    let lines = RwSignal::new(String::new());
    let scopes: Vec<(AnnotationScope, RwSignal<bool>)> = AnnotationScope::ALL
        .iter()
        .map(|scope| {
            (
                *scope,
                RwSignal::new(*scope == AnnotationScope::Deployments),
            )
        })
        .collect();
    let form = Form::new(
        move |request: AnnotationsGroupRequest| async move {
            api.create_annotations_group(org, &request).await
        },
        move |created: AnnotationsGroup| {
            name.set(String::new());
            lines.set(String::new());
            on_created.run(());
            format!("Annotation group {} added.", created.name)
        },
    );
    let errors = form.errors;
    let scopes_error = error_for(errors, "scopes");
    let chosen = scopes.clone();
    let submit = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        let read = key_value_lines("annotations", &lines.get_untracked());
        let request = AnnotationsGroupRequest {
            name: name.get_untracked().trim().to_string(),
            annotations: read
                .clone()
                .unwrap_or_default()
                .into_iter()
                .map(|(key, value)| KeyValue { key, value })
                .collect(),
            scopes: chosen
                .iter()
                .filter(|(_, on)| on.get_untracked())
                .map(|(scope, _)| *scope)
                .collect(),
        };
        let rules = request.validate();
        form.submit(request, checked(read.map(drop), rules));
    };
    view! {
        <form class="card" on:submit=submit novalidate aria-label="Add an annotation group">
            <h2>"New annotation group"</h2>
            <div class="form-grid">
                <TextField label="Name" name="name" value=name errors required=true placeholder="monitoring"
                    form_id="annotations"/>
                <LinesField label="Annotations" name="annotations" value=lines errors
                    placeholder="prometheus.io/scrape=true" hint="One key=value per line."/>
            </div>
            <fieldset class="choices" aria-describedby="field-scopes-error">
                <legend>"Put on *"</legend>
                {scopes.into_iter().map(|(scope, on)| view! {
                    <label class="checkbox"><input type="checkbox" name="scopes" value=scope.as_str() bind:checked=on/>{scope.label()}</label>
                }).collect_view()}
                <p class="field__error" id="field-scopes-error">{move || scopes_error.get()}</p>
            </fieldset>
            <SubmitButton form label="Add annotation group"/>
        </form>
    }
}
