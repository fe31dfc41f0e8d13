//! `.../environment/:env/overview`: the environment's services of every kind with a live status
//! from one batched `statuses` call, the environment-wide actions (deploy, restart, stop), and a
//! form to create an application.

use std::collections::HashMap;
use std::time::Duration;

use leptos::prelude::*;
use leptos_router::components::A;
use platform_api::{
    Application, ApplicationRequest, EnvironmentStatuses, FieldError, GitRepositoryRequest,
    PortRequest, Status,
};
use uuid::Uuid;

use crate::api::environment::EnvironmentAction;
use crate::api::service::ServiceSummary;
use crate::api::{use_api, ApiError, DEPLOY_FORBIDDEN};
use crate::components::confirm_button::ConfirmButton;
use crate::components::empty_state::EmptyState;
use crate::components::form::Form;
use crate::components::form_field::TextField;
use crate::components::loaded::loaded;
use crate::components::relative_time::RelativeTime;
use crate::components::status_badge::StatusBadge;
use crate::routes::{param_id, paths};
use crate::state::polling::poll;
use crate::state::toasts::use_toasts;

/// Poll often while something deploys, rarely when all is settled.
const POLL_BUSY: Duration = Duration::from_secs(2);
const POLL_SETTLED: Duration = Duration::from_secs(15);

#[derive(Clone, Copy, PartialEq)]
struct Ids {
    org: Uuid,
    project: Uuid,
    environment: Uuid,
}

#[component]
pub fn EnvironmentOverview() -> impl IntoView {
    let api = use_api();
    let (org, project, environment) = (param_id("org"), param_id("project"), param_id("env"));
    let ids = Memo::new(move |_| {
        Some(Ids {
            org: org.get()?,
            project: project.get()?,
            environment: environment.get()?,
        })
    });
    let no_environment = || ApiError::NotFound("The address names no environment.".into());

    let services = LocalResource::new(move || {
        let ids = ids.get();
        async move {
            let ids = ids.ok_or_else(no_environment)?;
            api.services(ids.environment).await.map(|list| (ids, list))
        }
    });
    let statuses = LocalResource::new(move || {
        let ids = ids.get();
        async move {
            api.environment_statuses(ids.ok_or_else(no_environment)?.environment)
                .await
        }
    });
    poll(
        move || match statuses.get() {
            Some(Ok(statuses)) if statuses.any_in_progress() => Some(POLL_BUSY),
            Some(_) => Some(POLL_SETTLED),
            None => None,
        },
        move || statuses.refetch(),
    );
    let by_service = Memo::new(move |_| match statuses.get() {
        Some(Ok(statuses)) => index(&statuses),
        _ => HashMap::new(),
    });

    view! {
        <div class="page__header page__header--actions">
            <div>
                <h1>"Services"</h1>
                <p class="page__lead">"Statuses refresh on their own while this page is open."</p>
            </div>
            {move || ids.get().map(|ids| view! {
                <EnvironmentActions environment=ids.environment statuses/>
            })}
        </div>
        <section class="card" aria-labelledby="services-title">
            <h2 id="services-title">"Services of this environment"</h2>
            {loaded(services, 4, move |(ids, services)| view! {
                <ServiceTable ids services statuses=by_service/>
            })}
        </section>
        {move || ids.get().map(|ids| view! {
            <CreateApplication environment=ids.environment on_created=Callback::new(move |_| {
                services.refetch();
                statuses.refetch();
            })/>
        })}
    }
}

/// Deploy, restart or stop every service of the environment the action applies to; offered when
/// nothing runs in it (the server refuses otherwise), restart and stop only when a service runs.
#[component]
fn EnvironmentActions(
    environment: Uuid,
    statuses: LocalResource<Result<EnvironmentStatuses, ApiError>>,
) -> impl IntoView {
    let api = use_api();
    let toasts = use_toasts();
    let forbidden = RwSignal::new(false);
    let act = Action::new_local(move |action: &EnvironmentAction| {
        let action = *action;
        async move {
            match api.act_on_environment(environment, action).await {
                Ok(_) => toasts.success(action.accepted()),
                Err(error) => {
                    forbidden.set(matches!(error, ApiError::Forbidden(_)));
                    toasts.error(error.to_string());
                }
            }
            statuses.refetch();
        }
    });
    let current = move || statuses.get().and_then(Result::ok);
    let has_services = move || current().is_some_and(|s| s.all().next().is_some());
    let any_runs = move || current().is_some_and(|s| s.all().any(Status::runs));
    let any_in_progress = move || current().is_some_and(|s| s.any_in_progress());
    let disabled = move || act.pending().get() || forbidden.get() || any_in_progress();
    let refusal = move || {
        if forbidden.get() {
            Some(DEPLOY_FORBIDDEN)
        } else if any_in_progress() {
            Some("An action runs in this environment; wait until it ends.")
        } else {
            None
        }
    };
    view! {
        <Show when=has_services>
            <div class="actions">
                <Show when=any_runs>
                    <button type="button" class="button button--ghost" disabled=disabled
                        title=refusal on:click=move |_| { act.dispatch_local(EnvironmentAction::Restart); }>
                        "Restart all"
                    </button>
                    <ConfirmButton label="Stop all" question="Stop every service of this environment?"
                        consequence="Each running service stops; its data and configuration are kept, and a deploy starts it again."
                        class="button button--ghost"
                        disabled=Signal::derive(disabled) title=Signal::derive(refusal)
                        on_confirm=move |()| { act.dispatch_local(EnvironmentAction::Stop); }/>
                </Show>
                <button type="button" class="button button--primary" disabled=disabled
                    title=refusal on:click=move |_| { act.dispatch_local(EnvironmentAction::Deploy); }>
                    "Deploy all"
                </button>
            </div>
        </Show>
    }
}

fn index(statuses: &EnvironmentStatuses) -> HashMap<Uuid, Status> {
    statuses
        .all()
        .map(|status| (status.id, status.clone()))
        .collect()
}

#[component]
fn ServiceTable(
    ids: Ids,
    services: Vec<ServiceSummary>,
    statuses: Memo<HashMap<Uuid, Status>>,
) -> impl IntoView {
    if services.is_empty() {
        return view! {
            <EmptyState title="No service yet"
                hint="Create an application with the form below from a git repository, then deploy it."/>
        }
        .into_any();
    }
    view! {
        <table class="table">
            <thead><tr>
                <th scope="col">"Name"</th>
                <th scope="col">"Kind"</th>
                <th scope="col">"Status"</th>
                <th scope="col">"Deployment"</th>
                <th scope="col">"Last deployed"</th>
            </tr></thead>
            <tbody>
                {services.into_iter().map(|service| {
                    let id = service.id;
                    let status = move || statuses.with(|s| s.get(&id).cloned());
                    let name = service.name;
                    let link_text = name.clone();
                    view! {
                        <tr data-service=name>
                            <td>
                                <A href=paths::service(ids.org, ids.project, ids.environment, id)>
                                    {link_text}
                                </A>
                            </td>
                            <td class="muted">{service.service_type.noun()}</td>
                            <td>{move || status().map(|s| view! { <StatusBadge state=s.state/> })}</td>
                            <td class="muted">
                                {move || status().map(|s| s.service_deployment_status.label())}
                            </td>
                            <td>
                                {move || status().and_then(|s| s.last_deployment_date).map(|at| view! {
                                    <RelativeTime at/>
                                })}
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
fn CreateApplication(environment: Uuid, on_created: Callback<()>) -> impl IntoView {
    let api = use_api();
    let name = RwSignal::new(String::new());
    let url = RwSignal::new(String::new());
    let branch = RwSignal::new("main".to_string());
    let cpu = RwSignal::new("500".to_string());
    let memory = RwSignal::new("512".to_string());
    let min_instances = RwSignal::new("1".to_string());
    let max_instances = RwSignal::new("1".to_string());
    let port = RwSignal::new(String::new());
    let form = Form::new(
        move |request: ApplicationRequest| async move {
            api.create_application(environment, &request).await
        },
        move |application: Application| {
            name.set(String::new());
            url.set(String::new());
            port.set(String::new());
            on_created.run(());
            format!("Application {} created.", application.name)
        },
    );
    let errors = form.errors;

    let submit = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        let mut problems = Vec::new();
        let mut number = |field: &'static str, text: String| -> i64 {
            text.trim().parse().unwrap_or_else(|_| {
                problems.push(FieldError::new(field, "must be a whole number"));
                0
            })
        };
        let cpu = number("cpu", cpu.get_untracked());
        let memory = number("memory", memory.get_untracked());
        let min_running_instances = number("min_running_instances", min_instances.get_untracked());
        let max_running_instances = number("max_running_instances", max_instances.get_untracked());
        let port_text = port.get_untracked();
        let ports = if port_text.trim().is_empty() {
            Vec::new()
        } else {
            vec![PortRequest {
                internal_port: number("ports[0].internal_port", port_text),
                external_port: Some(443),
                protocol: "HTTP".to_string(),
                publicly_accessible: true,
                name: None,
                is_default: Some(true),
            }]
        };
        let branch = branch.get_untracked();
        let request = ApplicationRequest {
            name: name.get_untracked().trim().to_string(),
            description: None,
            git_repository: GitRepositoryRequest {
                url: url.get_untracked().trim().to_string(),
                branch: (!branch.trim().is_empty()).then(|| branch.trim().to_string()),
                root_path: None,
                provider: None,
            },
            build_mode: platform_api::defaults::BUILD_MODE.to_string(),
            dockerfile_path: None,
            docker_target_build_stage: None,
            cpu,
            memory,
            gpu: 0,
            min_running_instances,
            max_running_instances,
            auto_preview: false,
            auto_deploy: false,
            arguments: Vec::new(),
            entrypoint: None,
            ports,
            storage: Vec::new(),
            healthchecks: Default::default(),
        };
        // Unparsable numbers are reported as such, not again as out of range.
        if let Err(rules) = request.validate() {
            let unparsable: Vec<String> = problems.iter().map(|p| p.field.clone()).collect();
            problems.extend(
                rules
                    .into_iter()
                    .filter(|rule| !unparsable.contains(&rule.field)),
            );
        }
        let checked = if problems.is_empty() {
            Ok(())
        } else {
            Err(problems)
        };
        form.submit(request, checked);
    };

    view! {
        <form class="card" on:submit=submit novalidate aria-label="Create an application">
            <h2>"New application"</h2>
            <div class="form-grid">
                <TextField label="Name" name="name" value=name errors required=true placeholder="web"/>
                <TextField label="Git repository URL" name="git_repository.url" value=url errors
                    required=true placeholder="https://git.example.com/acme/web.git"/>
                <TextField label="Branch" name="git_repository.branch" value=branch errors/>
                <TextField label="CPU (milli-CPU)" name="cpu" value=cpu errors input_type="number"
                    hint="1000 is one vCPU."/>
                <TextField label="Memory (MiB)" name="memory" value=memory errors input_type="number"/>
                <TextField label="Minimum instances" name="min_running_instances" value=min_instances
                    errors input_type="number"/>
                <TextField label="Maximum instances" name="max_running_instances" value=max_instances
                    errors input_type="number"/>
                <TextField label="Public port" name="ports[0].internal_port" value=port errors
                    input_type="number" placeholder="8080"
                    hint="The port the application listens on; exposed on 443. Leave empty for none."/>
            </div>
            <button type="submit" class="button button--primary" disabled=move || form.pending()>
                "Create application"
            </button>
        </form>
    }
}
