//! Query strings of the API's reads, written from the types that describe their parameters
//! (`EventQuery`, `MetricsParameters`, …): each field under its name, absent ones left out.

use serde::Serialize;
use serde_json::Value;

/// The query string of `parameters` (without `?`).
pub fn to_query_string<T: Serialize>(parameters: &T) -> String {
    let value = serde_json::to_value(parameters).unwrap_or_default();
    let pairs = value
        .as_object()
        .into_iter()
        .flatten()
        .filter(|(_, value)| !value.is_null())
        .map(|(name, value)| {
            let text = match value {
                Value::String(text) => text.clone(),
                other => other.to_string(),
            };
            format!("{name}={}", percent_encode(&text))
        });
    pairs.collect::<Vec<_>>().join("&")
}

/// Every byte but the unreserved ones (RFC 3986) written `%XX`.
pub fn percent_encode(text: &str) -> String {
    text.bytes()
        .map(|byte| match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (byte as char).to_string()
            }
            _ => format!("%{byte:02X}"),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_are_written_encoded_and_absent_ones_left_out() {
        #[derive(Serialize)]
        struct Parameters {
            query: String,
            start: Option<String>,
            limit: Option<i64>,
        }
        let written = to_query_string(&Parameters {
            query: "sum(x{a=\"b\"})".into(),
            start: None,
            limit: Some(200),
        });
        assert_eq!(written, "limit=200&query=sum%28x%7Ba%3D%22b%22%7D%29");
    }
}
