//! `/organization/:org/cluster/:cluster/overview`: one cluster: where it runs, its Kubernetes
//! version and status (polled while the engine works on it); Deploy (install or update) and Stop,
//! with the last one's log; Upgrade to the next version after a confirmation, refused while the
//! cluster is locked; its lock, set with a reason for some days or lifted; the environments that
//! run on it; a short-lived token to reach it, shown on demand; the cloud credentials it is
//! reached with; its network (DNS provider, and on AWS its routing table).

use std::time::Duration;

use chrono::Utc;
use leptos::prelude::*;
use platform_api::audit::EventQuery;
use platform_api::{
    Cluster, ClusterAction, ClusterFeature, ClusterLock, ClusterLockRequest, ClusterLogLine,
    ClusterState, ClusterStatus, ClusterToken, RolePermission, WireEnum,
};
use uuid::Uuid;

use crate::api::{use_api, ApiError};
use crate::components::confirm_button::ConfirmButton;
use crate::components::copy_button::CopyButton;
use crate::components::empty_state::EmptyState;
use crate::components::form::Form;
use crate::components::form_field::TextField;
use crate::components::format;
use crate::components::loaded::loaded;
use crate::components::relative_time::RelativeTime;
use crate::components::status_badge::ClusterStatusBadge;
use crate::paths;
use crate::routes::address::{ClusterAddress, OrganizationAddress};
use crate::routes::current_id;
use crate::routes::organization::audit_log::HistoryOfChanges;
use crate::routes::organization::cluster::credentials::CloudAccount;
use crate::routes::organization::cluster::network::Network;
use crate::state::polling::poll;
use crate::state::resource::resource;
use crate::state::role::Permitted;
use crate::state::toasts::use_toasts;
use leptos_router::components::A;

/// How often the status is polled while the engine works on the cluster.
const POLL_RUNNING: Duration = Duration::from_secs(2);

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
    let log = resource(move || {
        let (org, id) = (org.get(), cluster_id.get());
        async move {
            api.cluster_action_log(org.ok_or_else(no_cluster)?, id.ok_or_else(no_cluster)?)
                .await
        }
    });
    poll(
        move || match status.get() {
            Some(Ok(status)) if status.status.is_in_progress() => Some(POLL_RUNNING),
            _ => None,
        },
        move || {
            status.refetch();
            // The version changes when an upgrade ends; a deployment's log grows.
            cluster.refetch();
            log.refetch();
        },
    );
    let changed = Callback::new(move |()| {
        status.refetch();
        log.refetch();
    });
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
        <section class="card" aria-labelledby="cluster-log-title">
            <h2 id="cluster-log-title">"Last deployment or stop"</h2>
            {loaded(log, 3, move |lines| view! { <ActionLog lines/> })}
        </section>
        {move || org.get().zip(cluster_id.get()).map(|(org, cluster)| view! { <RunsHere org cluster/> })}
        {move || org.get().zip(cluster_id.get()).map(|(org, cluster)| view! { <Access org cluster/> })}
        {move || cluster.get().and_then(Result::ok).map(|(org, cluster)| view! { <CloudAccount org cluster/> })}
        {move || cluster.get().and_then(Result::ok).map(|(org, cluster)| view! { <Network org cluster/> })}
    }
}

/// The lines the cluster's last action logged, each with its step and time.
#[component]
fn ActionLog(lines: Vec<ClusterLogLine>) -> impl IntoView {
    if lines.is_empty() {
        return view! {
            <EmptyState title="Not deployed from here yet"
                hint="Deploy installs or updates the cluster; its steps show here as they run."/>
        }
        .into_any();
    }
    view! {
        <ol class="plain-list cluster-log" aria-label="Steps of the last action">
            {lines.into_iter().map(|line| {
                let message = line.message.and_then(|m| m.safe_message).unwrap_or_default();
                view! {
                    <li data-step=line.step.map(|step| step.as_str().to_string())>
                        <span class="tag">{line.step.map(|step| step.label())}</span>" "
                        <span>{message}</span>" "
                        {line.timestamp.map(|at| view! { <span class="muted"><RelativeTime at/></span> })}
                    </li>
                }
            }).collect_view()}
        </ol>
    }
    .into_any()
}

/// The environments running on the cluster, with their services: what a deletion would stop.
#[component]
fn RunsHere(org: Uuid, cluster: Uuid) -> impl IntoView {
    let api = use_api();
    let environments = resource(move || async move { api.cluster_environments(cluster).await });
    view! {
        <section class="card" aria-labelledby="runs-here-title">
            <h2 id="runs-here-title">"Runs here"</h2>
            {loaded(environments, 3, move |environments| {
                if environments.is_empty() {
                    return view! {
                        <EmptyState title="No environment runs here"
                            hint="An environment is placed on a cluster when it is created."/>
                    }.into_any();
                }
                view! {
                    <table class="table">
                        <thead><tr>
                            <th scope="col">"Environment"</th>
                            <th scope="col">"Project"</th>
                            <th scope="col">"Services"</th>
                        </tr></thead>
                        <tbody>
                            {environments.into_iter().map(|environment| {
                                let href = paths::environment(org, environment.project_id, environment.environment_id);
                                let name = environment.environment_name;
                                let label = name.clone();
                                view! {
                                <tr data-environment=name>
                                    <td><A href=href>{label}</A></td>
                                    <td>{environment.project_name}</td>
                                    <td>{environment.services.len()}</td>
                                </tr>
                                }
                            }).collect_view()}
                        </tbody>
                    </table>
                }.into_any()
            })}
        </section>
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
    let act = Action::new_local(move |action: &ClusterAction| {
        let action = *action;
        async move {
            let answer = match action {
                ClusterAction::Stop => api.stop_cluster(cluster.organization.id, id).await,
                _ => api.deploy_cluster(cluster.organization.id, id).await,
            };
            match answer {
                Ok(_) => {
                    toasts.success(match action {
                        ClusterAction::Stop => "Stop started.",
                        _ => "Deployment started.",
                    });
                    on_changed.run(());
                }
                Err(error) => {
                    permitted.note(&error);
                    toasts.error(error.to_string());
                }
            }
        }
    });
    let current = move || status.get().and_then(Result::ok);
    let busy_or_refused = move || {
        permitted.refusal().or_else(|| {
            current()
                .is_some_and(|s| s.status.is_in_progress())
                .then(|| "The engine is working on this cluster.".to_string())
        })
    };
    let stoppable =
        move || current().is_some_and(|s| s.is_deployed && s.status != ClusterState::Stopped);
    view! {
        <dl class="facts">
            <dt>"Status"</dt>
            <dd>{move || current().map(|s| view! { <ClusterStatusBadge state=s.status live=true/> })}</dd>
            <dt>"Version"</dt>
            <dd data-version=cluster.version.clone()>{cluster.version.clone()}</dd>
            <dt>"Where"</dt>
            <dd>{format!("{} · {}", cluster.cloud_provider.label(), cluster.region)}</dd>
            <dt>"Machines"</dt>
            <dd>{format::cluster_machines(&cluster)}</dd>
            <dt>"Runs"</dt>
            <dd>{if cluster.production { "Production environments" } else { "Non-production environments" }}</dd>
            {(!cluster.features.is_empty()).then(|| view! {
                <dt>"Features"</dt>
                <dd data-features>{cluster.features.iter().map(ClusterFeature::said).collect::<Vec<_>>().join(" · ")}</dd>
            })}
            <dt>"Last deployed"</dt>
            <dd>{move || match current().and_then(|s| s.last_deployment_date) {
                Some(at) => view! { <RelativeTime at/> }.into_any(),
                None => view! { <span class="muted">"Never"</span> }.into_any(),
            }}</dd>
        </dl>
        <div class="actions actions--start">
            <button type="button" class="button button--secondary"
                disabled=move || busy_or_refused().is_some() || act.pending().get()
                title=busy_or_refused
                on:click=move |_| { act.dispatch_local(ClusterAction::Deploy); }>"Deploy"</button>
            <Show when=stoppable>
                <ConfirmButton label="Stop" question="Stop the cluster?"
                    consequence="Its nodes scale down to zero: what runs on it stops until it is deployed again."
                    class="button button--ghost"
                    disabled=Signal::derive(move || busy_or_refused().is_some() || act.pending().get())
                    title=Signal::derive(busy_or_refused)
                    on_confirm=move |()| { act.dispatch_local(ClusterAction::Stop); }/>
            </Show>
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

/// A short-lived token to reach the cluster with kubectl, and its kubeconfig, each fetched on
/// demand and held by this view only.
#[component]
fn Access(org: Uuid, cluster: Uuid) -> impl IntoView {
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
            <Kubeconfig org cluster/>
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

/// The cluster's kubeconfig, shown when asked for (it holds credentials: WRITE reads it, and
/// each reading is in the audit log).
#[component]
fn Kubeconfig(org: Uuid, cluster: Uuid) -> impl IntoView {
    let api = use_api();
    let permitted = Permitted::new(RolePermission::Write, "read the cluster's kubeconfig");
    let shown = RwSignal::new(None::<String>);
    let failed = RwSignal::new(None::<String>);
    let fetch = Action::new_local(move |_: &()| async move {
        match api.cluster_kubeconfig(org, cluster).await {
            Ok(kubeconfig) => {
                failed.set(None);
                shown.set(Some(kubeconfig));
            }
            Err(error) => {
                permitted.note(&error);
                failed.set(Some(error.to_string()));
            }
        }
    });
    move || {
        match shown.get() {
        Some(kubeconfig) => view! {
            <pre class="mono kubeconfig" aria-label="Kubeconfig" tabindex="0">{kubeconfig.clone()}</pre>
            <div class="actions">
                <CopyButton text=kubeconfig label="Copy the kubeconfig"/>
                <button type="button" class="button button--ghost button--small"
                    on:click=move |_| shown.set(None)>"Hide the kubeconfig"</button>
            </div>
        }.into_any(),
        None => view! {
            <p class="actions__refusal">{move || permitted.refusal()}</p>
            <div class="actions">
                <button type="button" class="button button--secondary"
                    disabled=Signal::derive(move || fetch.pending().get() || permitted.refusal().is_some())
                    title=Signal::derive(move || permitted.refusal())
                    on:click=move |_| { fetch.dispatch_local(()); }>"Show the kubeconfig"</button>
            </div>
            {move || failed.get().map(|message| view! { <p class="field__error" role="alert">{message}</p> })}
        }.into_any(),
    }
    }
}
