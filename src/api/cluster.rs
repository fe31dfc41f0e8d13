use futures::future::try_join_all;
use platform_api::{
    Cluster, ClusterLock, ClusterLockRequest, ClusterRequest, ClusterStatus, ClusterToken, List,
};
use uuid::Uuid;

use super::{Api, ApiError, Named};

fn clusters_path(org: Uuid) -> String {
    format!("/organization/{org}/cluster")
}

fn lock_path(cluster: Uuid) -> String {
    format!("/cluster/{cluster}/lock")
}

fn no_such_cluster() -> ApiError {
    ApiError::NotFound("The organization has no such cluster.".into())
}

impl Api {
    pub async fn clusters(&self, org: Uuid) -> Result<Vec<Cluster>, ApiError> {
        let list: List<Cluster> = self.get(&clusters_path(org)).await?;
        Ok(list.results)
    }

    pub async fn cluster_names(&self, org: Uuid) -> Result<Vec<Named>, ApiError> {
        let list: List<Named> = self.get(&clusters_path(org)).await?;
        Ok(list.results)
    }

    /// Every cluster with its status, the statuses read in parallel.
    pub async fn clusters_with_status(
        &self,
        org: Uuid,
    ) -> Result<Vec<(Cluster, ClusterStatus)>, ApiError> {
        let clusters = self.clusters(org).await?;
        let statuses = try_join_all(
            clusters
                .iter()
                .map(|cluster| self.cluster_status(org, cluster.id)),
        )
        .await?;
        Ok(clusters.into_iter().zip(statuses).collect())
    }

    /// One cluster, found in the organization's list (the platform reads clusters no other way).
    pub async fn cluster(&self, org: Uuid, cluster: Uuid) -> Result<Cluster, ApiError> {
        self.clusters(org)
            .await?
            .into_iter()
            .find(|listed| listed.id == cluster)
            .ok_or_else(no_such_cluster)
    }

    pub async fn cluster_name(&self, org: Uuid, cluster: Uuid) -> Result<Named, ApiError> {
        self.cluster_names(org)
            .await?
            .into_iter()
            .find(|listed| listed.id == cluster)
            .ok_or_else(no_such_cluster)
    }

    pub async fn create_cluster(
        &self,
        org: Uuid,
        request: &ClusterRequest,
    ) -> Result<Cluster, ApiError> {
        self.post(&clusters_path(org), request).await
    }

    pub async fn cluster_status(
        &self,
        org: Uuid,
        cluster: Uuid,
    ) -> Result<ClusterStatus, ApiError> {
        self.get(&format!("/organization/{org}/cluster/{cluster}/status"))
            .await
    }

    /// Starts the upgrade to the next Kubernetes version.
    pub async fn upgrade_cluster(&self, cluster: Uuid) -> Result<ClusterStatus, ApiError> {
        self.post(
            &format!("/cluster/{cluster}/upgrade"),
            &serde_json::json!({}),
        )
        .await
    }

    pub async fn lock_cluster(
        &self,
        cluster: Uuid,
        request: &ClusterLockRequest,
    ) -> Result<ClusterLock, ApiError> {
        self.post(&lock_path(cluster), request).await
    }

    pub async fn unlock_cluster(&self, cluster: Uuid) -> Result<(), ApiError> {
        self.delete(&lock_path(cluster)).await
    }

    /// A fresh credential for the cluster, valid for minutes.
    pub async fn cluster_token(&self, cluster: Uuid) -> Result<ClusterToken, ApiError> {
        self.get(&format!("/cluster/{cluster}/token")).await
    }
}
