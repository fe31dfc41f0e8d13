//! Lines of a log, as many as were loaded (a hundred thousand scroll as smoothly as ten): only
//! the rows on screen, and a few around them, are in the page; a spacer of every row's height
//! keeps the scroll bar true. Each row is one line high, its text cut at the edge (the whole of it
//! in its title and for a screen reader).

use leptos::prelude::*;

use crate::api::monitoring::LogRecord;
use crate::components::chart::Clock;

/// A row's height in CSS pixels (`.log-search__row`). Whole: the spacer's and the rows' offsets
/// are written as integers (printing a float brings its algorithms into the logs' code).
const ROW_PX: usize = 22;
/// Rows drawn beyond each edge of the scroller, for a scroll not to show an empty band.
const OVERSCAN: usize = 20;
/// The scroller's height before it is measured (`.log-search__scroller`'s max-height).
const VIEWPORT_PX: f64 = 512.0;

/// The rows `[first, last)` to draw for a scroll of `scroll_top` in a viewport `height` high.
fn visible(total: usize, scroll_top: f64, height: f64) -> (usize, usize) {
    let row = ROW_PX as f64;
    let first = ((scroll_top / row).floor().max(0.0) as usize).saturating_sub(OVERSCAN);
    let shown = (height / row).ceil() as usize + 2 * OVERSCAN;
    (first.min(total), (first + shown).min(total))
}

#[component]
pub fn VirtualLog(
    records: RwSignal<Vec<LogRecord>>,
    clock: Signal<Clock>,
    /// Whether the lines span more than a day: their times then say the day.
    #[prop(into)]
    days: Signal<bool>,
) -> impl IntoView {
    let scroll_top = RwSignal::new(0.0);
    let height = RwSignal::new(VIEWPORT_PX);
    let scroller = NodeRef::<leptos::html::Div>::new();
    let scrolled = move |_| {
        if let Some(element) = scroller.get() {
            scroll_top.set(f64::from(element.scroll_top()));
            height.set(f64::from(element.client_height()).max(ROW_PX as f64));
        }
    };
    let total = move || records.with(Vec::len);
    let window = Memo::new(move |_| visible(total(), scroll_top.get(), height.get()));
    let rows = move || {
        let (first, last) = window.get();
        let (clock, days) = (clock.get(), days.get());
        records.with(|records| {
            records[first..last]
                .iter()
                .map(|record| {
                    let at = record.nanos as f64 / 1e9;
                    let level_class = format!("log-search__level--{}", record.level);
                    view! {
                        <li class="log-search__row" title=record.text.clone()>
                            <span class="log__time">{clock.precise(at, days)}</span>
                            <span class=level_class>{record.level.clone()}</span>
                            <span class="log__source">{record.pod.clone()}</span>
                            <span class="log__message">{record.text.clone()}</span>
                        </li>
                    }
                })
                .collect_view()
        })
    };
    view! {
        <div class="log-search__scroller" node_ref=scroller on:scroll=scrolled tabindex="0"
            role="region" aria-label="Lines found, newest first">
            <div style=move || format!("height: {}px; position: relative;", total() * ROW_PX)>
                <ol class="log-search__rows"
                    style=move || format!("top: {}px;", window.get().0 * ROW_PX)>
                    {rows}
                </ol>
            </div>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn only_the_rows_on_screen_and_around_them_are_drawn() {
        assert_eq!(visible(100_000, 0.0, 512.0), (0, 64));
        let (first, last) = visible(100_000, 50_000.0 * ROW_PX as f64, 512.0);
        assert_eq!((first, last), (49_980, 50_044));
        assert_eq!(visible(10, 0.0, 512.0), (0, 10));
    }
}
