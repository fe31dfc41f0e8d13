//! Requests as the API reads them: defaults filled, flattened parts read strictly (an unknown
//! field noticed, a wrong value named by its path), and each broken field named.

use platform_api::application::ApplicationRequest;
use platform_api::error::refused_fields;
use platform_api::flat::{noticing, Noticed};
use platform_api::git_repository::GitRepositoryRequest;
use platform_api::ports::PortRequest;
use platform_api::project::ProjectRequest;
use platform_api::runtime::RuntimeRequest;
use platform_api::variable::VariableCreation;
use serde_json::{json, Value};

#[test]
fn project_request_names_each_broken_field() {
    let request = ProjectRequest {
        name: String::new(),
        description: Some("d".repeat(300)),
    };
    assert_eq!(refused_fields(request.validate()), ["name", "description"]);
}

#[test]
fn application_request_names_nested_fields() {
    let request = ApplicationRequest {
        name: "api".into(),
        description: None,
        git_repository: GitRepositoryRequest {
            url: "nowhere".into(),
            ..Default::default()
        },
        build_mode: "DOCKER".into(),
        dockerfile_path: None,
        docker_target_build_stage: None,
        runtime: RuntimeRequest {
            cpu: 0,
            memory: 256,
            min_running_instances: 2,
            max_running_instances: 1,
            ports: vec![PortRequest {
                id: None,
                internal_port: 70000,
                external_port: None,
                protocol: "HTTP".into(),
                publicly_accessible: true,
                name: None,
                is_default: None,
                public_path: None,
                public_path_rewrite: None,
            }],
            ..RuntimeRequest::default()
        },
    };
    assert_eq!(
        refused_fields(request.validate()),
        [
            "git_repository.url",
            "cpu",
            "min_running_instances",
            "ports[0].internal_port",
            "ports[0].external_port"
        ]
    );
}

#[test]
fn application_request_defaults_from_minimal_json() {
    let request: ApplicationRequest = serde_json::from_str(
        r#"{"name": "api", "git_repository": {"url": "https://example.com/a.git"}}"#,
    )
    .unwrap();
    assert_eq!(request.runtime.cpu, 500);
    assert_eq!(request.runtime.memory, 512);
    assert_eq!(request.build_mode, "DOCKER");
    assert!(request.validate().is_ok());
}

fn application(extra: Value) -> Value {
    let mut body = json!({
        "name": "web",
        "git_repository": {"url": "https://git.example.com/acme/web.git"},
        "cpu": 250,
        "ports": [{"internal_port": 8080, "protocol": "HTTP"}]
    });
    body.as_object_mut()
        .unwrap()
        .extend(extra.as_object().unwrap().clone());
    body
}

#[test]
fn a_flattened_part_is_read_with_its_defaults() {
    let (read, noticed) =
        noticing(|| serde_json::from_value::<ApplicationRequest>(application(json!({}))));
    let request = read.unwrap();
    assert_eq!(request.runtime.cpu, 250);
    assert_eq!(request.runtime.memory, platform_api::defaults::memory());
    assert_eq!(request.runtime.ports[0].internal_port, 8080);
    assert_eq!(noticed, Noticed::default());
}

#[test]
fn unknown_fields_of_the_request_and_of_the_part_are_noticed() {
    let body = application(json!({
        "bogus": 1,
        "storage": [{"size": 1, "mount_point": "/data", "type": "FAST_SSD", "colour": "red"}]
    }));
    let (read, noticed) = noticing(|| serde_json::from_value::<ApplicationRequest>(body));
    read.unwrap();
    assert_eq!(noticed.unknown, ["bogus", "storage.0.colour"]);
    // Read without noticing, the same body is taken as serde takes it.
    let quiet: ApplicationRequest =
        serde_json::from_value(application(json!({"bogus": 1}))).unwrap();
    assert_eq!(quiet.runtime.cpu, 250);
}

#[test]
fn a_wrong_value_inside_the_part_is_named() {
    let body = application(json!({"memory": "lots"}));
    let (read, noticed) = noticing(|| serde_json::from_value::<ApplicationRequest>(body));
    assert!(read.is_err());
    let (path, message) = noticed.wrong.unwrap();
    assert_eq!(path, "memory");
    assert!(message.contains("expected i64"), "{message}");
}

#[test]
fn a_variable_creation_notices_its_unknown_fields() {
    let body = json!({
        "key": "PORT", "value": "8080", "variable_scope": "PROJECT",
        "variable_parent_id": uuid::Uuid::nil(), "typo": true
    });
    let (read, noticed) = noticing(|| serde_json::from_value::<VariableCreation>(body));
    read.unwrap();
    assert_eq!(noticed.unknown, ["typo"]);
}
