//! The time range the Monitoring tab shows, kept in the page's address so that a link shows the
//! same charts: `?range=1h` (15m, 1h, 6h, 24h, 7d), or `?from=…&to=…` (unix seconds) for a range
//! of one's own; `&live=1` refreshes every 30 s, the window sliding, for ranges of an hour or
//! less; `&utc=1` reads times in UTC rather than on the browser's clock.

use leptos::prelude::*;
use leptos_router::hooks::{use_location, use_navigate, use_query_map};
use leptos_router::NavigateOptions;

use crate::components::chart::Clock;

/// The ranges offered, as the address names them, with their length in seconds.
pub const RANGES: [(&str, &str, f64); 5] = [
    ("15m", "15 minutes", 900.0),
    ("1h", "1 hour", 3600.0),
    ("6h", "6 hours", 21_600.0),
    ("24h", "24 hours", 86_400.0),
    ("7d", "7 days", 604_800.0),
];

/// The longest range that may be live.
pub const LIVE_UP_TO: f64 = 3600.0;

/// A length of time in words: "15 min", "1 h", "7 days".
pub fn length_words(seconds: f64) -> String {
    let minutes = (seconds / 60.0).round() as i64;
    match minutes {
        m if m < 60 => format!("{m} min"),
        m if m < 48 * 60 => format!("{} h", (m as f64 / 60.0).round()),
        m => format!("{} days", (m as f64 / 1440.0).round()),
    }
}

/// What the address asks for.
#[derive(Clone, Debug, PartialEq)]
pub struct Asked {
    /// A range ending now (`RANGES`' name), or a range of one's own.
    pub span: Span,
    pub live: bool,
    pub clock: Clock,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Span {
    Last(&'static str, f64),
    Between(f64, f64),
}

/// A window read at a moment: its times and the step between two points.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Window {
    pub start: f64,
    pub end: f64,
    pub step: f64,
}

impl Window {
    /// The window's length as PromQL writes a range (`3600s`).
    pub fn range(&self) -> String {
        format!("{}s", (self.end - self.start).round().max(60.0) as i64)
    }

    /// The window of the same length just before this one, for trends.
    pub fn before(&self) -> Window {
        let length = self.end - self.start;
        Window {
            start: self.start - length,
            end: self.start,
            step: self.step,
        }
    }
}

impl Asked {
    /// The range's start and end at `now` (unix seconds), as asked.
    pub fn bounds(&self, now: f64) -> (f64, f64) {
        match self.span {
            Span::Last(_, length) => (now - length, now),
            Span::Between(from, to) => (from, to),
        }
    }

    /// The window at `now` (unix seconds): about 240 points, a step of 30 s at least.
    pub fn window(&self, now: f64) -> Window {
        let (start, end) = self.bounds(now);
        let step = (((end - start) / 240.0 / 30.0).ceil() * 30.0).max(30.0);
        // Aligned on the step, so that a refresh does not move every point.
        let end = (end / step).floor() * step;
        Window {
            start: (start / step).floor() * step,
            end,
            step,
        }
    }

    /// Whether it may be live: a range of an hour or less ending now.
    pub fn can_be_live(&self) -> bool {
        matches!(self.span, Span::Last(_, length) if length <= LIVE_UP_TO)
    }

    /// The range's name in the address, or `custom`.
    pub fn name(&self) -> &'static str {
        match self.span {
            Span::Last(name, _) => name,
            Span::Between(..) => "custom",
        }
    }
}

/// What the address asks for, read again as it changes.
pub fn use_asked() -> Memo<Asked> {
    let query = use_query_map();
    Memo::new(move |_| {
        query.with(|query| {
            let number = |name: &str| query.get(name).and_then(|value| value.parse::<f64>().ok());
            let span = match (number("from"), number("to")) {
                (Some(from), Some(to)) if to > from => Span::Between(from, to),
                _ => {
                    let asked = query.get("range");
                    let (name, _, length) = RANGES
                        .iter()
                        .copied()
                        .find(|(name, _, _)| asked.as_deref() == Some(*name))
                        .unwrap_or(RANGES[1]);
                    Span::Last(name, length)
                }
            };
            Asked {
                span,
                live: query.get("live").as_deref() == Some("1"),
                clock: Clock {
                    utc: query.get("utc").as_deref() == Some("1"),
                },
            }
        })
    })
}

/// What changes the address's parameters: each `(name, Some(value))` set, each `(name, None)`
/// removed, the page's other parameters kept; the address replaced rather than added to the
/// history.
pub fn use_parameters_setter() -> impl Fn(&[(&str, Option<String>)]) + Clone + 'static {
    let location = use_location();
    let navigate = use_navigate();
    move |changes| {
        let mut query = location.query.get_untracked();
        for (name, value) in changes {
            match value {
                Some(value) => query.replace(name.to_string(), value.clone()),
                None => {
                    query.remove(name);
                }
            }
        }
        navigate(
            &format!(
                "{}{}",
                location.pathname.get_untracked(),
                query.to_query_string()
            ),
            NavigateOptions {
                replace: true,
                scroll: false,
                ..NavigateOptions::default()
            },
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn a_window_has_about_240_points_aligned_on_its_step() {
        let asked = Asked {
            span: Span::Last("7d", 604_800.0),
            live: false,
            clock: Clock { utc: true },
        };
        let window = asked.window(1_700_000_000.0);
        assert_eq!(window.step, 2520.0);
        assert_eq!(window.end % window.step, 0.0);
        let hour = Asked {
            span: Span::Last("1h", 3600.0),
            ..asked
        };
        assert_eq!(hour.window(1_700_000_000.0).step, 30.0);
        assert!(hour.can_be_live());
        assert_eq!(
            hour.window(1_700_000_000.0).before().end,
            hour.window(1_700_000_000.0).start
        );
    }
}
