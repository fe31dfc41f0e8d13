//! A cluster's DNS provider (`/cluster/{id}/dnsProvider`): the domain its services' records are
//! written under, and who writes them: the platform itself, Cloudflare (proxied or not) or a
//! Route 53 hosted zone. Its secret (Cloudflare's API token, Route 53's secret key) is sent on
//! every edit and never answered.

use serde::{Deserialize, Serialize};

use crate::cloud::CloudProvider;
use crate::custom_domain::{host_name, not_the_platforms, the_platforms, GENERATED_DOMAIN};
use crate::error::FieldError;
use crate::member::email;
use crate::rules::{self, Violations};

wire_enum!(
    DnsProviderKind {
        Platform = "QOVERY" => "The platform's DNS",
        Cloudflare = "CLOUDFLARE" => "Cloudflare",
        Route53 = "ROUTE53" => "Route 53",
    }
);

wire_enum!(
    Route53CredentialsType {
        Static = "STATIC" => "Access key",
    }
);

/// The most characters of a token, key or zone id.
pub const DNS_SECRET_MAX_CHARS: usize = 1024;

/// What `GET` answers and `PUT` sends: `{"dns_provider": …}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ClusterDnsProvider {
    pub dns_provider: DnsProvider,
}

/// One provider's fields, the others left out; the secret ones only in a request.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DnsProvider {
    pub provider: DnsProviderKind,
    pub domain: String,
    /// Cloudflare: the account's e-mail address and API token, and whether its records are
    /// proxied (the service then answers from Cloudflare's addresses).
    #[serde(default)]
    pub email: Option<String>,
    #[serde(default)]
    pub api_token: Option<String>,
    #[serde(default)]
    pub proxied: Option<bool>,
    /// Route 53: the access key, the zone's region and, when given, the hosted zone.
    #[serde(default)]
    pub credentials: Option<Route53Credentials>,
    #[serde(default)]
    pub aws_region: Option<String>,
    #[serde(default)]
    pub hosted_zone_id: Option<String>,
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Route53Credentials {
    #[serde(rename = "type")]
    pub kind: Route53CredentialsType,
    pub aws_access_key_id: String,
    #[serde(default)]
    pub aws_secret_access_key: Option<String>,
}

impl Default for DnsProvider {
    /// A cluster's provider until one is chosen: the platform's, under its own domain.
    fn default() -> Self {
        Self::new(DnsProviderKind::Platform, GENERATED_DOMAIN.to_string())
    }
}

impl DnsProvider {
    pub fn new(provider: DnsProviderKind, domain: String) -> Self {
        Self {
            provider,
            domain,
            email: None,
            api_token: None,
            proxied: None,
            credentials: None,
            aws_region: None,
            hosted_zone_id: None,
        }
    }

    /// Whether the services' records are proxied: a custom domain pointed at them then
    /// resolves to the proxy's addresses.
    pub fn is_proxied(&self) -> bool {
        self.provider == DnsProviderKind::Cloudflare && self.proxied == Some(true)
    }

    /// The secret a request carries: Cloudflare's token or Route 53's secret key.
    pub fn secret(&self) -> Option<&str> {
        match self.provider {
            DnsProviderKind::Cloudflare => self.api_token.as_deref(),
            DnsProviderKind::Route53 => self
                .credentials
                .as_ref()
                .and_then(|credentials| credentials.aws_secret_access_key.as_deref()),
            _ => None,
        }
    }

    /// The provider as it is kept and answered: trimmed, its secret left out, a Cloudflare
    /// provider's `proxied` said.
    pub fn without_secret(&self) -> Self {
        let trimmed = |value: &Option<String>| given(value).map(str::to_string);
        Self {
            provider: self.provider,
            domain: self.domain.trim().to_ascii_lowercase(),
            email: trimmed(&self.email),
            api_token: None,
            proxied: (self.provider == DnsProviderKind::Cloudflare)
                .then_some(self.proxied.unwrap_or(false)),
            credentials: self
                .credentials
                .as_ref()
                .map(|credentials| Route53Credentials {
                    kind: credentials.kind,
                    aws_access_key_id: credentials.aws_access_key_id.trim().to_string(),
                    aws_secret_access_key: None,
                }),
            aws_region: trimmed(&self.aws_region),
            hosted_zone_id: trimmed(&self.hosted_zone_id),
        }
    }

    /// Where its records are written, for the deployment log: "Route 53 (hosted zone Z… in
    /// eu-west-3)", "Cloudflare (proxied)".
    pub fn writer(&self) -> String {
        use crate::wire::WireEnum;
        let detail = match self.provider {
            DnsProviderKind::Cloudflare if self.is_proxied() => " (proxied)".to_string(),
            DnsProviderKind::Route53 => format!(
                " ({} in {})",
                self.hosted_zone_id
                    .as_deref()
                    .map(|zone| format!("hosted zone {zone}"))
                    .unwrap_or_else(|| format!("the hosted zone of {}", self.domain)),
                self.aws_region.as_deref().unwrap_or_default()
            ),
            _ => String::new(),
        };
        format!("{}{detail}", self.provider.label())
    }

    /// The rules of an edit: a host name (of the team's own unless the platform writes it),
    /// and exactly the chosen provider's fields, its secret included.
    pub fn validate(&self) -> Result<(), Vec<FieldError>> {
        const FIELD: &str = "dns_provider";
        let at = |name: &str| format!("{FIELD}.{name}");
        let mut violations = Violations::default();
        let domain = at("domain");
        violations.check(host_name(&domain, &self.domain).or_else(|| {
            if self.provider == DnsProviderKind::Platform {
                the_platforms(&domain, &self.domain)
            } else {
                not_the_platforms(&domain, &self.domain)
            }
        }));
        let required = |name: &str, value: Option<&str>| match value {
            None => Some(FieldError::new(at(name), "is required")),
            Some(value) => rules::line(&at(name), value, DNS_SECRET_MAX_CHARS),
        };
        let cloudflare = self.provider == DnsProviderKind::Cloudflare;
        let route53 = self.provider == DnsProviderKind::Route53;
        let not_a_field = |name: &str| {
            Some(FieldError::new(
                at(name),
                format!(
                    "is not a field of the provider chosen ({})",
                    self.provider_name()
                ),
            ))
        };
        match self.provider {
            DnsProviderKind::Platform | DnsProviderKind::Cloudflare | DnsProviderKind::Route53 => {}
            DnsProviderKind::Other(_) => {
                violations.check(Some(FieldError::new(
                    at("provider"),
                    "must be QOVERY, CLOUDFLARE or ROUTE53",
                )));
            }
        }
        if cloudflare {
            match given(&self.email) {
                Some(address) => violations.check(email(&at("email"), address)),
                None => violations.check(Some(FieldError::new(at("email"), "is required"))),
            }
            violations.check(required("api_token", given(&self.api_token)));
        } else {
            if given(&self.email).is_some() {
                violations.check(not_a_field("email"));
            }
            if given(&self.api_token).is_some() {
                violations.check(not_a_field("api_token"));
            }
            if self.proxied == Some(true) {
                violations.check(not_a_field("proxied"));
            }
        }
        if route53 {
            match &self.credentials {
                None => violations.check(Some(FieldError::new(at("credentials"), "is required"))),
                Some(credentials) => {
                    if credentials.kind != Route53CredentialsType::Static {
                        violations.check(Some(FieldError::new(
                            at("credentials.type"),
                            "must be STATIC",
                        )));
                    }
                    let key = credentials.aws_access_key_id.trim();
                    violations.check(required(
                        "credentials.aws_access_key_id",
                        (!key.is_empty()).then_some(key),
                    ));
                    violations.check(required(
                        "credentials.aws_secret_access_key",
                        given(&credentials.aws_secret_access_key),
                    ));
                }
            }
            let regions = CloudProvider::Aws.region_names();
            violations.check(crate::cloud::region_rule(
                &at("aws_region"),
                CloudProvider::Aws,
                given(&self.aws_region).unwrap_or_default(),
                regions.as_deref(),
            ));
            if let Some(zone) = given(&self.hosted_zone_id) {
                violations.check(hosted_zone_id(&at("hosted_zone_id"), zone));
            }
        } else {
            if self.credentials.is_some() {
                violations.check(not_a_field("credentials"));
            }
            if given(&self.aws_region).is_some() {
                violations.check(not_a_field("aws_region"));
            }
            if given(&self.hosted_zone_id).is_some() {
                violations.check(not_a_field("hosted_zone_id"));
            }
        }
        violations.into_result()
    }

    fn provider_name(&self) -> &'static str {
        use crate::wire::WireEnum;
        self.provider.label()
    }
}

/// A text given: there and not blank.
fn given(value: &Option<String>) -> Option<&str> {
    value
        .as_deref()
        .map(str::trim)
        .filter(|value| !value.is_empty())
}

/// A Route 53 hosted zone id: `Z` and up to 31 capital letters and digits.
fn hosted_zone_id(field: &str, value: &str) -> Option<FieldError> {
    let well_formed = value.len() <= 32
        && value.starts_with('Z')
        && value
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit());
    (!well_formed).then(|| {
        FieldError::new(
            field,
            "must be a hosted zone id such as Z0965488LE74BWDEVQDB: Z and capital letters and digits",
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(provider: &DnsProvider) -> Vec<String> {
        provider
            .validate()
            .err()
            .unwrap_or_default()
            .into_iter()
            .map(|error| error.field)
            .collect()
    }

    fn cloudflare() -> DnsProvider {
        DnsProvider {
            email: Some("ops@example.com".into()),
            api_token: Some("cf-token".into()),
            proxied: Some(true),
            ..DnsProvider::new(DnsProviderKind::Cloudflare, "apps.example.com".into())
        }
    }

    fn route53() -> DnsProvider {
        DnsProvider {
            credentials: Some(Route53Credentials {
                kind: Route53CredentialsType::Static,
                aws_access_key_id: "AKIAEXAMPLE".into(),
                aws_secret_access_key: Some("secret".into()),
            }),
            aws_region: Some("eu-west-3".into()),
            hosted_zone_id: Some("Z0965488LE74BWDEVQDB".into()),
            ..DnsProvider::new(DnsProviderKind::Route53, "apps.example.com".into())
        }
    }

    #[test]
    fn each_provider_takes_its_own_fields_and_its_secret() {
        assert!(fields(&DnsProvider::default()).is_empty());
        assert!(fields(&cloudflare()).is_empty());
        assert!(fields(&route53()).is_empty());
        let no_token = DnsProvider {
            api_token: None,
            ..cloudflare()
        };
        assert_eq!(fields(&no_token), ["dns_provider.api_token"]);
        let mut no_key = route53();
        no_key.credentials.as_mut().unwrap().aws_secret_access_key = None;
        no_key.aws_region = Some("mars-1".into());
        no_key.hosted_zone_id = Some("zone".into());
        assert_eq!(
            fields(&no_key),
            [
                "dns_provider.credentials.aws_secret_access_key",
                "dns_provider.aws_region",
                "dns_provider.hosted_zone_id"
            ]
        );
        let mixed = DnsProvider {
            email: Some("ops@example.com".into()),
            ..route53()
        };
        assert_eq!(fields(&mixed), ["dns_provider.email"]);
        // Said in words that read: "… of the provider chosen (Route 53)".
        let refused = mixed.validate().unwrap_err();
        assert_eq!(
            refused[0].message,
            "is not a field of the provider chosen (Route 53)"
        );
    }

    #[test]
    fn only_the_platform_writes_under_its_own_domain() {
        let theirs = DnsProvider {
            domain: "x.platform-apps.example".into(),
            ..cloudflare()
        };
        assert_eq!(fields(&theirs), ["dns_provider.domain"]);
        let bad = DnsProvider::new(DnsProviderKind::Platform, "not a host".into());
        assert_eq!(fields(&bad), ["dns_provider.domain"]);
        // And the platform writes only there: not a domain of someone else's.
        let elsewhere = DnsProvider::new(DnsProviderKind::Platform, "google.com".into());
        assert_eq!(fields(&elsewhere), ["dns_provider.domain"]);
        let below = DnsProvider::new(DnsProviderKind::Platform, "eu.platform-apps.example".into());
        assert!(fields(&below).is_empty());
    }

    #[test]
    fn what_is_kept_has_no_secret() {
        let kept = route53().without_secret();
        assert_eq!(kept.secret(), None);
        assert_eq!(route53().secret(), Some("secret"));
        assert_eq!(cloudflare().without_secret().api_token, None);
        assert!(cloudflare().is_proxied());
        assert_eq!(
            route53().writer(),
            "Route 53 (hosted zone Z0965488LE74BWDEVQDB in eu-west-3)"
        );
        assert_eq!(cloudflare().writer(), "Cloudflare (proxied)");
    }
}
