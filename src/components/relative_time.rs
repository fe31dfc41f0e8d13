use chrono::{DateTime, Utc};
use leptos::prelude::*;

use super::format;

/// "5 min ago", with the exact time on hover.
#[component]
pub fn RelativeTime(at: DateTime<Utc>) -> impl IntoView {
    view! {
        <time datetime=at.to_rfc3339() title=format::exact(at)>
            {format::relative(at, Utc::now())}
        </time>
    }
}
