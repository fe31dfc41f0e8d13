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

/// Whether the range `inner` is `outer` or a part of it.
pub fn inside(inner: (Ipv4Addr, u8), outer: (Ipv4Addr, u8)) -> bool {
    inner.1 >= outer.1 && within(inner.0, outer)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_range_is_inside_another_when_every_address_of_it_is() {
        let subnet = cidr("10.0.0.0/16").unwrap();
        let part = cidr("10.0.4.0/24").unwrap();
        let around = cidr("10.0.0.0/8").unwrap();
        let everything = cidr("0.0.0.0/0").unwrap();
        let apart = cidr("10.1.0.0/16").unwrap();
        assert!(inside(part, subnet) && inside(subnet, subnet));
        assert!(!inside(subnet, part));
        assert!(!inside(around, subnet) && !inside(everything, subnet));
        assert!(!inside(apart, subnet));
        assert_eq!(cidr("10.0.0.1/16"), None);
        assert_eq!(cidr("10.0.0.0/33"), None);
        assert!(cidr("0.0.0.0/0").is_some());
    }
}
