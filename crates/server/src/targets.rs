//! Where the server may send requests on a caller's behalf (webhook deliveries, alert receivers):
//! public addresses only, so that a caller cannot reach the server's own network through it: every
//! special-purpose network of IANA's registries is refused (loopback, private, link-local as cloud
//! metadata, shared, benchmarking, documentation, multicast, reserved…), and an IPv6 address
//! carrying an IPv4 one is judged by that one. Networks named with `--allow-target-network` are
//! reachable too (the tests' receivers listen on loopback).
//!
//! The decision is made on the address the connection is made to: a name's addresses when a
//! target is saved, and again at every delivery through the HTTP client's resolver (and the SMTP
//! client's look-up), so that a name resolving elsewhere later (DNS rebinding) is refused then.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::{Arc, LazyLock};

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
    "must be a public address: loopback, private, link-local, shared, documentation, benchmarking, multicast, reserved and other special-purpose addresses are refused";

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

/// The networks of IANA's special-purpose address registries (IPv4 and IPv6, RFC 6890 and its
/// updates) and the multicast and reserved ranges: nothing a caller may make this server reach.
/// Kept whole even where a registry marks a small part globally reachable (192.0.0.9/32 in
/// 192.0.0.0/24): a receiver never lives there.
const SPECIAL_V4: &[&str] = &[
    "0.0.0.0/8",       // this network
    "10.0.0.0/8",      // private
    "100.64.0.0/10",   // shared address space (carrier-grade NAT)
    "127.0.0.0/8",     // loopback
    "169.254.0.0/16",  // link-local (cloud metadata)
    "172.16.0.0/12",   // private
    "192.0.0.0/24",    // IETF protocol assignments
    "192.0.2.0/24",    // documentation
    "192.31.196.0/24", // AS112
    "192.52.193.0/24", // AMT
    "192.88.99.0/24",  // 6to4 relay anycast
    "192.168.0.0/16",  // private
    "192.175.48.0/24", // AS112 direct delegation
    "198.18.0.0/15",   // benchmarking
    "198.51.100.0/24", // documentation
    "203.0.113.0/24",  // documentation
    "224.0.0.0/4",     // multicast
    "240.0.0.0/4",     // reserved, and the limited broadcast
];
const SPECIAL_V6: &[&str] = &[
    "::/96",             // unspecified, loopback and IPv4-compatible (`::127.0.0.1`)
    "::ffff:0:0:0/96",   // IPv4-translated
    "64:ff9b:1::/48",    // local-use IPv4/IPv6 translation
    "100::/64",          // discard-only
    "2001::/23",         // IETF protocol assignments, Teredo among them
    "2001:db8::/32",     // documentation
    "2620:4f:8000::/48", // AS112
    "3fff::/20",         // documentation
    "5f00::/16",         // segment routing
    "fc00::/7",          // unique local
    "fe80::/10",         // link-local
    "ff00::/8",          // multicast
];

fn special_networks() -> &'static [IpNet] {
    static NETWORKS: LazyLock<Vec<IpNet>> = LazyLock::new(|| {
        SPECIAL_V4
            .iter()
            .chain(SPECIAL_V6)
            .map(|network| network.parse().expect("a network of the registries"))
            .collect()
    });
    &NETWORKS
}

/// The IPv4 address an IPv6 address carries where it is what a connection reaches: mapped
/// (`::ffff:127.0.0.1`), NAT64's well-known prefix (`64:ff9b::7f00:1`) and 6to4
/// (`2002:7f00:1::`).
fn carried_v4(ip: Ipv6Addr) -> Option<Ipv4Addr> {
    let s = ip.segments();
    let v4 = |high: u16, low: u16| Ipv4Addr::from((u32::from(high) << 16) | u32::from(low));
    if let Some(mapped) = ip.to_ipv4_mapped() {
        Some(mapped)
    } else if s[..6] == [0x64, 0xff9b, 0, 0, 0, 0] {
        Some(v4(s[6], s[7]))
    } else if s[0] == 0x2002 {
        Some(v4(s[1], s[2]))
    } else {
        None
    }
}

/// The address a connection to `ip` reaches: an IPv6 address carrying an IPv4 one is that one.
fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => carried_v4(v6).map_or(ip, IpAddr::V4),
        v4 => v4,
    }
}

fn is_public(ip: IpAddr) -> bool {
    !special_networks()
        .iter()
        .any(|network| network.contains(&ip))
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
            "198.18.0.1",
            "192.0.0.1",
            "192.0.2.1",
            "::1",
            "::",
            "fe80::1",
            "fd00::1",
            "ff02::1",
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1",
            "::127.0.0.1",
            "::7f00:1",
            "::ffff:0:7f00:1",
            "64:ff9b::7f00:1",
            "64:ff9b:1::a00:1",
            "2002:7f00:1::",
            "2002:a9fe:a9fe::1",
            "100::1",
            "2001::1",
            "2001:db8::1",
            "3fff::1",
        ] {
            assert!(!policy.allows(refused.parse().unwrap()), "{refused}");
        }
        for allowed in [
            "93.184.216.34",
            "8.8.8.8",
            "2606:4700:4700::1111",
            "::ffff:8.8.8.8",
            "64:ff9b::808:808",
            "2002:808:808::1",
        ] {
            assert!(policy.allows(allowed.parse().unwrap()), "{allowed}");
        }
        let loopback = TargetPolicy::new(vec!["127.0.0.0/8".parse().unwrap()]);
        assert!(loopback.allows("127.0.0.1".parse().unwrap()));
        assert!(loopback.allows("::ffff:127.0.0.1".parse().unwrap()));
        assert!(!loopback.allows("10.0.0.1".parse().unwrap()));
    }
}
