//! What a service kind is to the console and the server alike: its type (and through it where its
//! services live, `ServiceType::item_path`), the request that creates or replaces one, the record
//! the platform answers with.

use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::application::{Application, ApplicationRequest};
use crate::container::{Container, ContainerRequest};
use crate::database::{Database, DatabaseRequest};
use crate::git_source::GitSource;
use crate::helm::{HelmRequest, HelmService};
use crate::job::{Job, JobRequest};
use crate::service_type::ServiceType;
use crate::terraform::{TerraformRequest, TerraformService};

pub trait ServiceKind: Send + Sync + 'static {
    const TYPE: ServiceType;
    type Request: Serialize + DeserializeOwned + Send + Sync + 'static;
    type Record: Serialize + DeserializeOwned + GitSource + Send + Sync + 'static;
}

pub struct Applications;

impl ServiceKind for Applications {
    const TYPE: ServiceType = ServiceType::Application;
    type Request = ApplicationRequest;
    type Record = Application;
}

pub struct Containers;

impl ServiceKind for Containers {
    const TYPE: ServiceType = ServiceType::Container;
    type Request = ContainerRequest;
    type Record = Container;
}

pub struct Databases;

impl ServiceKind for Databases {
    const TYPE: ServiceType = ServiceType::Database;
    type Request = DatabaseRequest;
    type Record = Database;
}

pub struct Jobs;

impl ServiceKind for Jobs {
    const TYPE: ServiceType = ServiceType::Job;
    type Request = JobRequest;
    type Record = Job;
}

pub struct HelmServices;

impl ServiceKind for HelmServices {
    const TYPE: ServiceType = ServiceType::Helm;
    type Request = HelmRequest;
    type Record = HelmService;
}

pub struct TerraformServices;

impl ServiceKind for TerraformServices {
    const TYPE: ServiceType = ServiceType::Terraform;
    type Request = TerraformRequest;
    type Record = TerraformService;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kinds_paths_and_templates_agree() {
        let id = uuid::Uuid::nil();
        assert_eq!(ServiceType::Helm.item_path(id), format!("/helm/{id}"),);
        assert_eq!(ServiceType::Helm.item_template(), "/helm/{helm_id}");
        assert_eq!(
            ServiceType::Application.collection_template(),
            "/environment/{environment_id}/application"
        );
        assert_eq!(
            ServiceType::Application.collection_path(id),
            format!("/environment/{id}/application")
        );
        assert_eq!(Databases::TYPE, ServiceType::Database);
    }
}
