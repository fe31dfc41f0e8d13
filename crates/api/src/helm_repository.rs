//! Helm repositories (spec 2.11).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::error::FieldError;
use crate::registry::RegistryConfigRequest;
use crate::rules::{self, Violations};

wire_enum!(
    HelmRepositoryKind {
        Https = "HTTPS" => "HTTPS chart repository",
        OciEcr = "OCI_ECR" => "OCI: Elastic Container Registry",
        OciProviderACr = "OCI_PROVIDER_A_CR" => "OCI: Provider A registry",
        OciProviderBHub = "OCI_PROVIDER_B_HUB" => "OCI: Provider B Hub",
        OciPublicEcr = "OCI_PUBLIC_ECR" => "OCI: Public ECR",
        OciGenericCr = "OCI_GENERIC_CR" => "OCI: any registry (generic)",
        OciProviderCCr = "OCI_PROVIDER_C_CR" => "OCI: Provider C registry",
        OciProviderDCr = "OCI_PROVIDER_D_CR" => "OCI: Provider D registry",
    }
);

/// What a repository whose kind the platform left out is read as: a classic HTTPS one.
impl Default for HelmRepositoryKind {
    fn default() -> Self {
        HelmRepositoryKind::Https
    }
}

impl HelmRepositoryKind {
    /// The schemes a repository of this kind is reached with.
    pub fn schemes(self) -> &'static [&'static str] {
        match self {
            // file://: a local directory holding an index.yaml, as helm reads one (the reference
            // server reads its charts where `--git-root` reaches it).
            HelmRepositoryKind::Https => &["https://", "http://", "file://"],
            _ => &["oci://", "https://"],
        }
    }

    /// Every config field the kind takes, required or not, in the order a form asks for them.
    pub fn config_fields(self) -> &'static [&'static str] {
        match self {
            HelmRepositoryKind::OciEcr => {
                &["region", "access_key_id", "secret_access_key", "role_arn"]
            }
            HelmRepositoryKind::OciProviderACr => &[
                "region",
                "provider_a_access_key",
                "provider_a_secret_key",
                "provider_a_project_id",
            ],
            HelmRepositoryKind::OciPublicEcr => &[],
            _ => &["username", "password"],
        }
    }

    pub fn required_config(self) -> &'static [&'static str] {
        match self {
            HelmRepositoryKind::OciEcr => &["region", "access_key_id", "secret_access_key"],
            HelmRepositoryKind::OciProviderACr => {
                &["region", "provider_a_access_key", "provider_a_secret_key"]
            }
            _ => &[],
        }
    }
}

/// Helm repository credentials as returned: no secret.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct HelmRepositoryConfig {
    pub username: Option<String>,
    pub region: Option<String>,
    pub access_key_id: Option<String>,
    pub role_arn: Option<String>,
    pub provider_a_access_key: Option<String>,
    pub provider_a_project_id: Option<String>,
    pub provider_f_tenant_id: Option<String>,
    pub provider_f_subscription_id: Option<String>,
}

impl From<&RegistryConfigRequest> for HelmRepositoryConfig {
    fn from(config: &RegistryConfigRequest) -> Self {
        Self {
            username: config.username.clone(),
            region: config.region.clone(),
            access_key_id: config.access_key_id.clone(),
            role_arn: config.role_arn.clone(),
            provider_a_access_key: config.provider_a_access_key.clone(),
            provider_a_project_id: config.provider_a_project_id.clone(),
            provider_f_tenant_id: config.provider_f_tenant_id.clone(),
            provider_f_subscription_id: config.provider_f_subscription_id.clone(),
        }
    }
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct HelmRepository {
    pub id: Uuid,
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    #[serde(default, with = "crate::timestamp::option")]
    pub updated_at: Option<DateTime<Utc>>,
    pub name: String,
    /// HTTPS when the platform leaves it out.
    #[serde(default)]
    pub kind: HelmRepositoryKind,
    pub description: Option<String>,
    #[serde(default)]
    pub url: String,
    /// Bypasses certificate verification.
    #[serde(default)]
    pub skip_tls_verification: bool,
    #[serde(default)]
    pub associated_services_count: i64,
    #[serde(default)]
    pub config: HelmRepositoryConfig,
}

/// Body of `POST /organization/{id}/helmRepository` and of its update. The config takes the same
/// credential fields as a container registry's; the secret ones are never returned.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct HelmRepositoryRequest {
    pub name: String,
    pub kind: HelmRepositoryKind,
    #[serde(default)]
    pub description: Option<String>,
    pub url: String,
    #[serde(default)]
    pub skip_tls_verification: bool,
    #[serde(default)]
    pub config: RegistryConfigRequest,
}

impl HelmRepositoryRequest {
    /// `stored_secrets` names the secrets kept from before, which an update may leave out.
    pub fn validate(&self, stored_secrets: &[&str]) -> Result<(), Vec<FieldError>> {
        let mut violations = Violations::default();
        violations.check(rules::name("name", &self.name));
        violations.check(rules::description(
            "description",
            self.description.as_deref(),
        ));
        let url = self.url.trim();
        let schemes = self.kind.schemes();
        let scheme = schemes.iter().find(|scheme| url.starts_with(**scheme));
        if scheme.is_none_or(|scheme| url.len() <= scheme.len()) {
            violations.check(Some(FieldError::new(
                "url",
                format!(
                    "must start with {} for {}",
                    schemes.join(" or "),
                    crate::wire::WireEnum::label(self.kind)
                ),
            )));
        }
        for field in self.kind.required_config() {
            if self.config.field(field).is_none() && !stored_secrets.contains(field) {
                violations.check(Some(FieldError::new(
                    format!("config.{field}"),
                    format!("is required for {}", self.kind),
                )));
            }
        }
        violations.into_result()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::refused_fields;

    #[test]
    fn a_kind_asks_for_every_field_it_requires() {
        for kind in HelmRepositoryKind::ALL {
            for field in kind.required_config() {
                assert!(kind.config_fields().contains(field), "{kind} {field}");
            }
        }
    }

    fn request(kind: HelmRepositoryKind, url: &str) -> HelmRepositoryRequest {
        HelmRepositoryRequest {
            name: "charts".into(),
            kind,
            description: None,
            url: url.into(),
            skip_tls_verification: false,
            config: Default::default(),
        }
    }

    #[test]
    fn urls_follow_the_kind() {
        assert!(request(HelmRepositoryKind::Https, "https://charts.example")
            .validate(&[])
            .is_ok());
        assert_eq!(
            refused_fields(request(HelmRepositoryKind::Https, "oci://r.example").validate(&[])),
            ["url"]
        );
        assert!(
            request(HelmRepositoryKind::OciGenericCr, "oci://r.example/charts")
                .validate(&[])
                .is_ok()
        );
        assert_eq!(
            refused_fields(request(HelmRepositoryKind::OciGenericCr, "oci://").validate(&[])),
            ["url"]
        );
    }

    #[test]
    fn ecr_needs_its_credentials() {
        assert_eq!(
            refused_fields(request(HelmRepositoryKind::OciEcr, "oci://ecr.example").validate(&[])),
            [
                "config.region",
                "config.access_key_id",
                "config.secret_access_key"
            ]
        );
    }
}

/// A chart of a helm repository with its versions (`GET …/helmRepository/{id}/charts`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ChartVersions {
    /// The document requires no field of it.
    #[serde(default)]
    pub chart_name: String,
    #[serde(default)]
    pub versions: Vec<String>,
}

/// The charts of a repository's `index.yaml` with their versions, in the order written, read
/// in one pass over its lines: each chart a key under `entries:`, each version the `version`
/// field of one of its list items (a dependency's, written deeper, is not one).
pub fn charts_in_index(index: &str) -> Vec<ChartVersions> {
    let indentation = |line: &str| line.len() - line.trim_start().len();
    let mut charts: Vec<ChartVersions> = Vec::new();
    let mut in_entries = false;
    // The indentation of the chart names, of the current chart's list items, and of their fields.
    let (mut chart_at, mut item_at, mut field_at) = (None::<usize>, None::<usize>, None::<usize>);
    for line in index.lines() {
        let text = line.trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        let at = indentation(line);
        if at == 0 {
            in_entries = text == "entries:";
            continue;
        }
        if !in_entries {
            continue;
        }
        if chart_at.is_none_or(|chart| at <= chart) && !text.starts_with('-') {
            if let Some(name) = text.strip_suffix(':') {
                (chart_at, item_at, field_at) = (Some(at), None, None);
                charts.push(ChartVersions {
                    chart_name: name.trim_matches(['"', '\'']).to_string(),
                    versions: Vec::new(),
                });
                continue;
            }
        }
        // A list item of the chart starts its fields two columns after its dash; a dash deeper
        // is a list within an item (its dependencies).
        let field = match text.strip_prefix("- ") {
            Some(rest) if item_at.is_none_or(|item| item == at) => {
                (item_at, field_at) = (Some(at), Some(at + 2));
                rest
            }
            Some(_) => continue,
            None if Some(at) == field_at => text,
            None => continue,
        };
        if let Some(version) = field.strip_prefix("version:") {
            if let Some(chart) = charts.last_mut() {
                chart
                    .versions
                    .push(version.trim().trim_matches(['"', '\'']).to_string());
            }
        }
    }
    charts
}

#[cfg(test)]
mod index_tests {
    use super::*;

    #[test]
    fn an_index_gives_each_chart_its_versions_but_not_its_dependencies() {
        let index = "apiVersion: v1\nentries:\n  redis:\n  - apiVersion: v2\n    name: redis\n    version: 19.0.0\n    dependencies:\n    - name: common\n      version: 2.0.0\n  - name: redis\n    version: \"18.1.2\"\n  web:\n  - version: 0.1.0\n    name: web\ngenerated: \"2026-01-01T00:00:00Z\"\n";
        assert_eq!(
            charts_in_index(index),
            [
                ChartVersions {
                    chart_name: "redis".into(),
                    versions: vec!["19.0.0".into(), "18.1.2".into()]
                },
                ChartVersions {
                    chart_name: "web".into(),
                    versions: vec!["0.1.0".into()]
                },
            ]
        );
    }
}
