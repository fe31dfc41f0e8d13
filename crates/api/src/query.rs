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

    /// serde_urlencoded writes flat structs alone, and an error would send a read without its
    /// parameters: each query type of the API, every field given, writes every field.
    #[test]
    fn every_query_of_the_api_writes_every_field() {
        use crate::audit::{
            EventQuery, EventType, Origin, SubTargetType, TargetLevel, TargetType, TargetsQuery,
        };
        use crate::monitoring::{EventsParameters, LogsParameters, MetricsParameters};
        use crate::{
            DeploysQuery, EnvironmentRequestQuery, HistoryOutcome, HistoryQuery, ServicesQuery,
        };
        let id = Some(uuid::Uuid::nil());
        let text = || Some("x".to_string());
        let written = [
            to_query_string(&EventQuery {
                page_size: Some(10),
                from_timestamp: text(),
                to_timestamp: text(),
                continue_token: text(),
                step_back_token: text(),
                event_type: Some(EventType::Create),
                target_type: Some(TargetType::Project),
                target_id: id,
                sub_target_type: Some(SubTargetType::Other("X")),
                triggered_by: text(),
                origin: Some(Origin::Api),
                service_project_id: id,
                service_environment_id: id,
            }),
            to_query_string(&TargetsQuery {
                from_timestamp: text(),
                to_timestamp: text(),
                event_type: Some(EventType::Create),
                target_type: Some(TargetType::Project),
                triggered_by: text(),
                origin: Some(Origin::Api),
                project_id: id,
                environment_id: id,
                target_level_to_fetch: Some(TargetLevel::Project),
            }),
            to_query_string(&MetricsParameters {
                endpoint: "x".into(),
                query: "x".into(),
                start: text(),
                end: text(),
                step: text(),
                time: text(),
                dedup: text(),
                partial_response: text(),
                max_source_resolution: text(),
                engine: text(),
                board_short_name: text(),
                metric_short_name: text(),
            }),
            to_query_string(&LogsParameters {
                endpoint: "x".into(),
                query: "x".into(),
                start: text(),
                end: text(),
                limit: text(),
                direction: text(),
                step: text(),
                time: text(),
            }),
            to_query_string(&EventsParameters {
                from_date_time: "x".into(),
                to_date_time: "x".into(),
                pod_name: text(),
                node_name: text(),
                reporting_component: text(),
            }),
            to_query_string(&HistoryQuery {
                page_size: 10,
                page: 1,
                status: Some(HistoryOutcome::Success),
                git_commit_id: text(),
                triggered_by: text(),
            }),
            to_query_string(&ServicesQuery {
                project_id: id,
                environment_id: id,
                cluster_id: id,
            }),
            to_query_string(&EnvironmentRequestQuery {
                deployment_request_id: uuid::Uuid::nil(),
            }),
            to_query_string(&DeploysQuery { start_id: id }),
            to_query_string(&crate::RepositoryQuery {
                name: text(),
                git_token_id: id,
            }),
        ];
        let fields = [13, 9, 12, 8, 5, 5, 3, 1, 1, 2];
        for (query, fields) in written.iter().zip(fields) {
            assert_eq!(query.split('&').count(), fields, "{query}");
            assert!(query.split('&').all(|pair| pair.contains('=')), "{query}");
        }
    }
}
