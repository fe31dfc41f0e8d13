//! A cluster's routing table (`/organization/{id}/cluster/{id}/routingTable`): the routes its
//! network sends beyond itself (a peered network, a transit gateway, a VPN), each a destination
//! range and the gateway or connection that reaches it. Only an AWS cluster's network has one
//! here; a deployment of the cluster applies it.

use serde::{Deserialize, Serialize};

use crate::error::FieldError;
use crate::ipv4_range::{cidr, inside};
use crate::rules::{self, Violations};

/// The most routes a table holds (a cloud's route table quota).
pub const ROUTES_MAX: usize = 50;

/// What a route's target may be, by its id's prefix: an internet, NAT, transit, virtual private
/// or carrier gateway, a peering connection, a network interface or an endpoint.
pub const ROUTE_TARGET_PREFIXES: [&str; 8] = [
    "igw-", "nat-", "tgw-", "vgw-", "cagw-", "pcx-", "eni-", "vpce-",
];

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Route {
    pub destination: String,
    pub target: String,
    pub description: String,
}

/// `GET`'s answer.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ClusterRoutingTable {
    #[serde(default)]
    pub results: Vec<Route>,
}

/// `PUT`'s body: the whole table.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ClusterRoutingTableRequest {
    pub routes: Vec<Route>,
}

impl Route {
    /// The route as it is kept: trimmed, its target in lower case.
    pub fn trimmed(&self) -> Self {
        Self {
            destination: self.destination.trim().to_string(),
            target: self.target.trim().to_ascii_lowercase(),
            description: self.description.trim().to_string(),
        }
    }
}

impl Route {
    /// A route written on one line, as a form shows it: `10.1.0.0/16 pcx-0a1b2c3d billing VPC`.
    pub fn line(&self) -> String {
        format!("{} {} {}", self.destination, self.target, self.description)
            .trim_end()
            .to_string()
    }

    /// The route a line writes: its destination, its target, then its description.
    pub fn from_line(line: &str) -> Self {
        let mut words = line.split_whitespace();
        let destination = words.next().unwrap_or_default().to_string();
        let target = words.next().unwrap_or_default().to_string();
        Self {
            destination,
            target,
            description: words.collect::<Vec<_>>().join(" "),
        }
    }
}

impl ClusterRoutingTableRequest {
    /// At most `ROUTES_MAX` routes, each to a distinct IPv4 range by a known kind of target,
    /// none to the cluster's own `network` (its VPC subnet) or a part of it when it is known:
    /// the network's own route reaches those. A wider range (a default route, `0.0.0.0/0`) is
    /// taken: the network's own, more specific route still wins for its addresses.
    pub fn validate_beside(&self, network: Option<&str>) -> Result<(), Vec<FieldError>> {
        let own = network.and_then(cidr);
        let mut violations = Violations::default();
        if let Err(errors) = self.validate() {
            violations.extend(errors);
        }
        for (index, route) in self.routes.iter().enumerate() {
            let inside = cidr(route.destination.trim())
                .zip(own)
                .is_some_and(|(range, own)| inside(range, own));
            if inside {
                violations.check(Some(FieldError::new(
                    format!("routes[{index}].destination"),
                    format!(
                        "is inside the cluster's own network, {}",
                        network.unwrap_or_default()
                    ),
                )));
            }
        }
        violations.into_result()
    }

    /// At most `ROUTES_MAX` routes, each to a distinct IPv4 range by a known kind of target.
    pub fn validate(&self) -> Result<(), Vec<FieldError>> {
        let mut violations = Violations::default();
        if self.routes.len() > ROUTES_MAX {
            violations.check(Some(FieldError::new(
                "routes",
                format!("holds at most {ROUTES_MAX} routes"),
            )));
            return violations.into_result();
        }
        let mut seen = Vec::new();
        for (index, route) in self.routes.iter().enumerate() {
            let at = |name: &str| format!("routes[{index}].{name}");
            let route = route.trimmed();
            match cidr(&route.destination) {
                None => violations.check(Some(FieldError::new(
                    at("destination"),
                    "must be an IPv4 range such as 10.1.0.0/16",
                ))),
                Some(range) if seen.contains(&range) => violations.check(Some(FieldError::new(
                    at("destination"),
                    format!("{} has a route already", route.destination),
                ))),
                Some(range) => seen.push(range),
            }
            violations.check(target(&at("target"), &route.target));
            // A route is written on one line (`Route::line`): its description is one too.
            violations.check(rules::line(
                &at("description"),
                &route.description,
                rules::DESCRIPTION_MAX_CHARS,
            ));
        }
        violations.into_result()
    }
}

fn target(field: &str, value: &str) -> Option<FieldError> {
    let well_formed = value.len() <= 64
        && ROUTE_TARGET_PREFIXES.iter().any(|prefix| {
            value
                .strip_prefix(prefix)
                .is_some_and(|id| !id.is_empty() && id.chars().all(|c| c.is_ascii_hexdigit()))
        });
    (!well_formed).then(|| {
        FieldError::new(
            field,
            format!(
                "must be a gateway or connection id such as pcx-0a1b2c3d: {} and hex digits",
                ROUTE_TARGET_PREFIXES.join(", ")
            ),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn route(destination: &str, target: &str) -> Route {
        Route {
            destination: destination.into(),
            target: target.into(),
            description: "peering".into(),
        }
    }

    fn fields(routes: Vec<Route>) -> Vec<String> {
        ClusterRoutingTableRequest { routes }
            .validate()
            .err()
            .unwrap_or_default()
            .into_iter()
            .map(|error| error.field)
            .collect()
    }

    #[test]
    fn a_route_is_written_on_one_line() {
        let read = Route::from_line("  10.1.0.0/16   pcx-0a1b  billing  VPC ");
        assert_eq!(read, route("10.1.0.0/16", "pcx-0a1b").with("billing VPC"));
        assert_eq!(read.line(), "10.1.0.0/16 pcx-0a1b billing VPC");
        assert_eq!(Route::from_line("10.1.0.0/16").target, "");
    }

    impl Route {
        fn with(self, description: &str) -> Self {
            Self {
                description: description.into(),
                ..self
            }
        }
    }

    #[test]
    fn routes_go_to_distinct_ranges_by_known_targets() {
        assert!(fields(vec![
            route("10.1.0.0/16", "pcx-0a1b2c3d"),
            route("0.0.0.0/0", "nat-0123456789abcdef0"),
            route("192.168.4.7/32", " TGW-0A1B "),
        ])
        .is_empty());
        assert_eq!(
            fields(vec![
                route("10.1.0.0/16", "pcx-1"),
                route("10.1.0.0/16", "pcx-2"),
                route("10.1.0.1/16", "pcx-3"),
                route("10.300.0.0/16", "pcx-4"),
                route("10.2.0.0/33", "pcx-5"),
                route("10.3.0.0/16", "peer-1"),
                route("10.4.0.0/16", "pcx-"),
                route("10.5.0.0/16", "pcx-xyz"),
            ]),
            [
                "routes[1].destination",
                "routes[2].destination",
                "routes[3].destination",
                "routes[4].destination",
                "routes[5].target",
                "routes[6].target",
                "routes[7].target",
            ]
        );
        // Beside the cluster's own network: none of it, but a wider range (a default route).
        let beside = |destination: &str| {
            let request = ClusterRoutingTableRequest {
                routes: vec![route(destination, "nat-0a1b")],
            };
            crate::error::refused_fields(request.validate_beside(Some("10.0.0.0/16")))
        };
        for refused in ["10.0.0.0/16", "10.0.4.0/24", "10.0.255.1/32"] {
            assert_eq!(beside(refused), ["routes[0].destination"], "{refused}");
        }
        for taken in ["0.0.0.0/0", "10.0.0.0/8", "10.1.0.0/16"] {
            assert!(beside(taken).is_empty(), "{taken}");
        }
        // A route is written on one line: its description too.
        let split = route("10.9.0.0/16", "pcx-1").with("billing\nVPC");
        let nul = route("10.8.0.0/16", "pcx-1").with("billing\0VPC");
        assert_eq!(
            fields(vec![split, nul]),
            ["routes[0].description", "routes[1].description"]
        );
        let many = (0..=ROUTES_MAX)
            .map(|n| route(&format!("10.{n}.0.0/16"), "pcx-1"))
            .collect();
        assert_eq!(fields(many), ["routes"]);
    }
}
