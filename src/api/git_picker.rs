//! What a repository field offers to pick: the code-host accounts connected, the repositories an
//! account or a git token reads, their branches and folders, and a terraform module's variables.

use platform_api::paths;
use platform_api::{
    git_host_paths, GitAuthProvider, GitProvider, GitRepositoryBranch, GitRepositoryRequest,
    HostedRepository, List, RepositoryQuery, TerraformVariableDefinition,
    TerraformVariableParsingRequest,
};
use uuid::Uuid;

use super::{Api, ApiError};

impl Api {
    /// The code-host accounts connected, whose repositories are listed without a git token.
    pub async fn git_accounts(&self, org: Uuid) -> Result<Vec<GitAuthProvider>, ApiError> {
        let list: List<GitAuthProvider> = self.get(&paths::GIT_ACCOUNTS.at(&[org])).await?;
        Ok(list.results)
    }

    /// The repositories of `host` the query's git token (or, without one, the account) reads.
    pub async fn hosted_repositories(
        &self,
        org: Uuid,
        host: GitProvider,
        query: RepositoryQuery,
    ) -> Result<Vec<HostedRepository>, ApiError> {
        let Some(host_paths) = git_host_paths(host) else {
            return Ok(Vec::new());
        };
        let path = host_paths.repositories.at(&[org]) + &query.to_query();
        let list: List<HostedRepository> = self.get(&path).await?;
        Ok(list.results)
    }

    /// The branches of the repository the query names, as its list gave it.
    pub async fn repository_branches(
        &self,
        org: Uuid,
        host: GitProvider,
        query: RepositoryQuery,
    ) -> Result<Vec<String>, ApiError> {
        let Some(host_paths) = git_host_paths(host) else {
            return Ok(Vec::new());
        };
        let path = host_paths.branches.at(&[org]) + &query.to_query();
        let list: List<GitRepositoryBranch> = self.get(&path).await?;
        Ok(list.results.into_iter().map(|branch| branch.name).collect())
    }

    /// The folders directly below the repository's `root_path`.
    pub async fn repository_folders(
        &self,
        org: Uuid,
        repository: &GitRepositoryRequest,
    ) -> Result<Vec<String>, ApiError> {
        let path = paths::REPOSITORY_DIRECTORIES.at(&[org]);
        let list: List<String> = self.post(&path, repository).await?;
        Ok(list.results)
    }

    /// The variables the terraform module at the repository's `root_path` declares.
    pub async fn terraform_variables(
        &self,
        org: Uuid,
        repository: GitRepositoryRequest,
    ) -> Result<Vec<TerraformVariableDefinition>, ApiError> {
        let request = TerraformVariableParsingRequest {
            git_repository: repository,
        };
        let path = paths::TERRAFORM_VARIABLES.at(&[org]);
        let list: List<TerraformVariableDefinition> = self.post(&path, &request).await?;
        Ok(list.results)
    }
}
