//! Labels groups (spec 2.10) and annotation groups.

use chrono::{DateTime, Utc};
use platform_api::audit::{SubTargetType, TargetType};
use platform_api::paths::{self, Template};
use platform_api::{
    AnnotationsGroup, AnnotationsGroupRequest, FieldError, LabelsGroup, LabelsGroupRequest,
};
use uuid::Uuid;

use crate::routes::organization::resources::{self, OrganizationResource};
use crate::routes::RouteTable;
use crate::seal::Secrets;
use crate::store::organization_resources::Kind;

pub fn register(routes: &mut RouteTable) {
    resources::register::<LabelsGroups>(routes);
    resources::register::<AnnotationsGroups>(routes);
}

pub struct LabelsGroups;

impl OrganizationResource for LabelsGroups {
    const KIND: Kind = Kind {
        stored_as: "labels_group",
        what: "labels group",
    };
    const AUDITED_AS: (TargetType, Option<SubTargetType>) =
        (TargetType::Organization, Some(SubTargetType::LabelsGroup));
    const COLLECTION: Template = paths::LABELS_GROUPS;
    const ITEM: Template = paths::LABELS_GROUP;

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
    const COLLECTION: Template = paths::ANNOTATIONS_GROUPS;
    const ITEM: Template = paths::ANNOTATIONS_GROUP;

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
