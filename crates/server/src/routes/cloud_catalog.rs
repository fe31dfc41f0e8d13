//! What the platform lists of each cloud: the clouds themselves with their regions
//! (`GET /cloudProvider`), the regions (`GET /aws/region` and the like) and the instance types
//! of a region or zone (`GET /aws/eks/instanceType/{region}` and the like). A reference server
//! reaches no cloud: these are the tables of `platform_api::cloud` and
//! `platform_api::instance_type`, the ones a new cluster's rules read, not a cloud's answer.

use axum::extract::Path;
use axum::http::{Method, StatusCode};
use axum::Json;
use platform_api::paths::{self, Template};
use platform_api::{
    instance_types_paths, regions_path, CloudProvider, ClusterInstanceType, ClusterRegion, List,
    ListedCloudProvider, WireEnum,
};

use crate::caller::Permission;
use crate::error::{ApiError, ApiResult};
use crate::routes::{Doc, RouteTable};

pub fn register(routes: &mut RouteTable) {
    let providers: Vec<ListedCloudProvider> = CloudProvider::ALL
        .iter()
        .copied()
        .filter(|provider| provider.regions().is_some())
        .map(|provider| ListedCloudProvider {
            short_name: provider,
            name: provider.label().to_string(),
            logo_url: None,
            regions: regions_of(provider),
        })
        .collect();
    routes.add(
        Method::GET,
        paths::CLOUD_PROVIDERS.0,
        Permission::Read,
        Doc::new("The clouds a cluster may run in, with their regions")
            .answers_list_of::<ListedCloudProvider>(StatusCode::OK),
        move || {
            let providers = providers.clone();
            async move { Json(List::new(providers)) }
        },
    );
    for provider in CloudProvider::ALL.iter().copied() {
        if let Some(path) = regions_path(provider) {
            let listed = regions_of(provider);
            routes.add(
                Method::GET,
                path.0,
                Permission::Read,
                Doc::new(format!(
                    "The regions a {} cluster may be in",
                    provider.label()
                ))
                .answers_list_of::<ClusterRegion>(StatusCode::OK),
                move || {
                    let listed = listed.clone();
                    async move { Json(List::new(listed)) }
                },
            );
        }
        if let Some((of_place, every)) = instance_types_paths(provider) {
            register_instance_types(routes, provider, of_place, every);
        }
    }
}

fn regions_of(provider: CloudProvider) -> Vec<ClusterRegion> {
    provider
        .regions()
        .unwrap_or_default()
        .iter()
        .map(|region| ClusterRegion {
            zones: provider.zones(region.name),
            ..region.listed()
        })
        .collect()
}

/// The instance types of `provider`, at the path of a region (or zone) and, for the clouds the
/// document has one for, at the older path of every type.
fn register_instance_types(
    routes: &mut RouteTable,
    provider: CloudProvider,
    of_place: Template,
    every: Option<Template>,
) {
    let listed: Vec<ClusterInstanceType> = provider
        .instance_types()
        .unwrap_or_default()
        .iter()
        .map(|machine| machine.listed())
        .collect();
    let places: Vec<String> = regions_of(provider)
        .into_iter()
        .flat_map(|region| region.zones.clone().unwrap_or_else(|| vec![region.name]))
        .collect();
    let label = provider.label();
    let types = listed.clone();
    routes.add(
        Method::GET,
        of_place.0,
        Permission::Read,
        Doc::new(format!(
            "The instance types a {label} cluster's nodes may be in a region"
        ))
        .answers_list_of::<ClusterInstanceType>(StatusCode::OK),
        move |Path(place): Path<String>| {
            let (types, places) = (types.clone(), places.clone());
            async move {
                if !places.contains(&place) {
                    return Err(ApiError::not_found("region"));
                }
                ApiResult::Ok(Json(List::new(types)))
            }
        },
    );
    if let Some(every) = every {
        routes.add(
            Method::GET,
            every.0,
            Permission::Read,
            Doc::new(format!(
                "Every instance type a {label} cluster's nodes may be"
            ))
            .answers_list_of::<ClusterInstanceType>(StatusCode::OK),
            move || {
                let listed = listed.clone();
                async move { Json(List::new(listed)) }
            },
        );
    }
}
