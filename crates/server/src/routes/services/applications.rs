//! Applications (spec 2.4): services built from git, on the shared service layer.

use platform_api::Applications;
use platform_api::{
    autoscaling_defaults, repository_owner_and_name, Application, ApplicationRequest, Autoscaling,
    AutoscalingRequest, FieldError, GitRepository, GitRepositoryRequest, GroupReference, Port,
    PortRequest, Reference, Scaler, ServiceType, Storage, StorageRequest, SAMPLED_CODE_HOST,
};
use serde_json::Value;
use uuid::Uuid;

use crate::routes::organization::groups::{AnnotationsGroups, LabelsGroups};
use crate::routes::organization::resources::OrganizationResource;
use crate::routes::services::resource::{over, timestamps, ServiceResource};
use crate::store::organization_resources::Kind;

impl ServiceResource for Applications {
    const WHAT: &'static str = "application";

    fn ports(record: &Application) -> &[Port] {
        &record.ports
    }

    fn validate(request: &Self::Request, _kept: &[&str]) -> Result<(), Vec<FieldError>> {
        request.validate()
    }

    fn references(request: &Self::Request) -> Vec<(String, Kind, Uuid)> {
        group_references(
            &request.runtime.annotations_groups,
            &request.runtime.labels_groups,
        )
    }

    fn build(
        id: Uuid,
        environment_id: Uuid,
        request: Self::Request,
        previous: Option<&Self::Record>,
    ) -> Self::Record {
        let mut application = from_request(id, environment_id, request, previous);
        (application.created_at, application.updated_at) =
            timestamps(previous.map(|p| p.created_at));
        application
    }

    /// The document's `ApplicationEditRequest` requires neither the name nor the repository.
    const PARTIAL_EDIT: bool = true;

    fn completed_update(previous: &Self::Record, body: Value) -> Value {
        over(previous.to_request(), body)
    }

    fn name(record: &Self::Record) -> &str {
        &record.name
    }
}

/// Ports as stored: each with an id (the one it had, for a port an update keeps: same internal
/// port), the first the default unless one is named.
pub fn ports(requests: Vec<PortRequest>, previous: &[Port]) -> Vec<Port> {
    let has_default = requests.iter().any(|port| port.is_default == Some(true));
    requests
        .into_iter()
        .enumerate()
        .map(|(index, port)| Port {
            id: previous
                .iter()
                .find(|kept| Some(kept.id) == port.id)
                .or_else(|| {
                    previous
                        .iter()
                        .find(|kept| kept.internal_port == port.internal_port)
                })
                .map_or_else(Uuid::new_v4, |kept| kept.id),
            internal_port: port.internal_port,
            external_port: port.external_port,
            publicly_accessible: port.publicly_accessible,
            protocol: port.protocol,
            name: port
                .name
                .or_else(|| Some(format!("p{}", port.internal_port))),
            is_default: port.is_default.unwrap_or(!has_default && index == 0),
            public_path: port.public_path.or_else(|| Some("/".to_string())),
            public_path_rewrite: port.public_path_rewrite,
        })
        .collect()
}

/// Volumes as stored, each with an id (the one it had, for a volume an update keeps: same mount
/// point).
pub fn storage(requests: Vec<StorageRequest>, previous: &[Storage]) -> Vec<Storage> {
    requests
        .into_iter()
        .map(|storage| Storage {
            id: previous
                .iter()
                .find(|kept| Some(kept.id) == storage.id)
                .or_else(|| {
                    previous
                        .iter()
                        .find(|kept| kept.mount_point == storage.mount_point)
                })
                .map_or_else(Uuid::new_v4, |kept| kept.id),
            storage_type: storage.storage_type,
            size: storage.size,
            mount_point: storage.mount_point,
        })
        .collect()
}

/// An application's or a container's record from its request: `$record` with its own fields,
/// and the runtime's, the same on both (their records write them flat), written once here; the
/// records name their GPU maximum differently (`$maximum_gpu`). The ids of the ports, volumes
/// and autoscaling the service had are kept from `$previous`.
macro_rules! runtime_record {
    (
        $record:ident { $($field:ident: $value:expr),* $(,)? },
        $maximum_gpu:ident,
        $runtime:expr,
        $id:expr,
        $previous:expr
    ) => {{
        let runtime: platform_api::RuntimeRequest = $runtime;
        let previous = $previous;
        $record {
            $($field: $value,)*
            $maximum_gpu: runtime.gpu,
            maximum_cpu: runtime.cpu,
            maximum_memory: runtime.memory,
            cpu: runtime.cpu,
            memory: runtime.memory,
            gpu: runtime.gpu,
            min_running_instances: runtime.min_running_instances,
            max_running_instances: runtime.max_running_instances,
            auto_preview: runtime.auto_preview,
            auto_deploy: runtime.auto_deploy,
            arguments: runtime.arguments,
            entrypoint: runtime.entrypoint,
            storage: $crate::routes::services::applications::storage(
                runtime.storage,
                previous.map_or(&[][..], |kept| &kept.storage),
            ),
            ports: $crate::routes::services::applications::ports(
                runtime.ports,
                previous.map_or(&[][..], |kept| &kept.ports),
            ),
            healthchecks: runtime.healthchecks,
            annotations_groups: $crate::routes::services::applications::attached(
                &runtime.annotations_groups,
                platform_api::AnnotationsGroup::stored,
            ),
            labels_groups: $crate::routes::services::applications::attached(
                &runtime.labels_groups,
                platform_api::LabelsGroup::stored,
            ),
            autoscaling: $crate::routes::services::applications::autoscaling(
                runtime.autoscaling,
                $id,
                previous.and_then(|kept| kept.autoscaling.as_ref()),
            ),
        }
    }};
}
pub(crate) use runtime_record;

fn from_request(
    id: Uuid,
    environment_id: Uuid,
    request: ApplicationRequest,
    previous: Option<&Application>,
) -> Application {
    runtime_record!(
        Application {
            id: id,
            created_at: chrono::Utc::now(),
            updated_at: None,
            environment: Reference { id: environment_id },
            name: request.name.trim().to_string(),
            description: request.description,
            icon_uri: ServiceType::Application.default_icon_uri(),
            service_type: ServiceType::Application,
            build_mode: request.build_mode,
            dockerfile_path: request
                .dockerfile_path
                .or_else(|| Some("Dockerfile".to_string())),
            docker_target_build_stage: request.docker_target_build_stage,
            git_repository: git_repository(request.git_repository),
        },
        maximun_gpu,
        request.runtime,
        id,
        previous
    )
}

/// The groups a request attaches, as a service stores them (by id: a read fills in the rest).
pub fn attached<G>(references: &[GroupReference], stored: fn(Uuid) -> G) -> Vec<G> {
    references.iter().map(|group| stored(group.id)).collect()
}

/// The groups a request attaches, to check that each is the organization's.
pub fn group_references(
    annotations: &[GroupReference],
    labels: &[GroupReference],
) -> Vec<(String, Kind, Uuid)> {
    let annotations = annotations.iter().enumerate().map(|(index, group)| {
        (
            format!("annotations_groups[{index}].id"),
            AnnotationsGroups::KIND,
            group.id,
        )
    });
    let labels = labels.iter().enumerate().map(|(index, group)| {
        (
            format!("labels_groups[{index}].id"),
            LabelsGroups::KIND,
            group.id,
        )
    });
    annotations.chain(labels).collect()
}

/// Autoscaling as stored: the policy and each scaler with an id (kept from the previous policy,
/// scaler by scaler in order), the intervals the platform uses when left out.
pub fn autoscaling(
    request: Option<AutoscalingRequest>,
    service_id: Uuid,
    previous: Option<&Autoscaling>,
) -> Option<Autoscaling> {
    let request = request?;
    let now = chrono::Utc::now();
    let scalers = request
        .scalers
        .into_iter()
        .enumerate()
        .map(|(index, scaler)| {
            let kept = previous.and_then(|policy| policy.scalers.get(index));
            Scaler {
                id: kept.map_or_else(Uuid::new_v4, |kept| kept.id),
                created_at: kept.map_or(now, |kept| kept.created_at),
                updated_at: kept.map(|_| now),
                scaler_type: scaler.scaler_type.trim().to_string(),
                enabled: scaler.enabled.unwrap_or(true),
                role: scaler.role.as_str().to_string(),
                config_json: scaler.config_json.unwrap_or_else(|| serde_json::json!({})),
                config_yaml: scaler.config_yaml,
                trigger_authentication: None,
            }
        })
        .collect();
    Some(Autoscaling {
        id: previous.map_or_else(Uuid::new_v4, |kept| kept.id),
        created_at: previous.map_or(now, |kept| kept.created_at),
        updated_at: previous.map(|_| now),
        service_id,
        mode: request.mode,
        polling_interval_seconds: request
            .polling_interval_seconds
            .unwrap_or(autoscaling_defaults::POLLING_INTERVAL_SECONDS),
        cooldown_period_seconds: request
            .cooldown_period_seconds
            .unwrap_or(autoscaling_defaults::COOLDOWN_PERIOD_SECONDS),
        scalers,
    })
}

/// A git repository as stored: owner and name read from the URL, branch `main` and root path `/`
/// unless given.
pub fn git_repository(request: GitRepositoryRequest) -> GitRepository {
    let url = request.url.trim().to_string();
    let (owner, name) = repository_owner_and_name(&url);
    GitRepository {
        provider: request.provider.or(Some(SAMPLED_CODE_HOST)),
        owner,
        name,
        has_access: Some(true),
        branch: request.branch.or_else(|| Some("main".to_string())),
        root_path: request.root_path.or_else(|| Some("/".to_string())),
        git_token_id: request.git_token_id.map(|id| id.to_string()),
        url,
        ..GitRepository::default()
    }
}
