//! Answers whose JSON is already written: a list spliced from records as stored (each record was
//! written as JSON from its record type, in the answer's shape; a change of shape comes with a
//! migration), and an answer kept in memory (`fresh`), sent without being decoded and encoded
//! again.

use std::future::Future;
use std::hash::Hash;

use axum::body::Bytes;
use axum::http::header::CONTENT_TYPE;
use axum::response::{IntoResponse, Response};

use crate::error::ApiResult;
use crate::fresh::{Fresh, Read};

/// An answer's JSON, sent as it is.
pub fn json(body: Bytes) -> Response {
    ([(CONTENT_TYPE, "application/json")], body).into_response()
}

/// The answer `fresh` keeps for `key`, or the one `read` reads (kept if it says so), as JSON.
pub async fn kept<K: Eq + Hash>(
    fresh: &Fresh<K, Bytes>,
    key: K,
    read: impl Future<Output = ApiResult<Read<Bytes>>>,
) -> ApiResult<Response> {
    Ok(json(fresh.get_or_read(key, read).await?))
}

pub struct StoredList(pub Vec<String>);

impl StoredList {
    /// `{"results": [...]}` with the records as they are.
    pub fn into_bytes(self) -> Bytes {
        let length = self.0.iter().map(|record| record.len() + 1).sum::<usize>();
        let mut body = String::with_capacity(length + 16);
        body.push_str("{\"results\":[");
        for (index, record) in self.0.iter().enumerate() {
            if index > 0 {
                body.push(',');
            }
            body.push_str(record);
        }
        body.push_str("]}");
        Bytes::from(body)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_are_spliced_into_a_results_list() {
        for (records, expected) in [
            (vec![], r#"{"results":[]}"#),
            (vec![r#"{"a":1}"#], r#"{"results":[{"a":1}]}"#),
            (
                vec![r#"{"a":1}"#, r#"{"b":[2]}"#],
                r#"{"results":[{"a":1},{"b":[2]}]}"#,
            ),
        ] {
            let body = StoredList(records.into_iter().map(String::from).collect()).into_bytes();
            assert_eq!(body, expected.as_bytes());
            serde_json::from_slice::<serde_json::Value>(&body).unwrap();
        }
    }
}
