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

/// The address as a link may take it: an absolute `http` or `https` URL naming a host, without
/// spaces or control characters. Anything else an answer gives (a relative path, which would open
/// a page of the console, or `javascript:`, which would run) is shown as text, never followed.
pub fn web_address(url: &str) -> Option<&str> {
    let scheme_ends = url.find("://")?;
    let scheme = &url[..scheme_ends];
    let rest = &url[scheme_ends + 3..];
    let host = &rest[..rest.find(['/', '?', '#']).unwrap_or(rest.len())];
    let web = scheme.eq_ignore_ascii_case("https") || scheme.eq_ignore_ascii_case("http");
    let clean = !url.chars().any(|c| c.is_whitespace() || c.is_control());
    (web && clean && !host.is_empty()).then_some(url)
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

#[cfg(test)]
mod tests {
    use super::web_address;

    #[test]
    fn only_absolute_web_addresses_are_links() {
        for url in [
            "https://web-z1.platform-apps.example",
            "http://127.0.0.1:8080/run/abc/",
            "HTTPS://Shop.Example.com?x=1",
        ] {
            assert_eq!(web_address(url), Some(url), "{url}");
        }
        for url in [
            "javascript:alert(1)",
            "JavaScript://%0Aalert(1)",
            "/organization/1/overview",
            "web.internal",
            "string",
            "https://",
            "https:///path",
            "ftp://files.example.com",
            "https://shop.example.com/a b",
            "https://shop.example.com/\n",
            "data:text/html,<script>",
            "",
        ] {
            assert_eq!(web_address(url), None, "{url}");
        }
    }
}

/// Where the ingress routing to a service's public ports stands
/// (`GET /{kind}/{id}/ingressDeploymentStatus`): deployed with the service, so in its state; a
/// service with no public port has no ingress, and the answer names neither.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct IngressDeploymentStatus {
    /// The environment's router, which the ingress is part of.
    #[serde(default, rename = "routerId")]
    pub router_id: Option<Uuid>,
    #[serde(default)]
    pub status: Option<crate::status::ServiceState>,
}
