//! Git tokens: an organization's credentials for its private repositories, chosen on a service's
//! repository (`git_token_id`). The token itself is sent once and never returned.

use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::error::FieldError;
use crate::rules::{self, Violations};
use crate::service_type::ServiceType;

wire_enum!(
    /// The code hosts a git token is for: the document's `GitProviderEnum`, vendors by letter.
    GitProvider {
        ProviderC = "PROVIDER_C" => "Provider C",
        ProviderD = "PROVIDER_D" => "Provider D",
        ProviderG = "PROVIDER_G" => "Provider G",
    }
);

impl GitProvider {
    /// Whether a token of this host needs the workspace its repositories are listed under.
    pub fn needs_workspace(self) -> bool {
        self == GitProvider::ProviderG
    }

    /// The host's public API, which a token is used against unless it names another
    /// (`git_api_url`, a self-hosted one).
    pub fn public_api_url(self) -> &'static str {
        match self {
            GitProvider::ProviderC => "https://api.provider-c.example",
            GitProvider::ProviderD => "https://api.provider-d.example",
            GitProvider::ProviderG => "https://api.provider-g.example",
            GitProvider::Other(_) => "https://api.git.example",
        }
    }
}

/// A git token as answered: never the token.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GitToken {
    pub id: Uuid,
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    #[serde(default, with = "crate::timestamp::option")]
    pub updated_at: Option<DateTime<Utc>>,
    pub name: String,
    pub description: Option<String>,
    #[serde(rename = "type")]
    pub kind: GitProvider,
    /// The host's API this token is used against.
    #[serde(default)]
    pub git_api_url: String,
    pub workspace: Option<String>,
    #[serde(default, with = "crate::timestamp::day")]
    pub expired_at: Option<NaiveDate>,
    #[serde(default)]
    pub associated_services_count: i64,
}

/// Body of `POST /organization/{id}/gitToken` and of its update; `token` may be left out of an
/// update to keep the one stored.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GitTokenRequest {
    pub name: String,
    #[serde(default)]
    pub description: Option<String>,
    #[serde(rename = "type")]
    pub kind: GitProvider,
    #[serde(default)]
    pub token: Option<String>,
    #[serde(default)]
    pub workspace: Option<String>,
    #[serde(default)]
    pub git_api_url: Option<String>,
}

/// The name of a git token's token among its secrets.
pub const GIT_TOKEN_SECRET: &str = "token";

impl GitTokenRequest {
    /// `stored_secrets` names the secrets kept from before, which an update may leave out.
    pub fn validate(&self, stored_secrets: &[&str]) -> Result<(), Vec<FieldError>> {
        let mut violations = Violations::default();
        violations.check(rules::name("name", &self.name));
        violations.check(rules::description(
            "description",
            self.description.as_deref(),
        ));
        match self.token.as_deref().map(str::trim) {
            Some("") | None if !stored_secrets.contains(&GIT_TOKEN_SECRET) => {
                violations.check(Some(FieldError::new("token", "is required")));
            }
            Some(token) if token.chars().any(char::is_whitespace) => {
                violations.check(Some(FieldError::new("token", "must not hold spaces")));
            }
            _ => {}
        }
        let workspace = self.workspace.as_deref().map(str::trim).unwrap_or_default();
        if self.kind.needs_workspace() && workspace.is_empty() {
            violations.check(Some(FieldError::new(
                "workspace",
                format!(
                    "is required for {}",
                    crate::wire::WireEnum::label(self.kind)
                ),
            )));
        }
        if let Some(url) = self
            .git_api_url
            .as_deref()
            .filter(|url| !url.trim().is_empty())
        {
            violations.check(rules::uri("git_api_url", url));
        }
        violations.into_result()
    }
}

wire_enum!(
    /// The kinds of service a git token can be used by.
    GitTokenServiceType {
        Application = "APPLICATION",
        Cron = "CRON",
        Lifecycle = "LIFECYCLE",
        Helm = "HELM",
        Terraform = "TERRAFORM",
    }
);

impl GitTokenServiceType {
    /// A service's kind as the list of a token's services names it (a job by its schedule).
    pub fn of(service_type: ServiceType, is_cron_job: bool) -> Option<Self> {
        match service_type {
            ServiceType::Application => Some(Self::Application),
            ServiceType::Job if is_cron_job => Some(Self::Cron),
            ServiceType::Job => Some(Self::Lifecycle),
            ServiceType::Helm => Some(Self::Helm),
            ServiceType::Terraform => Some(Self::Terraform),
            _ => None,
        }
    }
}

/// A service that reads its repository with a git token.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GitTokenAssociatedService {
    pub project_id: Uuid,
    pub project_name: String,
    pub environment_id: Uuid,
    pub environment_name: String,
    pub service_id: Uuid,
    pub service_name: String,
    pub service_type: GitTokenServiceType,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::refused_fields;

    fn request(kind: GitProvider, token: Option<&str>, workspace: Option<&str>) -> GitTokenRequest {
        GitTokenRequest {
            name: "ci".into(),
            description: None,
            kind,
            token: token.map(str::to_string),
            workspace: workspace.map(str::to_string),
            git_api_url: None,
        }
    }

    #[test]
    fn a_token_is_required_unless_one_is_kept() {
        let without = request(GitProvider::ProviderC, None, None);
        assert_eq!(refused_fields(without.validate(&[])), ["token"]);
        assert!(without.validate(&[GIT_TOKEN_SECRET]).is_ok());
        let spaced = request(GitProvider::ProviderC, Some("ab cd"), None);
        assert_eq!(refused_fields(spaced.validate(&[])), ["token"]);
    }

    #[test]
    fn provider_g_needs_a_workspace() {
        let bare = request(GitProvider::ProviderG, Some("t0k3n"), None);
        assert_eq!(refused_fields(bare.validate(&[])), ["workspace"]);
        let given = request(GitProvider::ProviderG, Some("t0k3n"), Some("acme"));
        assert!(given.validate(&[]).is_ok());
    }
}
