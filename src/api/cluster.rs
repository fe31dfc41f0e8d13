use platform_api::paths;
use platform_api::{
    cluster_features_path, instance_types_paths, regions_path, CloudProvider, Cluster,
    ClusterDnsProvider, ClusterEnvironment, ClusterFeature, ClusterInstanceType, ClusterLock,
    ClusterLockRequest, ClusterLogLine, ClusterRegion, ClusterRequest, ClusterRoutingTable,
    ClusterRoutingTableRequest, ClusterStatus, ClusterToken, DnsProvider, List, Route,
};
use serde::Deserialize;
use uuid::Uuid;

use super::{Api, ApiError, Named, NoFields};

/// A cluster as a place an environment can go (a new environment, a copy, a project's table):
/// its name, where it runs and whether it is for production. Read for these alone, so that the
/// pages offering the choice do not carry the whole record's decoder (its features, nodes,
/// network…).
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct ClusterChoice {
    pub id: Uuid,
    pub name: String,
    pub cloud_provider: CloudProvider,
    pub region: String,
    #[serde(default)]
    pub production: bool,
}

fn clusters_path(org: Uuid) -> String {
    paths::CLUSTERS.at(&[org])
}

fn lock_path(cluster: Uuid) -> String {
    paths::CLUSTER_LOCK.at(&[cluster])
}

fn no_such_cluster() -> ApiError {
    ApiError::NotFound("The organization has no such cluster.".into())
}

impl Api {
    pub async fn clusters(&self, org: Uuid) -> Result<Vec<Cluster>, ApiError> {
        let list: List<Cluster> = self.get(&clusters_path(org)).await?;
        Ok(list.results)
    }

    pub async fn cluster_choices(&self, org: Uuid) -> Result<Vec<ClusterChoice>, ApiError> {
        let list: List<ClusterChoice> = self.get(&clusters_path(org)).await?;
        Ok(list.results)
    }

    pub async fn cluster_names(&self, org: Uuid) -> Result<Vec<Named>, ApiError> {
        let list: List<Named> = self.get(&clusters_path(org)).await?;
        Ok(list.results)
    }

    /// Every cluster with its status: the statuses of all in one request, beside the list.
    pub async fn clusters_with_status(
        &self,
        org: Uuid,
    ) -> Result<Vec<(Cluster, ClusterStatus)>, ApiError> {
        let statuses_path = paths::CLUSTER_STATUSES.at(&[org]);
        let (clusters, statuses) = futures::try_join!(
            self.clusters(org),
            self.get::<List<ClusterStatus>>(&statuses_path)
        )?;
        clusters
            .into_iter()
            .map(|cluster| {
                let status = statuses
                    .results
                    .iter()
                    .find(|status| status.cluster_id == cluster.id)
                    .cloned()
                    .ok_or_else(|| {
                        ApiError::Decode(format!("no status of the cluster {}", cluster.name))
                    })?;
                Ok((cluster, status))
            })
            .collect()
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

    /// The regions the platform lists for `provider`; `None` for a provider it lists none of
    /// (any well-formed region name is taken).
    pub async fn cloud_regions(
        &self,
        provider: CloudProvider,
    ) -> Result<Option<Vec<ClusterRegion>>, ApiError> {
        let Some(path) = regions_path(provider) else {
            return Ok(None);
        };
        let list: List<ClusterRegion> = self.get(path.0).await?;
        Ok(Some(list.results))
    }

    /// The features a cluster of `provider` may be made with; `None` for a cloud whose features
    /// are not listed.
    pub async fn cluster_features(
        &self,
        provider: CloudProvider,
    ) -> Result<Option<Vec<ClusterFeature>>, ApiError> {
        let Some(path) = cluster_features_path(provider) else {
            return Ok(None);
        };
        let list: List<ClusterFeature> = self.get(path.0).await?;
        Ok(Some(list.results))
    }

    /// The instance types a cluster's nodes may be in `place` (a region, or a zone where the
    /// cloud lists them by zone); `None` for a cloud whose types are not listed.
    pub async fn instance_types(
        &self,
        provider: CloudProvider,
        place: &str,
    ) -> Result<Option<Vec<ClusterInstanceType>>, ApiError> {
        let Some((path, _)) = instance_types_paths(provider) else {
            return Ok(None);
        };
        let list: List<ClusterInstanceType> = self.get(&path.with_text(place)).await?;
        Ok(Some(list.results))
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
        self.get(&paths::CLUSTER_STATUS.at(&[org, cluster])).await
    }

    /// Starts the upgrade to the next Kubernetes version.
    pub async fn upgrade_cluster(&self, cluster: Uuid) -> Result<ClusterStatus, ApiError> {
        self.post(&paths::CLUSTER_UPGRADE.at(&[cluster]), &NoFields {})
            .await
    }

    /// Deploys (installs or updates) the cluster.
    pub async fn deploy_cluster(
        &self,
        org: Uuid,
        cluster: Uuid,
    ) -> Result<ClusterStatus, ApiError> {
        self.post(&paths::CLUSTER_DEPLOY.at(&[org, cluster]), &NoFields {})
            .await
    }

    /// Stops the cluster: its nodes scale down to zero.
    pub async fn stop_cluster(&self, org: Uuid, cluster: Uuid) -> Result<ClusterStatus, ApiError> {
        self.post(&paths::CLUSTER_STOP.at(&[org, cluster]), &NoFields {})
            .await
    }

    /// The log of the cluster's last deployment or stop.
    pub async fn cluster_action_log(
        &self,
        org: Uuid,
        cluster: Uuid,
    ) -> Result<Vec<ClusterLogLine>, ApiError> {
        let list: List<ClusterLogLine> = self
            .get(&paths::CLUSTER_ACTION_LOG.at(&[org, cluster]))
            .await?;
        Ok(list.results)
    }

    /// The environments running on the cluster, with their services.
    pub async fn cluster_environments(
        &self,
        cluster: Uuid,
    ) -> Result<Vec<ClusterEnvironment>, ApiError> {
        let list: List<ClusterEnvironment> = self
            .get(&paths::CLUSTER_ENVIRONMENTS.at(&[cluster]))
            .await?;
        Ok(list.results)
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

    /// Who writes the cluster's DNS records, and under which domain.
    pub async fn cluster_dns_provider(&self, cluster: Uuid) -> Result<DnsProvider, ApiError> {
        self.get::<ClusterDnsProvider>(&paths::CLUSTER_DNS_PROVIDER.at(&[cluster]))
            .await
            .map(|answer| answer.dns_provider)
    }

    pub async fn edit_cluster_dns_provider(
        &self,
        cluster: Uuid,
        dns_provider: DnsProvider,
    ) -> Result<DnsProvider, ApiError> {
        self.put::<_, ClusterDnsProvider>(
            &paths::CLUSTER_DNS_PROVIDER.at(&[cluster]),
            &ClusterDnsProvider { dns_provider },
        )
        .await
        .map(|answer| answer.dns_provider)
    }

    pub async fn cluster_routing_table(
        &self,
        org: Uuid,
        cluster: Uuid,
    ) -> Result<Vec<Route>, ApiError> {
        self.get::<ClusterRoutingTable>(&paths::CLUSTER_ROUTING_TABLE.at(&[org, cluster]))
            .await
            .map(|table| table.results)
    }

    pub async fn edit_cluster_routing_table(
        &self,
        org: Uuid,
        cluster: Uuid,
        request: ClusterRoutingTableRequest,
    ) -> Result<Vec<Route>, ApiError> {
        self.put::<_, ClusterRoutingTable>(
            &paths::CLUSTER_ROUTING_TABLE.at(&[org, cluster]),
            &request,
        )
        .await
        .map(|table| table.results)
    }

    /// A fresh credential for the cluster, valid for minutes.
    pub async fn cluster_token(&self, cluster: Uuid) -> Result<ClusterToken, ApiError> {
        self.get(&paths::CLUSTER_TOKEN.at(&[cluster])).await
    }

    /// The cluster's kubeconfig (YAML), its credentials included: shown on request, never kept.
    pub async fn cluster_kubeconfig(&self, org: Uuid, cluster: Uuid) -> Result<String, ApiError> {
        self.get_text(&paths::CLUSTER_KUBECONFIG.at(&[org, cluster]))
            .await
    }
}
