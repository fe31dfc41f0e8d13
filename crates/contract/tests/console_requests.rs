//! The console writes what the platform takes: each request the console's forms send, built as
//! they build it (`src/routes/`), is checked against the document's request schema for the
//! operation the console sends it to (`src/api/`).

use chrono::{Duration, Utc};
use contract::Document;
use platform_api::advanced_settings::SettingsOf;
use platform_api::*;
use serde::Serialize;
use uuid::Uuid;

/// A schedule as the console sends it.
fn schedule() -> Schedule {
    let time = |hour| at_time_of_day(chrono::NaiveTime::from_hms_opt(hour, 0, 0).unwrap());
    Schedule {
        auto_stop: true,
        timezone: "Europe/Paris".into(),
        start_time: time(8),
        stop_time: time(19),
        weekdays: vec![Weekday::Monday, Weekday::Friday],
    }
}

fn repository() -> GitRepositoryRequest {
    GitRepositoryRequest::for_url("https://github.com/acme/web.git", Some("main".into()))
}

fn job(schedule: JobSchedule) -> JobRequest {
    JobRequest {
        name: "nightly-report".into(),
        description: None,
        schedule,
        source: JobSourceRequest {
            image: None,
            docker: Some(JobDockerSourceRequest {
                git_repository: repository(),
                dockerfile_path: Some("Dockerfile".into()),
                dockerfile_raw: None,
            }),
        },
        cpu: defaults::cpu(),
        memory: defaults::memory(),
        gpu: 0,
        max_nb_restart: 0,
        max_duration_seconds: 300,
        auto_preview: None,
        auto_deploy: None,
        healthchecks: Healthchecks::default(),
    }
}

fn body(request: impl Serialize) -> serde_json::Value {
    serde_json::to_value(request).expect("a request serializes")
}

/// `(method, path the console sends it to, the request)`.
fn console_requests() -> Vec<(&'static str, &'static str, serde_json::Value)> {
    let id = Uuid::new_v4();
    let application = ApplicationRequest {
        name: "web".into(),
        description: None,
        git_repository: repository(),
        build_mode: defaults::BUILD_MODE.to_string(),
        dockerfile_path: None,
        docker_target_build_stage: None,
        runtime: RuntimeRequest {
            ports: vec![PortRequest {
                id: None,
                internal_port: 8080,
                external_port: Some(443),
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
    let container = ContainerRequest {
        name: "nginx".into(),
        description: None,
        registry_id: id,
        image_name: "library/nginx".into(),
        tag: "1.27".into(),
        runtime: RuntimeRequest::default(),
    };
    let cron = JobSchedule {
        cronjob: Some(CronJobSchedule {
            scheduled_at: "0 3 * * *".into(),
            timezone: "Europe/Paris".into(),
            arguments: Vec::new(),
            entrypoint: None,
        }),
        ..JobSchedule::default()
    };
    let lifecycle = JobSchedule {
        on_start: Some(JobCommand::default()),
        lifecycle_type: Some(JobLifecycleType::Generic),
        ..JobSchedule::default()
    };
    let variable = VariableRequest {
        key: "LOG_LEVEL".into(),
        value: Some("debug".into()),
        mount_path: None,
        description: None,
        enable_interpolation_in_file: false,
    };
    vec![
        (
            "post",
            "/organization/{organizationId}/project",
            body(ProjectRequest {
                name: "shop".into(),
                description: None,
            }),
        ),
        (
            "post",
            "/project/{projectId}/environment",
            body(EnvironmentRequest {
                name: "staging".into(),
                mode: EnvironmentMode::Staging,
                cluster_id: Some(id),
            }),
        ),
        (
            "post",
            "/environment/{environmentId}/application",
            body(&application),
        ),
        (
            "put",
            "/application/{applicationId}",
            // The settings page sends the record's ports back, each with its id.
            body(ApplicationRequest {
                runtime: RuntimeRequest {
                    ports: vec![PortRequest {
                        id: Some(id),
                        ..application.runtime.ports[0].clone()
                    }],
                    ..application.runtime.clone()
                },
                ..application.clone()
            }),
        ),
        (
            "post",
            "/environment/{environmentId}/container",
            body(&container),
        ),
        ("put", "/container/{containerId}", body(&container)),
        ("post", "/environment/{environmentId}/job", body(job(cron))),
        (
            "post",
            "/environment/{environmentId}/job",
            body(job(lifecycle.clone())),
        ),
        // A lifecycle job started from a template: its Dockerfile written with it.
        (
            "post",
            "/environment/{environmentId}/job",
            body({
                let mut from_template = job(lifecycle);
                if let Some(docker) = from_template.source.docker.as_mut() {
                    docker.dockerfile_path = None;
                    docker.dockerfile_raw = Some("FROM alpine:3.20\nCOPY . .".into());
                }
                from_template
            }),
        ),
        // And the variables it reads, made on the job.
        (
            "post",
            "/variable",
            body(VariableCreation {
                variable: VariableRequest {
                    key: "TF_INPUT".into(),
                    value: Some("region = \"eu-west-3\"".into()),
                    mount_path: Some("/data/input.tfvars".into()),
                    description: Some("The Terraform variables".into()),
                    enable_interpolation_in_file: false,
                },
                is_secret: true,
                variable_scope: VariableScope::Job,
                variable_parent_id: id,
            }),
        ),
        (
            "post",
            "/environment/{environmentId}/database",
            body(DatabaseRequest {
                name: "db".into(),
                description: None,
                database_type: DatabaseType::Postgresql,
                version: "16".into(),
                mode: DatabaseMode::Managed,
                accessibility: DatabaseAccessibility::Private,
                instance_type: Some("db.t3.medium".into()),
                cpu: 250,
                memory: 256,
                storage: 10,
            }),
        ),
        (
            "post",
            "/application/{applicationId}/deploy",
            body(DeployRequest {
                git_commit_id: Some("a".repeat(40)),
                ..DeployRequest::default()
            }),
        ),
        (
            "post",
            "/container/{containerId}/deploy",
            body(DeployRequest {
                image_tag: Some("1.27".into()),
                rollback_to: Some("0f6c2f5e8a1b4c3d".into()),
                ..DeployRequest::default()
            }),
        ),
        (
            "post",
            "/helm/{helmId}/deploy",
            body(DeployRequest {
                chart_version: Some("19.0.0".into()),
                rollback_to: Some("0f6c2f5e8a1b4c3d".into()),
                ..DeployRequest::default()
            }),
        ),
        (
            "post",
            "/terraform/{terraformId}/deploy",
            body(DeployRequest {
                action: Some(TerraformDeployAction::Plan),
                ..DeployRequest::default()
            }),
        ),
        (
            "post",
            "/variable",
            body(VariableCreation {
                variable: variable.clone(),
                is_secret: false,
                variable_scope: VariableScope::Application,
                variable_parent_id: id,
            }),
        ),
        ("put", "/variable/{variableId}", body(&variable)),
        (
            "post",
            "/variable/{variableId}/override",
            body(OverrideRequest {
                value: Some("info".into()),
                override_scope: Some(VariableScope::Application),
                override_parent_id: Some(id),
                description: None,
                enable_interpolation_in_file: None,
            }),
        ),
        (
            "post",
            "/variable/{variableId}/alias",
            body(AliasRequest {
                key: "APP_REGION".into(),
                alias_scope: VariableScope::Application,
                alias_parent_id: id,
                description: None,
            }),
        ),
        (
            "post",
            "/organization/{organizationId}/cluster/{clusterId}/deploy",
            serde_json::json!({}),
        ),
        (
            "post",
            "/organization/{organizationId}/cluster/{clusterId}/stop",
            serde_json::json!({}),
        ),
        (
            "post",
            "/environment/{environmentId}/checkContainerImage",
            body(ContainerImageCheckRequest::new(
                id,
                "acme/api".into(),
                "1.0".into(),
            )),
        ),
        (
            "post",
            "/environment/{environmentId}/checkDockerfile",
            body(DockerfileCheckRequest {
                git_repository: repository(),
                dockerfile_path: "Dockerfile".into(),
            }),
        ),
        (
            "post",
            "/organization/{organizationId}/cluster",
            body(ClusterRequest {
                name: "main".into(),
                description: None,
                cloud_provider: CloudProvider::ProviderA,
                region: "fr-par".into(),
                version: Some("1.30".into()),
                production: false,
                instance_type: Some("GP1-S".into()),
                min_running_nodes: 1,
                max_running_nodes: 3,
                features: vec![
                    ClusterFeatureRequest {
                        id: STATIC_IP.into(),
                        value: FeatureValue::Bool(true),
                    },
                    ClusterFeatureRequest {
                        id: VPC_SUBNET.into(),
                        value: FeatureValue::Text("10.42.0.0/16".into()),
                    },
                ],
            }),
        ),
        (
            "post",
            "/organization/{organizationId}/containerRegistry",
            body(ContainerRegistryRequest {
                name: "hub".into(),
                kind: RegistryKind::GenericCr,
                description: None,
                url: Some("https://registry.example".into()),
                config: RegistryConfigRequest {
                    username: Some("robot".into()),
                    password: Some("secret".into()),
                    ..Default::default()
                },
            }),
        ),
        (
            "post",
            "/organization/{organizationId}/helmRepository",
            body(HelmRepositoryRequest {
                name: "charts".into(),
                kind: HelmRepositoryKind::Https,
                description: None,
                url: "https://charts.example".into(),
                skip_tls_verification: false,
                config: Default::default(),
            }),
        ),
        (
            "post",
            "/application/{applicationId}/customDomain",
            body(CustomDomainRequest {
                domain: "shop.example.com".into(),
                generate_certificate: true,
                use_cdn: Some(false),
            }),
        ),
        (
            "put",
            "/helm/{helmId}/customDomain/{customDomainId}",
            body(CustomDomainRequest {
                domain: "*.shop.example.com".into(),
                generate_certificate: false,
                use_cdn: Some(true),
            }),
        ),
        (
            "post",
            "/application/{applicationId}/deploymentRestriction",
            body(DeploymentRestrictionRequest {
                mode: DeploymentRestrictionMode::Match,
                kind: DeploymentRestrictionType::Path,
                value: "web/".into(),
            }),
        ),
        (
            "put",
            "/terraform/{terraformId}/deploymentRestriction/{deploymentRestrictionId}",
            body(DeploymentRestrictionRequest {
                mode: DeploymentRestrictionMode::Exclude,
                kind: DeploymentRestrictionType::Path,
                value: "docs/".into(),
            }),
        ),
        (
            "post",
            "/environment/{environmentId}/deploymentStage",
            body(DeploymentStageRequest {
                name: "smoke tests".into(),
                description: Some("after the applications".into()),
            }),
        ),
        (
            "put",
            "/deploymentStage/{deploymentStageId}/service/{serviceId}",
            body(AttachServiceToStage {
                is_skipped: Some(true),
            }),
        ),
        (
            "put",
            "/environment/{environmentId}/deploymentRule/{deploymentRuleId}",
            body(EnvironmentDeploymentRuleRequest {
                on_demand_preview: false,
                auto_preview: false,
                schedule: schedule(),
            }),
        ),
        (
            "post",
            "/project/{projectId}/deploymentRule",
            body(ProjectDeploymentRuleRequest {
                name: "feature branches".into(),
                description: None,
                mode: EnvironmentMode::Development,
                cluster_id: Uuid::nil(),
                wildcard: "feat-*".into(),
                schedule: schedule(),
            }),
        ),
        (
            "put",
            "/project/{projectId}/deploymentRule/order",
            body(ProjectDeploymentRulesOrder {
                project_deployment_rule_ids_in_order: vec![Uuid::nil()],
            }),
        ),
        (
            "post",
            "/database/{databaseId}/backup",
            body(BackupRequest {
                name: "before-v2".into(),
                message: "before the migration to v2".into(),
            }),
        ),
        (
            "post",
            "/organization/{organizationId}/inviteMember",
            body(InviteMemberRequest {
                email: "ada@example.com".into(),
                role: None,
                role_id: Some(Uuid::nil()),
            }),
        ),
        (
            "put",
            "/organization/{organizationId}/member",
            body(MemberRoleUpdateRequest {
                user_id: Uuid::nil().to_string(),
                role_id: Uuid::nil(),
            }),
        ),
        (
            "delete",
            "/organization/{organizationId}/member",
            body(MemberRemoval {
                user_id: Uuid::nil(),
            }),
        ),
        (
            "post",
            "/organization/{organizationId}/listDirectoriesFromGitRepository",
            body(GitRepositoryRequest {
                root_path: Some("/infra/".into()),
                ..repository()
            }),
        ),
        (
            "post",
            "/organization/{organizationId}/parseTerraformVariablesFromGitRepo",
            body(TerraformVariableParsingRequest {
                git_repository: repository(),
            }),
        ),
        (
            "post",
            "/environment/{environmentId}/helmDefaultValues",
            body(HelmDefaultValuesRequest {
                source: HelmChartSource {
                    git_repository: Some(repository()),
                    helm_repository: None,
                },
            }),
        ),
        (
            "post",
            "/organization/{organizationId}/gitToken",
            body(GitTokenRequest {
                name: "ci".into(),
                description: Some("Reads the shop's repositories".into()),
                kind: GitProvider::ProviderG,
                token: Some("t0k3n".into()),
                workspace: Some("acme".into()),
                git_api_url: None,
            }),
        ),
        (
            "put",
            "/organization/{organizationId}/gitToken/{gitTokenId}",
            body(GitTokenRequest {
                name: "ci".into(),
                description: None,
                kind: GitProvider::ProviderC,
                token: Some("r0tated".into()),
                workspace: None,
                git_api_url: Some("https://git.example.com/api".into()),
            }),
        ),
        (
            "post",
            "/organization/{organizationId}/webhook",
            body(WebhookRequest {
                kind: WebhookKind::Standard,
                target_url: "https://hooks.example/deployments".into(),
                target_secret: Some("signing".into()),
                description: None,
                enabled: true,
                events: vec![WebhookEvent::DeploymentSuccessful],
                project_names_filter: vec!["shop*".into()],
                environment_types_filter: vec![EnvironmentMode::Production],
            }),
        ),
        (
            "post",
            "/alert-receivers",
            body(AlertReceiverCreation {
                organization_id: id,
                receiver: AlertReceiverUpdate {
                    name: "on-call".into(),
                    description: "Pages the on-call".into(),
                    receiver_type: AlertReceiverType::Slack,
                    send_resolved: true,
                    webhook_url: Some("https://hooks.slack.com/services/x".into()),
                    owner: None,
                    severity: None,
                    email: EmailRelayRequest::default(),
                },
            }),
        ),
        (
            "post",
            "/alert-receivers",
            body(AlertReceiverCreation {
                organization_id: id,
                receiver: AlertReceiverUpdate {
                    name: "ops".into(),
                    description: String::new(),
                    receiver_type: AlertReceiverType::Email,
                    send_resolved: false,
                    webhook_url: None,
                    owner: None,
                    severity: None,
                    email: EmailRelayRequest {
                        relay: EmailRelay {
                            to: Some("ops@example.com".into()),
                            from: Some("alerts@example.com".into()),
                            smarthost: Some("smtp.example.com:587".into()),
                            auth_username: None,
                            require_tls: Some(true),
                        },
                        auth_password: Some("secret".into()),
                    },
                },
            }),
        ),
        (
            "post",
            "/organization/{organizationId}/apiToken",
            body(ApiTokenRequest {
                name: "ci".into(),
                description: None,
                role_id: Some(id),
                scope: None,
                expires_at: Some(Utc::now() + Duration::days(90)),
            }),
        ),
        (
            "post",
            "/organization/{organizationId}/onPremise/credentials",
            body(OnPremiseCredentialsRequest {
                name: "rack".into(),
                access_key_id: Some("AKIA".into()),
                secret_access_key: Some("secret".into()),
                object_type: None,
            }),
        ),
        (
            "put",
            "/organization/{organizationId}",
            body(OrganizationEditRequest {
                name: "Acme".into(),
                plan: "FREE".into(),
                description: Some("Everything Acme runs".into()),
            }),
        ),
        (
            "post",
            "/organization/{organizationId}/cluster/{clusterId}/cloudProviderInfo",
            body(ClusterCloudProviderInfo {
                cloud_provider: None,
                credentials: Some(CredentialsReference {
                    id: Some(id),
                    name: None,
                }),
                region: None,
            }),
        ),
        (
            "put",
            "/cluster/{clusterId}/dnsProvider",
            body(ClusterDnsProvider {
                dns_provider: DnsProvider {
                    email: Some("ops@example.com".into()),
                    api_token: Some("token".into()),
                    proxied: Some(true),
                    ..DnsProvider::new(DnsProviderKind::Cloudflare, "apps.example.com".into())
                },
            }),
        ),
        (
            "put",
            "/cluster/{clusterId}/dnsProvider",
            body(ClusterDnsProvider {
                dns_provider: DnsProvider {
                    credentials: Some(Route53Credentials {
                        kind: Route53CredentialsType::Static,
                        aws_access_key_id: "AKIA".into(),
                        aws_secret_access_key: Some("secret".into()),
                    }),
                    aws_region: Some("eu-west-3".into()),
                    ..DnsProvider::new(DnsProviderKind::Route53, "apps.example.com".into())
                },
            }),
        ),
        (
            "put",
            "/organization/{organizationId}/cluster/{clusterId}/routingTable",
            body(ClusterRoutingTableRequest {
                routes: vec![Route::from_line("10.1.0.0/16 pcx-0a1b peering")],
            }),
        ),
        (
            "post",
            "/organization/{organizationId}/labelsGroups",
            body(LabelsGroupRequest {
                name: "team".into(),
                labels: vec![Label {
                    key: "team".into(),
                    value: "web".into(),
                    propagate_to_cloud_provider: false,
                }],
            }),
        ),
        // The console sends every setting as it stands (here, the defaults).
        (
            "put",
            "/application/{applicationId}/advancedSettings",
            serde_json::Value::Object(SettingsOf::Application.defaults()),
        ),
        (
            "put",
            "/organization/{organizationId}/cluster/{clusterId}/advancedSettings",
            serde_json::Value::Object(SettingsOf::Cluster.defaults()),
        ),
    ]
}

/// Credentials of every kind the console's form offers, built as it builds them
/// (`src/routes/organization/settings/cloud_credentials.rs`), each to its cloud's route.
fn cloud_credentials_requests() -> Vec<(&'static str, &'static str, serde_json::Value)> {
    let key = r#"{"type": "service_account", "client_email": "a@b.example", "private_key": "k"}"#;
    CredentialsVariant::ALL
        .into_iter()
        .map(|variant| {
            let request = variant.request("prod".into(), |field| {
                Some(if field == PROVIDER_E_KEY {
                    encoded_service_account_key(key)
                } else {
                    format!("{field}-value")
                })
            });
            let sent = body(&request);
            let path = match variant.provider() {
                CloudProvider::Aws => "/organization/{organizationId}/aws/credentials",
                CloudProvider::ProviderA => "/organization/{organizationId}/scaleway/credentials",
                CloudProvider::ProviderE => "/organization/{organizationId}/gcp/credentials",
                _ => "/organization/{organizationId}/azure/credentials",
            };
            ("post", path, sent)
        })
        .collect()
}

#[test]
fn the_console_sends_requests_the_document_takes() {
    let document = Document::production();
    let mut requests = console_requests();
    requests.extend(cloud_credentials_requests());
    let mut failures = Vec::new();
    for (method, path, request) in &requests {
        let operation = document
            .operation(method, path)
            .unwrap_or_else(|| panic!("the document has no {method} {path}"));
        if let Err(errors) = operation.check_request(request) {
            failures.push(format!("{}: {errors:?}\n  {request}", operation.label()));
        }
    }
    println!(
        "console requests: {} checked, {} in the document's shapes",
        requests.len(),
        requests.len() - failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
