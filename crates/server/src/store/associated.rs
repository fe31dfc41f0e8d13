//! The services whose configuration names an organization-level record (a labels or
//! annotations group, a container registry, a helm repository), with where they live.

use platform_api::{
    AssociatedItem, AssociatedItemType, AssociatedService, AssociatedServiceType, ServiceType,
};
use sqlx::SqlitePool;
use uuid::fmt::Hyphenated;
use uuid::Uuid;

use crate::error::ApiResult;

/// A service naming the record, with its environment, project and cluster.
#[derive(sqlx::FromRow)]
pub struct ServiceNaming {
    #[sqlx(try_from = "Hyphenated")]
    pub id: Uuid,
    pub name: String,
    pub kind: ServiceType,
    pub cron: bool,
    #[sqlx(try_from = "Hyphenated")]
    pub environment_id: Uuid,
    pub environment_name: String,
    #[sqlx(try_from = "Hyphenated")]
    pub project_id: Uuid,
    pub project_name: String,
    #[sqlx(try_from = "Hyphenated")]
    pub cluster_id: Uuid,
    pub cluster_name: Option<String>,
}

/// The organization's services whose configuration names the record `record_id`, by project,
/// environment and name.
pub async fn services_naming(
    db: &SqlitePool,
    organization_id: Uuid,
    record_id: Uuid,
) -> ApiResult<Vec<ServiceNaming>> {
    // Ids are UUIDs, so a configuration that holds one names that record.
    Ok(sqlx::query_as(
        "SELECT s.id, s.name, s.kind, json_extract(s.spec, '$.schedule.cronjob') IS NOT NULL AS cron,
                e.id AS environment_id, e.name AS environment_name,
                p.id AS project_id, p.name AS project_name,
                e.cluster_id, c.name AS cluster_name
         FROM services s JOIN environments e ON e.id = s.environment_id
         JOIN projects p ON p.id = e.project_id
         LEFT JOIN organization_resources c ON c.id = e.cluster_id
         WHERE s.organization_id = ? AND instr(s.spec, ?) > 0
         ORDER BY p.name, e.name, s.name",
    )
    .bind(organization_id.hyphenated())
    .bind(record_id.hyphenated().to_string())
    .fetch_all(db)
    .await?)
}

impl ServiceNaming {
    /// As a group's associated item.
    pub fn item(self) -> AssociatedItem {
        let item_type = match self.kind {
            ServiceType::Database => AssociatedItemType::Database,
            ServiceType::Container => AssociatedItemType::Container,
            ServiceType::Job if self.cron => AssociatedItemType::Cron,
            ServiceType::Job => AssociatedItemType::Lifecycle,
            // Groups are set on applications, containers, databases and jobs only.
            ServiceType::Application
            | ServiceType::Helm
            | ServiceType::Terraform
            | ServiceType::Other(_) => AssociatedItemType::Application,
        };
        AssociatedItem {
            item_id: self.id,
            item_name: self.name,
            item_type,
            cluster_id: Some(self.cluster_id),
            cluster_name: self.cluster_name,
            project_id: Some(self.project_id),
            project_name: Some(self.project_name),
            environment_id: Some(self.environment_id),
            environment_name: Some(self.environment_name),
        }
    }

    /// As a registry's or a helm repository's associated service.
    pub fn service(self) -> AssociatedService {
        let service_type = match self.kind {
            ServiceType::Job if self.cron => AssociatedServiceType::Cron,
            ServiceType::Job => AssociatedServiceType::Lifecycle,
            ServiceType::Helm => AssociatedServiceType::Helm,
            // Only containers, jobs and helm charts name a registry or a repository.
            _ => AssociatedServiceType::Container,
        };
        AssociatedService {
            project_id: self.project_id,
            project_name: self.project_name,
            environment_id: self.environment_id,
            environment_name: self.environment_name,
            service_id: self.id,
            service_name: self.name,
            service_type,
        }
    }
}
