//! `/organization/:org/fleet`: every service of the organization with its status and where it
//! lives, narrowed by status, kind, project and cluster, the failing ones said first. Read from
//! the organization's services and environments (a request each), each environment's statuses
//! and the clusters' names, and read again while any service is working.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use futures::future::join_all;
use leptos::prelude::*;
use leptos_router::components::A;
use platform_api::{
    EnvironmentMode, OrganizationEnvironment, ServiceLight, ServiceState, ServiceType, StateTone,
    WireEnum,
};
use uuid::Uuid;

use crate::api::{use_api, Api, ApiError};
use crate::components::empty_state::EmptyState;
use crate::components::form_field::{any_or_one_of, ChoiceField};
use crate::components::format::counted;
use crate::components::loaded::loaded;
use crate::components::status_badge::StatusBadge;
use crate::paths;
use crate::routes::address::OrganizationAddress;
use crate::routes::current_id;
use crate::routes::organization::no_organization;
use crate::state::polling::poll;
use crate::state::resource::resource;

/// How often the fleet is read again while a service is working.
const POLL_BUSY: Duration = Duration::from_secs(5);

/// A service of the fleet with its state (none when its environment's statuses could not be
/// read) and whether its environment is a production one.
#[derive(Clone, Debug, PartialEq)]
struct Member {
    service: ServiceLight,
    state: Option<ServiceState>,
    never_deployed: bool,
    production: bool,
}

/// The fleet as read: its services, and the names of its clusters.
#[derive(Clone, Debug, PartialEq)]
struct FleetRead {
    org: Uuid,
    members: Vec<Member>,
    clusters: BTreeMap<Uuid, String>,
}

/// What the list is narrowed to.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Narrowed {
    tone: Option<StateTone>,
    kind: Option<ServiceType>,
    project: Option<Uuid>,
    cluster: Option<Uuid>,
}

impl Narrowed {
    fn keeps(&self, member: &Member) -> bool {
        let service = &member.service;
        self.tone
            .is_none_or(|tone| member.state.map(ServiceState::tone) == Some(tone))
            && self.kind.is_none_or(|kind| service.service_type == kind)
            && self.project.is_none_or(|id| service.project_id == id)
            && self.cluster.is_none_or(|id| service.cluster_id == id)
    }
}

async fn read_fleet(api: Api, org: Uuid) -> Result<FleetRead, ApiError> {
    let (services, environments, clusters) = futures::join!(
        api.organization_services(org),
        api.organization_environments(org),
        api.cluster_names(org)
    );
    let services = services?;
    let environments: BTreeMap<Uuid, OrganizationEnvironment> = environments?
        .into_iter()
        .map(|environment| (environment.id, environment))
        .collect();
    // One read per environment that has services; one that fails leaves its services' state
    // unknown rather than the page empty.
    let with_services: BTreeSet<Uuid> = services.iter().map(|s| s.environment_id).collect();
    let statuses = join_all(with_services.iter().map(|environment| async move {
        (
            *environment,
            api.environment_statuses(*environment).await.ok(),
        )
    }))
    .await;
    let mut states = BTreeMap::new();
    for statuses in statuses.into_iter().filter_map(|(_, statuses)| statuses) {
        for status in statuses.all() {
            states.insert(status.id, (status.state, !status.installed()));
        }
    }
    let members = services
        .into_iter()
        .map(|service| {
            let state = states.get(&service.id).copied();
            let production = environments
                .get(&service.environment_id)
                .is_some_and(|environment| environment.mode == EnvironmentMode::Production);
            Member {
                state: state.map(|(state, _)| state),
                never_deployed: state.is_some_and(|(_, never)| never),
                production,
                service,
            }
        })
        .collect();
    Ok(FleetRead {
        org,
        members,
        clusters: clusters
            .unwrap_or_default()
            .into_iter()
            .map(|cluster| (cluster.id, cluster.name))
            .collect(),
    })
}

#[component]
pub fn Fleet() -> impl IntoView {
    let api = use_api();
    let org = current_id(|a: &OrganizationAddress| a.org);
    let fleet = resource(move || {
        let org = org.get();
        async move { read_fleet(api, org.ok_or_else(no_organization)?).await }
    });
    poll(
        move || match fleet.get() {
            Some(Ok(read))
                if read
                    .members
                    .iter()
                    .any(|m| m.state.is_some_and(ServiceState::is_in_progress)) =>
            {
                Some(POLL_BUSY)
            }
            _ => None,
        },
        move || fleet.refetch(),
    );
    view! {
        <div class="page__header">
            <h1>"Fleet"</h1>
            <p class="page__lead">
                "Every service of the organization, where it runs and how it is doing."
            </p>
        </div>
        {loaded(fleet, 6, |read| view! { <FleetView read/> })}
    }
}

#[component]
fn FleetView(read: FleetRead) -> impl IntoView {
    if read.members.is_empty() {
        return view! {
            <section class="card">
                <EmptyState title="No service yet"
                    hint="Services appear here once an environment has one: create them on an environment's page."/>
            </section>
        }
        .into_any();
    }
    // The filters are choices of the list, not a form sent: nothing to say is wrong.
    let errors = RwSignal::new(Vec::new());
    let tone = RwSignal::new(None::<StateTone>);
    let kind = RwSignal::new(None::<ServiceType>);
    let project = RwSignal::new(None::<Uuid>);
    let cluster = RwSignal::new(None::<Uuid>);
    let mut projects: Vec<(Option<Uuid>, String)> = read
        .members
        .iter()
        .map(|m| (Some(m.service.project_id), m.service.project_name.clone()))
        .collect();
    projects.sort_by(|a, b| a.1.cmp(&b.1));
    projects.dedup();
    projects.insert(0, (None, "Any".into()));
    let mut clusters: Vec<(Option<Uuid>, String)> = read
        .members
        .iter()
        .map(|m| m.service.cluster_id)
        .map(|id| (Some(id), cluster_name(&read.clusters, id)))
        .collect();
    clusters.sort_by(|a, b| a.1.cmp(&b.1));
    clusters.dedup();
    clusters.insert(0, (None, "Any".into()));
    let tones = vec![
        (None, "Any".to_string()),
        (Some(StateTone::Failure), "Failing".to_string()),
        (Some(StateTone::Progress), "Working".to_string()),
        (Some(StateTone::Success), "Running".to_string()),
        (Some(StateTone::Neutral), "Idle or stopped".to_string()),
    ];
    let failing: Vec<Member> = read
        .members
        .iter()
        .filter(|m| m.state.map(ServiceState::tone) == Some(StateTone::Failure))
        .cloned()
        .collect();
    let any_failing = !failing.is_empty();
    let environments = {
        let mut ids: Vec<Uuid> = read
            .members
            .iter()
            .map(|m| m.service.environment_id)
            .collect();
        ids.sort();
        ids.dedup();
        ids.len()
    };
    let org = read.org;
    let clusters_named = StoredValue::new(read.clusters.clone());
    let members = StoredValue::new(read.members);
    let shown = move || {
        let narrowed = Narrowed {
            tone: tone.get(),
            kind: kind.get(),
            project: project.get(),
            cluster: cluster.get(),
        };
        members.with_value(|all| {
            all.iter()
                .filter(|member| narrowed.keeps(member))
                .cloned()
                .collect::<Vec<_>>()
        })
    };
    let total = members.with_value(Vec::len);
    view! {
        <section class="card" class:unwell=any_failing aria-labelledby="fleet-health">
            <h2 id="fleet-health">"Health"</h2>
            <p data-fleet-summary="">
                {format!(
                    "{} in {}; ",
                    counted(total, "service"),
                    counted(environments, "environment")
                )}
                {if failing.is_empty() {
                    "none failing.".to_string()
                } else {
                    format!("{} failing.", failing.len())
                }}
            </p>
            {(!failing.is_empty()).then(|| view! {
                <ul class="unwell__list" aria-label="Failing services">
                    {failing.into_iter().map(|member| {
                        // The link's text moves into its own closure.
                        let (name, link_text) = (member.service.name.clone(), member.service.name.clone());
                        view! {
                        <li data-failing=name>
                            <A href=service_href(org, &member.service)>{link_text}</A>
                            <span class="muted">{format!(
                                " — {} / {} · {}",
                                member.service.project_name,
                                member.service.environment_name,
                                member.state.map(|s| s.label()).unwrap_or_default()
                            )}</span>
                        </li>
                    }}).collect_view()}
                </ul>
            })}
        </section>
        <section class="card" aria-labelledby="fleet-services">
            <h2 id="fleet-services">"Services"</h2>
            <form class="filters" role="search" aria-label="Narrow the services"
                on:submit=|event: leptos::ev::SubmitEvent| event.prevent_default()>
                <ChoiceField label="Status" name="status" value=tone options=tones errors/>
                <ChoiceField label="Kind" name="kind" value=kind options=any_or_one_of(ServiceType::ALL) errors/>
                <ChoiceField label="Project" name="project" value=project options=projects errors/>
                <ChoiceField label="Cluster" name="cluster" value=cluster options=clusters errors/>
            </form>
            {move || {
                let shown = shown();
                if shown.is_empty() {
                    return view! {
                        <EmptyState title="No service matches"
                            hint="Set a filter back to Any to see more."/>
                    }.into_any();
                }
                let count = shown.len();
                view! {
                    <p class="muted" aria-live="polite">{format!("{count} of {total} shown")}</p>
                    <table class="table">
                        <thead><tr>
                            <th scope="col">"Service"</th>
                            <th scope="col">"Status"</th>
                            <th scope="col">"Project / environment"</th>
                            <th scope="col">"Cluster"</th>
                        </tr></thead>
                        <tbody>
                            {shown.into_iter().map(|member| {
                                let service = member.service;
                                let cluster = clusters_named.with_value(|named| cluster_name(named, service.cluster_id));
                                let (name, link_text) = (service.name.clone(), service.name.clone());
                                view! {
                                    <tr data-service=name>
                                        <td>
                                            <A href=service_href(org, &service)>{link_text}</A>
                                            <div class="muted cell-note">{kind_words(&service)}</div>
                                        </td>
                                        <td>
                                            {match member.state {
                                                Some(state) => view! {
                                                    <StatusBadge state never_deployed=member.never_deployed/>
                                                }.into_any(),
                                                None => view! { <span class="muted">"Unknown"</span> }.into_any(),
                                            }}
                                        </td>
                                        <td>
                                            <A href=paths::environment(org, service.project_id, service.environment_id)>
                                                {format!("{} / {}", service.project_name, service.environment_name)}
                                            </A>
                                            {member.production.then(|| view! { " " <span class="tag tag--production">"Production"</span> })}
                                        </td>
                                        <td>{cluster}</td>
                                    </tr>
                                }
                            }).collect_view()}
                        </tbody>
                    </table>
                }.into_any()
            }}
        </section>
    }
    .into_any()
}

fn service_href(org: Uuid, service: &ServiceLight) -> String {
    paths::service(org, service.project_id, service.environment_id, service.id)
}

/// A service's kind in words, a job's with what starts it.
fn kind_words(service: &ServiceLight) -> String {
    match service.job_type {
        Some(job) => format!("{} · {}", service.service_type.label(), job.label()),
        None => service.service_type.label().to_string(),
    }
}

fn cluster_name(named: &BTreeMap<Uuid, String>, id: Uuid) -> String {
    named
        .get(&id)
        .cloned()
        .unwrap_or_else(|| "Unnamed cluster".into())
}
