//! A cluster's features (`GET /{cloud}/clusterFeature`, a cluster's `features`): what a cloud's
//! clusters may be made with, each chosen when the cluster is made and fixed from then on.
//! Served here: a static outbound address (the engine gives the cluster fixed addresses, its
//! deployment says which) and, where a cloud lets the network's range be chosen, the VPC subnet
//! (routes may not point into it). The console offers what the API lists: a yes-or-no feature
//! as a checkbox, a text one as a field.

use std::net::Ipv4Addr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::cloud::CloudProvider;
use crate::error::FieldError;
use crate::ipv4_range::{cidr, within};
use crate::paths::{self, Template};
use crate::rules::Violations;

/// The catalog's features, by id: uuids, as the document's `ClusterFeatureResponse` and a
/// cluster request's `features` have them (fixed, so that a cluster's record and the catalog
/// agree across restarts).
pub const STATIC_IP: &str = "3c1f6a52-8d2e-4b7a-9f0c-5e1d2a7b4c61";
pub const VPC_SUBNET: &str = "9b4e2d7c-1a6f-4c3b-8e5d-0f2a6c9b7d14";
/// A cluster's network when its VPC subnet is not chosen.
pub const DEFAULT_VPC_SUBNET: &str = "10.0.0.0/16";

wire_enum!(
    ClusterFeatureValueKind {
        String = "STRING" => "Text",
        Boolean = "BOOLEAN" => "Yes or no",
        AwsUserProvidedNetwork = "AWS_USER_PROVIDED_NETWORK" => "Existing VPC",
        ProviderEUserProvidedNetwork = "PROVIDER_E_USER_PROVIDED_NETWORK" => "Existing VPC",
        Karpenter = "KARPENTER" => "Karpenter",
        NatGateway = "NAT_GATEWAY" => "NAT gateway",
    }
);

/// A feature's value: yes or no, a text, or (for the platform's object-valued features, an
/// existing VPC or Karpenter's parameters) something this console shows but does not edit.
/// Read by hand rather than as any JSON value: every page that reads a cluster decodes it.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum FeatureValue {
    #[default]
    Unset,
    Bool(bool),
    Text(String),
    Other,
}

impl FeatureValue {
    pub fn as_text(&self) -> Option<&str> {
        match self {
            FeatureValue::Text(text) => Some(text),
            _ => None,
        }
    }
}

impl Serialize for FeatureValue {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            FeatureValue::Bool(value) => serializer.serialize_bool(*value),
            FeatureValue::Text(text) => serializer.serialize_str(text),
            FeatureValue::Unset | FeatureValue::Other => serializer.serialize_none(),
        }
    }
}

impl<'de> Deserialize<'de> for FeatureValue {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use serde::de::{IgnoredAny, MapAccess, SeqAccess, Visitor};
        struct Read;
        impl<'de> Visitor<'de> for Read {
            type Value = FeatureValue;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a feature's value")
            }
            fn visit_bool<E>(self, value: bool) -> Result<FeatureValue, E> {
                Ok(FeatureValue::Bool(value))
            }
            fn visit_str<E>(self, value: &str) -> Result<FeatureValue, E> {
                Ok(FeatureValue::Text(value.to_string()))
            }
            fn visit_unit<E>(self) -> Result<FeatureValue, E> {
                Ok(FeatureValue::Unset)
            }
            fn visit_none<E>(self) -> Result<FeatureValue, E> {
                Ok(FeatureValue::Unset)
            }
            fn visit_i64<E>(self, _: i64) -> Result<FeatureValue, E> {
                Ok(FeatureValue::Other)
            }
            fn visit_u64<E>(self, _: u64) -> Result<FeatureValue, E> {
                Ok(FeatureValue::Other)
            }
            fn visit_f64<E>(self, _: f64) -> Result<FeatureValue, E> {
                Ok(FeatureValue::Other)
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<FeatureValue, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(FeatureValue::Other)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<FeatureValue, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(FeatureValue::Other)
            }
        }
        deserializer.deserialize_any(Read)
    }
}

/// A feature as a cloud's catalog lists it and as a cluster has it (with its value).
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ClusterFeature {
    /// The document does not require it; a feature without one cannot be chosen.
    #[serde(default)]
    pub id: String,
    #[serde(default)]
    pub title: String,
    #[serde(default)]
    pub description: Option<String>,
    #[serde(default)]
    pub is_cloud_provider_paying_feature: bool,
    #[serde(default)]
    pub is_qovery_paying_feature: bool,
    #[serde(default)]
    pub value_object: Option<ClusterFeatureValue>,
    #[serde(default)]
    pub is_value_updatable: bool,
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<serde_json::Value>))]
    pub accepted_values: Vec<FeatureValue>,
}

/// A feature's value: its kind and the value itself (text, yes or no, or an object).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ClusterFeatureValue {
    #[serde(rename = "type")]
    pub kind: ClusterFeatureValueKind,
    #[cfg_attr(feature = "openapi", schema(value_type = serde_json::Value))]
    pub value: FeatureValue,
}

/// A feature chosen in a new cluster's request.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ClusterFeatureRequest {
    pub id: String,
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(value_type = serde_json::Value))]
    pub value: FeatureValue,
}

impl ClusterFeature {
    /// The kind of value it takes (yes or no when the catalog says nothing).
    pub fn kind(&self) -> ClusterFeatureValueKind {
        self.value_object
            .as_ref()
            .map_or(ClusterFeatureValueKind::Boolean, |value| value.kind)
    }

    /// Its value: the one a cluster was made with, or the catalog's default.
    pub fn value(&self) -> &FeatureValue {
        const UNSET: &FeatureValue = &FeatureValue::Unset;
        self.value_object
            .as_ref()
            .map_or(UNSET, |value| &value.value)
    }

    /// The feature with `value`, as a cluster has it.
    pub fn with_value(&self, value: FeatureValue) -> Self {
        Self {
            value_object: Some(ClusterFeatureValue {
                kind: self.kind(),
                value,
            }),
            ..self.clone()
        }
    }

    /// "Static IP: on", "VPC subnet: 10.0.0.0/16".
    pub fn said(&self) -> String {
        let value = match self.value() {
            FeatureValue::Bool(true) => "on".to_string(),
            FeatureValue::Bool(false) | FeatureValue::Unset => "off".to_string(),
            FeatureValue::Text(text) => text.clone(),
            FeatureValue::Other => "set".to_string(),
        };
        format!("{}: {value}", self.title)
    }
}

fn feature(
    id: &str,
    title: &str,
    description: &str,
    cloud_pays: bool,
    default: FeatureValue,
) -> ClusterFeature {
    let kind = match default {
        FeatureValue::Text(_) => ClusterFeatureValueKind::String,
        _ => ClusterFeatureValueKind::Boolean,
    };
    ClusterFeature {
        id: id.to_string(),
        title: title.to_string(),
        description: Some(description.to_string()),
        is_cloud_provider_paying_feature: cloud_pays,
        is_qovery_paying_feature: false,
        value_object: Some(ClusterFeatureValue {
            kind,
            value: default,
        }),
        is_value_updatable: false,
        accepted_values: Vec::new(),
    }
}

/// What a cloud's clusters may be made with (the server's catalog); `None` for a cloud without
/// a catalog route.
pub fn cluster_features(provider: CloudProvider) -> Option<Vec<ClusterFeature>> {
    let static_ip = || {
        feature(
            STATIC_IP,
            "Static IP",
            "Outbound traffic leaves from fixed addresses, to be allowed by a firewall elsewhere \
             (the cloud bills the addresses).",
            true,
            FeatureValue::Bool(false),
        )
    };
    let vpc_subnet = || {
        feature(
            VPC_SUBNET,
            "VPC subnet",
            "The private IPv4 range of the cluster's network (/16 to /24); routes may not \
             point into it.",
            false,
            FeatureValue::Text(DEFAULT_VPC_SUBNET.to_string()),
        )
    };
    Some(match provider {
        CloudProvider::Aws | CloudProvider::ProviderE => vec![static_ip(), vpc_subnet()],
        CloudProvider::ProviderA | CloudProvider::ProviderF => vec![static_ip()],
        _ => return None,
    })
}

/// The features a cluster of `provider` is made with: each of the cloud's, with the value
/// `requested` or its default.
pub fn made_features(
    provider: CloudProvider,
    requested: &[ClusterFeatureRequest],
) -> Vec<ClusterFeature> {
    cluster_features(provider)
        .unwrap_or_default()
        .into_iter()
        .map(
            |known| match requested.iter().find(|chosen| chosen.id == known.id) {
                Some(chosen) => known.with_value(match &chosen.value {
                    FeatureValue::Text(text) => FeatureValue::Text(text.trim().to_string()),
                    other => other.clone(),
                }),
                None => known,
            },
        )
        .collect()
}

/// The features an update asks to change: refused, they are fixed once the cluster is made.
pub fn changed_features(
    requested: &[ClusterFeatureRequest],
    made: &[ClusterFeature],
) -> Vec<FieldError> {
    requested
        .iter()
        .enumerate()
        .filter(|(_, chosen)| {
            made.iter().any(|feature| {
                feature.id == chosen.id
                    && !feature.is_value_updatable
                    && feature.value() != &chosen.value
            })
        })
        .map(|(index, _)| {
            FieldError::new(
                format!("features[{index}].value"),
                "cannot change once the cluster is made",
            )
        })
        .collect()
}

/// Where the document lists `provider`'s features.
pub fn cluster_features_path(provider: CloudProvider) -> Option<Template> {
    match provider {
        CloudProvider::Aws => Some(paths::AWS_CLUSTER_FEATURES),
        CloudProvider::ProviderA => Some(paths::PROVIDER_A_CLUSTER_FEATURES),
        CloudProvider::ProviderE => Some(paths::PROVIDER_E_CLUSTER_FEATURES),
        CloudProvider::ProviderF => Some(paths::PROVIDER_F_CLUSTER_FEATURES),
        _ => None,
    }
}

/// A private IPv4 range of /16 to /24: its network address and prefix length.
pub fn private_subnet(value: &str) -> Option<(Ipv4Addr, u8)> {
    let (address, length) = cidr(value)?;
    let private = [
        (Ipv4Addr::new(10, 0, 0, 0), 8),
        (Ipv4Addr::new(172, 16, 0, 0), 12),
        (Ipv4Addr::new(192, 168, 0, 0), 16),
    ]
    .iter()
    .any(|(range, bits)| length >= *bits && within(address, (*range, *bits)));
    (private && (16..=24).contains(&length)).then_some((address, length))
}

/// The rules of a new cluster's features: each one of the cloud's `listed` (when listed), once,
/// with a value of its kind (one of its accepted values when it has them); a VPC subnet a
/// private range of /16 to /24.
pub fn features_rule(
    requested: &[ClusterFeatureRequest],
    listed: Option<&[ClusterFeature]>,
    cloud: &str,
) -> Vec<FieldError> {
    let mut violations = Violations::default();
    let mut seen: Vec<&str> = Vec::new();
    for (index, chosen) in requested.iter().enumerate() {
        let at = |name: &str| format!("features[{index}].{name}");
        if seen.contains(&chosen.id.as_str()) {
            violations.check(Some(FieldError::new(at("id"), "is chosen twice")));
            continue;
        }
        seen.push(&chosen.id);
        let known = listed.map(|listed| listed.iter().find(|known| known.id == chosen.id));
        let Some(known) = known else {
            continue;
        };
        let Some(known) = known else {
            violations.check(Some(FieldError::new(
                at("id"),
                format!("is not a feature of {cloud}"),
            )));
            continue;
        };
        let fits = match (known.kind(), &chosen.value) {
            (ClusterFeatureValueKind::Boolean, FeatureValue::Bool(_)) => true,
            (ClusterFeatureValueKind::String, FeatureValue::Text(_)) => {
                known.accepted_values.is_empty() || known.accepted_values.contains(&chosen.value)
            }
            (ClusterFeatureValueKind::Boolean | ClusterFeatureValueKind::String, _) => false,
            // An object's fields are the platform's to check.
            _ => true,
        };
        if !fits {
            let expected = match known.kind() {
                ClusterFeatureValueKind::Boolean => "true or false".to_string(),
                _ if !known.accepted_values.is_empty() => format!(
                    "one of {}",
                    known
                        .accepted_values
                        .iter()
                        .filter_map(FeatureValue::as_text)
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                _ => "a text".to_string(),
            };
            violations.check(Some(FieldError::new(
                at("value"),
                format!("must be {expected}"),
            )));
        } else if chosen.id == VPC_SUBNET {
            let text = chosen.value.as_text().unwrap_or_default().trim();
            if private_subnet(text).is_none() {
                violations.check(Some(FieldError::new(
                    at("value"),
                    "must be a private IPv4 range of /16 to /24, such as 10.0.0.0/16",
                )));
            }
        }
    }
    violations.into_result().err().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chosen(id: &str, value: FeatureValue) -> ClusterFeatureRequest {
        ClusterFeatureRequest {
            id: id.into(),
            value,
        }
    }

    fn fields(requested: &[ClusterFeatureRequest]) -> Vec<String> {
        let listed = cluster_features(CloudProvider::Aws).unwrap();
        features_rule(requested, Some(&listed), "AWS")
            .into_iter()
            .map(|error| error.field)
            .collect()
    }

    #[test]
    fn features_are_the_clouds_with_values_of_their_kind() {
        assert!(fields(&[
            chosen(STATIC_IP, FeatureValue::Bool(true)),
            chosen(VPC_SUBNET, FeatureValue::Text("10.42.0.0/16".into())),
        ])
        .is_empty());
        assert_eq!(
            fields(&[
                chosen(STATIC_IP, FeatureValue::Text("yes".into())),
                chosen("KARPENTER", FeatureValue::Bool(true)),
                chosen(VPC_SUBNET, FeatureValue::Text("8.8.0.0/16".into())),
                chosen(STATIC_IP, FeatureValue::Bool(true)),
            ]),
            [
                "features[0].value",
                "features[1].id",
                "features[2].value",
                "features[3].id"
            ]
        );
        for bad in ["10.0.0.0/8", "10.0.0.0/28", "10.0.0.1/16", "172.32.0.0/16"] {
            assert_eq!(
                fields(&[chosen(VPC_SUBNET, FeatureValue::Text(bad.into()))]),
                ["features[0].value"],
                "{bad}"
            );
        }
        assert!(cluster_features(CloudProvider::OnPremise).is_none());
    }

    #[test]
    fn a_cluster_is_made_with_every_feature_of_its_cloud_fixed_from_then_on() {
        let made = made_features(
            CloudProvider::Aws,
            &[chosen(
                VPC_SUBNET,
                FeatureValue::Text(" 10.42.0.0/16 ".into()),
            )],
        );
        let said: Vec<String> = made.iter().map(ClusterFeature::said).collect();
        assert_eq!(said, ["Static IP: off", "VPC subnet: 10.42.0.0/16"]);
        let same = chosen(VPC_SUBNET, FeatureValue::Text("10.42.0.0/16".into()));
        assert!(changed_features(std::slice::from_ref(&same), &made).is_empty());
        let other = chosen(STATIC_IP, FeatureValue::Bool(true));
        let refused = changed_features(&[same, other], &made);
        assert_eq!(refused.len(), 1);
        assert_eq!(refused[0].field, "features[1].value");
    }
}
