//! Where a service is reached: an "Open" link to the root of its address beside its title, and
//! every address in its overview.

use leptos::prelude::*;
use platform_api::{web_address, Link};

use crate::components::copy_button::CopyButton;
use crate::components::loaded::loaded;
use crate::components::web_link::WebLink;

use super::AddressedService;

/// "Open", to the root of the service's address, once it has one.
#[component]
pub fn OpenLink(service: AddressedService) -> impl IntoView {
    move || {
        let links = service.links.get().and_then(Result::ok)?;
        // "Open" only where there is a web address to open.
        let main = web_address(&Link::main(&links)?.url)?.to_string();
        Some(view! {
            <a href=main target="_blank" rel="noopener" class="open-link">
                "Open"<span class="visually-hidden">" the service (opens a new tab)"</span>
            </a>
            " · "
        })
    }
}

/// Every address the service is reached at, each with its port; nothing for a service with no
/// public port.
#[component]
pub fn ServiceLinks(service: AddressedService) -> impl IntoView {
    move || {
        let has_links = service
            .kind()
            .is_some_and(platform_api::ServiceType::has_links);
        has_links.then(|| {
            view! {
                <section class="card" aria-labelledby="links-title">
                    <h2 id="links-title">"Links"</h2>
                    {loaded(service.links, 2, |links| view! { <LinkList links/> })}
                </section>
            }
        })
    }
}

#[component]
fn LinkList(links: Vec<Link>) -> impl IntoView {
    if links.is_empty() {
        return view! {
            <p class="muted">"No public port: the service is reached only inside its environment."</p>
        }
        .into_any();
    }
    view! {
        <ul class="links">
            {links.into_iter().map(|link| {
                let reached = if link.is_default {
                    format!("port {} · the root of its address", link.internal_port)
                } else {
                    format!("port {}", link.internal_port)
                };
                view! {
                    <li>
                        <WebLink url=link.url.clone()/>
                        " "<span class="muted">{reached}</span>" "
                        <CopyButton text=link.url label="Copy the address"/>
                    </li>
                }
            }).collect_view()}
        </ul>
    }
    .into_any()
}
