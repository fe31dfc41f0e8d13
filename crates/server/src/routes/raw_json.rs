//! Answers whose JSON is already written: a list spliced from records as stored (each record was
//! written as JSON from its record type, in the answer's shape; a change of shape comes with a
//! migration), and an answer kept in memory (`fresh`), sent without being decoded and encoded
//! again.

use axum::body::Bytes;
use axum::http::header::CONTENT_TYPE;
use axum::response::{IntoResponse, Response};

/// An answer's JSON, sent as it is.
pub fn json(body: Bytes) -> Response {
    ([(CONTENT_TYPE, "application/json")], body).into_response()
}

pub struct StoredList(pub Vec<String>);

impl IntoResponse for StoredList {
    fn into_response(self) -> Response {
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
        json(Bytes::from(body))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http_body_util::BodyExt;

    #[tokio::test]
    async fn records_are_spliced_into_a_results_list() {
        for (records, expected) in [
            (vec![], r#"{"results":[]}"#),
            (vec![r#"{"a":1}"#], r#"{"results":[{"a":1}]}"#),
            (
                vec![r#"{"a":1}"#, r#"{"b":[2]}"#],
                r#"{"results":[{"a":1},{"b":[2]}]}"#,
            ),
        ] {
            let response =
                StoredList(records.into_iter().map(String::from).collect()).into_response();
            assert_eq!(response.headers()[CONTENT_TYPE], "application/json");
            let body = response.into_body().collect().await.unwrap().to_bytes();
            assert_eq!(body, expected.as_bytes());
            serde_json::from_slice::<serde_json::Value>(&body).unwrap();
        }
    }
}
