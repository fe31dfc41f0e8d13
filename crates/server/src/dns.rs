//! The DNS check of custom domains, simulated: no lookup leaves this server, and the outcome is
//! fixed by the name, so that a check says the same every time. A name under `.invalid` (a
//! top-level domain that never resolves, RFC 2606) has no record; any other name is taken to be
//! set as asked: behind a CDN it resolves to an address, else its CNAME is the service's
//! `validation_domain` under its cluster's DNS domain; a cluster whose provider proxies its
//! records (Cloudflare, proxied) has every custom domain resolve to the proxy's addresses.

use platform_api::{
    validation_domain, CheckedCustomDomain, CheckedCustomDomainStatus, DnsProvider,
};
use uuid::Uuid;

/// Where a service's custom domains are to point, by its cluster's DNS provider.
pub struct Pointing {
    pub target: String,
    proxied: bool,
}

impl Pointing {
    pub fn new(provider: &DnsProvider, service_id: Uuid, environment_id: Uuid) -> Self {
        Self {
            target: validation_domain(service_id, environment_id, &provider.domain),
            proxied: provider.is_proxied(),
        }
    }

    /// What a check of `domain` finds.
    pub fn check(&self, domain: &str, use_cdn: bool) -> CheckedCustomDomain {
        check(domain, use_cdn || self.proxied, &self.target)
    }
}

/// What a check of `domain` finds, its CNAME asked to point at `validation_domain`.
fn check(domain: &str, use_cdn: bool, validation_domain: &str) -> CheckedCustomDomain {
    let name = domain.trim_end_matches('.').to_ascii_lowercase();
    let (status, error_details) = if name == "invalid" || name.ends_with(".invalid") {
        (
            CheckedCustomDomainStatus::DomainNotConfigured,
            Some(format!(
                "No DNS record answers for {domain}: add a CNAME record pointing at \
                 {validation_domain} (this server simulates DNS: names under .invalid never resolve)."
            )),
        )
    } else if use_cdn {
        (CheckedCustomDomainStatus::ResolvesToIp, None)
    } else {
        (CheckedCustomDomainStatus::MatchesLoadBalancerHost, None)
    };
    CheckedCustomDomain {
        domain_name: domain.to_string(),
        status,
        error_details,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_under_invalid_fail_and_others_point_where_asked() {
        let target = "zabc-zdef.platform-apps.example";
        let failing = check("shop.invalid", false, target);
        assert_eq!(
            failing.status,
            CheckedCustomDomainStatus::DomainNotConfigured
        );
        assert!(failing.error_details.unwrap().contains(target));
        assert_eq!(
            check("shop.example.com", false, target).status,
            CheckedCustomDomainStatus::MatchesLoadBalancerHost
        );
        assert_eq!(
            check("shop.example.com", true, target).status,
            CheckedCustomDomainStatus::ResolvesToIp
        );
    }
}
