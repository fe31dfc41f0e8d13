//! `GET /availableContainerRegistry` and `GET /availableHelmRepository`: the kinds of registry and
//! helm repository an organization may add, with the config fields each takes, from the rules
//! `platform-api` checks a new one against.

use axum::http::{Method, StatusCode};
use axum::Json;
use platform_api::{AvailableKind, HelmRepositoryKind, List, RegistryKind};

use crate::caller::{Caller, Permission};
use crate::routes::doc::Doc;
use crate::routes::RouteTable;

pub fn register(routes: &mut RouteTable) {
    routes
        .add(
            Method::GET,
            "/availableContainerRegistry",
            Permission::Read,
            Doc::new("The kinds of container registry that may be added, with their config fields")
                .answers_list_of::<AvailableKind>(StatusCode::OK),
            container_registry_kinds,
        )
        .add(
            Method::GET,
            "/availableHelmRepository",
            Permission::Read,
            Doc::new("The kinds of helm repository that may be added, with their config fields")
                .answers_list_of::<AvailableKind>(StatusCode::OK),
            helm_repository_kinds,
        );
}

async fn container_registry_kinds(_: Caller) -> Json<List<AvailableKind>> {
    Json(List::new(
        RegistryKind::ALL
            .iter()
            // Refused on creation: no longer supported.
            .filter(|kind| **kind != RegistryKind::Docr)
            .map(|kind| {
                AvailableKind::of(kind.as_str(), kind.config_fields(), kind.required_config())
            })
            .collect(),
    ))
}

async fn helm_repository_kinds(_: Caller) -> Json<List<AvailableKind>> {
    Json(List::new(
        HelmRepositoryKind::ALL
            .iter()
            .map(|kind| {
                AvailableKind::of(kind.as_str(), kind.config_fields(), kind.required_config())
            })
            .collect(),
    ))
}
