use futures::future::try_join_all;
use platform_api::{
    Cluster, ClusterLockRequest, ClusterRequest, ClusterStatus, ClusterToken, List,
};
use uuid::Uuid;

use super::{Api, ApiError, Named};

fn clusters_path(org: Uuid) -> String {
    format!("/organization/{org}/cluster")
}

fn cluster_path(org: Uuid, cluster: Uuid) -> String {
    format!("/organization/{org}/cluster/{cluster}")
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

    pub async fn cluster(&self, org: Uuid, cluster: Uuid) -> Result<Cluster, ApiError> {
        self.get(&cluster_path(org, cluster)).await
    }

    pub async fn cluster_name(&self, org: Uuid, cluster: Uuid) -> Result<Named, ApiError> {
        self.get(&cluster_path(org, cluster)).await
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
        org: Uuid,
        cluster: Uuid,
        request: &ClusterLockRequest,
    ) -> Result<ClusterStatus, ApiError> {
        self.post(
            &format!("/organization/{org}/cluster/{cluster}/lock"),
            request,
        )
        .await
    }

    pub async fn unlock_cluster(&self, org: Uuid, cluster: Uuid) -> Result<(), ApiError> {
        self.delete(&format!("/organization/{org}/cluster/{cluster}/lock"))
            .await
    }

    /// A fresh credential for the cluster, valid for minutes.
    pub async fn cluster_token(&self, cluster: Uuid) -> Result<ClusterToken, ApiError> {
        self.get(&format!("/cluster/{cluster}/token")).await
    }
}
