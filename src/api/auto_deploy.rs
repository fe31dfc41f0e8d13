//! Auto-deploy of a service built from git: its deployment restrictions (the document's), and,
//! where the API is this server, what the watch of its branch saw and the branch's commits with
//! the paths each changed (`Enhancement::AutoDeployWatch`, `Enhancement::CommitChanges`); its git
//! webhook's status and sync (the document's).

use gloo_net::http::Method;
use platform_api::{
    AutoDeployWatch, CommitChanges, DeploymentRestriction, DeploymentRestrictionRequest,
    GitWebhookStatus, List, ServiceType,
};
use uuid::Uuid;

use super::{Api, ApiError, Enhancement};

fn restrictions_path(kind: ServiceType, service: Uuid) -> String {
    format!("{}/deploymentRestriction", kind.item_path(service))
}

impl Api {
    pub async fn deployment_restrictions(
        &self,
        kind: ServiceType,
        service: Uuid,
    ) -> Result<Vec<DeploymentRestriction>, ApiError> {
        let list: List<DeploymentRestriction> = self.get(&restrictions_path(kind, service)).await?;
        Ok(list.results)
    }

    pub async fn create_deployment_restriction(
        &self,
        (kind, service): (ServiceType, Uuid),
        request: &DeploymentRestrictionRequest,
    ) -> Result<DeploymentRestriction, ApiError> {
        self.post(&restrictions_path(kind, service), request).await
    }

    pub async fn update_deployment_restriction(
        &self,
        (kind, service): (ServiceType, Uuid),
        id: Uuid,
        request: &DeploymentRestrictionRequest,
    ) -> Result<DeploymentRestriction, ApiError> {
        self.put(
            &format!("{}/{id}", restrictions_path(kind, service)),
            request,
        )
        .await
    }

    pub async fn delete_deployment_restriction(
        &self,
        (kind, service): (ServiceType, Uuid),
        id: Uuid,
    ) -> Result<(), ApiError> {
        self.delete(&format!("{}/{id}", restrictions_path(kind, service)))
            .await
    }

    /// What auto-deploy watches on the service; `None` where the API does not say.
    pub async fn auto_deploy_watch(
        &self,
        kind: ServiceType,
        service: Uuid,
    ) -> Result<Option<AutoDeployWatch>, ApiError> {
        let path = format!("{}/autoDeploy", kind.item_path(service));
        self.enhanced::<(), _>(Enhancement::AutoDeployWatch, Method::GET, &path, None)
            .await
    }

    /// The latest commits of the service's branch with the paths each changed; `None` where the
    /// API does not give them.
    pub async fn commit_changes(
        &self,
        kind: ServiceType,
        service: Uuid,
    ) -> Result<Option<Vec<CommitChanges>>, ApiError> {
        let path = format!("{}/commitChanges", kind.item_path(service));
        let list: Option<List<CommitChanges>> = self
            .enhanced::<(), _>(Enhancement::CommitChanges, Method::GET, &path, None)
            .await?;
        Ok(list.map(|list| list.results))
    }

    /// Whether pushes to the service's branch reach the platform (its git webhook).
    pub async fn git_webhook_status(&self, service: Uuid) -> Result<GitWebhookStatus, ApiError> {
        self.get(&webhook_path(service, "gitWebhookStatus")).await
    }

    /// Asks the platform to set the service's git webhook right (on the reference server, to
    /// read the branch now); its status after.
    pub async fn sync_git_webhook(&self, service: Uuid) -> Result<GitWebhookStatus, ApiError> {
        // The operation takes no body.
        self.post(
            &webhook_path(service, "gitWebhook/sync"),
            &serde_json::Value::Null,
        )
        .await
    }
}

fn webhook_path(service: Uuid, what: &str) -> String {
    format!("/service/{service}/{what}")
}
