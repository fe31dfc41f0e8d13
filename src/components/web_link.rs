//! An address an answer gave, opened in a new tab when it is a web address
//! (`platform_api::web_address`) and shown as text otherwise: the console never follows a relative
//! path or a `javascript:` address that came from the API.

use leptos::prelude::*;
use platform_api::web_address;

/// `url`, as a link reading `children` (the address itself without them).
#[component]
pub fn WebLink(
    url: String,
    #[prop(optional, into)] class: Option<&'static str>,
    #[prop(optional)] children: Option<Children>,
) -> impl IntoView {
    let text = children.map_or_else(|| url.clone().into_any(), |children| children().into_any());
    match web_address(&url) {
        Some(address) => view! {
            <a href=address.to_string() target="_blank" rel="noopener" class=class>{text}</a>
        }
        .into_any(),
        None => view! { <span class=class>{text}</span> }.into_any(),
    }
}
