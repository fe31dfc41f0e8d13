//! Labels groups (spec 2.10) and annotation groups, set on services.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::error::FieldError;
use crate::rules::{self, Violations};

wire_enum!(
    /// The Kubernetes objects an annotation group applies to.
    AnnotationScope {
        Deployments = "DEPLOYMENTS" => "Deployments",
        StatefulSets = "STATEFUL_SETS" => "Stateful sets",
        Services = "SERVICES" => "Services",
        Ingress = "INGRESS" => "Ingress",
        GatewayApiRoutes = "GATEWAY_API_ROUTES" => "Gateway API routes",
        Hpa = "HPA" => "Horizontal pod autoscalers",
        Pods = "PODS" => "Pods",
        Secrets = "SECRETS" => "Secrets",
        Jobs = "JOBS" => "Jobs",
        CronJobs = "CRON_JOBS" => "Cron jobs",
    }
);

/// Body of `POST /organization/{id}/labelsGroups` and of its update.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LabelsGroupRequest {
    pub name: String,
    #[serde(default)]
    pub labels: Vec<Label>,
}

impl LabelsGroupRequest {
    pub fn validate(&self) -> Result<(), Vec<FieldError>> {
        let mut violations = Violations::default();
        violations.check(rules::name("name", &self.name));
        let keys = self.labels.iter().map(|label| label.key.as_str());
        violations.extend(rules::keys("labels", keys));
        violations.into_result()
    }
}

/// Body of `POST /organization/{id}/annotationsGroup` and of its update.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AnnotationsGroupRequest {
    pub name: String,
    #[serde(default)]
    pub annotations: Vec<KeyValue>,
    pub scopes: Vec<AnnotationScope>,
}

impl AnnotationsGroupRequest {
    pub fn validate(&self) -> Result<(), Vec<FieldError>> {
        let mut violations = Violations::default();
        violations.check(rules::name("name", &self.name));
        let keys = self
            .annotations
            .iter()
            .map(|annotation| annotation.key.as_str());
        violations.extend(rules::keys("annotations", keys));
        if self.scopes.is_empty() {
            violations.check(Some(FieldError::new(
                "scopes",
                "must name at least one kind of object, e.g. DEPLOYMENTS",
            )));
        }
        violations.into_result()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::refused_fields;

    #[test]
    fn keys_are_required_and_unique() {
        let label = |key: &str| Label {
            key: key.into(),
            value: "v".into(),
            propagate_to_cloud_provider: false,
        };
        let request = LabelsGroupRequest {
            name: "team".into(),
            labels: vec![label("team"), label(""), label("team")],
        };
        let fields = refused_fields(request.validate());
        assert_eq!(fields, ["labels[1].key", "labels[2].key"]);
    }

    #[test]
    fn annotation_groups_need_a_scope() {
        let request = AnnotationsGroupRequest {
            name: "monitoring".into(),
            annotations: vec![KeyValue {
                key: "prometheus.io/scrape".into(),
                value: "true".into(),
            }],
            scopes: vec![],
        };
        assert_eq!(request.validate().unwrap_err()[0].field, "scopes");
    }
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AnnotationsGroup {
    pub id: Uuid,
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    #[serde(default, with = "crate::timestamp::option")]
    pub updated_at: Option<DateTime<Utc>>,
    pub name: String,
    pub annotations: Vec<KeyValue>,
    pub scopes: Vec<crate::groups::AnnotationScope>,
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct KeyValue {
    pub key: String,
    pub value: String,
}

impl AnnotationsGroup {
    /// The group with this id, as a service stores it (the rest is the group's own, read with
    /// the service).
    pub fn stored(id: Uuid) -> Self {
        Self {
            id,
            created_at: DateTime::UNIX_EPOCH,
            updated_at: None,
            name: String::new(),
            annotations: Vec::new(),
            scopes: Vec::new(),
        }
    }
}

impl LabelsGroup {
    /// The group with this id, as a service stores it.
    pub fn stored(id: Uuid) -> Self {
        Self {
            id,
            created_at: DateTime::UNIX_EPOCH,
            updated_at: None,
            name: String::new(),
            labels: Vec::new(),
        }
    }
}

/// Labels group (spec 2.10).
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LabelsGroup {
    pub id: Uuid,
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    #[serde(default, with = "crate::timestamp::option")]
    pub updated_at: Option<DateTime<Utc>>,
    pub name: String,
    pub labels: Vec<Label>,
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Label {
    pub key: String,
    pub value: String,
    pub propagate_to_cloud_provider: bool,
}

/// A group a service is attached to, by id (the production document's `ServiceLabelRequest`
/// and `ServiceAnnotationRequest`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GroupReference {
    pub id: Uuid,
}

/// The references of a record's groups, as a request names them.
pub fn group_references<'a>(ids: impl IntoIterator<Item = &'a Uuid>) -> Vec<GroupReference> {
    ids.into_iter().map(|&id| GroupReference { id }).collect()
}
