use platform_api::{CheckedCustomDomain, CustomDomain, CustomDomainRequest, List, ServiceType};
use uuid::Uuid;

use super::{Api, ApiError};

fn domains_path(kind: ServiceType, service: Uuid) -> String {
    format!("{}/customDomain", kind.item_path(service))
}

impl Api {
    /// The service's custom domains (applications, containers and helm services have them).
    pub async fn custom_domains(
        &self,
        kind: ServiceType,
        service: Uuid,
    ) -> Result<Vec<CustomDomain>, ApiError> {
        let list: List<CustomDomain> = self.get(&domains_path(kind, service)).await?;
        Ok(list.results)
    }

    /// What a check of the DNS of each of the service's custom domains finds.
    pub async fn check_custom_domains(
        &self,
        kind: ServiceType,
        service: Uuid,
    ) -> Result<Vec<CheckedCustomDomain>, ApiError> {
        let list: List<CheckedCustomDomain> = self
            .get(&format!("{}/checkCustomDomain", kind.item_path(service)))
            .await?;
        Ok(list.results)
    }

    pub async fn create_custom_domain(
        &self,
        kind: ServiceType,
        service: Uuid,
        request: &CustomDomainRequest,
    ) -> Result<CustomDomain, ApiError> {
        self.post(&domains_path(kind, service), request).await
    }

    pub async fn update_custom_domain(
        &self,
        (kind, service): (ServiceType, Uuid),
        domain: Uuid,
        request: &CustomDomainRequest,
    ) -> Result<CustomDomain, ApiError> {
        self.put(
            &format!("{}/{domain}", domains_path(kind, service)),
            request,
        )
        .await
    }

    pub async fn delete_custom_domain(
        &self,
        (kind, service): (ServiceType, Uuid),
        domain: Uuid,
    ) -> Result<(), ApiError> {
        self.delete(&format!("{}/{domain}", domains_path(kind, service)))
            .await
    }
}
