//! Numbers and times as a person reads them.

use chrono::{DateTime, Datelike, Timelike, Utc};

/// `75` as "1 min 15 s"; `8` as "8 s".
pub fn duration(seconds: i64) -> String {
    let seconds = seconds.max(0);
    match (seconds / 3600, seconds % 3600 / 60, seconds % 60) {
        (0, 0, s) => format!("{s} s"),
        (0, m, s) => format!("{m} min {s:02} s"),
        (h, m, _) => format!("{h} h {m:02} min"),
    }
}

/// How long ago `at` was, seen from `now`: "just now", "5 min ago", "3 h ago", "2 days ago"; or
/// how far ahead it is: "in 5 min", "in 3 h", "tomorrow", "in 30 days".
pub fn relative(at: DateTime<Utc>, now: DateTime<Utc>) -> String {
    let seconds = (now - at).num_seconds();
    if seconds < -45 {
        // Rounded to the nearest unit: a token made to last 30 days reads "in 30 days" a moment
        // later, not "in 29 days".
        return match -seconds {
            s if s < 3600 => format!("in {} min", (s + 30) / 60),
            s if s < 86_400 => format!("in {} h", (s + 1800) / 3600),
            s if s < 172_800 => "tomorrow".to_string(),
            s => format!("in {} days", (s + 43_200) / 86_400),
        };
    }
    match seconds {
        s if s < 45 => "just now".to_string(),
        s if s < 3600 => format!("{} min ago", (s + 30) / 60),
        s if s < 86_400 => format!("{} h ago", s / 3600),
        s if s < 172_800 => "yesterday".to_string(),
        s => format!("{} days ago", s / 86_400),
    }
}

/// The exact time, for a tooltip.
pub fn exact(at: DateTime<Utc>) -> String {
    // Written out rather than through `format("%Y-…")`, which parses its pattern at each call: a
    // table writes a thousand of these at once.
    format!(
        "{:04}-{:02}-{:02} {:02}:{:02}:{:02} UTC",
        at.year(),
        at.month(),
        at.day(),
        at.hour(),
        at.minute(),
        at.second()
    )
}

/// The time of day in the browser's time zone, "14:05:09": a log line's, a deployment's.
pub fn clock(at: DateTime<Utc>) -> String {
    // Written out, as `exact` is: `format` brings chrono's pattern parser and its tables.
    let local = at.with_timezone(&chrono::Local);
    format!(
        "{:02}:{:02}:{:02}",
        local.hour(),
        local.minute(),
        local.second()
    )
}

/// A month's short name: 1 is "Jan".
pub fn month_abbreviation(month: u32) -> &'static str {
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    MONTHS[(month as usize).clamp(1, 12) - 1]
}

/// A wall-clock date and time in a few words, "Sat 5 Dec 14:00" (a cron job's next runs).
pub fn day_and_time(at: chrono::NaiveDateTime) -> String {
    // Written out, as `exact` is: `format` brings chrono's pattern parser and its tables.
    format!(
        "{} {} {} {:02}:{:02}",
        at.weekday(),
        at.day(),
        month_abbreviation(at.month()),
        at.hour(),
        at.minute()
    )
}

/// milli-CPU as "0.5 vCPU". In whole numbers: formatting a float brings the float printing
/// algorithms into every page that shows a service's facts.
pub fn cpu(milli: i64) -> String {
    let sign = if milli < 0 { "-" } else { "" };
    let (whole, thousandths) = (milli.unsigned_abs() / 1000, milli.unsigned_abs() % 1000);
    let fraction = format!("{thousandths:03}");
    match fraction.trim_end_matches('0') {
        "" => format!("{sign}{whole} vCPU"),
        fraction => format!("{sign}{whole}.{fraction} vCPU"),
    }
}

/// MiB as "512 MiB" or "2 GiB".
pub fn memory(mib: i64) -> String {
    if mib >= 1024 && mib % 1024 == 0 {
        format!("{} GiB", mib / 1024)
    } else {
        format!("{mib} MiB")
    }
}

/// The words for a value of a wire enumeration held as text in a record (a platform may send a
/// value this console does not know yet: it is shown as sent).
pub fn label_of<E: platform_api::WireEnum>(wire: &str) -> String {
    wire.parse::<E>()
        .map(|value| value.label().to_string())
        .unwrap_or_else(|_| wire.to_string())
}

/// A name of several words written in capitals as a machine writes it (`APPLICATION DEFAULT`,
/// `JOB_DEFAULT`) read as words ("Application default"); a name with lower case, or one word in
/// capitals (an acronym), is kept as typed.
pub fn as_words(name: &str) -> String {
    let words = name.contains([' ', '_']);
    if !words || name.chars().any(char::is_lowercase) {
        return name.to_string();
    }
    let spaced = name.replace('_', " ").to_lowercase();
    let mut letters = spaced.chars();
    match letters.next() {
        Some(first) => first.to_uppercase().chain(letters).collect(),
        None => String::new(),
    }
}

/// A count with its noun, plural but for one: "1 commit", "3 services".
pub fn counted(count: usize, what: &str) -> String {
    if count == 1 {
        format!("1 {what}")
    } else {
        format!("{count} {what}s")
    }
}

/// "1 to 3 nodes of t3a.2xlarge": what a cluster runs on.
pub fn cluster_machines(cluster: &platform_api::Cluster) -> String {
    let (min, max) = (cluster.min_running_nodes, cluster.max_running_nodes);
    let count = match (min, max) {
        (1, 1) => "1 node".to_string(),
        (min, max) if min == max => format!("{max} nodes"),
        (min, max) => format!("{min} to {max} nodes"),
    };
    match &cluster.instance_type {
        Some(machine) => format!("{count} of {machine}"),
        None => count,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[wasm_bindgen_test]
    fn a_clusters_machines_read_as_counts_of_a_type() {
        let cluster: platform_api::Cluster = serde_json::from_value(serde_json::json!({
            "id": uuid::Uuid::nil(), "created_at": "2026-01-01T00:00:00Z",
            "organization": {"id": uuid::Uuid::nil()}, "name": "main",
            "cloud_provider": "AWS", "region": "eu-west-3",
            "instance_type": "t3a.large", "min_running_nodes": 2, "max_running_nodes": 5
        }))
        .unwrap();
        assert_eq!(cluster_machines(&cluster), "2 to 5 nodes of t3a.large");
        let one = platform_api::Cluster {
            instance_type: None,
            min_running_nodes: 1,
            max_running_nodes: 1,
            ..cluster
        };
        assert_eq!(cluster_machines(&one), "1 node");
    }
    use chrono::TimeZone;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn machine_names_read_as_words_and_typed_names_as_typed() {
        assert_eq!(as_words("APPLICATION DEFAULT"), "Application default");
        assert_eq!(as_words("JOB_DEFAULT"), "Job default");
        assert_eq!(as_words("Canary first"), "Canary first");
        assert_eq!(as_words("DB"), "DB");
        assert_eq!(as_words(""), "");
    }

    #[wasm_bindgen_test]
    fn durations_read_as_minutes_and_seconds() {
        assert_eq!(duration(8), "8 s");
        assert_eq!(duration(75), "1 min 15 s");
        assert_eq!(duration(3725), "1 h 02 min");
        assert_eq!(duration(-3), "0 s");
    }

    #[wasm_bindgen_test]
    fn times_read_relative_to_now() {
        let now = Utc.with_ymd_and_hms(2026, 11, 21, 12, 0, 0).unwrap();
        let ago = |seconds| relative(now - chrono::Duration::seconds(seconds), now);
        assert_eq!(ago(10), "just now");
        assert_eq!(ago(300), "5 min ago");
        assert_eq!(ago(7200), "2 h ago");
        assert_eq!(ago(100_000), "yesterday");
        assert_eq!(ago(400_000), "4 days ago");
        assert_eq!(ago(-10), "just now");
        assert_eq!(ago(-300), "in 5 min");
        assert_eq!(ago(-7200), "in 2 h");
        assert_eq!(ago(-100_000), "tomorrow");
        assert_eq!(ago(-30 * 86_400), "in 30 days");
        assert_eq!(ago(-30 * 86_400 + 5), "in 30 days");
        assert_eq!(exact(now), "2026-11-21 12:00:00 UTC");
    }

    #[wasm_bindgen_test]
    fn resources_read_in_units() {
        assert_eq!(cpu(500), "0.5 vCPU");
        let at = chrono::NaiveDate::from_ymd_opt(2026, 12, 5)
            .and_then(|day| day.and_hms_opt(14, 0, 0))
            .unwrap();
        assert_eq!(day_and_time(at), "Sat 5 Dec 14:00");
        assert_eq!(cpu(250), "0.25 vCPU");
        assert_eq!(cpu(2000), "2 vCPU");
        assert_eq!(cpu(1001), "1.001 vCPU");
        assert_eq!(cpu(0), "0 vCPU");
        assert_eq!(memory(512), "512 MiB");
        assert_eq!(memory(2048), "2 GiB");
    }
}
