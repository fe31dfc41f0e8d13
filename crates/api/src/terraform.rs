//! Terraform services (spec 2.8). Secret `tf_vars` keep their value to themselves.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::common::Reference;
use crate::error::FieldError;
use crate::git_repository::{GitRepository, GitRepositoryRequest};
use crate::rules::{self, Violations};
use crate::service_type::ServiceType;
use crate::wire::WireEnum;

wire_enum!(
    TerraformEngine {
        Terraform = "TERRAFORM" => "Terraform",
        OpenTofu = "OPEN_TOFU" => "OpenTofu",
    }
);

impl TerraformEngine {
    /// The versions of this engine a service may run, oldest first.
    pub fn versions(self) -> &'static [&'static str] {
        match self {
            TerraformEngine::Terraform => &["1.5.7", "1.9.0", "1.10.5", "1.11.4"],
            TerraformEngine::OpenTofu => &["1.8.8", "1.9.1", "1.10.0"],
            TerraformEngine::Other(_) => &[],
        }
    }
}

/// A version of an engine a terraform service may run (`GET /terraform/availableVersion`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TerraformVersion {
    pub engine: TerraformEngine,
    pub version: String,
}

impl TerraformVersion {
    /// Every version of every engine.
    pub fn all() -> Vec<TerraformVersion> {
        [TerraformEngine::Terraform, TerraformEngine::OpenTofu]
            .into_iter()
            .flat_map(|engine| {
                engine
                    .versions()
                    .iter()
                    .map(move |version| TerraformVersion {
                        engine,
                        version: version.to_string(),
                    })
            })
            .collect()
    }
}

impl TerraformProviderVersion {
    /// Which version of `engine` a deployment runs, in words: the one set, the one the
    /// terraform block names, or the engine's newest.
    pub fn runs(&self, engine: TerraformEngine) -> String {
        let name = engine.label();
        if !self.explicit_version.is_empty() {
            format!("{name} {}", self.explicit_version)
        } else if self.read_from_terraform_block {
            format!("{name} at the version its terraform block names")
        } else {
            let newest = engine.versions().last().copied().unwrap_or_default();
            format!("{name} {newest}, the newest")
        }
    }
}

/// Where the terraform files come from, in the git form of the spec.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TerraformFilesSource {
    pub git: TerraformGitSource,
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TerraformGitSource {
    pub git_repository: GitRepository,
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(try_from = "TerraformFilesSourceForms")]
pub struct TerraformFilesSourceRequest {
    pub git: TerraformGitSourceRequest,
}

/// The files' source as either side writes it: the spec's response form `{git: {git_repository}}`
/// or the production document's request form `{git_repository}`; one of the two.
#[derive(Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TerraformFilesSourceForms {
    #[serde(default)]
    git: Option<TerraformGitSourceRequest>,
    #[serde(default)]
    git_repository: Option<GitRepositoryRequest>,
}

impl TryFrom<TerraformFilesSourceForms> for TerraformFilesSourceRequest {
    type Error = &'static str;

    fn try_from(forms: TerraformFilesSourceForms) -> Result<Self, Self::Error> {
        let git = forms.git.or_else(|| {
            forms
                .git_repository
                .map(|git_repository| TerraformGitSourceRequest { git_repository })
        });
        git.map(|git| TerraformFilesSourceRequest { git })
            .ok_or("must give the git repository (git_repository, or git.git_repository)")
    }
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TerraformGitSourceRequest {
    pub git_repository: GitRepositoryRequest,
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TerraformVariablesSource {
    #[serde(default)]
    pub tf_var_file_paths: Vec<String>,
    #[serde(default)]
    pub tf_vars: Vec<TfVar>,
}

/// A variable. A secret one is returned without its value (`null`); an update that leaves a
/// secret's value out keeps the one stored.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TfVar {
    #[serde(default)]
    pub key: String,
    #[serde(default)]
    pub value: Option<String>,
    #[serde(default)]
    pub secret: bool,
}

/// Exactly one backend type must be given.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TerraformBackend {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kubernetes: Option<serde_json::Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_provided: Option<serde_json::Value>,
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TerraformProviderVersion {
    /// Required by the production document: "" when the version is read from the terraform
    /// block or left to the engine.
    #[serde(default)]
    pub explicit_version: String,
    #[serde(default)]
    pub read_from_terraform_block: bool,
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TerraformJobResources {
    pub cpu_milli: i64,
    pub ram_mib: i64,
    pub gpu: i64,
    pub storage_gib: i64,
}

impl Default for TerraformJobResources {
    fn default() -> Self {
        Self {
            cpu_milli: 500,
            ram_mib: 512,
            gpu: 0,
            storage_gib: 1,
        }
    }
}

wire_enum!(
    /// Where the lines added to the runner's Dockerfile come from.
    DockerfileFragmentType {
        File = "file" => "A file of the repository",
        Inline = "inline" => "Written here",
    }
);

/// Lines added to the Dockerfile of the image that runs terraform: a file of the repository
/// (`path`) or written inline (`content`), as the production document's two forms.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DockerfileFragment {
    #[serde(rename = "type")]
    pub fragment_type: DockerfileFragmentType,
    #[serde(default)]
    pub path: Option<String>,
    #[serde(default)]
    pub content: Option<String>,
}

/// A terraform service as returned (spec 2.8).
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TerraformService {
    pub id: Uuid,
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    #[serde(default, with = "crate::timestamp::option")]
    pub updated_at: Option<DateTime<Utc>>,
    pub service_type: ServiceType,
    pub environment: Reference,
    pub name: String,
    pub description: Option<String>,
    pub auto_deploy: bool,
    #[serde(default)]
    pub terraform_files_source: TerraformFilesSource,
    pub terraform_variables_source: TerraformVariablesSource,
    pub backend: TerraformBackend,
    pub engine: TerraformEngine,
    pub provider_version: TerraformProviderVersion,
    pub job_resources: TerraformJobResources,
    pub timeout_sec: i64,
    /// The platform requires one: the one set, else the kind's own icon.
    #[serde(default)]
    pub icon_uri: String,
    pub use_cluster_credentials: bool,
    pub action_extra_arguments: BTreeMap<String, Vec<String>>,
    pub dockerfile_fragment: Option<DockerfileFragment>,
}

wire_enum!(
    /// What an automatic deployment of a terraform service runs, in the production document.
    TerraformAutoAction {
        Default = "DEFAULT" => "Plan and apply",
        Plan = "PLAN" => "Plan only",
        Noop = "NOOP" => "Nothing",
    }
);

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TerraformAutoDeployConfig {
    pub auto_deploy: bool,
    pub terraform_action: TerraformAutoAction,
}

/// Body of `POST /environment/{id}/terraform` and of `PUT /terraform/{id}` (spec 2.8).
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TerraformRequest {
    pub name: String,
    #[serde(default)]
    pub description: Option<String>,
    #[serde(default)]
    pub auto_deploy: bool,
    /// The production document's form of `auto_deploy`; it wins when given.
    #[serde(default)]
    pub auto_deploy_config: Option<TerraformAutoDeployConfig>,
    #[cfg_attr(feature = "openapi", schema(value_type = TerraformFilesSourceForms))]
    pub terraform_files_source: TerraformFilesSourceRequest,
    #[serde(default)]
    pub terraform_variables_source: TerraformVariablesSource,
    pub backend: TerraformBackend,
    pub engine: TerraformEngine,
    #[serde(default)]
    pub provider_version: TerraformProviderVersion,
    #[serde(default)]
    pub job_resources: TerraformJobResources,
    #[serde(default = "default_timeout")]
    pub timeout_sec: i64,
    #[serde(default)]
    pub icon_uri: Option<String>,
    #[serde(default)]
    pub use_cluster_credentials: bool,
    #[serde(default)]
    pub action_extra_arguments: BTreeMap<String, Vec<String>>,
    #[serde(default)]
    pub dockerfile_fragment: Option<DockerfileFragment>,
}

fn default_timeout() -> i64 {
    1800
}

impl TerraformService {
    /// The update that keeps the service as it is; secret variables go without their values,
    /// which the server keeps.
    pub fn to_request(&self) -> TerraformRequest {
        TerraformRequest {
            name: self.name.clone(),
            description: self.description.clone(),
            auto_deploy: self.auto_deploy,
            auto_deploy_config: None,
            terraform_files_source: TerraformFilesSourceRequest {
                git: TerraformGitSourceRequest {
                    git_repository: (&self.terraform_files_source.git.git_repository).into(),
                },
            },
            terraform_variables_source: self.terraform_variables_source.clone(),
            backend: self.backend.clone(),
            engine: self.engine,
            provider_version: self.provider_version.clone(),
            job_resources: self.job_resources.clone(),
            timeout_sec: self.timeout_sec,
            icon_uri: None,
            use_cluster_credentials: self.use_cluster_credentials,
            action_extra_arguments: self.action_extra_arguments.clone(),
            dockerfile_fragment: self.dockerfile_fragment.clone(),
        }
    }
}

impl TerraformRequest {
    /// Whether the service deploys on its own: `auto_deploy_config`'s when given.
    pub fn auto_deploys(&self) -> bool {
        self.auto_deploy_config
            .as_ref()
            .map_or(self.auto_deploy, |config| config.auto_deploy)
    }

    /// `stored_secrets` names the secret variables whose value an update may leave out.
    pub fn validate(&self, stored_secrets: &[&str]) -> Result<(), Vec<FieldError>> {
        let mut violations = Violations::default();
        violations.check(rules::name("name", &self.name));
        violations.check(rules::description(
            "description",
            self.description.as_deref(),
        ));
        violations.merge(
            self.terraform_files_source
                .git
                .git_repository
                .rules("terraform_files_source.git.git_repository."),
        );
        let backends = [&self.backend.kubernetes, &self.backend.user_provided]
            .iter()
            .filter(|backend| backend.is_some())
            .count();
        if backends != 1 {
            violations.check(Some(FieldError::new(
                "backend",
                format!("must give exactly one backend type (kubernetes or user_provided), not {backends}"),
            )));
        }
        if self.timeout_sec < 0 {
            violations.check(Some(FieldError::new("timeout_sec", "must be 0 or more")));
        }
        let resources = &self.job_resources;
        violations.check(rules::positive(
            "job_resources.cpu_milli",
            resources.cpu_milli,
        ));
        violations.check(rules::positive("job_resources.ram_mib", resources.ram_mib));
        violations.check(rules::not_negative("job_resources.gpu", resources.gpu));
        violations.check(rules::positive(
            "job_resources.storage_gib",
            resources.storage_gib,
        ));
        let variables = &self.terraform_variables_source.tf_vars;
        violations.extend(rules::keys(
            "terraform_variables_source.tf_vars",
            variables.iter().map(|var| var.key.as_str()),
        ));
        for (index, var) in variables.iter().enumerate() {
            violations.check(rules::value(
                &format!("terraform_variables_source.tf_vars[{index}].value"),
                var.value.as_deref(),
            ));
            let kept = var.secret && stored_secrets.contains(&var.key.as_str());
            if var.value.is_none() && !kept {
                violations.check(Some(FieldError::new(
                    format!("terraform_variables_source.tf_vars[{index}].value"),
                    "is required",
                )));
            }
        }
        if self
            .auto_deploy_config
            .as_ref()
            .is_some_and(|config| config.terraform_action != TerraformAutoAction::Default)
        {
            violations.check(Some(FieldError::new(
                "auto_deploy_config.terraform_action",
                "must be DEFAULT: this server deploys a terraform service in full",
            )));
        }
        if let Some(fragment) = &self.dockerfile_fragment {
            let (field, given) = match fragment.fragment_type {
                DockerfileFragmentType::File => ("dockerfile_fragment.path", &fragment.path),
                DockerfileFragmentType::Inline | DockerfileFragmentType::Other(_) => {
                    ("dockerfile_fragment.content", &fragment.content)
                }
            };
            if given.as_deref().is_none_or(|text| text.trim().is_empty()) {
                violations.check(Some(FieldError::new(field, "is required")));
            }
        }
        let version = self.provider_version.explicit_version.as_str();
        let versions = self.engine.versions();
        if !version.is_empty() && !versions.contains(&version) {
            violations.check(Some(FieldError::new(
                "provider_version.explicit_version",
                format!(
                    "must be a version of {}: {} (or empty, for the newest)",
                    self.engine.label(),
                    versions.join(", ")
                ),
            )));
        }
        violations.into_result()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::refused_fields;

    fn request(json: &str) -> TerraformRequest {
        serde_json::from_str(json).unwrap()
    }

    const SOURCE: &str = r#""terraform_files_source": {"git": {"git_repository": {"url": "https://git.example.com/infra.git"}}}"#;

    #[test]
    fn exactly_one_backend_and_a_timeout_of_zero_or_more() {
        let none = request(&format!(
            r#"{{"name": "infra", {SOURCE}, "backend": {{}}, "engine": "TERRAFORM", "timeout_sec": -1}}"#
        ));
        assert_eq!(
            refused_fields(none.validate(&[])),
            ["backend", "timeout_sec"]
        );
        let two = request(&format!(
            r#"{{"name": "infra", {SOURCE}, "backend": {{"kubernetes": {{}}, "user_provided": {{}}}}, "engine": "OPEN_TOFU"}}"#
        ));
        assert_eq!(refused_fields(two.validate(&[])), ["backend"]);
        let one = request(&format!(
            r#"{{"name": "infra", {SOURCE}, "backend": {{"kubernetes": {{}}}}, "engine": "TERRAFORM", "timeout_sec": 0}}"#
        ));
        assert!(one.validate(&[]).is_ok());
    }

    #[test]
    fn a_dockerfile_fragment_is_a_file_with_its_path_or_lines_written_inline() {
        let with = |fragment: &str| {
            request(&format!(
                r#"{{"name": "infra", {SOURCE}, "backend": {{"kubernetes": {{}}}}, "engine": "TERRAFORM", "dockerfile_fragment": {fragment}}}"#
            ))
            .validate(&[])
        };
        assert!(with(r#"{"type": "file", "path": "docker/fragment"}"#).is_ok());
        assert!(with(r#"{"type": "inline", "content": "RUN apk add jq"}"#).is_ok());
        assert_eq!(
            refused_fields(with(r#"{"type": "file"}"#)),
            ["dockerfile_fragment.path"]
        );
        assert_eq!(
            refused_fields(with(r#"{"type": "inline", "path": "docker/fragment"}"#)),
            ["dockerfile_fragment.content"]
        );
    }

    #[test]
    fn secret_values_may_be_kept_on_update() {
        let update = request(&format!(
            r#"{{"name": "infra", {SOURCE}, "backend": {{"kubernetes": {{}}}}, "engine": "TERRAFORM",
                "terraform_variables_source": {{"tf_vars": [{{"key": "token", "secret": true}}, {{"key": "region"}}]}}}}"#
        ));
        assert_eq!(
            refused_fields(update.validate(&["token"])),
            ["terraform_variables_source.tf_vars[1].value"]
        );
        assert_eq!(refused_fields(update.validate(&[])).len(), 2);
    }

    #[test]
    fn only_the_two_engines() {
        let wrong: Result<TerraformRequest, _> = serde_json::from_str(&format!(
            r#"{{"name": "infra", {SOURCE}, "backend": {{"kubernetes": {{}}}}, "engine": "PULUMI"}}"#
        ));
        assert!(wrong.is_err());
    }
}

wire_enum!(
    /// Whether a terraform resource is made by the module or only read by it.
    TerraformResourceMode {
        Managed = "managed" => "Managed",
        Data = "data" => "Data source",
    }
);

/// A resource of a terraform service's last deployment (`GET /terraform/{id}/terraformResources`):
/// a `resource` or `data` block of its module at the commit deployed, with the attributes the
/// block sets.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TerraformResource {
    pub id: uuid::Uuid,
    pub resource_type: String,
    pub name: String,
    /// `aws_s3_bucket.assets`; a data source's starts with `data.`.
    pub address: String,
    pub provider: String,
    pub mode: TerraformResourceMode,
    pub attributes: serde_json::Map<String, serde_json::Value>,
    pub extracted_at: chrono::DateTime<chrono::Utc>,
}
