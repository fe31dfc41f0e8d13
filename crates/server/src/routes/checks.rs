//! Checks before create (`POST /environment/{id}/checkDockerfile`, `checkContainerImage`,
//! `checkHelmRepository`, `checkGitFile`): 200 when what a form names exists, 400 naming the
//! field when it does not. Git data is read for real where the repository is readable (the
//! `--git-root` folders and the demo's); a registry's images are those the organization's
//! containers run or ran, the only ones this server knows (there is no registry to ask here).

use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::Json;
use platform_api::paths;
use platform_api::{
    ContainerImageCheckRequest, DockerfileCheck, DockerfileCheckRequest, FieldError, Found,
    GitFileCheckRequest, GitRepositoryRequest, HelmRepositoryCheckRequest,
};
use uuid::Uuid;

use crate::caller::{Caller, Permission};
use crate::error::{ApiError, ApiJson, ApiPath, ApiResult};
use crate::git;
use crate::routes::doc::Doc;
use crate::routes::environments::find_environment;
use crate::routes::RouteTable;
use crate::state::AppState;
use crate::store::services::image_used;
use crate::untrusted;

pub fn register(routes: &mut RouteTable) {
    routes
        .add(
            Method::POST,
            paths::CHECK_DOCKERFILE,
            Permission::Write,
            Doc::new(
                "Whether a Dockerfile is in a repository at a branch, with its ARGs and the \
                 images it builds on; 400 naming `dockerfile_path` when it is not",
            )
            .body::<DockerfileCheckRequest>()
            .answers::<DockerfileCheck>(StatusCode::OK),
            check_dockerfile,
        )
        .add(
            Method::POST,
            paths::CHECK_CONTAINER_IMAGE,
            Permission::Write,
            Doc::new(
                "Whether a registry holds an image at a tag: on this server, whether a \
                 container of the organization runs or ran it; 400 naming `tag` when not",
            )
            .body::<ContainerImageCheckRequest>()
            .answers::<Found>(StatusCode::OK),
            check_container_image,
        )
        .add(
            Method::POST,
            "/environment/{environment_id}/checkHelmRepository",
            Permission::Write,
            Doc::new(
                "Whether a git repository holds a helm chart (a Chart.yaml under root_path); \
                 400 naming `git_repository.root_path` when it does not",
            )
            .body::<HelmRepositoryCheckRequest>()
            .answers::<Found>(StatusCode::OK),
            check_helm_repository,
        )
        .add(
            Method::POST,
            "/environment/{environment_id}/checkGitFile",
            Permission::Write,
            Doc::new("Whether files are in a git repository; 400 naming each one missing")
                .body::<GitFileCheckRequest>()
                .answers::<Found>(StatusCode::OK),
            check_git_file,
        );
}

/// Whether each file is in the repository (below its root path, at its branch), where the
/// server reaches it; none of them is read.
async fn files_found(
    state: &AppState,
    repository: &GitRepositoryRequest,
    files: Vec<String>,
) -> ApiResult<Vec<(String, bool)>> {
    let read = state.engine.repositories.local(&repository.url)?;
    let (branch, root) = (repository.branch.clone(), repository.root_path.clone());
    git::read(move || {
        files
            .into_iter()
            .map(|file| {
                let found = git::has_file(&read, branch.as_deref(), root.as_deref(), &file)?;
                Ok((file, found))
            })
            .collect::<Result<Vec<_>, git::GitError>>()
    })
    .await
    .map_err(ApiError::from)
}

/// "not found at the branch …" for `field`.
fn not_found(field: &str, what: &str, repository: &GitRepositoryRequest) -> FieldError {
    let branch = repository.branch.as_deref().unwrap_or("the default branch");
    FieldError::new(
        field,
        format!("not found: {what} is not in {} at {branch}", repository.url),
    )
}

async fn check_dockerfile(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(environment_id): ApiPath<Uuid>,
    ApiJson(request): ApiJson<DockerfileCheckRequest>,
) -> ApiResult<Json<DockerfileCheck>> {
    find_environment(&state, &caller, environment_id).await?;
    request.validate().map_err(ApiError::invalid)?;
    let path = request.dockerfile_path.trim().to_string();
    let repository = &request.git_repository;
    let read = state.engine.repositories.local(&repository.url)?;
    let (branch, root, file) = (
        repository.branch.clone(),
        repository.root_path.clone(),
        path.clone(),
    );
    let text = git::read(move || {
        git::file_at(
            &read,
            branch.as_deref(),
            root.as_deref(),
            &file,
            &untrusted::DOCKERFILE,
        )
    })
    .await?;
    let Some(text) = text else {
        return Err(ApiError::invalid(vec![not_found(
            "dockerfile_path",
            &path,
            repository,
        )]));
    };
    let (arg, repositories) =
        untrusted::parse(&untrusted::DOCKERFILE, path.clone(), text, |_, text| {
            Ok::<_, ApiError>(dockerfile_names(text))
        })
        .await?;
    Ok(Json(DockerfileCheck {
        git_repository: request.git_repository,
        dockerfile_path: path,
        arg,
        repositories,
    }))
}

/// The names a Dockerfile's `ARG`s declare and the images its `FROM`s build on, read line by
/// line.
fn dockerfile_names(text: &str) -> (Vec<String>, Vec<String>) {
    let (mut arg, mut repositories) = (Vec::new(), Vec::new());
    for line in text.lines().map(str::trim) {
        let mut words = line.split_whitespace();
        match words.next().map(str::to_ascii_uppercase).as_deref() {
            Some("ARG") => arg.extend(
                words
                    .next()
                    .and_then(|declared| declared.split('=').next())
                    .map(str::to_string),
            ),
            Some("FROM") => repositories.extend(
                words
                    .find(|word| !word.starts_with("--"))
                    .map(str::to_string),
            ),
            _ => {}
        }
    }
    (arg, repositories)
}

async fn check_container_image(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(environment_id): ApiPath<Uuid>,
    ApiJson(request): ApiJson<ContainerImageCheckRequest>,
) -> ApiResult<Json<Found>> {
    find_environment(&state, &caller, environment_id).await?;
    request.validate().map_err(ApiError::invalid)?;
    let registry = request.registry().unwrap_or_default();
    let (image, tag) = (request.image_name.trim(), request.tag.trim());
    if !image_used(&state.db, caller.organization_id, registry, image, tag).await? {
        return Err(ApiError::invalid(vec![FieldError::new(
            "tag",
            format!(
                "not found: no container of this organization runs or ran {image}:{tag} from \
                 this registry (the only images this server knows)"
            ),
        )]));
    }
    Ok(Json(Found {}))
}

async fn check_helm_repository(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(environment_id): ApiPath<Uuid>,
    ApiJson(request): ApiJson<HelmRepositoryCheckRequest>,
) -> ApiResult<Json<Found>> {
    find_environment(&state, &caller, environment_id).await?;
    request.validate().map_err(ApiError::invalid)?;
    let found = files_found(&state, &request.git_repository, vec!["Chart.yaml".into()]).await?;
    if !matches!(found.first(), Some((_, true))) {
        return Err(ApiError::invalid(vec![not_found(
            "git_repository.root_path",
            "a helm chart (Chart.yaml)",
            &request.git_repository,
        )]));
    }
    Ok(Json(Found {}))
}

async fn check_git_file(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(environment_id): ApiPath<Uuid>,
    ApiJson(request): ApiJson<GitFileCheckRequest>,
) -> ApiResult<Json<Found>> {
    find_environment(&state, &caller, environment_id).await?;
    request.validate().map_err(ApiError::invalid)?;
    let found = files_found(&state, &request.git_repository, request.files.clone()).await?;
    let missing: Vec<FieldError> = found
        .iter()
        .enumerate()
        .filter(|(_, (_, found))| !found)
        .map(|(index, (file, _))| {
            not_found(&format!("files[{index}]"), file, &request.git_repository)
        })
        .collect();
    if !missing.is_empty() {
        return Err(ApiError::invalid(missing));
    }
    Ok(Json(Found {}))
}
