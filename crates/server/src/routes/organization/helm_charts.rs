//! `GET /organization/{id}/helmRepository/{id}/charts`: a helm repository's charts with their
//! versions, for a form to pick from. Read from the repository's `index.yaml` where this server
//! reaches it (a local directory under `--git-root`); beside them, those the organization's helm
//! services install or installed from it. No remote repository is asked.

use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::Json;
use platform_api::{charts_in_index, paths, ChartVersions, List};
use serde::Deserialize;
use uuid::Uuid;

use crate::caller::{Caller, Permission};
use crate::error::{ApiPath, ApiQuery, ApiResult};
use crate::git::read_plain_file;
use crate::routes::doc::{self, Doc};
use crate::routes::organization::helm_repositories::HelmRepositories;
use crate::routes::organization::resources::find_own;
use crate::routes::RouteTable;
use crate::state::AppState;
use crate::store::services::charts_used;
use crate::untrusted;

pub fn register(routes: &mut RouteTable) {
    routes.add(
        Method::GET,
        paths::HELM_REPOSITORY_CHARTS,
        Permission::Read,
        Doc::new(
            "The charts of a helm repository with their versions: from its index.yaml where \
             this server reads the repository, and those the organization's helm services \
             install or installed from it; `chartName` that chart only",
        )
        .query("chartName", false, doc::text())
        .answers_list_of::<ChartVersions>(StatusCode::OK),
        charts,
    );
}

#[derive(Deserialize)]
struct ChartsQuery {
    #[serde(rename = "chartName")]
    chart_name: Option<String>,
}

async fn charts(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath((organization_id, repository_id)): ApiPath<(Uuid, Uuid)>,
    ApiQuery(query): ApiQuery<ChartsQuery>,
) -> ApiResult<Json<List<ChartVersions>>> {
    let repository =
        find_own::<HelmRepositories>(&state, &caller, (organization_id, repository_id)).await?;
    let mut charts = match state.engine.repositories.folder(&repository.url) {
        Ok(folder) => index_charts(folder).await,
        Err(_) => Vec::new(),
    };
    for (chart_name, versions) in charts_used(&state.db, organization_id, repository_id).await? {
        match charts
            .iter_mut()
            .find(|chart| chart.chart_name == chart_name)
        {
            Some(chart) => {
                let known = chart.versions.clone();
                chart.versions.extend(
                    versions
                        .into_iter()
                        .filter(|version| !known.contains(version)),
                );
            }
            None => charts.push(ChartVersions {
                chart_name,
                versions,
            }),
        }
    }
    let wanted = query.chart_name.filter(|name| !name.trim().is_empty());
    charts.retain(|chart| {
        wanted
            .as_deref()
            .is_none_or(|name| chart.chart_name == name.trim())
    });
    charts.sort_by(|a, b| a.chart_name.cmp(&b.chart_name));
    Ok(Json(List::new(charts)))
}

/// The charts the `index.yaml` of the repository in `folder` lists: none when it is not there,
/// is larger than its limit (`untrusted::HELM_INDEX`) or cannot be read in time (the answer is
/// then given without it).
async fn index_charts(folder: std::path::PathBuf) -> Vec<ChartVersions> {
    let most = untrusted::HELM_INDEX.bytes as u64;
    untrusted::offload(move || {
        let index = read_plain_file(&folder, "index.yaml", most).unwrap_or_default();
        Ok::<_, untrusted::Refused>(charts_in_index(&index))
    })
    .await
    .unwrap_or_default()
}
