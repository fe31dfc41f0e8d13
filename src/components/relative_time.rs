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

/// The same as HTML, seen from `now`, for rows written as HTML.
pub fn relative_time_html(at: DateTime<Utc>, now: DateTime<Utc>) -> String {
    format!(
        r#"<time datetime="{}" title="{}">{}</time>"#,
        at.to_rfc3339(),
        format::exact(at),
        format::relative(at, now),
    )
}
