//! Where the server may send requests on a caller's behalf (webhook deliveries, alert receivers):
//! public addresses only, so that a caller cannot reach the server's own network through it
//! (loopback, private, link-local as cloud metadata, multicast, unspecified). Networks named with
//! `--allow-target-network` are reachable too (the tests' receivers listen on loopback).
//!
//! A name is checked once its addresses are known: when a target is saved, and again at every
//! delivery through the HTTP client's resolver, so that a name resolving elsewhere later (DNS
//! rebinding) is refused then.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;

use ipnet::IpNet;
use platform_api::FieldError;
use reqwest::dns::{Addrs, Name, Resolve, Resolving};

/// The networks the server may reach besides public addresses.
#[derive(Clone, Debug, Default)]
pub struct TargetPolicy {
    allowed: Vec<IpNet>,
}

/// Why a target is refused, in words that name neither the port nor whether anything listens.
pub const NOT_PUBLIC: &str =
    "must be a public address: loopback, private, link-local, multicast and unspecified addresses are refused";

impl TargetPolicy {
    pub fn new(allowed: Vec<IpNet>) -> Self {
        Self { allowed }
    }

    pub fn allows(&self, ip: IpAddr) -> bool {
        let ip = canonical(ip);
        is_public(ip) || self.allowed.iter().any(|network| network.contains(&ip))
    }

    /// Whether `url` (an http(s) URL the request's rules accepted) may be called: its host, or
    /// every address its name resolves to now, allowed. A name that does not resolve now is
    /// accepted: it is checked again at delivery.
    pub async fn check(&self, field: &str, url: &str) -> Result<(), FieldError> {
        let refused = || FieldError::new(field, NOT_PUBLIC);
        let parsed = reqwest::Url::parse(url).map_err(|_| refused())?;
        match parsed.host() {
            Some(url::Host::Ipv4(ip)) => self.allows(ip.into()).then_some(()).ok_or_else(refused),
            Some(url::Host::Ipv6(ip)) => self.allows(ip.into()).then_some(()).ok_or_else(refused),
            Some(url::Host::Domain(name)) => {
                let port = parsed.port_or_known_default().unwrap_or(443);
                match tokio::net::lookup_host((name, port)).await {
                    Ok(addresses) => {
                        let mut addresses = addresses.peekable();
                        let known = addresses.peek().is_some();
                        let all_allowed = addresses.all(|address| self.allows(address.ip()));
                        (!known || all_allowed).then_some(()).ok_or_else(refused)
                    }
                    Err(_) => Ok(()),
                }
            }
            None => Err(refused()),
        }
    }

    /// Whether the host of `url` is an address the policy refuses: resolved names are filtered
    /// by `Resolver`, addresses written in the URL are not resolved, so they are checked here.
    pub fn refuses_literal(&self, url: &reqwest::Url) -> bool {
        match url.host() {
            Some(url::Host::Ipv4(ip)) => !self.allows(ip.into()),
            Some(url::Host::Ipv6(ip)) => !self.allows(ip.into()),
            _ => false,
        }
    }
}

/// The HTTP client's resolver: a name's allowed addresses, or an error when it has none.
pub struct Resolver {
    pub policy: Arc<TargetPolicy>,
}

impl Resolve for Resolver {
    fn resolve(&self, name: Name) -> Resolving {
        let policy = self.policy.clone();
        Box::pin(async move {
            let found: Vec<SocketAddr> = tokio::net::lookup_host((name.as_str(), 0))
                .await?
                .filter(|address| policy.allows(address.ip()))
                .collect();
            if found.is_empty() {
                return Err(NOT_PUBLIC.into());
            }
            let addresses: Addrs = Box::new(found.into_iter());
            Ok(addresses)
        })
    }
}

/// An IPv4 address written as IPv6 (`::ffff:127.0.0.1`) is that IPv4 address.
fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        v4 => v4,
    }
}

fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(ip) => is_public_v4(ip),
        IpAddr::V6(ip) => is_public_v6(ip),
    }
}

fn is_public_v4(ip: Ipv4Addr) -> bool {
    let [a, b, ..] = ip.octets();
    let shared = a == 100 && (64..128).contains(&b); // 100.64.0.0/10, carrier-grade NAT
    let this_network = a == 0; // 0.0.0.0/8
    let reserved = a >= 240; // 240.0.0.0/4 and broadcast
    !(ip.is_loopback()
        || ip.is_private()
        || ip.is_link_local()
        || ip.is_multicast()
        || ip.is_unspecified()
        || ip.is_documentation()
        || shared
        || this_network
        || reserved)
}

fn is_public_v6(ip: Ipv6Addr) -> bool {
    let first = ip.segments()[0];
    let unique_local = (first & 0xfe00) == 0xfc00; // fc00::/7
    let link_local = (first & 0xffc0) == 0xfe80; // fe80::/10
    let documentation = first == 0x2001 && ip.segments()[1] == 0x0db8; // 2001:db8::/32
    !(ip.is_loopback()
        || ip.is_unspecified()
        || ip.is_multicast()
        || unique_local
        || link_local
        || documentation)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_public_addresses_are_allowed_unless_their_network_is() {
        let policy = TargetPolicy::default();
        for refused in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "0.0.0.0",
            "224.0.0.1",
            "255.255.255.255",
            "::1",
            "::",
            "fe80::1",
            "fd00::1",
            "ff02::1",
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1",
        ] {
            assert!(!policy.allows(refused.parse().unwrap()), "{refused}");
        }
        for allowed in ["93.184.216.34", "8.8.8.8", "2606:4700:4700::1111"] {
            assert!(policy.allows(allowed.parse().unwrap()), "{allowed}");
        }
        let loopback = TargetPolicy::new(vec!["127.0.0.0/8".parse().unwrap()]);
        assert!(loopback.allows("127.0.0.1".parse().unwrap()));
        assert!(!loopback.allows("10.0.0.1".parse().unwrap()));
    }
}
