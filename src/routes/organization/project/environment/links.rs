//! Where the environment's services are reached: the root of each one's address, by service.

use std::collections::HashMap;

use leptos::prelude::*;
use leptos_router::components::A;
use platform_api::Link;
use uuid::Uuid;

use crate::api::service::ServiceSummary;
use crate::api::{use_api, ApiError};
use crate::components::loaded::loaded;
use crate::components::web_link::WebLink;
use crate::paths;
use crate::state::resource::resource;

use crate::api::review::Place;

/// The environment's services that can be opened, each with its address; read again when the
/// list of services changes.
#[component]
pub fn EnvironmentLinks(
    ids: Place,
    services: LocalResource<Result<(Place, Vec<ServiceSummary>), ApiError>>,
) -> impl IntoView {
    let api = use_api();
    let links = resource(move || {
        let names: HashMap<Uuid, String> = services
            .get()
            .and_then(Result::ok)
            .map(|(_, services)| services.into_iter().map(|s| (s.id, s.name)).collect())
            .unwrap_or_default();
        async move {
            let links = api.environment_links(ids.environment).await?;
            Ok::<_, ApiError>(opened(links, &names))
        }
    });
    view! {
        <section class="card" aria-labelledby="links-title">
            <h2 id="links-title">"Links"</h2>
            {loaded(links, 2, move |opened| view! { <OpenedList ids opened/> })}
        </section>
    }
}

/// A service that can be opened: its id, name and the root of its address.
#[derive(Clone)]
struct Opened {
    id: Uuid,
    name: String,
    url: String,
}

/// Each service's main address, by service name.
fn opened(links: Vec<Link>, names: &HashMap<Uuid, String>) -> Vec<Opened> {
    let mut by_service: Vec<Opened> = Vec::new();
    for link in links.iter().filter(|link| link.is_default) {
        let Some(name) = names.get(&link.service_id) else {
            continue;
        };
        by_service.push(Opened {
            id: link.service_id,
            name: name.clone(),
            url: link.url.clone(),
        });
    }
    by_service.sort_by(|a, b| a.name.cmp(&b.name));
    by_service
}

#[component]
fn OpenedList(ids: Place, opened: Vec<Opened>) -> impl IntoView {
    if opened.is_empty() {
        return view! {
            <p class="muted">"No service has a public port: they are reached only inside the environment."</p>
        }
        .into_any();
    }
    view! {
        <ul class="links">
            {opened.into_iter().map(|service| view! {
                <li>
                    <A href=paths::service(ids.org, ids.project, ids.environment, service.id)>{service.name}</A>
                    " · "
                    <WebLink url=service.url/>
                </li>
            }).collect_view()}
        </ul>
    }
    .into_any()
}
