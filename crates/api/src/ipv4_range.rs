//! IPv4 ranges written as `10.1.0.0/16`: read, and compared (a route's destination and a
//! cluster's own network).

use std::net::Ipv4Addr;

/// An IPv4 range: its network address (no host bits set) and prefix length.
pub fn cidr(value: &str) -> Option<(Ipv4Addr, u8)> {
    let (address, length) = value.split_once('/')?;
    let address: Ipv4Addr = address.parse().ok()?;
    let length: u8 = length.parse().ok().filter(|length| *length <= 32)?;
    let mask = u32::MAX.checked_shl(32 - u32::from(length)).unwrap_or(0);
    (u32::from(address) & !mask == 0).then_some((address, length))
}

/// Whether `address` is inside the range.
pub fn within(address: Ipv4Addr, (network, length): (Ipv4Addr, u8)) -> bool {
    let mask = u32::MAX.checked_shl(32 - u32::from(length)).unwrap_or(0);
    u32::from(address) & mask == u32::from(network) & mask
}

/// Whether two ranges share an address.
pub fn overlap(a: (Ipv4Addr, u8), b: (Ipv4Addr, u8)) -> bool {
    let wider = if a.1 <= b.1 { a } else { b };
    let narrower = if a.1 <= b.1 { b } else { a };
    within(narrower.0, wider)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_overlap_when_they_share_an_address() {
        let subnet = cidr("10.0.0.0/16").unwrap();
        let inside = cidr("10.0.4.0/24").unwrap();
        let around = cidr("10.0.0.0/8").unwrap();
        let apart = cidr("10.1.0.0/16").unwrap();
        assert!(overlap(subnet, inside) && overlap(inside, subnet));
        assert!(overlap(subnet, around));
        assert!(!overlap(subnet, apart));
        assert_eq!(cidr("10.0.0.1/16"), None);
        assert_eq!(cidr("10.0.0.0/33"), None);
        assert!(cidr("0.0.0.0/0").is_some());
    }
}
