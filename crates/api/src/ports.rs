//! Ports of a service that runs instances, and how they are reached.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::defaults;

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Port {
    pub id: Uuid,
    pub internal_port: i64,
    pub external_port: Option<i64>,
    pub publicly_accessible: bool,
    pub protocol: String,
    pub name: Option<String>,
    pub is_default: bool,
    pub public_path: Option<String>,
    pub public_path_rewrite: Option<String>,
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PortRequest {
    /// The port's id when an update keeps it (the production document's edit names each port
    /// it keeps by id).
    #[serde(default)]
    pub id: Option<Uuid>,
    pub internal_port: i64,
    #[serde(default)]
    pub external_port: Option<i64>,
    #[serde(default = "defaults::protocol")]
    pub protocol: String,
    #[serde(default)]
    pub publicly_accessible: bool,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub is_default: Option<bool>,
    /// The path the port answers under on its public address ("/" when left out).
    #[serde(default)]
    pub public_path: Option<String>,
    /// What that path becomes before the request reaches the service.
    #[serde(default)]
    pub public_path_rewrite: Option<String>,
}

wire_enum!(
    /// What a port speaks (the production document's `PortProtocolEnum`).
    PortProtocol {
        Http = "HTTP" => "HTTP",
        Grpc = "GRPC" => "gRPC",
        Tcp = "TCP" => "TCP",
        Udp = "UDP" => "UDP",
    }
);

impl From<&Port> for PortRequest {
    fn from(port: &Port) -> Self {
        Self {
            id: Some(port.id),
            internal_port: port.internal_port,
            external_port: port.external_port,
            protocol: port.protocol.clone(),
            publicly_accessible: port.publicly_accessible,
            name: port.name.clone(),
            public_path: port.public_path.clone(),
            public_path_rewrite: port.public_path_rewrite.clone(),
            is_default: Some(port.is_default),
        }
    }
}
