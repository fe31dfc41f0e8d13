//! `.../service/:service/monitoring`: how the service is doing, read from its cluster's metrics
//! (`/cluster/{id}/metrics`, PromQL), Kubernetes events and the organization's events: health at a
//! glance, charts over a time range kept in the address, the restarts and deployments on their
//! time axis, and alert rules made from the platform's presets.

pub mod alerts;
mod charts;
pub mod controls;
mod events;
mod health;
mod units;
pub mod window;

use std::time::Duration;

use leptos::prelude::*;
use platform_api::monitoring::Workload;
use uuid::Uuid;

use super::{no_service, use_addressed_service, Target};
use crate::api::use_api;
use crate::components::loaded::loaded;
use crate::routes::address::OrganizationAddress;
use crate::routes::current_id;
use crate::state::polling::poll;
use crate::state::resource::resource;

use alerts::ServiceAlerts;
use charts::Charts;
use controls::Controls;
use health::Health;
use window::{use_asked, Window};

/// How often a live window moves.
const LIVE_EVERY: Duration = Duration::from_secs(30);

/// The service watched, and where its series are found.
#[derive(Clone, Debug, PartialEq)]
pub struct Watched {
    pub target: Target,
    pub organization: Uuid,
    pub environment: Uuid,
    pub cluster: Uuid,
    pub workload: Workload,
}

impl Watched {
    /// Whether the cluster's series know the service at all (the platform's, or a stand-in's
    /// answers that are no Prometheus bodies, may not).
    fn is_known(&self) -> bool {
        self.workload.name.is_some() || self.workload.namespace.is_some()
    }
}

/// Unix seconds now, on the browser's clock.
pub fn now_seconds() -> f64 {
    js_sys::Date::now() / 1000.0
}

#[component]
pub fn ServiceMonitoring() -> impl IntoView {
    let api = use_api();
    let addressed = use_addressed_service();
    let environment = addressed.environment;
    let organization = current_id(|a: &OrganizationAddress| a.org);
    let watched = resource(move || {
        let (environment, organization, id) = (
            environment.get_untracked(),
            organization.get_untracked(),
            addressed.address(),
        );
        async move {
            let target = addressed.addressed(id).await?;
            let (environment, organization) = (
                environment.ok_or_else(no_service)?,
                organization.ok_or_else(no_service)?,
            );
            let cluster = api.environment(environment).await?.cluster_id;
            let workload = match target.kind.has_instances() {
                true => api.workload(cluster, target.id, target.kind).await?,
                false => Workload {
                    service_id: target.id,
                    ..Workload::default()
                },
            };
            Ok(Watched {
                target,
                organization,
                environment,
                cluster,
                workload,
            })
        }
    });

    let asked = use_asked();
    let now = RwSignal::new(now_seconds());
    // A range chosen is read from now; a live one moves on every 30 s while the tab is shown.
    Effect::new(move |seen: Option<()>| {
        asked.track();
        if seen.is_some() {
            now.set(now_seconds());
        }
    });
    poll(
        move || {
            now.track();
            let asked = asked.get();
            (asked.live && asked.can_be_live()).then_some(LIVE_EVERY)
        },
        move || now.set(now_seconds()),
    );
    let window: Memo<Window> = Memo::new(move |_| asked.get().window(now.get()));
    let clock = Signal::derive(move || asked.get().clock);

    view! {
        <Controls asked offers_live=true/>
        {loaded(watched, 6, move |watched: Watched| {
            if !watched.target.kind.has_instances() {
                return view! {
                    <p class="muted">
                        "A Helm chart's or Terraform's services run nothing of their own to watch \
                         here: watch the services they deploy."
                    </p>
                }
                .into_any();
            }
            if !watched.is_known() {
                return view! {
                    <p class="notice notice--info">
                        "The cluster's metrics hold no series of this service yet: it has not run, \
                         or its cluster does not export them. Deploy it, then come back."
                    </p>
                    <ServiceAlerts watched/>
                }
                .into_any();
            }
            view! {
                <Health watched=watched.clone() window/>
                <Charts watched=watched.clone() window clock/>
                <ServiceAlerts watched/>
            }
            .into_any()
        })}
    }
}
