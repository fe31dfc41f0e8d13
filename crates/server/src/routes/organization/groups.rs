//! Labels groups (spec 2.10) and annotation groups, with the services each annotations group is
//! set on.

use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::Json;
use chrono::{DateTime, Utc};
use platform_api::audit::{SubTargetType, TargetType};
use platform_api::{
    AnnotationsGroup, AnnotationsGroupRequest, AssociatedItem, AssociatedItemType, FieldError,
    LabelsGroup, LabelsGroupRequest, List, ServiceType,
};
use uuid::fmt::Hyphenated;
use uuid::Uuid;

use crate::caller::{Caller, Permission};
use crate::error::{ApiPath, ApiResult};
use crate::routes::organization::resources::{self, OrganizationResource};
use crate::routes::own_organization;
use crate::routes::{Doc, RouteTable};
use crate::state::AppState;
use crate::store::organization_resources::{self as store, Kind, Secrets};

pub fn register(routes: &mut RouteTable) {
    resources::register::<LabelsGroups>(routes);
    resources::register::<AnnotationsGroups>(routes);
    routes.add(
        Method::GET,
        format!("{}/associatedItems", AnnotationsGroups::ITEM),
        Permission::Read,
        Doc::new("The services an annotations group is set on, with their environment, project and cluster")
            .answers_list_of::<AssociatedItem>(StatusCode::OK),
        associated_items,
    );
}

#[derive(sqlx::FromRow)]
struct AssociatedRow {
    #[sqlx(try_from = "Hyphenated")]
    id: Uuid,
    name: String,
    kind: ServiceType,
    cron: bool,
    #[sqlx(try_from = "Hyphenated")]
    environment_id: Uuid,
    environment_name: String,
    #[sqlx(try_from = "Hyphenated")]
    project_id: Uuid,
    project_name: String,
    #[sqlx(try_from = "Hyphenated")]
    cluster_id: Uuid,
    cluster_name: Option<String>,
}

async fn associated_items(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath((organization_id, group_id)): ApiPath<(Uuid, Uuid)>,
) -> ApiResult<Json<List<AssociatedItem>>> {
    own_organization(&caller, organization_id)?;
    store::find::<AnnotationsGroup>(
        &state.db,
        AnnotationsGroups::KIND,
        organization_id,
        group_id,
    )
    .await?;
    // Ids are UUIDs, so a configuration that holds one names that group.
    let rows: Vec<AssociatedRow> = sqlx::query_as(
        "SELECT s.id, s.name, s.kind, json_extract(s.spec, '$.schedule.cronjob') IS NOT NULL AS cron,
                e.id AS environment_id, e.name AS environment_name,
                p.id AS project_id, p.name AS project_name,
                e.cluster_id, c.name AS cluster_name
         FROM services s JOIN environments e ON e.id = s.environment_id
         JOIN projects p ON p.id = e.project_id
         LEFT JOIN organization_resources c ON c.id = e.cluster_id
         WHERE s.organization_id = ? AND instr(s.spec, ?) > 0
         ORDER BY p.name, e.name, s.name",
    )
    .bind(organization_id.hyphenated())
    .bind(group_id.hyphenated())
    .fetch_all(&state.db)
    .await?;
    let items = rows
        .into_iter()
        .map(|row| {
            let item_type = match row.kind {
                ServiceType::Database => AssociatedItemType::Database,
                ServiceType::Container => AssociatedItemType::Container,
                ServiceType::Job if row.cron => AssociatedItemType::Cron,
                ServiceType::Job => AssociatedItemType::Lifecycle,
                // Helm and terraform services carry no annotations groups.
                ServiceType::Application
                | ServiceType::Helm
                | ServiceType::Terraform
                | ServiceType::Other(_) => AssociatedItemType::Application,
            };
            AssociatedItem {
                item_id: row.id,
                item_name: row.name,
                item_type,
                cluster_id: Some(row.cluster_id),
                cluster_name: row.cluster_name,
                project_id: Some(row.project_id),
                project_name: Some(row.project_name),
                environment_id: Some(row.environment_id),
                environment_name: Some(row.environment_name),
            }
        })
        .collect();
    Ok(Json(List::new(items)))
}

pub struct LabelsGroups;

impl OrganizationResource for LabelsGroups {
    const KIND: Kind = Kind {
        stored_as: "labels_group",
        what: "labels group",
    };
    const AUDITED_AS: (TargetType, Option<SubTargetType>) =
        (TargetType::Organization, Some(SubTargetType::LabelsGroup));
    const COLLECTION: &'static str = "/organization/{organization_id}/labelsGroups";
    const ITEM: &'static str = "/organization/{organization_id}/labelsGroups/{labels_group_id}";

    type Request = LabelsGroupRequest;
    type Record = LabelsGroup;

    fn validate(request: &Self::Request, _kept: &[&str]) -> Result<(), Vec<FieldError>> {
        request.validate()
    }

    fn build(
        id: Uuid,
        _organization_id: Uuid,
        created_at: DateTime<Utc>,
        updated_at: Option<DateTime<Utc>>,
        request: Self::Request,
        _previous: Option<&Self::Record>,
    ) -> (Self::Record, Secrets) {
        let group = LabelsGroup {
            id,
            created_at,
            updated_at,
            name: request.name.trim().to_string(),
            labels: request.labels,
        };
        (group, Secrets::new())
    }

    fn name(record: &Self::Record) -> String {
        record.name.clone()
    }

    fn created_at(record: &Self::Record) -> DateTime<Utc> {
        record.created_at
    }
}

pub struct AnnotationsGroups;

impl OrganizationResource for AnnotationsGroups {
    const KIND: Kind = Kind {
        stored_as: "annotations_group",
        what: "annotations group",
    };
    const AUDITED_AS: (TargetType, Option<SubTargetType>) = (
        TargetType::Organization,
        Some(SubTargetType::AnnotationsGroup),
    );
    const COLLECTION: &'static str = "/organization/{organization_id}/annotationsGroups";
    const ITEM: &'static str =
        "/organization/{organization_id}/annotationsGroups/{annotations_group_id}";

    type Request = AnnotationsGroupRequest;
    type Record = AnnotationsGroup;

    fn validate(request: &Self::Request, _kept: &[&str]) -> Result<(), Vec<FieldError>> {
        request.validate()
    }

    fn build(
        id: Uuid,
        _organization_id: Uuid,
        created_at: DateTime<Utc>,
        updated_at: Option<DateTime<Utc>>,
        request: Self::Request,
        _previous: Option<&Self::Record>,
    ) -> (Self::Record, Secrets) {
        let group = AnnotationsGroup {
            id,
            created_at,
            updated_at,
            name: request.name.trim().to_string(),
            annotations: request.annotations,
            scopes: request.scopes,
        };
        (group, Secrets::new())
    }

    fn name(record: &Self::Record) -> String {
        record.name.clone()
    }

    fn created_at(record: &Self::Record) -> DateTime<Utc> {
        record.created_at
    }
}
