//! Custom domains: a name of the team's own that reaches a service (applications, containers,
//! helm services), set at their DNS provider as a CNAME to the service's `validation_domain`.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::error::FieldError;

/// The domain the platform's own addresses are under: a custom domain may not be one of them.
pub const GENERATED_DOMAIN: &str = "platform-apps.example";

/// At most this many characters in a domain name (RFC 1035).
pub const DOMAIN_MAX_CHARS: usize = 253;

wire_enum!(
    /// A custom domain's state in the document: pending until the platform has checked it.
    CustomDomainStatus {
        ValidationPending = "VALIDATION_PENDING" => "Validation pending",
    }
);

wire_enum!(
    /// What a check of a custom domain's DNS found (`checkCustomDomain`).
    CheckedCustomDomainStatus {
        ResolvesToIp = "RESOLVES_TO_IP" => "Resolves to an address",
        MatchesLoadBalancerHost = "MATCHES_LOAD_BALANCER_HOST" => "Points at the service",
        DomainNotConfigured = "DOMAIN_NOT_CONFIGURED" => "Not configured",
        DomainLinkedToWrongHost = "DOMAIN_LINKED_TO_WRONG_HOST" => "Points elsewhere",
        GenericFailure = "GENERIC_FAILURE" => "Check failed",
    }
);

impl CheckedCustomDomainStatus {
    /// Whether the domain reaches the service.
    pub fn is_success(self) -> bool {
        matches!(self, Self::ResolvesToIp | Self::MatchesLoadBalancerHost)
    }
}

/// Body of `POST /{kind}/{id}/customDomain` and of its update.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CustomDomainRequest {
    pub domain: String,
    /// Whether the platform makes the domain's certificate; `false` when a CDN in front does.
    pub generate_certificate: bool,
    /// Whether a CDN proxies the domain: its check then asks only that it resolves.
    #[serde(default)]
    pub use_cdn: Option<bool>,
}

impl CustomDomainRequest {
    pub fn validate(&self) -> Result<(), Vec<FieldError>> {
        match domain("domain", &self.domain) {
            Some(error) => Err(vec![error]),
            None => Ok(()),
        }
    }
}

/// A custom domain as answered.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CustomDomain {
    pub id: Uuid,
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    #[serde(default, with = "crate::timestamp::option")]
    pub updated_at: Option<DateTime<Utc>>,
    pub domain: String,
    #[serde(default = "certificate_by_default")]
    pub generate_certificate: bool,
    #[serde(default)]
    pub use_cdn: Option<bool>,
    /// Where the domain's CNAME points.
    #[serde(default)]
    pub validation_domain: Option<String>,
    #[serde(default)]
    pub status: Option<CustomDomainStatus>,
}

/// The document's default: the platform makes the certificate.
fn certificate_by_default() -> bool {
    true
}

/// A domain's DNS, as a check found it (`GET /{kind}/{id}/checkCustomDomain`).
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CheckedCustomDomain {
    pub domain_name: String,
    pub status: CheckedCustomDomainStatus,
    #[serde(default)]
    pub error_details: Option<String>,
}

/// The CNAME target of a service's custom domains: a name under its cluster's DNS domain
/// (`DnsProvider::domain`, the platform's `GENERATED_DOMAIN` unless the cluster names another),
/// made from the service's and its environment's ids.
pub fn validation_domain(service_id: Uuid, environment_id: Uuid, dns_domain: &str) -> String {
    let service = &service_id.simple().to_string()[..8];
    let environment = &environment_id.simple().to_string()[..8];
    format!("z{service}-z{environment}.{dns_domain}")
}

/// A custom domain is a host name of the team's own (`host_name`); a leading `*.` covers every
/// subdomain.
pub fn domain(field: &str, value: &str) -> Option<FieldError> {
    let value = value.trim();
    host_name(field, value.strip_prefix("*.").unwrap_or(value))
        .or_else(|| not_the_platforms(field, value))
}

/// A host name: labels of letters, digits and hyphens (not at either end), at least two of them,
/// the last not only digits; at most 253 characters.
pub fn host_name(field: &str, value: &str) -> Option<FieldError> {
    let value = value.trim();
    if value.is_empty() {
        return Some(FieldError::new(field, "is required"));
    }
    if value.chars().count() > DOMAIN_MAX_CHARS {
        return Some(FieldError::new(
            field,
            format!("must be at most {DOMAIN_MAX_CHARS} characters"),
        ));
    }
    let name = value.to_ascii_lowercase();
    let labels: Vec<&str> = name.split('.').collect();
    let well_formed = labels.len() >= 2
        && labels.iter().all(|label| {
            (1..=63).contains(&label.len())
                && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
                && !label.starts_with('-')
                && !label.ends_with('-')
        })
        && !labels
            .last()
            .is_some_and(|top| top.chars().all(|c| c.is_ascii_digit()));
    (!well_formed).then(|| {
        FieldError::new(
            field,
            "must be a host name such as app.example.com: letters, digits and hyphens between dots",
        )
    })
}

/// Whether `value` is the platform's `GENERATED_DOMAIN` or a name under it.
fn under_the_platforms(value: &str) -> bool {
    let name = value.trim().to_ascii_lowercase();
    name == GENERATED_DOMAIN || name.ends_with(&format!(".{GENERATED_DOMAIN}"))
}

/// A domain of the team's own is never under the platform's `GENERATED_DOMAIN`.
pub fn not_the_platforms(field: &str, value: &str) -> Option<FieldError> {
    under_the_platforms(value).then(|| {
        FieldError::new(
            field,
            format!("is under {GENERATED_DOMAIN}, the platform's own domain: give one of yours"),
        )
    })
}

/// The platform's DNS writes records only under its own `GENERATED_DOMAIN`.
pub fn the_platforms(field: &str, value: &str) -> Option<FieldError> {
    (!under_the_platforms(value)).then(|| {
        FieldError::new(
            field,
            format!(
                "must be {GENERATED_DOMAIN} or a name under it: the platform's DNS writes \
                 records only under its own domain (choose Cloudflare or Route 53 for one of yours)"
            ),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_domain_is_a_host_name_of_ones_own() {
        for good in [
            "app.example.com",
            "*.shop.example.org",
            "a-b.c9.io",
            "API.Example.COM",
        ] {
            assert_eq!(domain("domain", good), None, "{good}");
        }
        for bad in [
            "",
            "localhost",
            "-app.example.com",
            "app-.example.com",
            "app..example.com",
            "app.example.com.",
            "app_1.example.com",
            "https://app.example.com",
            "10.0.0.1",
            "web.platform-apps.example",
            "platform-apps.example",
        ] {
            assert!(domain("domain", bad).is_some(), "{bad}");
        }
        let long = format!("{}.example.com", "a.".repeat(130));
        assert!(domain("domain", &long).is_some());
    }

    #[test]
    fn the_validation_domain_is_under_the_clusters_dns_domain() {
        let target = validation_domain(Uuid::new_v4(), Uuid::new_v4(), GENERATED_DOMAIN);
        assert!(target.ends_with(&format!(".{GENERATED_DOMAIN}")));
        assert!(domain("domain", &target).is_some());
        let own = validation_domain(Uuid::new_v4(), Uuid::new_v4(), "apps.example.com");
        assert!(own.ends_with(".apps.example.com"));
        assert_eq!(host_name("domain", &own), None);
    }
}
