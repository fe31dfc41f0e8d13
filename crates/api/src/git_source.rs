//! Where a service's code comes from when it is built from git: one answer per kind, used by the
//! server (commits, the commit a deployment is at) and by the console (its commit list).

use crate::application::{Application, ApplicationRequest};
use crate::container::{Container, ContainerRequest};
use crate::database::{Database, DatabaseRequest};
use crate::git_repository::{GitRepository, GitRepositoryRequest};
use crate::helm::{HelmRequest, HelmService};
use crate::job::{Job, JobRequest};
use crate::service_type::ServiceType;
use crate::terraform::{TerraformRequest, TerraformService};

/// A service record that may be built from a git repository.
pub trait GitSource {
    /// The repository, when the service is built from one.
    fn git_repository(&self) -> Option<&GitRepository>;

    fn git_repository_mut(&mut self) -> Option<&mut GitRepository>;
}

impl GitSource for Application {
    fn git_repository(&self) -> Option<&GitRepository> {
        Some(&self.git_repository)
    }

    fn git_repository_mut(&mut self) -> Option<&mut GitRepository> {
        Some(&mut self.git_repository)
    }
}

impl GitSource for Job {
    fn git_repository(&self) -> Option<&GitRepository> {
        self.source
            .docker
            .as_ref()
            .map(|docker| &docker.git_repository)
    }

    fn git_repository_mut(&mut self) -> Option<&mut GitRepository> {
        self.source
            .docker
            .as_mut()
            .map(|docker| &mut docker.git_repository)
    }
}

impl GitSource for HelmService {
    fn git_repository(&self) -> Option<&GitRepository> {
        self.source.git.as_ref().map(|git| &git.git_repository)
    }

    fn git_repository_mut(&mut self) -> Option<&mut GitRepository> {
        self.source.git.as_mut().map(|git| &mut git.git_repository)
    }
}

impl GitSource for TerraformService {
    fn git_repository(&self) -> Option<&GitRepository> {
        Some(&self.terraform_files_source.git.git_repository)
    }

    fn git_repository_mut(&mut self) -> Option<&mut GitRepository> {
        Some(&mut self.terraform_files_source.git.git_repository)
    }
}

impl GitSource for Container {
    fn git_repository(&self) -> Option<&GitRepository> {
        None
    }

    fn git_repository_mut(&mut self) -> Option<&mut GitRepository> {
        None
    }
}

impl GitSource for Database {
    fn git_repository(&self) -> Option<&GitRepository> {
        None
    }

    fn git_repository_mut(&mut self) -> Option<&mut GitRepository> {
        None
    }
}

/// A request for a service that may be built from a git repository: where it names the
/// repository (and so the git token it is read with).
pub trait GitSourceRequest {
    /// The repository, with the field path it is under, when the request names one.
    fn git_repository(&self) -> Option<(&'static str, &GitRepositoryRequest)>;
}

impl GitSourceRequest for ApplicationRequest {
    fn git_repository(&self) -> Option<(&'static str, &GitRepositoryRequest)> {
        Some(("git_repository", &self.git_repository))
    }
}

impl GitSourceRequest for JobRequest {
    fn git_repository(&self) -> Option<(&'static str, &GitRepositoryRequest)> {
        let docker = self.source.docker.as_ref()?;
        Some(("source.docker.git_repository", &docker.git_repository))
    }
}

impl GitSourceRequest for HelmRequest {
    fn git_repository(&self) -> Option<(&'static str, &GitRepositoryRequest)> {
        let git = self.source.git.as_ref()?;
        Some(("source.git.git_repository", &git.git_repository))
    }
}

impl GitSourceRequest for TerraformRequest {
    fn git_repository(&self) -> Option<(&'static str, &GitRepositoryRequest)> {
        let git = &self.terraform_files_source.git;
        Some((
            "terraform_files_source.git.git_repository",
            &git.git_repository,
        ))
    }
}

impl GitSourceRequest for ContainerRequest {
    fn git_repository(&self) -> Option<(&'static str, &GitRepositoryRequest)> {
        None
    }
}

impl GitSourceRequest for DatabaseRequest {
    fn git_repository(&self) -> Option<(&'static str, &GitRepositoryRequest)> {
        None
    }
}

impl ServiceType {
    /// Where `GitSource::git_repository` sits in a record of this kind as JSON (`$.a.b`), for
    /// storage that reads or edits it in place; `None` for the kinds never built from git.
    pub fn git_repository_path(self) -> Option<&'static str> {
        match self {
            ServiceType::Application => Some("$.git_repository"),
            ServiceType::Job => Some("$.source.docker.git_repository"),
            ServiceType::Helm => Some("$.source.git.git_repository"),
            ServiceType::Terraform => Some("$.terraform_files_source.git.git_repository"),
            ServiceType::Container | ServiceType::Database | ServiceType::Other(_) => None,
        }
    }
}
