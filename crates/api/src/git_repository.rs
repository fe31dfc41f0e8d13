//! The git repository a service is built from (spec 2.5), as a record names it and a request
//! sets it.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::error::FieldError;
use crate::git_token::GitProvider;
use crate::rules::{self, Violations};

/// Git repository of a service (spec 2.5).
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GitRepository {
    pub provider: Option<GitProvider>,
    pub owner: Option<String>,
    pub url: String,
    pub name: Option<String>,
    pub has_access: Option<bool>,
    pub branch: Option<String>,
    pub root_path: Option<String>,
    pub deployed_commit_id: Option<String>,
    #[serde(default, with = "crate::timestamp::option")]
    pub deployed_commit_date: Option<DateTime<Utc>>,
    pub deployed_commit_contributor: Option<String>,
    pub deployed_commit_tag: Option<String>,
    pub git_token_id: Option<String>,
    pub git_token_name: Option<String>,
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GitRepositoryRequest {
    pub url: String,
    #[serde(default)]
    pub branch: Option<String>,
    #[serde(default)]
    pub root_path: Option<String>,
    /// The code host; `SAMPLED_CODE_HOST` when left out.
    #[serde(default)]
    pub provider: Option<GitProvider>,
    /// The production document asks for them; this server reads them from the URL.
    #[serde(default)]
    pub owner: Option<String>,
    #[serde(default)]
    pub name: Option<String>,
    /// The organization's git token the repository is read with; none for a public one.
    #[serde(default)]
    pub git_token_id: Option<uuid::Uuid>,
}

/// The code host of a repository whose request names none: the platform's enum of code hosts
/// hides their names, so every URL, the reference server's local repositories included, reads
/// as the one the spec samples.
pub const SAMPLED_CODE_HOST: GitProvider = GitProvider::ProviderG;

impl GitRepositoryRequest {
    /// The repository at `url` with everything the production document asks for: its code
    /// host, and its owner and name read from the URL.
    pub fn for_url(url: &str, branch: Option<String>) -> Self {
        let url = url.trim().to_string();
        let (owner, name) = repository_owner_and_name(&url);
        Self {
            url,
            branch,
            root_path: None,
            provider: Some(SAMPLED_CODE_HOST),
            owner,
            name,
            git_token_id: None,
        }
    }
}

impl GitRepositoryRequest {
    /// The rules every request naming a repository keeps (`repository_rules`).
    pub fn rules(&self, field: &str) -> Violations {
        repository_rules(
            field,
            &self.url,
            self.branch.as_deref(),
            self.root_path.as_deref(),
        )
    }
}

/// The rules of a repository a request names (`field` the request's prefix, `git_repository.`):
/// an address; a branch git reads as a name, never as an expression; a root path absolute in
/// the repository that never leaves it.
pub fn repository_rules(
    field: &str,
    url: &str,
    branch: Option<&str>,
    root_path: Option<&str>,
) -> Violations {
    let mut violations = Violations::default();
    violations.check(rules::git_url(&format!("{field}url"), url));
    if let Some(branch) = branch.filter(|b| !b.trim().is_empty()) {
        violations.check(rules::git_revision(&format!("{field}branch"), branch));
    }
    if let Some(root) = root_path.filter(|root| !root.is_empty()) {
        let field = format!("{field}root_path");
        if !root.starts_with('/') {
            violations.check(Some(FieldError::new(
                field,
                "must be an absolute path in the repository, e.g. /infra",
            )));
        } else {
            violations.check(rules::repository_path(&field, root));
        }
    }
    violations
}

/// `https://host/owner/name.git` gives `(owner, name)`.
pub fn repository_owner_and_name(url: &str) -> (Option<String>, Option<String>) {
    let path = url.trim_end_matches('/').trim_end_matches(".git");
    let mut segments = path.rsplit(['/', ':']);
    let name = segments
        .next()
        .filter(|s| !s.is_empty())
        .map(str::to_string);
    let owner = segments
        .next()
        .filter(|s| !s.is_empty())
        .map(str::to_string);
    (owner, name)
}

impl From<&GitRepository> for GitRepositoryRequest {
    fn from(repository: &GitRepository) -> Self {
        Self {
            url: repository.url.clone(),
            branch: repository.branch.clone(),
            root_path: repository.root_path.clone(),
            provider: repository.provider,
            owner: repository.owner.clone(),
            name: repository.name.clone(),
            git_token_id: repository
                .git_token_id
                .as_deref()
                .and_then(|id| id.parse().ok()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn owner_and_name_come_from_the_url() {
        assert_eq!(
            repository_owner_and_name("https://git.example.com/acme/web.git"),
            (Some("acme".into()), Some("web".into()))
        );
        assert_eq!(
            repository_owner_and_name("git@example.com:acme/api"),
            (Some("acme".into()), Some("api".into()))
        );
        let request = GitRepositoryRequest::for_url(" https://git.example.com/acme/web ", None);
        assert_eq!(request.url, "https://git.example.com/acme/web");
        assert_eq!(request.provider, Some(SAMPLED_CODE_HOST));
    }

    fn refused(root_path: Option<&str>, branch: Option<&str>) -> Vec<String> {
        let mut repository = GitRepositoryRequest::for_url("https://git.example.com/a/b", None);
        repository.root_path = root_path.map(str::to_string);
        repository.branch = branch.map(str::to_string);
        crate::error::refused_fields(repository.rules("git_repository.").into_result())
    }

    #[test]
    fn a_root_path_is_absolute_and_stays_inside_the_repository() {
        for kept in [
            None,
            Some(""),
            Some("/"),
            Some("/infra"),
            Some("/infra/net.v2"),
        ] {
            assert!(refused(kept, None).is_empty(), "{kept:?}");
        }
        for broken in [
            "infra",
            "/..",
            "/infra/../..",
            "/a\\..",
            "/:(glob)*",
            "/a\nb",
        ] {
            assert_eq!(
                refused(Some(broken), None),
                ["git_repository.root_path"],
                "{broken}"
            );
        }
    }

    #[test]
    fn a_branch_is_a_name_never_an_expression() {
        for kept in ["main", "release/2.1", "v1.0", "feature_x-y", "0a1b2c3d"] {
            assert!(refused(None, Some(kept)).is_empty(), "{kept}");
        }
        for broken in [
            "main^{/(a*)*b}",
            ":/fix",
            "HEAD~1",
            "a..b",
            "main@{yesterday}",
            "--output=x",
            "a b",
            "a\0b",
        ] {
            assert_eq!(
                refused(None, Some(broken)),
                ["git_repository.branch"],
                "{broken}"
            );
        }
    }
}
