//! Helm services: a chart from git or from one of the organization's helm repositories.

use platform_api::HelmServices;
use platform_api::{
    FieldError, GitRepositoryRequest, HelmGitSource, HelmRepositorySource, HelmService, HelmSource,
    Reference, RepositoryOfChart, ServiceType,
};
use uuid::Uuid;

use crate::routes::organization::helm_repositories::HelmRepositories;
use crate::routes::organization::resources::OrganizationResource;
use crate::routes::services::applications::git_repository;
use crate::routes::services::resource::{timestamps, ServiceResource};
use crate::store::organization_resources::Kind;
use crate::store::services::Names;

impl ServiceResource for HelmServices {
    const WHAT: &'static str = "helm service";
    const NAMES: Option<Names> = Some(Names {
        at: "$.source.repository.repository",
        kind: HelmRepositories::KIND,
    });

    fn validate(request: &Self::Request, _kept: &[&str]) -> Result<(), Vec<FieldError>> {
        request.validate()
    }

    fn references(request: &Self::Request) -> Vec<(String, Kind, Uuid)> {
        request
            .source
            .repository
            .iter()
            .map(|source| {
                (
                    "source.repository.repository_id".to_string(),
                    HelmRepositories::KIND,
                    source.repository_id,
                )
            })
            .collect()
    }

    fn build(
        id: Uuid,
        environment_id: Uuid,
        request: Self::Request,
        previous: Option<&Self::Record>,
    ) -> Self::Record {
        let (created_at, updated_at) = timestamps(previous.map(|p| p.created_at));
        HelmService {
            id,
            created_at,
            updated_at,
            icon_uri: ServiceType::Helm.default_icon_uri(),
            environment: Reference { id: environment_id },
            name: request.name.trim().to_string(),
            description: request.description,
            service_type: ServiceType::Helm,
            source: HelmSource {
                git: request.source.git.map(|git| HelmGitSource {
                    git_repository: git_repository(GitRepositoryRequest {
                        root_path: git.chart_path.or(git.git_repository.root_path.clone()),
                        ..git.git_repository
                    }),
                }),
                repository: request
                    .source
                    .repository
                    .map(|source| HelmRepositorySource {
                        repository: RepositoryOfChart::stored(source.repository_id),
                        chart_name: source.chart_name,
                        chart_version: source.chart_version,
                    }),
            },
            arguments: request.arguments,
            allow_cluster_wide_resources: request.allow_cluster_wide_resources,
            values_override: request.values_override,
            timeout_sec: request.timeout_sec,
            auto_deploy: request.auto_deploy,
            auto_preview: request.auto_preview.unwrap_or(false),
        }
    }

    fn name(record: &Self::Record) -> &str {
        &record.name
    }

    fn chart_version_at(record: &Self::Record) -> Option<&'static str> {
        record
            .source
            .repository
            .as_ref()
            .map(|_| "$.source.repository.chart_version")
    }

    const RESTORED_BY_ROLLBACK: &'static [&'static str] =
        &["$.source.repository.chart_version", "$.values_override"];
}
