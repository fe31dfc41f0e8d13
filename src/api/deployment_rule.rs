//! Deployment rules: an environment's schedule, and a project's rules in priority order.

use platform_api::paths;
use platform_api::{
    EnvironmentDeploymentRule, EnvironmentDeploymentRuleRequest, List, ProjectDeploymentRule,
    ProjectDeploymentRuleRequest, ProjectDeploymentRulesOrder,
};
use uuid::Uuid;

use super::{Api, ApiError};

fn project_rules_path(project: Uuid) -> String {
    paths::PROJECT_DEPLOYMENT_RULES.at(&[project])
}

impl Api {
    pub async fn environment_deployment_rule(
        &self,
        environment: Uuid,
    ) -> Result<EnvironmentDeploymentRule, ApiError> {
        self.get(&paths::ENVIRONMENT_DEPLOYMENT_RULE.at(&[environment]))
            .await
    }

    pub async fn update_environment_deployment_rule(
        &self,
        (environment, rule): (Uuid, Uuid),
        request: &EnvironmentDeploymentRuleRequest,
    ) -> Result<EnvironmentDeploymentRule, ApiError> {
        self.put(
            &paths::ENVIRONMENT_DEPLOYMENT_RULE_ITEM.at(&[environment, rule]),
            request,
        )
        .await
    }

    pub async fn project_deployment_rules(
        &self,
        project: Uuid,
    ) -> Result<Vec<ProjectDeploymentRule>, ApiError> {
        let list: List<ProjectDeploymentRule> = self.get(&project_rules_path(project)).await?;
        Ok(list.results)
    }

    pub async fn create_project_deployment_rule(
        &self,
        project: Uuid,
        request: &ProjectDeploymentRuleRequest,
    ) -> Result<ProjectDeploymentRule, ApiError> {
        self.post(&project_rules_path(project), request).await
    }

    pub async fn update_project_deployment_rule(
        &self,
        project: Uuid,
        rule: Uuid,
        request: &ProjectDeploymentRuleRequest,
    ) -> Result<ProjectDeploymentRule, ApiError> {
        self.put(
            &paths::PROJECT_DEPLOYMENT_RULE.at(&[project, rule]),
            request,
        )
        .await
    }

    pub async fn delete_project_deployment_rule(
        &self,
        project: Uuid,
        rule: Uuid,
    ) -> Result<(), ApiError> {
        self.delete(&paths::PROJECT_DEPLOYMENT_RULE.at(&[project, rule]))
            .await
    }

    /// Puts the project's rules in this order (each named once).
    pub async fn order_project_deployment_rules(
        &self,
        project: Uuid,
        order: Vec<Uuid>,
    ) -> Result<(), ApiError> {
        let body = ProjectDeploymentRulesOrder {
            project_deployment_rule_ids_in_order: order,
        };
        self.put_no_answer(&paths::PROJECT_DEPLOYMENT_RULES_ORDER.at(&[project]), &body)
            .await
    }
}
