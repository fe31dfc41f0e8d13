//! Terraform services (spec 2.8): `PUT /terraform/{id}` as spec 4.1, the files source answered in
//! its git form, and secret variables whose values stay on the server; the versions of each
//! engine a service may run.

use axum::http::{Method, StatusCode};
use axum::Json;
use platform_api::paths;
use platform_api::TerraformServices;
use platform_api::{
    FieldError, List, Reference, ServiceType, TerraformFilesSource, TerraformGitSource,
    TerraformService, TerraformVersion,
};
use uuid::Uuid;

use crate::caller::{Caller, Permission};
use crate::routes::{Doc, RouteTable};

use crate::routes::services::applications::git_repository;
use crate::routes::services::resource::{timestamps, ServiceResource};
use crate::seal::Secrets;

pub fn register(routes: &mut RouteTable) {
    routes.add(
        Method::GET,
        paths::TERRAFORM_VERSIONS,
        Permission::Read,
        Doc::new(
            "The versions of each engine a terraform service may run \
             (`provider_version.explicit_version`)",
        )
        .answers_list_of::<TerraformVersion>(StatusCode::OK),
        available_versions,
    );
}

async fn available_versions(_caller: Caller) -> Json<List<TerraformVersion>> {
    Json(List::new(TerraformVersion::all()))
}

impl ServiceResource for TerraformServices {
    const WHAT: &'static str = "terraform service";

    fn validate(request: &Self::Request, kept: &[&str]) -> Result<(), Vec<FieldError>> {
        request.validate(kept)
    }

    fn secrets(request: &Self::Request) -> Secrets {
        request
            .terraform_variables_source
            .tf_vars
            .iter()
            .filter(|var| var.secret)
            .filter_map(|var| Some((var.key.clone(), var.value.clone()?)))
            .collect()
    }

    fn secret_names(record: &Self::Record) -> Vec<String> {
        record
            .terraform_variables_source
            .tf_vars
            .iter()
            .filter(|var| var.secret)
            .map(|var| var.key.clone())
            .collect()
    }

    fn build(
        id: Uuid,
        environment_id: Uuid,
        request: Self::Request,
        previous: Option<&Self::Record>,
    ) -> Self::Record {
        let (created_at, updated_at) = timestamps(previous.map(|p| p.created_at));
        let auto_deploy = request.auto_deploys();
        let git = request.terraform_files_source.git.git_repository;
        let mut variables = request.terraform_variables_source;
        for var in variables.tf_vars.iter_mut().filter(|var| var.secret) {
            var.value = None;
        }
        TerraformService {
            id,
            created_at,
            updated_at,
            service_type: ServiceType::Terraform,
            environment: Reference { id: environment_id },
            name: request.name.trim().to_string(),
            description: request.description,
            auto_deploy,
            terraform_files_source: TerraformFilesSource {
                git: TerraformGitSource {
                    git_repository: git_repository(git),
                },
            },
            terraform_variables_source: variables,
            backend: request.backend,
            engine: request.engine,
            provider_version: request.provider_version,
            job_resources: request.job_resources,
            timeout_sec: request.timeout_sec,
            icon_uri: request
                .icon_uri
                .unwrap_or_else(|| ServiceType::Terraform.default_icon_uri()),
            use_cluster_credentials: request.use_cluster_credentials,
            action_extra_arguments: request.action_extra_arguments,
            dockerfile_fragment: request.dockerfile_fragment,
        }
    }

    fn name(record: &Self::Record) -> &str {
        &record.name
    }
}
