//! Applications (spec 2.4): services built from git, on the shared service layer.

use platform_api::{
    repository_owner_and_name, Application, ApplicationRequest, FieldError, GitRepository,
    GitRepositoryRequest, Port, PortRequest, Reference, ServiceType, Storage, StorageRequest,
    SAMPLED_CODE_HOST,
};
use serde_json::Value;
use uuid::Uuid;

use super::service_resources::{over, timestamps, ServiceResource};

pub struct Applications;

impl ServiceResource for Applications {
    const TYPE: ServiceType = ServiceType::Application;
    const WHAT: &'static str = "application";
    const COLLECTION: &'static str = "/environment/{environment_id}/application";
    const ITEM: &'static str = "/application/{application_id}";
    const STATUS: &'static str = "/application/{application_id}/status";
    const DEPLOY: &'static str = "/application/{application_id}/deploy";

    type Request = ApplicationRequest;
    type Record = Application;

    fn validate(request: &Self::Request, _kept: &[&str]) -> Result<(), Vec<FieldError>> {
        request.validate()
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

    fn id(record: &Self::Record) -> Uuid {
        record.id
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

fn from_request(
    id: Uuid,
    environment_id: Uuid,
    request: ApplicationRequest,
    previous: Option<&Application>,
) -> Application {
    Application {
        id,
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
        cpu: request.cpu,
        memory: request.memory,
        gpu: request.gpu,
        maximum_cpu: request.cpu,
        maximum_memory: request.memory,
        maximun_gpu: request.gpu,
        min_running_instances: request.min_running_instances,
        max_running_instances: request.max_running_instances,
        auto_preview: request.auto_preview,
        auto_deploy: request.auto_deploy,
        arguments: request.arguments,
        entrypoint: request.entrypoint,
        storage: storage(
            request.storage,
            previous.map_or(&[][..], |kept| &kept.storage),
        ),
        ports: ports(request.ports, previous.map_or(&[][..], |kept| &kept.ports)),
        healthchecks: request.healthchecks,
        annotations_groups: Vec::new(),
        labels_groups: Vec::new(),
        autoscaling: None,
    }
}

/// A git repository as stored: owner and name read from the URL, branch `main` and root path `/`
/// unless given.
pub fn git_repository(request: GitRepositoryRequest) -> GitRepository {
    let url = request.url.trim().to_string();
    let (owner, name) = repository_owner_and_name(&url);
    GitRepository {
        provider: request
            .provider
            .or_else(|| Some(SAMPLED_CODE_HOST.to_string())),
        owner,
        name,
        has_access: Some(true),
        branch: request.branch.or_else(|| Some("main".to_string())),
        root_path: request.root_path.or_else(|| Some("/".to_string())),
        url,
        ..GitRepository::default()
    }
}
