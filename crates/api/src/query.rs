//! Query strings of the API's reads, written from the types that describe their parameters
//! (`EventQuery`, `MetricsParameters`, …): each field under its name, absent ones left out.

use serde::Serialize;

/// The query string of `parameters` (without `?`), in the order of their fields. Written as an
/// HTML form writes it (serde_urlencoded), with a space as `%20` rather than `+`: the same
/// bytes `percent_encode` writes, except `*` kept and `~` encoded. The types given
/// are flat structs of text, numbers, ids and enumerations, which always write.
pub fn to_query_string<T: Serialize>(parameters: &T) -> String {
    serde_urlencoded::to_string(parameters)
        .unwrap_or_default()
        .replace('+', "%20")
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
        assert_eq!(written, "query=sum%28x%7Ba%3D%22b%22%7D%29&limit=200");
        let written = to_query_string(&Parameters {
            query: "a b+c".into(),
            start: Some("2026-12-07T08:00:00+01:00".into()),
            limit: None,
        });
        assert_eq!(
            written,
            "query=a%20b%2Bc&start=2026-12-07T08%3A00%3A00%2B01%3A00"
        );
    }
}
