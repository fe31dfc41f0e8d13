//! `GET /environment/{id}/services`: every service of the environment whatever its kind, by
//! name, in one answer (the production platform's "List Services By EnvironmentId").

use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::response::Response;
use uuid::Uuid;

use crate::caller::{Caller, Permission};
use crate::error::{ApiPath, ApiResult};
use crate::fresh::Read;
use crate::raw_json::{self, Asked, StoredList};
use crate::routes::doc::{item, Doc};
use crate::routes::environments::find_environment;
use crate::routes::services::records::stored;
use crate::routes::RouteTable;
use crate::state::AppState;
use platform_api::paths;
use platform_api::Applications;
use platform_api::Containers;
use platform_api::Databases;
use platform_api::HelmServices;
use platform_api::Jobs;
use platform_api::ServiceKind;
use platform_api::TerraformServices;

pub fn register(routes: &mut RouteTable) {
    routes.add(
        Method::GET,
        paths::ENVIRONMENT_SERVICES,
        Permission::Read,
        Doc::new("Every service of the environment, whatever its kind (told by service_type)")
            .answers_list_of_any(
                StatusCode::OK,
                vec![
                    item::<<Applications as ServiceKind>::Record>(),
                    item::<<Containers as ServiceKind>::Record>(),
                    item::<<Databases as ServiceKind>::Record>(),
                    item::<<HelmServices as ServiceKind>::Record>(),
                    item::<<Jobs as ServiceKind>::Record>(),
                    item::<<TerraformServices as ServiceKind>::Record>(),
                ],
            ),
        list_services,
    );
}

/// One query per kind (each kind names its organization records its own way), merged by name.
async fn list_services(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(environment_id): ApiPath<Uuid>,
    asked: Asked,
) -> ApiResult<Response> {
    find_environment(&state, &caller, environment_id).await?;
    raw_json::kept(
        &state.kept.service_lists,
        (environment_id, None),
        asked,
        async {
            let db = &state.db;
            let mut services = Vec::new();
            services.extend(stored::<Applications>(db, environment_id).await?);
            services.extend(stored::<Containers>(db, environment_id).await?);
            services.extend(stored::<Databases>(db, environment_id).await?);
            services.extend(stored::<HelmServices>(db, environment_id).await?);
            services.extend(stored::<Jobs>(db, environment_id).await?);
            services.extend(stored::<TerraformServices>(db, environment_id).await?);
            services.sort_by_cached_key(|service| service.name.to_lowercase());
            let records = services.into_iter().map(|service| service.record).collect();
            Ok(Read {
                value: StoredList(records).into_bytes(),
                keep: true,
            })
        },
    )
    .await
}
