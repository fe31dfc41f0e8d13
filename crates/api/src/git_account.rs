//! What a person picks a repository from instead of typing it: the code-host accounts connected,
//! their repositories and branches, the folders of a repository, and a terraform module's
//! variables as its files declare them.

use serde::{Deserialize, Serialize};

use crate::git_repository::GitRepositoryRequest;
use crate::git_token::GitProvider;
use crate::paths::Template;

/// A code-host account repositories are listed with (the document's `GitAuthProvider`):
/// `name` is the code host (`GitProvider`'s wire name), `owner` whose account it is.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GitAuthProvider {
    pub id: Option<String>,
    pub name: String,
    pub owner: String,
    pub use_bot: Option<bool>,
}

/// A repository an account or a git token can read (the document's `GitRepository` of its
/// repository lists).
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct HostedRepository {
    pub id: String,
    pub name: String,
    pub url: String,
    pub default_branch: Option<String>,
    pub is_private: Option<bool>,
}

/// A branch of a listed repository.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GitRepositoryBranch {
    pub name: String,
}

/// The query of a repository or branch list: the git token to read with (none: the connected
/// account) and, for branches, the repository's name as its list gives it.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RepositoryQuery {
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub git_token_id: Option<uuid::Uuid>,
}

impl RepositoryQuery {
    /// `?name=…&gitTokenId=…`, the parts given.
    pub fn to_query(&self) -> String {
        match crate::query::to_query_string(self) {
            query if query.is_empty() => query,
            query => format!("?{query}"),
        }
    }
}

/// Body of `POST /organization/{id}/parseTerraformVariablesFromGitRepo`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TerraformVariableParsingRequest {
    pub git_repository: GitRepositoryRequest,
}

/// A `variable` block of a terraform module: its name, whether it is sensitive or may be null,
/// its default (as text: a string as it is, anything else in HCL) and description, and the file
/// declaring it.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TerraformVariableDefinition {
    pub key: String,
    pub sensitive: bool,
    #[serde(default = "nullable_by_default")]
    pub nullable: bool,
    pub default: Option<String>,
    pub source: String,
    pub description: Option<String>,
}

fn nullable_by_default() -> bool {
    true
}

impl TerraformVariableDefinition {
    /// Whether a value must be given: no default, and null not accepted.
    pub fn required(&self) -> bool {
        self.default.is_none() && !self.nullable
    }
}

/// The paths of a code host's repositories and their branches: under the organization (the
/// console's), and the deprecated ones of the signed-in account.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GitHostPaths {
    pub repositories: Template,
    pub branches: Template,
    pub account_repositories: Template,
    pub account_branches: Template,
}

/// The code hosts whose repositories the document lists, each by the word its paths use.
pub fn git_host_paths(host: GitProvider) -> Option<GitHostPaths> {
    use crate::paths::*;
    Some(match host {
        GitProvider::ProviderC => GitHostPaths {
            repositories: PROVIDER_C_REPOSITORIES,
            branches: PROVIDER_C_BRANCHES,
            account_repositories: ACCOUNT_PROVIDER_C_REPOSITORIES,
            account_branches: ACCOUNT_PROVIDER_C_BRANCHES,
        },
        GitProvider::ProviderD => GitHostPaths {
            repositories: PROVIDER_D_REPOSITORIES,
            branches: PROVIDER_D_BRANCHES,
            account_repositories: ACCOUNT_PROVIDER_D_REPOSITORIES,
            account_branches: ACCOUNT_PROVIDER_D_BRANCHES,
        },
        GitProvider::ProviderG => GitHostPaths {
            repositories: PROVIDER_G_REPOSITORIES,
            branches: PROVIDER_G_BRANCHES,
            account_repositories: ACCOUNT_PROVIDER_G_REPOSITORIES,
            account_branches: ACCOUNT_PROVIDER_G_BRANCHES,
        },
        GitProvider::Other(_) => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_query_names_what_is_given() {
        assert_eq!(RepositoryQuery::default().to_query(), "");
        let token = uuid::Uuid::nil();
        let query = RepositoryQuery {
            name: Some("acme/shop front".into()),
            git_token_id: Some(token),
        };
        assert_eq!(
            query.to_query(),
            format!("?name=acme%2Fshop%20front&gitTokenId={token}")
        );
    }
}
