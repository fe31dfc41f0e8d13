//! `/organization/:org/cluster/:cluster/overview`: one cluster: where it runs, its Kubernetes
//! version and status (polled while an upgrade runs); Upgrade to the next version after a
//! confirmation, refused while the cluster is locked; its lock, set with a reason for some days
//! or lifted; a short-lived token to reach it, shown on demand.

use std::time::Duration;

use chrono::Utc;
use leptos::prelude::*;
use platform_api::audit::EventQuery;
use platform_api::{
    CloudProvider, Cluster, ClusterLock, ClusterLockRequest, ClusterStatus, ClusterToken,
    RolePermission,
};
use uuid::Uuid;

use crate::api::{use_api, ApiError};
use crate::components::confirm_button::ConfirmButton;
use crate::components::copy_button::CopyButton;
use crate::components::form::Form;
use crate::components::form_field::TextField;
use crate::components::format;
use crate::components::loaded::loaded;
use crate::components::relative_time::RelativeTime;
use crate::components::status_badge::ClusterStatusBadge;
use crate::routes::address::{ClusterAddress, OrganizationAddress};
use crate::routes::organization::audit_log::HistoryOfChanges;
use crate::routes::{current_id, paths};
use crate::state::polling::poll;
use crate::state::resource::resource;
use crate::state::role::Permitted;
use crate::state::toasts::use_toasts;
use leptos_router::components::A;

/// How often the status is polled while an upgrade runs.
const POLL_UPGRADING: Duration = Duration::from_secs(2);

fn no_cluster() -> ApiError {
    ApiError::NotFound("The address names no cluster.".into())
}

#[component]
pub fn ClusterOverview() -> impl IntoView {
    let api = use_api();
    let (org, cluster_id) = (
        current_id(|a: &OrganizationAddress| a.org),
        current_id(|a: &ClusterAddress| a.cluster),
    );
    let cluster = resource(move || {
        let (org, id) = (org.get(), cluster_id.get());
        async move {
            let (org, id) = (org.ok_or_else(no_cluster)?, id.ok_or_else(no_cluster)?);
            api.cluster(org, id).await.map(|cluster| (org, cluster))
        }
    });
    let status = resource(move || {
        let (org, id) = (org.get(), cluster_id.get());
        async move {
            api.cluster_status(org.ok_or_else(no_cluster)?, id.ok_or_else(no_cluster)?)
                .await
        }
    });
    poll(
        move || match status.get() {
            Some(Ok(status)) if status.status.is_in_progress() => Some(POLL_UPGRADING),
            _ => None,
        },
        move || {
            status.refetch();
            // The version changes when an upgrade ends.
            cluster.refetch();
        },
    );
    let changed = Callback::new(move |()| status.refetch());
    view! {
        <div class="page__header">
            <h1>{move || cluster.get().and_then(Result::ok).map(|(_, c)| c.name)}</h1>
            <p class="page__lead">
                "Cluster · "
                {move || cluster_id.get().map(|id| view! {
                    <HistoryOfChanges query=EventQuery { target_id: Some(id), ..EventQuery::default() }/>
                })}
                {move || org.get().zip(cluster_id.get()).map(|(org, id)| view! {
                    " · "<A href=paths::cluster_advanced_settings(org, id)>"Advanced settings"</A>
                })}
            </p>
        </div>
        <div class="columns">
            <section class="card" aria-labelledby="cluster-title">
                <h2 id="cluster-title">"Kubernetes"</h2>
                {loaded(cluster, 4, move |(_, cluster)| view! {
                    <ClusterFacts cluster status on_changed=changed/>
                })}
            </section>
            <section class="card" aria-labelledby="lock-title">
                <h2 id="lock-title">"Lock"</h2>
                <p class="muted">"A locked cluster is not upgraded until the lock is lifted or its days run out."</p>
                {loaded(status, 2, move |status| view! { <Lock status on_changed=changed/> })}
            </section>
        </div>
        {move || cluster_id.get().map(|cluster| view! { <Access cluster/> })}
    }
}

#[component]
fn ClusterFacts(
    cluster: Cluster,
    status: LocalResource<Result<ClusterStatus, ApiError>>,
    on_changed: Callback<()>,
) -> impl IntoView {
    let api = use_api();
    let toasts = use_toasts();
    let permitted = Permitted::new(RolePermission::Deploy, "upgrade clusters");
    let id = cluster.id;
    let upgrade = Action::new_local(move |_: &()| async move {
        match api.upgrade_cluster(id).await {
            Ok(_) => {
                toasts.success("Upgrade started.");
                on_changed.run(());
            }
            Err(error) => {
                permitted.note(&error);
                toasts.error(error.to_string());
            }
        }
    });
    let current = move || status.get().and_then(Result::ok);
    view! {
        <dl class="facts">
            <dt>"Status"</dt>
            <dd>{move || current().map(|s| view! { <ClusterStatusBadge state=s.status live=true/> })}</dd>
            <dt>"Version"</dt>
            <dd data-version=cluster.version.clone()>{cluster.version.clone()}</dd>
            <dt>"Where"</dt>
            <dd>{format!("{} · {}", format::label_of::<CloudProvider>(&cluster.cloud_provider), cluster.region)}</dd>
            <dt>"Runs"</dt>
            <dd>{if cluster.production { "Production environments" } else { "Non-production environments" }}</dd>
            <dt>"Last deployed"</dt>
            <dd>{move || match current().and_then(|s| s.last_deployment_date) {
                Some(at) => view! { <RelativeTime at/> }.into_any(),
                None => view! { <span class="muted">"Never"</span> }.into_any(),
            }}</dd>
        </dl>
        <div class="actions actions--start">
            {move || current().map(|s| match s.next_k8s_available_version.clone() {
                None => view! { <p class="muted">"Runs the latest Kubernetes version."</p> }.into_any(),
                Some(next) => {
                    let locked = s.cluster_lock.is_some();
                    let busy = s.status.is_in_progress();
                    let why = move || {
                        permitted.refusal().or_else(|| {
                            if locked {
                                Some("The cluster is locked; lift the lock first.".to_string())
                            } else if busy {
                                Some("An upgrade is running.".to_string())
                            } else {
                                None
                            }
                        })
                    };
                    view! {
                        <ConfirmButton label=format!("Upgrade to {next}")
                            question=format!("Upgrade the cluster to Kubernetes {next}?")
                            consequence="Its nodes move to the next version one by one. There is no way back down."
                            class="button button--primary"
                            disabled=Signal::derive(move || why().is_some() || upgrade.pending().get())
                            title=Signal::derive(why)
                            on_confirm=move |()| { upgrade.dispatch_local(()); }/>
                    }.into_any()
                }
            })}
        </div>
    }
}

#[component]
fn Lock(status: ClusterStatus, on_changed: Callback<()>) -> impl IntoView {
    match status.cluster_lock {
        Some(lock) => view! { <Locked lock on_changed/> }.into_any(),
        None => view! { <LockForm cluster=status.cluster_id on_changed/> }.into_any(),
    }
}

#[component]
fn Locked(lock: ClusterLock, on_changed: Callback<()>) -> impl IntoView {
    let api = use_api();
    let toasts = use_toasts();
    let cluster = lock.cluster_id;
    let unlock = Action::new_local(move |_: &()| async move {
        match api.unlock_cluster(cluster).await {
            Ok(()) => {
                toasts.success("Lock lifted.");
                on_changed.run(());
            }
            Err(error) => toasts.error(error.to_string()),
        }
    });
    let until = lock.locked_at + chrono::Duration::days(lock.ttl_in_days);
    view! {
        <div class="lock" data-locked="true">
            <p class="lock__reason">{lock.reason.clone()}</p>
            <p class="muted">
                "Locked by " {lock.owner_name.clone()} " " <RelativeTime at=lock.locked_at/>
                "; it ends " {format::relative(until, Utc::now())} "."
            </p>
            <button type="button" class="button button--secondary"
                disabled=move || unlock.pending().get()
                on:click=move |_| { unlock.dispatch_local(()); }>"Lift the lock"</button>
        </div>
    }
}

#[component]
fn LockForm(cluster: Uuid, on_changed: Callback<()>) -> impl IntoView {
    let api = use_api();
    let reason = RwSignal::new(String::new());
    let days = RwSignal::new("7".to_string());
    let form = Form::new(
        move |request: ClusterLockRequest| async move { api.lock_cluster(cluster, &request).await },
        move |_| {
            on_changed.run(());
            "Cluster locked.".to_string()
        },
    );
    let errors = form.errors;
    let submit = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        let request = ClusterLockRequest {
            reason: reason.get_untracked().trim().to_string(),
            // Not a number reads as 0, which the rule refuses with its range.
            ttl_in_days: days.get_untracked().trim().parse().unwrap_or(0),
        };
        let checked = request.validate();
        form.submit(request, checked);
    };
    view! {
        <form on:submit=submit novalidate aria-label="Lock the cluster">
            <div class="form-inline__fields">
                <TextField label="Reason" name="reason" value=reason errors required=true
                    placeholder="Black Friday freeze"/>
                <TextField label="For how many days" name="ttl_in_days" value=days errors input_type="number"/>
            </div>
            <button type="submit" class="button button--secondary" disabled=move || form.pending()>"Lock"</button>
        </form>
    }
}

/// A short-lived token to reach the cluster with kubectl, fetched on demand.
#[component]
fn Access(cluster: Uuid) -> impl IntoView {
    let api = use_api();
    let toasts = use_toasts();
    let token = RwSignal::new(None::<ClusterToken>);
    let fetch = Action::new_local(move |_: &()| async move {
        match api.cluster_token(cluster).await {
            Ok(fresh) => token.set(Some(fresh)),
            Err(error) => toasts.error(error.to_string()),
        }
    });
    view! {
        <section class="card" aria-labelledby="access-title">
            <h2 id="access-title">"Access"</h2>
            <p class="muted">"A token for kubectl, valid for a few minutes; each request makes a new one."</p>
            {move || match token.get() {
                None => view! {
                    <button type="button" class="button button--secondary"
                        disabled=move || fetch.pending().get()
                        on:click=move |_| { fetch.dispatch_local(()); }>"Get a token"</button>
                }.into_any(),
                Some(credential) => {
                    let secret = credential.status.token.clone();
                    let expires = credential.status.expiration_timestamp;
                    view! {
                        <div class="shown-once__secret">
                            <input class="mono" type="text" readonly value=secret.clone()
                                aria-label="Cluster token"/>
                            <CopyButton text=secret label="Copy the cluster token"/>
                        </div>
                        <p class="muted">"Expires " <RelativeTime at=expires/> "."</p>
                        <button type="button" class="button button--secondary button--small"
                            on:click=move |_| token.set(None)>"Hide"</button>
                    }.into_any()
                }
            }}
        </section>
    }
}
