//! A terraform service's files read from its repository:
//! `POST /organization/{id}/listTfVarsFilesFromGitRepo`, every `.tfvars` file (under
//! `root_path`) with its values, `…/parseTerraformVariablesFromGitRepo`, the `variable` blocks
//! its module (the `.tf` files of `root_path`) declares, and
//! `GET /terraform/{id}/terraformResources`, the `resource` and `data` blocks of the module at
//! the commit last deployed: the engine simulates the apply, so what it made is what the module
//! declares, with the attributes its blocks set. All parsed as HCL, each file within its limits
//! (`untrusted`): its size known before it is read, its nesting before it is parsed.
//!
//! Reading the variables of any repository is what creating a terraform service from it allows
//! (WRITE); a caller who may only read reads those of the repositories its organization's
//! terraform services already use, as it reads the services themselves.

use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::Json;
use chrono::{DateTime, Utc};
use platform_api::paths;
use platform_api::{
    List, ServiceType, TerraformResource, TerraformResourceMode, TerraformServices,
    TerraformVariableDefinition, TerraformVariableParsingRequest, TfVarsFile, TfVarsListingRequest,
};
use uuid::Uuid;

use crate::caller::{Caller, Permission};
use crate::error::{ApiError, ApiJson, ApiPath, ApiResult};
use crate::git;
use crate::routes::organization::git_repositories::readable_repository;
use crate::routes::own_organization;
use crate::routes::services::records::find;
use crate::routes::{Doc, RouteTable};
use crate::state::AppState;
use crate::untrusted;

pub fn register(routes: &mut RouteTable) {
    routes.add(
        Method::POST,
        paths::TFVARS_FILES,
        Permission::Read,
        Doc::new("Find every .tfvars file of a git repository and read its variables")
            .body::<TfVarsListingRequest>()
            .answers_list_of::<TfVarsFile>(StatusCode::OK),
        list_tfvars_files,
    );
    routes.add(
        Method::POST,
        paths::TERRAFORM_VARIABLES,
        Permission::Read,
        Doc::new("Read the variables a terraform module of a git repository declares")
            .body::<TerraformVariableParsingRequest>()
            .answers_list_of::<TerraformVariableDefinition>(StatusCode::OK),
        parse_terraform_variables,
    );
    routes.add(
        Method::GET,
        paths::TERRAFORM_RESOURCES,
        Permission::Read,
        Doc::new("The resources of a terraform service's last deployment")
            .answers_list_of::<TerraformResource>(StatusCode::OK),
        terraform_resources,
    );
}

async fn list_tfvars_files(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(organization_id): ApiPath<Uuid>,
    ApiJson(request): ApiJson<TfVarsListingRequest>,
) -> ApiResult<Json<List<TfVarsFile>>> {
    own_organization(&caller, organization_id)?;
    request.validate().map_err(ApiError::invalid)?;
    let repository = request.git_repository;
    if caller.require(Permission::Write).is_err()
        && !used_by_a_terraform_service(&state, organization_id, &repository.url).await?
    {
        return Err(ApiError::forbidden(format!(
            "Your token's role ({}) reads the variables only of repositories this organization's terraform services use.",
            caller.role_name
        )));
    }
    let read = state.engine.repositories.local(&repository.url)?;
    let wanted = request.mode.specific_paths();
    let files = git::read(move || {
        git::tfvars_files(
            &read,
            repository.branch.as_deref(),
            repository.root_path.as_deref(),
            wanted.as_deref(),
        )
    })
    .await?;
    let mut parsed = Vec::with_capacity(files.len());
    for (source, content) in files {
        parsed.push(untrusted::parse(&untrusted::TFVARS_FILE, source, content, tfvars_file).await?);
    }
    Ok(Json(List::new(parsed)))
}

async fn parse_terraform_variables(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(organization_id): ApiPath<Uuid>,
    ApiJson(request): ApiJson<TerraformVariableParsingRequest>,
) -> ApiResult<Json<List<TerraformVariableDefinition>>> {
    own_organization(&caller, organization_id)?;
    let repository = request.git_repository;
    let read = readable_repository(
        &state,
        &caller,
        organization_id,
        "git_repository",
        &repository,
    )
    .await?;
    let files = git::read(move || {
        git::terraform_files(
            &read,
            repository.branch.as_deref(),
            repository.root_path.as_deref(),
        )
    })
    .await?;
    let mut variables = Vec::new();
    for (source, content) in files {
        let declared = untrusted::parse(
            &untrusted::TERRAFORM_FILE,
            source,
            content,
            declared_variables,
        );
        variables.extend(declared.await?);
    }
    Ok(Json(List::new(variables)))
}

async fn terraform_resources(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<Uuid>,
) -> ApiResult<Json<List<TerraformResource>>> {
    let (record, _) = find::<TerraformServices>(&state, &caller, id).await?;
    let repository = record.terraform_files_source.git.git_repository;
    let (Some(commit), Some(deployed_at)) = (
        repository.deployed_commit_id.clone(),
        repository.deployed_commit_date,
    ) else {
        return Ok(Json(List::new(Vec::new())));
    };
    let read = state.engine.repositories.local(&repository.url)?;
    let files = git::read(move || {
        git::terraform_files(&read, Some(&commit), repository.root_path.as_deref())
    })
    .await?;
    let mut resources = Vec::new();
    for (source, content) in files {
        let declared = untrusted::parse(
            &untrusted::TERRAFORM_FILE,
            source,
            content,
            move |source, text| declared_resources(source, text, (id, deployed_at)),
        );
        resources.extend(declared.await?);
    }
    Ok(Json(List::new(resources)))
}

/// The variables a `.tfvars` file sets, each as text.
fn tfvars_file(source: &str, content: &str) -> ApiResult<TfVarsFile> {
    let values: hcl::Map<String, hcl::Value> = hcl::from_str(content).map_err(|error| {
        ApiError::unanswerable(
            "TFVARS_NOT_HCL",
            format!("{source} is not valid HCL: {error}"),
        )
    })?;
    let variables = values
        .into_iter()
        .map(|(name, value)| Ok((name, as_text(&value)?)))
        .collect::<ApiResult<_>>()?;
    Ok(TfVarsFile {
        source: source.to_string(),
        variables,
    })
}

/// The `resource` and `data` blocks of the file `source` of the service `id`'s module, as its
/// deployment at `deployed_at` made them.
fn declared_resources(
    source: &str,
    content: &str,
    (id, deployed_at): (Uuid, DateTime<Utc>),
) -> ApiResult<Vec<TerraformResource>> {
    let body = parse(source, content)?;
    let mut resources = Vec::new();
    for block in body.blocks() {
        let mode = match block.identifier() {
            "resource" => TerraformResourceMode::Managed,
            "data" => TerraformResourceMode::Data,
            _ => continue,
        };
        let [kind, name] = block.labels() else {
            continue;
        };
        let (kind, name) = (kind.as_str(), name.as_str());
        let address = match mode {
            TerraformResourceMode::Data => format!("data.{kind}.{name}"),
            _ => format!("{kind}.{name}"),
        };
        let attributes = block
            .body()
            .attributes()
            .filter_map(|attribute| {
                let value = hcl::Value::from(attribute.expr().clone());
                Some((
                    attribute.key().to_string(),
                    serde_json::to_value(value).ok()?,
                ))
            })
            .collect();
        resources.push(TerraformResource {
            // The same resource of the same service, the same id at every read.
            id: Uuid::new_v5(&id, address.as_bytes()),
            resource_type: kind.to_string(),
            name: name.to_string(),
            provider: kind.split('_').next().unwrap_or(kind).to_string(),
            address,
            mode,
            attributes,
            extracted_at: deployed_at,
        });
    }
    Ok(resources)
}

/// The file `source` as HCL, or a 400 saying where it is not.
fn parse(source: &str, content: &str) -> ApiResult<hcl::Body> {
    hcl::parse(content).map_err(|error| {
        ApiError::unanswerable(
            "TERRAFORM_NOT_HCL",
            format!("{source} is not valid HCL: {error}"),
        )
    })
}

/// The `variable` blocks of the file `source`, in its order.
fn declared_variables(source: &str, content: &str) -> ApiResult<Vec<TerraformVariableDefinition>> {
    let body = parse(source, content)?;
    body.blocks()
        .filter(|block| block.identifier() == "variable")
        .filter_map(|block| {
            let key = block.labels().first()?.as_str().to_string();
            let attribute = |name: &str| {
                block
                    .body()
                    .attributes()
                    .find(|attribute| attribute.key() == name)
                    .map(|attribute| hcl::Value::from(attribute.expr().clone()))
            };
            let flag = |name: &str| attribute(name).and_then(|value| value.as_bool());
            let default = attribute("default").filter(|value| !value.is_null());
            Some((|| {
                Ok(TerraformVariableDefinition {
                    key,
                    sensitive: flag("sensitive").unwrap_or(false),
                    nullable: flag("nullable").unwrap_or(true),
                    default: default.as_ref().map(as_text).transpose()?,
                    source: source.to_string(),
                    description: attribute("description")
                        .and_then(|value| value.as_str().map(str::to_string)),
                })
            })())
        })
        .collect()
}

/// A variable's value as text: a string as it is, a number or a boolean as written, a list or an
/// object in HCL.
fn as_text(value: &hcl::Value) -> ApiResult<String> {
    match value {
        hcl::Value::String(text) => Ok(text.clone()),
        other => hcl::format::to_string(other).map_err(ApiError::internal),
    }
}

async fn used_by_a_terraform_service(
    state: &AppState,
    organization_id: Uuid,
    url: &str,
) -> ApiResult<bool> {
    crate::store::services::built_from(&state.db, organization_id, ServiceType::Terraform, url)
        .await
}
