//! Where a service can be reached: the production document's `Link`, one per address of each of
//! its public ports, the root of the service's address marked `is_default`.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::ports::Port;
use crate::service_type::ServiceType;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Link {
    pub service_id: Uuid,
    pub service_type: ServiceType,
    pub url: String,
    /// The port the service listens on inside the cluster.
    pub internal_port: i64,
    /// The port it is reached at from outside (443 for HTTPS).
    pub external_port: i64,
    /// Whether the platform made the address (false for a custom domain).
    pub is_qovery_domain: bool,
    /// Whether the address is the root of the service's address rather than one of a port.
    pub is_default: bool,
}

impl Link {
    /// The link a person opens first: the root of the service's address, else its first.
    pub fn main(links: &[Link]) -> Option<&Link> {
        links
            .iter()
            .find(|link| link.is_default)
            .or_else(|| links.first())
    }
}

/// The port whose address is the root of the service's: the one marked default, else the first
/// public one.
pub fn default_port(ports: &[Port]) -> Option<&Port> {
    let public = || ports.iter().filter(|port| port.publicly_accessible);
    public()
        .find(|port| port.is_default)
        .or_else(|| public().next())
}

/// The port a public port is reached at from outside: its own, else 443 (HTTPS).
pub fn external_port(port: &Port) -> i64 {
    port.external_port.unwrap_or(443)
}
