//! Records stored by an earlier version read in today's shapes once the data folder's migrations
//! ran: jobs, containers and helm charts stored before they took the production document's
//! shapes.

use crate::common;

use common::{records, TestServer};
use serde_json::json;

const MIGRATIONS: [&str; 2] = [
    include_str!("../../migrations/0014_jobs_and_containers_in_the_documents_shape.sql"),
    include_str!("../../migrations/0015_helm_charts_in_the_documents_shape.sql"),
];

#[tokio::test]
async fn services_stored_before_read_in_the_documents_shapes() {
    let document = contract::Document::production();
    let server = TestServer::new().await;
    let ids = records(&server).await;
    let environment = ids.id("environment_id");
    let lifecycle = server
        .post(
            &format!("/api/environment/{environment}/job"),
            json!({"name": "seed", "schedule": {"on_start": {}},
                   "source": {"docker": {"git_repository": {"url": "https://git.example.com/a/seed.git"}}}}),
        )
        .await;
    let lifecycle = lifecycle.body["id"].as_str().unwrap().to_string();
    // Put them back as the version before stored them.
    let older = [
        (
            ids.id("job_id"),
            "json_set(json_remove(spec, '$.gpu', '$.maximum_cpu', '$.maximum_memory',
                 '$.maximum_gpu', '$.auto_preview', '$.healthchecks'),
             '$.schedule', '0  4 * * *', '$.lifecycle_events', json('[]'),
             '$.arguments', json('[\"--full\"]'), '$.entrypoint', 'backup')",
        ),
        (
            lifecycle.as_str(),
            "json_set(json_remove(spec, '$.schedule', '$.gpu', '$.maximum_cpu',
                 '$.maximum_memory', '$.maximum_gpu', '$.auto_preview', '$.healthchecks'),
             '$.lifecycle_events', json('[\"START\", \"DELETE\"]'), '$.arguments', json('[]'))",
        ),
        (
            ids.id("container_id"),
            "json_remove(spec, '$.maximum_cpu', '$.maximum_memory', '$.maximum_gpu',
                 '$.auto_preview')",
        ),
        (
            ids.id("helm_id"),
            "json_set(spec, '$.source.git.chart_path', '/charts/redis',
                 '$.source.git.git_repository.root_path', '/')",
        ),
    ];
    for (id, spec) in older {
        sqlx::query(&format!("UPDATE services SET spec = {spec} WHERE id = ?"))
            .bind(id)
            .execute(&server.state.db)
            .await
            .unwrap();
    }
    for migration in MIGRATIONS {
        sqlx::raw_sql(migration)
            .execute(&server.state.db)
            .await
            .unwrap();
    }

    let cron = server.get(&format!("/api/job/{}", ids.id("job_id"))).await;
    assert_eq!(
        cron.body["schedule"],
        json!({"cronjob": {"scheduled_at": "0  4 * * *", "timezone": "Etc/UTC",
                           "arguments": ["--full"], "entrypoint": "backup"}}),
        "{}",
        cron.body
    );
    let seed = server.get(&format!("/api/job/{lifecycle}")).await;
    assert_eq!(
        seed.body["schedule"],
        json!({"lifecycle_type": "GENERIC", "on_start": {"arguments": []},
               "on_delete": {"arguments": []}}),
        "{}",
        seed.body
    );
    let container = server
        .get(&format!("/api/container/{}", ids.id("container_id")))
        .await;
    assert_eq!(container.body["maximum_cpu"], container.body["cpu"]);
    let helm = server
        .get(&format!("/api/helm/{}", ids.id("helm_id")))
        .await;
    let git = &helm.body["source"]["git"];
    assert_eq!(git["git_repository"]["root_path"], "/charts/redis", "{git}");
    assert!(git.get("chart_path").is_none(), "{git}");
    for (path, reply) in [
        ("/job/{jobId}", &cron),
        ("/job/{jobId}", &seed),
        ("/container/{containerId}", &container),
        ("/helm/{helmId}", &helm),
    ] {
        let operation = document.operation("get", path).unwrap();
        if let Err(errors) = operation.check_response(reply.status.as_u16(), &reply.body) {
            panic!("{path}: {errors:?}\n{}", reply.body);
        }
    }
}
