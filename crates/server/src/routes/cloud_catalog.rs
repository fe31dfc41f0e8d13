//! What the platform lists of each cloud: the clouds themselves with their regions
//! (`GET /cloudProvider`), the regions (`GET /aws/region` and the like) and the instance types
//! of a region or zone (`GET /aws/eks/instanceType/{region}` and the like); the databases each
//! manages and their instances (`GET /aws/managedDatabase/type` and the like); the features a
//! cluster may be made with (`GET /aws/clusterFeature` and the like). A reference server reaches
//! no cloud: these are the tables of `platform_api::cloud`, `platform_api::instance_type`,
//! `platform_api::managed_database` and `platform_api::cluster_feature`, the ones a new
//! cluster's and a new database's rules read, not a cloud's answer.

use axum::extract::Path;
use axum::http::{Method, StatusCode};
use axum::Json;
use platform_api::paths::{self, Template};
use platform_api::{
    cluster_features, cluster_features_path, instance_types_paths, managed_database_types_path,
    managed_instance_types_path, regions_path, CloudProvider, ClusterFeature, ClusterInstanceType,
    ClusterRegion, List, ListedCloudProvider, ManagedDatabaseInstanceType, ManagedDatabaseType,
    WireEnum,
};

use serde::Serialize;
use utoipa::ToSchema;

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
    add_table(
        routes,
        paths::CLOUD_PROVIDERS,
        "The clouds a cluster may run in, with their regions".into(),
        providers,
    );
    for provider in CloudProvider::ALL.iter().copied() {
        if let Some(path) = regions_path(provider) {
            let summary = format!("The regions a {} cluster may be in", provider.label());
            add_table(routes, path, summary, regions_of(provider));
        }
        if let Some((of_place, every)) = instance_types_paths(provider) {
            register_instance_types(routes, provider, of_place, every);
        }
        register_managed_databases(routes, provider);
        if let Some((path, features)) =
            cluster_features_path(provider).zip(cluster_features(provider))
        {
            let summary = format!(
                "The features a {} cluster may be made with, each with its default",
                provider.label()
            );
            add_table::<ClusterFeature>(routes, path, summary, features);
        }
    }
}

/// The database types `provider` manages and, where it lists them, the instances of each.
fn register_managed_databases(routes: &mut RouteTable, provider: CloudProvider) {
    let label = provider.label();
    if let Some(path) = managed_database_types_path(provider) {
        let types: Vec<ManagedDatabaseType> = provider
            .managed_database_types()
            .iter()
            .map(|&name| ManagedDatabaseType { name })
            .collect();
        let summary = format!("The database types {label} runs as managed databases");
        add_table(routes, path, summary, types);
    }
    if let Some(path) = managed_instance_types_path(provider) {
        let regions: Vec<&'static str> = provider
            .regions()
            .unwrap_or_default()
            .iter()
            .map(|region| region.name)
            .collect();
        routes.add(
            Method::GET,
            path.0,
            Permission::Read,
            Doc::new(format!(
                "The instances {label} runs a managed database of a type on in a region; the \
                 database is sized as its instance"
            ))
            .answers_list_of::<ManagedDatabaseInstanceType>(StatusCode::OK),
            move |Path((region, database_type)): Path<(String, String)>| {
                let known_region = regions.contains(&region.as_str());
                async move {
                    if !known_region {
                        return Err(ApiError::not_found("region"));
                    }
                    let instances = database_type
                        .parse()
                        .ok()
                        .and_then(|database_type| provider.managed_instances(database_type))
                        .ok_or_else(|| ApiError::not_found("managed database type"))?;
                    ApiResult::Ok(Json(List::new(
                        instances
                            .iter()
                            .map(|instance| ManagedDatabaseInstanceType {
                                name: instance.name.to_string(),
                            })
                            .collect(),
                    )))
                }
            },
        );
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
        let summary = format!("Every instance type a {label} cluster's nodes may be");
        add_table(routes, every, summary, listed);
    }
}

/// A read of one of the tables, the same answer to every caller.
fn add_table<T>(routes: &mut RouteTable, path: Template, summary: String, table: Vec<T>)
where
    T: Serialize + ToSchema + Clone + Send + Sync + 'static,
{
    routes.add(
        Method::GET,
        path.0,
        Permission::Read,
        Doc::new(summary).answers_list_of::<T>(StatusCode::OK),
        move || {
            let table = table.clone();
            async move { Json(List::new(table)) }
        },
    );
}
