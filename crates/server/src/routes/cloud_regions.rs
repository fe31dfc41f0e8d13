//! The regions of each cloud the platform lists them of (`GET /aws/region` and the like): the
//! table `platform_api::cloud` keeps, the one the region rule of a new cluster reads. A
//! reference server reaches no cloud, so the lists are that table, not a cloud's answer.

use axum::http::{Method, StatusCode};
use axum::Json;
use platform_api::{regions_path, CloudProvider, ClusterRegion, List};

use crate::caller::Permission;
use crate::routes::{Doc, RouteTable};

pub fn register(routes: &mut RouteTable) {
    for provider in CloudProvider::ALL.iter().copied() {
        let Some(path) = regions_path(provider) else {
            continue;
        };
        let listed: Vec<ClusterRegion> = provider
            .regions()
            .unwrap_or_default()
            .iter()
            .map(|region| region.listed())
            .collect();
        routes.add(
            Method::GET,
            path.0,
            Permission::Read,
            Doc::new(format!(
                "The regions a {} cluster may be in",
                platform_api::WireEnum::label(provider)
            ))
            .answers_list_of::<ClusterRegion>(StatusCode::OK),
            move || {
                let listed = listed.clone();
                async move { Json(List::new(listed)) }
            },
        );
    }
}
