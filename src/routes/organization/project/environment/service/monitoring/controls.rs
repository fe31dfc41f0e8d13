//! The Monitoring tab's window: a range ending now or one of one's own, Live, and the clock times
//! read on; each choice written into the page's address (`window`).

use leptos::prelude::*;

use super::now_seconds;
use super::window::{use_parameters_setter, Asked, Span, LIVE_UP_TO, RANGES};

/// A time of a `datetime-local` input as unix seconds, read on the browser's clock or in UTC.
fn seconds_of(input: &str, utc: bool) -> Option<f64> {
    let input = input.trim();
    if input.is_empty() {
        return None;
    }
    let text = if utc {
        format!("{input}Z")
    } else {
        input.to_string()
    };
    let time = js_sys::Date::new(&text.into()).get_time();
    (!time.is_nan()).then_some(time / 1000.0)
}

/// Unix seconds as a `datetime-local` input shows them.
fn input_of(seconds: f64, utc: bool) -> String {
    let date = js_sys::Date::new(&(seconds * 1000.0).into());
    let parts = if utc {
        (
            date.get_utc_full_year(),
            date.get_utc_month() + 1,
            date.get_utc_date(),
            date.get_utc_hours(),
            date.get_utc_minutes(),
        )
    } else {
        (
            date.get_full_year(),
            date.get_month() + 1,
            date.get_date(),
            date.get_hours(),
            date.get_minutes(),
        )
    };
    let (year, month, day, hour, minute) = parts;
    format!("{year:04}-{month:02}-{day:02}T{hour:02}:{minute:02}")
}

#[component]
pub fn Controls(
    asked: Memo<Asked>,
    /// Whether the window may be live (the charts'; the logs follow new lines their own way).
    #[prop(optional)]
    offers_live: bool,
) -> impl IntoView {
    let set = use_parameters_setter();
    let custom_open = RwSignal::new(false);
    let from = RwSignal::new(String::new());
    let to = RwSignal::new(String::new());
    let refusal = RwSignal::new(None::<&'static str>);
    let open_custom = move |_| {
        let asked = asked.get_untracked();
        let window = asked.window(now_seconds());
        from.set(input_of(window.start, asked.clock.utc));
        to.set(input_of(window.end, asked.clock.utc));
        refusal.set(None);
        custom_open.set(true);
    };
    let apply_custom = {
        let set = set.clone();
        move |event: leptos::ev::SubmitEvent| {
            event.prevent_default();
            let utc = asked.get_untracked().clock.utc;
            let (Some(start), Some(end)) = (
                seconds_of(&from.get_untracked(), utc),
                seconds_of(&to.get_untracked(), utc),
            ) else {
                refusal.set(Some("Give both times."));
                return;
            };
            if end <= start {
                refusal.set(Some("“To” must be after “From”."));
                return;
            }
            refusal.set(None);
            custom_open.set(false);
            set(&[
                ("range", None),
                ("live", None),
                ("from", Some((start as i64).to_string())),
                ("to", Some((end as i64).to_string())),
            ]);
        }
    };
    let range_buttons = {
        let set = set.clone();
        RANGES
            .iter()
            .map(|&(name, label, length)| {
                let set = set.clone();
                let pressed =
                    move || (asked.get().name() == name && !custom_open.get()).to_string();
                let choose = move |_| {
                    custom_open.set(false);
                    let keep_live = length <= LIVE_UP_TO && asked.get_untracked().live;
                    set(&[
                        ("range", Some(name.to_string())),
                        ("from", None),
                        ("to", None),
                        ("live", keep_live.then(|| "1".to_string())),
                    ]);
                };
                view! {
                    <button type="button" aria-pressed=pressed on:click=choose title=label>
                        {name}
                    </button>
                }
            })
            .collect_view()
    };
    let custom_pressed =
        move || (custom_open.get() || matches!(asked.get().span, Span::Between(..))).to_string();
    let live_toggle = {
        let set = set.clone();
        move |event: leptos::ev::Event| {
            let on = event_target_checked(&event);
            set(&[("live", on.then(|| "1".to_string()))]);
        }
    };
    let utc_toggle = move |event: leptos::ev::Event| {
        let on = event_target_checked(&event);
        set(&[("utc", on.then(|| "1".to_string()))]);
    };
    let live_hint = move || {
        (!asked.get().can_be_live()).then_some("Live follows ranges of an hour or less ending now.")
    };

    view! {
        <div class="monitoring-controls">
            <div class="segmented" role="group" aria-label="Time range">
                {range_buttons}
                <button type="button" aria-pressed=custom_pressed on:click=open_custom>"Custom"</button>
            </div>
            {offers_live.then(|| view! {
                <label class="checkbox" title=live_hint>
                    <input type="checkbox" prop:checked=move || asked.get().live && asked.get().can_be_live()
                        disabled=move || !asked.get().can_be_live() on:change=live_toggle/>
                    "Live (every 30 s)"
                </label>
            })}
            <label class="checkbox">
                <input type="checkbox" prop:checked=move || asked.get().clock.utc on:change=utc_toggle/>
                "UTC"
            </label>
            {offers_live.then(|| view! { <span class="muted">{live_hint}</span> })}
        </div>
        <Show when=move || custom_open.get()>
            <form class="custom-range card" aria-label="A range of your own" on:submit=apply_custom.clone()>
                <label class="log-controls__field">
                    "From"
                    <input type="datetime-local" bind:value=from required/>
                </label>
                <label class="log-controls__field">
                    "To"
                    <input type="datetime-local" bind:value=to required/>
                </label>
                <button type="submit" class="button button--secondary">"Show"</button>
                <button type="button" class="button button--secondary" on:click=move |_| custom_open.set(false)>
                    "Cancel"
                </button>
                {move || refusal.get().map(|refusal| view! { <p class="field__error" role="alert">{refusal}</p> })}
            </form>
        </Show>
    }
}
