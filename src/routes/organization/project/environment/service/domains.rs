//! A service's custom domains, in its overview (applications, containers, helm services): each
//! with the CNAME to set at the DNS provider (copied with a button) and what a check of its DNS
//! finds; added, changed and removed here. A change takes effect at the next deployment.

use leptos::prelude::*;
use platform_api::{CheckedCustomDomain, CustomDomain, CustomDomainRequest, ServiceType, WireEnum};
use uuid::Uuid;

use crate::api::use_api;
use crate::components::copy_button::CopyButton;
use crate::components::delete_button::DeleteButton;
use crate::components::form::{Form, SubmitButton};
use crate::components::form_field::{FieldScope, TextField};
use crate::components::loaded::loaded;
use crate::components::new_dialog::NewDialog;
use crate::components::toggle_button::ToggleButton;
use crate::state::resource::resource;

use super::AddressedService;

/// The Domains card, for the kinds that have custom domains.
#[component]
pub fn ServiceDomains(service: AddressedService) -> impl IntoView {
    move || {
        let kind = service.kind().filter(|kind| kind.has_links())?;
        let id = service.id.get()?;
        Some(view! { <Domains kind id service/> })
    }
}

#[component]
fn Domains(kind: ServiceType, id: Uuid, service: AddressedService) -> impl IntoView {
    let api = use_api();
    // The domains and their check, read together so that each row shows both.
    let domains = resource(move || async move {
        let domains = api.custom_domains(kind, id).await?;
        let checked = if domains.is_empty() {
            Vec::new()
        } else {
            api.check_custom_domains(kind, id).await?
        };
        Ok((domains, checked))
    });
    // A change takes effect at the next deployment: the status says the service is out of date.
    let changed = Callback::new(move |()| {
        domains.refetch();
        service.status.refetch();
    });
    view! {
        <section class="card" aria-labelledby="domains-title">
            <h2 id="domains-title">"Custom domains"</h2>
            {loaded(domains, 2, move |(domains, checked)| {
                if domains.is_empty() {
                    return view! {
                        <p class="muted">"None: the service is reached at the platform's addresses above. Add a domain of yours, then point it at the service at your DNS provider."</p>
                    }.into_any();
                }
                view! {
                    <ul class="record-list">
                        {domains.into_iter().map(|domain| {
                            let check = checked.iter().find(|c| c.domain_name == domain.domain).cloned();
                            view! { <DomainItem kind service=id domain check on_changed=changed/> }
                        }).collect_view()}
                    </ul>
                }.into_any()
            })}
            <NewDialog label="Add a custom domain">
                <DomainForm kind service=id editing=None on_saved=changed/>
            </NewDialog>
        </section>
    }
}

#[component]
fn DomainItem(
    kind: ServiceType,
    service: Uuid,
    domain: CustomDomain,
    check: Option<CheckedCustomDomain>,
    on_changed: Callback<()>,
) -> impl IntoView {
    let api = use_api();
    let editing = RwSignal::new(false);
    let id = domain.id;
    let name = domain.domain.clone();
    let target = domain.validation_domain.clone().unwrap_or_default();
    let certificate = if domain.generate_certificate {
        "Made by the platform"
    } else {
        "Made by your CDN or proxy"
    };
    let (badge, outcome) = match &check {
        Some(check) if check.status.is_success() => ("badge badge--success", check.status.label()),
        Some(check) => ("badge badge--failure", check.status.label()),
        None => ("badge badge--neutral", "Not checked"),
    };
    // What to fix, for a domain that failed its check.
    let details = check
        .filter(|check| !check.status.is_success())
        .and_then(|check| check.error_details);
    let record = domain.clone();
    let edit_name = format!("Edit {name}");
    let dns_record = format!("{name} CNAME {target}");
    view! {
        <li class="record" data-domain=domain.domain.clone()>
            <div class="record__head">
                <span class="mono record__title">{domain.domain.clone()}</span>
                <span class=badge><span class="badge__dot" aria-hidden="true"></span>{outcome}</span>
                {domain.use_cdn.unwrap_or(false).then(|| view! { <span class="tag">"Behind a CDN"</span> })}
            </div>
            {details.map(|details| view! { <p class="warning-text">{details}</p> })}
            <dl class="facts">
                <dt>"DNS record"</dt>
                <dd>
                    <span class="mono">{dns_record}</span>" "
                    <CopyButton text=target label="Copy the CNAME target"/>
                </dd>
                <dt>"Certificate"</dt><dd>{certificate}</dd>
            </dl>
            <div class="record__actions">
                <ToggleButton open=editing label="Edit" open_label="Close the form" name=edit_name/>
                <DeleteButton question="Remove this domain?" item=name
                    consequence="The service is no longer reached at it after its next deployment."
                    done="Domain removed."
                    delete=move || async move { api.delete_custom_domain((kind, service), id).await }
                    on_deleted=on_changed/>
            </div>
            <Show when=move || editing.get()>
                <DomainForm kind service editing=Some(record.clone()) on_saved=on_changed/>
            </Show>
        </li>
    }
}

/// Adds a domain to the service, or, `editing` one, saves it.
#[component]
fn DomainForm(
    kind: ServiceType,
    service: Uuid,
    editing: Option<CustomDomain>,
    on_saved: Callback<()>,
) -> impl IntoView {
    let api = use_api();
    let existing = editing.as_ref().map(|domain| domain.id);
    if let Some(id) = existing {
        provide_context(FieldScope(id.to_string()));
    }
    let domain = RwSignal::new(
        editing
            .as_ref()
            .map(|d| d.domain.clone())
            .unwrap_or_default(),
    );
    let certificate = RwSignal::new(editing.as_ref().is_none_or(|d| d.generate_certificate));
    let cdn = RwSignal::new(editing.as_ref().and_then(|d| d.use_cdn).unwrap_or(false));
    let form = Form::new(
        move |request: CustomDomainRequest| async move {
            match existing {
                Some(id) => {
                    api.update_custom_domain((kind, service), id, &request)
                        .await
                }
                None => api.create_custom_domain(kind, service, &request).await,
            }
        },
        move |saved: CustomDomain| {
            if existing.is_none() {
                domain.set(String::new());
            }
            on_saved.run(());
            format!(
                "Domain {} saved: it takes effect at the next deployment.",
                saved.domain
            )
        },
    );
    let errors = form.errors;
    let submit = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        let request = CustomDomainRequest {
            domain: domain.get_untracked().trim().to_string(),
            generate_certificate: certificate.get_untracked(),
            use_cdn: Some(cdn.get_untracked()),
        };
        let checked = request.validate();
        form.submit(request, checked);
    };
    let (label, button) = if existing.is_some() {
        ("Edit the custom domain", "Save domain")
    } else {
        ("Add a custom domain", "Add domain")
    };
    view! {
        <form class="card" on:submit=submit novalidate aria-label=label>
            <h2>{label}</h2>
            <div class="form-grid">
                <TextField label="Domain" name="domain" value=domain errors required=true
                    placeholder="app.example.com" hint="A name of yours; *.example.com covers every subdomain."/>
            </div>
            <label class="checkbox">
                <input type="checkbox" name="generate_certificate" bind:checked=certificate/>
                " The platform makes its certificate (untick when a CDN or proxy in front makes it)"
            </label>
            <label class="checkbox">
                <input type="checkbox" name="use_cdn" bind:checked=cdn/>
                " Behind a CDN: its check asks only that the name resolves"
            </label>
            <SubmitButton form label=button/>
        </form>
    }
}
