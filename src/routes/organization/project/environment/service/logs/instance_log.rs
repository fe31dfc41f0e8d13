//! The last 1,000 lines a service's instances printed (`/{kind}/{id}/log`): what an API without
//! log search (`/cluster/{id}/logs`) gives, for the kinds it gives it for.

use leptos::prelude::*;
use platform_api::{InstanceLogLine, ServiceType};
use uuid::Uuid;

use crate::api::use_api;
use crate::components::empty_state::EmptyState;
use crate::components::format;
use crate::components::loaded::loaded;
use crate::state::resource::resource;

/// The instances' last lines, each with the instance, newest last.
#[component]
pub fn InstanceLog(kind: ServiceType, id: Uuid) -> impl IntoView {
    if !kind.has_instance_log() {
        return view! {
            <p class="muted">"This API offers no search of this service's logs."</p>
        }
        .into_any();
    }
    let api = use_api();
    let lines = resource(move || async move { api.instance_log(kind, id).await });
    view! {
        <div class="card__header">
            <p class="muted">"This API offers no log search: the last 1,000 lines its instances printed."</p>
            <button type="button" class="button button--secondary button--small"
                on:click=move |_| lines.refetch()>
                "Refresh"
            </button>
        </div>
        {loaded(lines, 4, |lines: Vec<InstanceLogLine>| {
            if lines.is_empty() {
                return view! {
                    <EmptyState title="Nothing printed yet"
                        hint="Its instances print here once it is deployed and runs."/>
                }
                .into_any();
            }
            view! {
                <ol class="log" aria-label="Instances' log" tabindex="0">
                    {lines.into_iter().map(|line| view! {
                        <li class="log__line">
                            <time class="log__time" datetime=line.created_at.to_rfc3339()
                                title=format::exact(line.created_at)>
                                {format::clock(line.created_at)}
                            </time>
                            <span class="log__source mono">{line.pod_name}</span>
                            <span class="log__message">{line.message}</span>
                        </li>
                    }).collect_view()}
                </ol>
            }
            .into_any()
        })}
    }
    .into_any()
}
