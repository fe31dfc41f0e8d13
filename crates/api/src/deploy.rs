//! The body of a deployment (`POST /application/{id}/deploy` and the other kinds').

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::error::FieldError;
use crate::rules::{self, Violations};
use crate::service_type::ServiceType;

/// Body of `POST /application/{id}/deploy`.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DeployRequest {
    #[serde(default)]
    pub git_commit_id: Option<String>,
    /// Terraform services only: run `plan` and stop there, applying nothing.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub plan_only: bool,
    /// Services run from an image (containers, jobs): the tag to deploy, which becomes theirs.
    #[serde(default)]
    pub image_tag: Option<String>,
    /// Helm services installed from a helm repository: the chart version to deploy, which
    /// becomes theirs (the production document's `HelmDeployRequest`).
    #[serde(default)]
    pub chart_version: Option<String>,
    /// Ours: the execution id of an earlier successful deployment of the service to deploy again
    /// exactly (its commit, image, chart version and values). The fields above, when given too,
    /// must name what it deployed: a platform without rollbacks reads them alone.
    #[serde(default)]
    pub rollback_to: Option<String>,
    /// The production document's form of `plan_only`: PLAN.
    #[serde(default)]
    pub action: Option<TerraformDeployAction>,
    /// The production document lets a terraform deployment name its id; this server names its
    /// deployments itself, so it reads the field and leaves it alone.
    #[serde(default, skip_serializing)]
    pub id: Option<Uuid>,
}

wire_enum!(
    /// What a terraform deployment runs, in the production document.
    TerraformDeployAction {
        Plan = "PLAN",
        ForceUnlock = "FORCE_UNLOCK",
        MigrateState = "MIGRATE_STATE",
    }
);

impl DeployRequest {
    /// Whether only a plan is asked for, in either form.
    pub fn plans_only(&self) -> bool {
        self.plan_only || self.action == Some(TerraformDeployAction::Plan)
    }

    /// The rules for deploying a service of `kind`, built from git or not, run from an image or
    /// not.
    pub fn validate(
        &self,
        kind: ServiceType,
        built_from_git: bool,
        runs_image: bool,
        installs_chart_version: bool,
    ) -> Result<(), Vec<FieldError>> {
        let mut violations = Violations::default();
        if let Some(version) = &self.chart_version {
            violations.check(rules::name("chart_version", version));
            if !installs_chart_version {
                violations.check(Some(FieldError::new(
                    "chart_version",
                    "applies to helm services installed from a helm repository only",
                )));
            }
        }
        if let Some(execution) = &self.rollback_to {
            violations.check(rules::name("rollback_to", execution));
            if matches!(kind, ServiceType::Database) {
                violations.check(Some(FieldError::new(
                    "rollback_to",
                    "applies to services built from git, run from an image or installed from a chart",
                )));
            }
            if self.plans_only() {
                violations.check(Some(FieldError::new(
                    "rollback_to",
                    "cannot be combined with a plan",
                )));
            }
        }
        if let Some(tag) = &self.image_tag {
            violations.check(rules::image_tag("image_tag", tag));
            if !runs_image {
                violations.check(Some(FieldError::new(
                    "image_tag",
                    "applies to services run from an image only",
                )));
            }
        }
        match self.action {
            Some(_) if kind != ServiceType::Terraform => violations.check(Some(FieldError::new(
                "action",
                "applies to terraform services only",
            ))),
            Some(TerraformDeployAction::ForceUnlock | TerraformDeployAction::MigrateState) => {
                violations.check(Some(FieldError::new(
                    "action",
                    "must be PLAN: this server runs no other terraform action",
                )))
            }
            _ => {}
        }
        if let Some(commit) = &self.git_commit_id {
            violations.check(rules::git_commit_id("git_commit_id", commit));
            if !built_from_git {
                violations.check(Some(FieldError::new(
                    "git_commit_id",
                    "applies to services built from a git repository only",
                )));
            }
        }
        if self.plan_only && kind != ServiceType::Terraform {
            violations.check(Some(FieldError::new(
                "plan_only",
                "applies to terraform services only",
            )));
        }
        violations.into_result()
    }
}
