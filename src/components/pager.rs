//! Long lists a page at a time: the page is in the address (`?page=N`, so a reload or a shared
//! link shows the same page), with links to the pages before and after.

use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::{use_location, use_query_map};

/// The page the address asks for: 1 when it names none, or none that reads as a page.
pub fn use_page() -> Memo<usize> {
    let query = use_query_map();
    Memo::new(move |_| {
        query
            .with(|q| q.get("page"))
            .and_then(|page| page.parse::<usize>().ok())
            .filter(|page| *page >= 1)
            .unwrap_or(1)
    })
}

/// Where page `page` (from 1) of `size` items starts and ends in a list of `total`; a page past
/// the end is the last one.
pub fn page_range(total: usize, size: usize, page: usize) -> std::ops::Range<usize> {
    let last = total.saturating_sub(1) / size + 1;
    let start = (page.min(last) - 1) * size;
    start..(start + size).min(total)
}

/// Links to the pages before and after `page`, with `position` between them ("Page 2",
/// "1,001–2,000 of 10,000").
#[component]
pub fn PagerNav(
    /// What the pages are of, for screen readers: "Pages of deployments".
    label: &'static str,
    page: usize,
    has_next: bool,
    #[prop(into)] previous: String,
    #[prop(into)] next: String,
    #[prop(into)] position: String,
) -> impl IntoView {
    let location = use_location();
    let link = move |number: usize| {
        // Other parameters of the address (a filter, say) are kept.
        let mut query = location.query.get_untracked();
        query.replace("page", number.to_string());
        format!(
            "{}{}",
            location.pathname.get_untracked(),
            query.to_query_string()
        )
    };
    view! {
        <nav class="pager" aria-label=label>
            {(page > 1).then(|| view! { <A href=link(page - 1)>{previous}</A> })}
            <span class="muted">{position}</span>
            {has_next.then(|| view! { <A href=link(page + 1)>{next}</A> })}
        </nav>
    }
}

/// The pager of a list held whole: nothing when it fits on one page.
#[component]
pub fn ListPager(label: &'static str, total: usize, size: usize, page: usize) -> impl IntoView {
    let range = page_range(total, size, page);
    let page = range.start / size + 1;
    (total > size).then(|| {
        view! {
            <PagerNav label page has_next=range.end < total previous="← Previous" next="Next →"
                position=format!("{}–{} of {}", range.start + 1, range.end, total)/>
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_is_its_slice_of_the_list_and_past_the_end_is_the_last() {
        assert_eq!(page_range(0, 100, 1), 0..0);
        assert_eq!(page_range(10, 100, 1), 0..10);
        assert_eq!(page_range(250, 100, 2), 100..200);
        assert_eq!(page_range(250, 100, 3), 200..250);
        assert_eq!(page_range(250, 100, 9), 200..250);
        assert_eq!(page_range(200, 100, 3), 100..200);
    }
}
