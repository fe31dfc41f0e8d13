//! Cron expressions of jobs, read by croner (a well-kept crate, not by hand): five fields
//! (minute hour day-of-month month day-of-week) as Kubernetes reads them, with names (MON,
//! JAN) and macros (@daily). The next run times are found in the job's time zone by whatever
//! `CronDateTime` the caller has: chrono-tz's zones on the server, the browser's in the console.

pub use croner::{Cron, CronDateTime};

/// The expression read, or croner's reason it does not read.
pub fn parse(expression: &str) -> Result<Cron, String> {
    croner::parser::CronParser::builder()
        .seconds(croner::parser::Seconds::Disallowed)
        .year(croner::parser::Year::Disallowed)
        .build()
        .parse(expression.trim())
        .map_err(|error| error.to_string())
}

/// The first `count` times the expression matches strictly after `after`, in its zone.
pub fn next_runs<T: CronDateTime>(cron: &Cron, after: T, count: usize) -> Vec<T> {
    cron.iter_after(after).take(count).collect()
}

#[cfg(test)]
mod tests {
    use chrono::{TimeZone, Utc};

    use super::*;

    #[test]
    fn five_fields_with_names_and_macros_are_read() {
        for good in [
            "0 3 * * 1",
            "*/15 * * * *",
            "0 3 * * MON-FRI",
            "@daily",
            "0 0 1 JAN *",
        ] {
            assert!(parse(good).is_ok(), "{good}");
        }
        for bad in [
            "",
            "0 3 * *",
            "0 0 3 * * 1",
            "61 * * * *",
            "0 25 * * *",
            "x y z a b",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_next_runs_follow_the_expression() {
        let cron = parse("0 3 * * 1").unwrap();
        // A Wednesday.
        let from = Utc.with_ymd_and_hms(2026, 11, 25, 12, 0, 0).unwrap();
        let next = next_runs(&cron, from, 2);
        assert_eq!(
            next,
            [
                Utc.with_ymd_and_hms(2026, 11, 30, 3, 0, 0).unwrap(),
                Utc.with_ymd_and_hms(2026, 12, 7, 3, 0, 0).unwrap(),
            ]
        );
    }
}
