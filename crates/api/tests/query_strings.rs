//! Query strings of the API's reads (`platform_api::query`): `serde_urlencoded` writes flat
//! structs alone, and an error would send a read without its parameters. Here, apart from the
//! crate's modules, so that the query writer does not import the types it writes.

use platform_api::audit::{
    EventQuery, EventType, Origin, SubTargetType, TargetLevel, TargetType, TargetsQuery,
};
use platform_api::monitoring::{EventsParameters, LogsParameters, MetricsParameters};
use platform_api::query::to_query_string;
use platform_api::{
    DeploysQuery, EnvironmentRequestQuery, HistoryOutcome, HistoryQuery, ServicesQuery,
};

#[test]
fn every_query_of_the_api_writes_every_field() {
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
        to_query_string(&platform_api::RepositoryQuery {
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
