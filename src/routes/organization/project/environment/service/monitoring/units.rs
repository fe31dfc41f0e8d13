//! Values of the series as a person reads them: cores, bytes, requests a second, durations, shares.

/// Cores as "0.25 vCPU".
pub fn cores(value: f64) -> String {
    format!("{} vCPU", short(value))
}

/// Bytes as "512 MiB", "1.5 GiB".
pub fn bytes(value: f64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut value = value.max(0.0);
    let mut unit = 0;
    while value >= 1024.0 && unit < UNITS.len() - 1 {
        value /= 1024.0;
        unit += 1;
    }
    format!("{} {}", short(value), UNITS[unit])
}

/// Requests a second as "12.5/s".
pub fn per_second(value: f64) -> String {
    format!("{}/s", short(value))
}

/// Seconds as "120 ms" or "1.2 s".
pub fn seconds(value: f64) -> String {
    if value < 1.0 {
        format!("{} ms", (value * 1000.0).round())
    } else {
        format!("{} s", short(value))
    }
}

/// A share as "4.2%".
pub fn share(value: f64) -> String {
    format!("{}%", short(value * 100.0))
}

/// A count, whole (an `increase` extrapolates: 2.0000001 restarts are 2).
pub fn count(value: f64) -> String {
    format!("{}", value.round().max(0.0))
}

/// At most three significant digits, no trailing zeros.
fn short(value: f64) -> String {
    if !value.is_finite() {
        return "—".to_string();
    }
    let digits = match value.abs() {
        v if v >= 100.0 || v == 0.0 => 0,
        v if v >= 10.0 => 1,
        v if v >= 1.0 => 2,
        _ => 3,
    };
    let text = format!("{value:.digits$}");
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn values_read_in_their_units() {
        assert_eq!(cores(0.25), "0.25 vCPU");
        assert_eq!(bytes(512.0 * 1024.0 * 1024.0), "512 MiB");
        assert_eq!(bytes(1.5 * 1024.0 * 1024.0 * 1024.0), "1.5 GiB");
        assert_eq!(seconds(0.12), "120 ms");
        assert_eq!(share(0.042), "4.2%");
        assert_eq!(count(1.9999), "2");
        assert_eq!(per_second(12.5), "12.5/s");
    }
}
