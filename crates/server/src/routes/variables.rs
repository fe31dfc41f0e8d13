//! Environment variables and secrets at every scope (spec 2.2, 2.3): the per-scope routes of spec
//! 4.2 (`/{scope}/{id}/environmentVariable`, `/{scope}/{id}/secret`, and the override of 4.1) and
//! the `/variable` family (list by parent and scope, create, update, delete, alias, override).
//! A service sees its own variables, its environment's and its project's, an override hiding the
//! variable it overrides, plus the built-in variables of its environment's services.

use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::Json;
use chrono::{DateTime, Utc};
use platform_api::audit::{EventType, SubTargetType};
use platform_api::{
    AliasRequest, DatabaseType, EnvironmentVariable, FieldError, ImportOutcome, List,
    OverrideRequest, PageQuery, ScopedOverrideRequest, Secret, ServiceType, VariableBulk,
    VariableBulkRequest, VariableCreation, VariableImport, VariableImportRequest,
    VariableReference, VariableRequest, VariableScope, VariableType, VARIABLES_PER_SCOPE_MAX,
    VARIABLE_PAGE_SIZE_MAX,
};
use serde::Deserialize;
use sha2::{Digest, Sha256};
use sqlx::{SqliteConnection, SqlitePool};
use uuid::Uuid;

use super::environments::find_environment;
use super::projects::find_project;
use crate::audit::{self, Change, Target};
use crate::caller::{Caller, Permission};
use crate::db;
use crate::engine::{self, Scope};
use crate::error::{ApiError, ApiJson, ApiPath, ApiQuery, ApiResult, UniqueViolation};
use crate::routes::doc::{self, Doc};
use crate::routes::RouteTable;
use crate::state::AppState;

/// The scopes variables are defined at, with their path segment and id parameter.
const SCOPES: [(VariableScope, &str, &str); 7] = [
    (VariableScope::Project, "project", "project_id"),
    (VariableScope::Environment, "environment", "environment_id"),
    (VariableScope::Application, "application", "application_id"),
    (VariableScope::Container, "container", "container_id"),
    (VariableScope::Job, "job", "job_id"),
    (VariableScope::Helm, "helm", "helm_id"),
    (VariableScope::Terraform, "terraform", "terraform_id"),
];

/// Who says what the platform generated, in `owned_by`.
const OWNED_BY: &str = "PLATFORM";

pub fn register(routes: &mut RouteTable) {
    for (scope, segment, parameter) in SCOPES {
        for secret in [false, true] {
            register_scope(routes, scope, segment, parameter, secret);
        }
        routes.add(
            Method::POST,
            format!("/{segment}/{{{parameter}}}/environmentVariable/import"),
            Permission::Write,
            Doc::new(format!(
                "Import variables and secrets at this {segment} or above it, all or none"
            ))
            .body::<VariableImportRequest>()
            .answers::<VariableImport>(StatusCode::CREATED),
            move |State(state): State<AppState>,
                  caller: Caller,
                  ApiPath(parent_id): ApiPath<Uuid>,
                  ApiJson(request): ApiJson<VariableImportRequest>| async move {
                let parent = parent(&state, &caller, scope, parent_id).await?;
                let imported = import(&state, &caller, &parent, request).await?;
                Ok::<_, ApiError>((StatusCode::CREATED, Json(imported)))
            },
        );
        routes.add(
            Method::POST,
            format!("/{segment}/{{{parameter}}}/environmentVariable/bulk"),
            Permission::Write,
            Doc::new(format!(
                "Delete, make secret and set many variables of this {segment} at once, all or \
                 none (deleting needs ADMIN)"
            ))
            .body::<VariableBulkRequest>()
            .answers::<VariableBulk>(StatusCode::OK),
            move |State(state): State<AppState>,
                  caller: Caller,
                  ApiPath(parent_id): ApiPath<Uuid>,
                  ApiJson(request): ApiJson<VariableBulkRequest>| async move {
                let parent = parent(&state, &caller, scope, parent_id).await?;
                Ok::<_, ApiError>(Json(bulk(&state, &caller, &parent, request).await?))
            },
        );
        routes.add(
            Method::POST,
            format!("/{segment}/{{{parameter}}}/environmentVariable/{{variable_id}}/override"),
            Permission::Write,
            Doc::new(format!(
                "Override a variable of a higher scope at this {segment}"
            ))
            .body::<ScopedOverrideRequest>()
            .answers::<EnvironmentVariable>(StatusCode::CREATED),
            move |State(state): State<AppState>,
                  caller: Caller,
                  ApiPath((parent_id, target_id)): ApiPath<(Uuid, Uuid)>,
                  ApiJson(request): ApiJson<ScopedOverrideRequest>| async move {
                request.validate().map_err(ApiError::invalid)?;
                let parent = parent(&state, &caller, scope, parent_id).await?;
                let created = create_override(
                    &state,
                    &caller,
                    &parent,
                    target_id,
                    request.value,
                    request.description,
                    request.enable_interpolation_in_file,
                )
                .await?;
                Ok::<_, ApiError>((StatusCode::CREATED, Json(created)))
            },
        );
    }
    register_variable_family(routes);
}

/// The list, create, update and delete routes of variables (or secrets) at one scope.
fn register_scope(
    routes: &mut RouteTable,
    scope: VariableScope,
    segment: &str,
    parameter: &str,
    secret: bool,
) {
    let (noun, collection) = if secret {
        ("secret", format!("/{segment}/{{{parameter}}}/secret"))
    } else {
        (
            "environment variable",
            format!("/{segment}/{{{parameter}}}/environmentVariable"),
        )
    };
    let item = if secret {
        format!("{collection}/{{secret_id}}")
    } else {
        format!("{collection}/{{variable_id}}")
    };
    let list_doc = Doc::new(format!(
        "List the {noun}s a {segment} sees; every one unless `pageSize` is given (required past {} MiB of values)",
        WHOLE_LIST_VALUES_MAX_BYTES / (1024 * 1024)
    ));
    let answer_doc = |doc: Doc, status| {
        if secret {
            doc.answers::<Secret>(status)
        } else {
            doc.answers::<EnvironmentVariable>(status)
        }
    };
    routes
        .add(
            Method::GET,
            collection.clone(),
            Permission::Read,
            if secret {
                list_doc.answers_pages_of::<Secret>(VARIABLE_PAGE_SIZE_MAX)
            } else {
                list_doc.answers_pages_of::<EnvironmentVariable>(VARIABLE_PAGE_SIZE_MAX)
            },
            move |State(state): State<AppState>,
                  caller: Caller,
                  ApiPath(parent_id): ApiPath<Uuid>,
                  ApiQuery(page): ApiQuery<PageQuery>| async move {
                let parent = parent(&state, &caller, scope, parent_id).await?;
                let variables = visible(&state.db, &parent, Some(secret), page).await?;
                Ok::<_, ApiError>(Json(shown(variables, secret)))
            },
        )
        .add(
            Method::POST,
            collection,
            Permission::Write,
            answer_doc(
                Doc::new(format!("Create a {noun} on a {segment}")).body::<VariableRequest>(),
                StatusCode::CREATED,
            ),
            move |State(state): State<AppState>,
                  caller: Caller,
                  ApiPath(parent_id): ApiPath<Uuid>,
                  ApiJson(request): ApiJson<VariableRequest>| async move {
                request.validate(false).map_err(ApiError::invalid)?;
                let parent = parent(&state, &caller, scope, parent_id).await?;
                let created = create(&state, &caller, &parent, request, secret).await?;
                Ok::<_, ApiError>((StatusCode::CREATED, Json(one_shown(created, secret))))
            },
        )
        .add(
            Method::GET,
            item.clone(),
            Permission::Read,
            answer_doc(Doc::new(format!("Read a {noun}")), StatusCode::OK),
            move |State(state): State<AppState>,
                  caller: Caller,
                  ApiPath((parent_id, id)): ApiPath<(Uuid, Uuid)>| async move {
                let stored = own_at(&state, &caller, scope, parent_id, id, secret).await?;
                let parent = parent(&state, &caller, scope, parent_id).await?;
                let variable = shape(&mut *state.db.acquire().await?, &parent, stored).await?;
                Ok::<_, ApiError>(Json(one_shown(variable, secret)))
            },
        )
        .add(
            Method::PUT,
            item.clone(),
            Permission::Write,
            answer_doc(
                Doc::new(format!(
                    "Update a {noun}; a secret's value left out is kept"
                ))
                .body::<VariableRequest>(),
                StatusCode::OK,
            ),
            move |State(state): State<AppState>,
                  caller: Caller,
                  ApiPath((parent_id, id)): ApiPath<(Uuid, Uuid)>,
                  ApiJson(request): ApiJson<VariableRequest>| async move {
                let stored = own_at(&state, &caller, scope, parent_id, id, secret).await?;
                let updated = update(&state, &caller, stored, request).await?;
                Ok::<_, ApiError>(Json(one_shown(updated, secret)))
            },
        )
        .add(
            Method::DELETE,
            item,
            Permission::Admin,
            Doc::new(format!("Delete a {noun}")).answers_nothing(StatusCode::NO_CONTENT),
            move |State(state): State<AppState>,
                  caller: Caller,
                  ApiPath((parent_id, id)): ApiPath<(Uuid, Uuid)>| async move {
                let stored = own_at(&state, &caller, scope, parent_id, id, secret).await?;
                delete(&state, &caller, stored).await?;
                Ok::<_, ApiError>(StatusCode::NO_CONTENT)
            },
        );
}

#[derive(Deserialize)]
struct ParentQuery {
    parent_id: Uuid,
    scope: VariableScope,
    /// Only the secrets, or only the plain variables.
    #[serde(default)]
    is_secret: Option<bool>,
}

/// Query of `POST /variable/import`: the service imported through.
#[derive(Deserialize)]
struct ImportQuery {
    service_id: Uuid,
    service_type: ServiceType,
}

fn register_variable_family(routes: &mut RouteTable) {
    routes
        .add(
            Method::POST,
            "/variable/import",
            Permission::Write,
            Doc::new(
                "Import variables and secrets through a service (`?service_id=&service_type=`), each at the scope it names (the service's or above it), all or none",
            )
            .query("service_id", true, doc::uuid())
            .query("service_type", true, doc::one_of_enum::<ServiceType>())
            .body::<VariableImportRequest>()
            .answers::<VariableImport>(StatusCode::CREATED),
            |State(state): State<AppState>,
             caller: Caller,
             ApiQuery(query): ApiQuery<ImportQuery>,
             ApiJson(request): ApiJson<VariableImportRequest>| async move {
                let scope = VariableScope::of_service(query.service_type).ok_or_else(|| {
                    ApiError::invalid(vec![FieldError::new(
                        "service_type",
                        "holds no variables (a database's are built in)",
                    )])
                })?;
                let parent = parent(&state, &caller, scope, query.service_id).await?;
                let imported = import(&state, &caller, &parent, request).await?;
                Ok::<_, ApiError>((StatusCode::CREATED, Json(imported)))
            },
        )
        .add(
            Method::GET,
            "/variable",
            Permission::Read,
            Doc::new(
                "List the variables and secrets seen at a parent (`?parent_id=&scope=`), or only \
                 its secrets or only its plain variables (`is_secret`); every one unless \
                 `pageSize` is given",
            )
            .query("parent_id", true, doc::uuid())
            .query("scope", true, doc::one_of_enum::<VariableScope>())
            .query("is_secret", false, doc::boolean())
            .answers_pages_of::<EnvironmentVariable>(VARIABLE_PAGE_SIZE_MAX),
            |State(state): State<AppState>,
             caller: Caller,
             ApiQuery(query): ApiQuery<ParentQuery>,
             ApiQuery(page): ApiQuery<PageQuery>| async move {
                let parent = parent(&state, &caller, query.scope, query.parent_id).await?;
                Ok::<_, ApiError>(Json(
                    visible(&state.db, &parent, query.is_secret, page).await?,
                ))
            },
        )
        .add(
            Method::POST,
            "/variable",
            Permission::Write,
            Doc::new("Create a variable or a secret at a scope")
                .body::<VariableCreation>()
                .answers::<EnvironmentVariable>(StatusCode::CREATED),
            |State(state): State<AppState>,
             caller: Caller,
             ApiJson(request): ApiJson<VariableCreation>| async move {
                request
                    .variable
                    .validate(false)
                    .map_err(ApiError::invalid)?;
                let parent = parent(
                    &state,
                    &caller,
                    request.variable_scope,
                    request.variable_parent_id,
                )
                .await
                .map_err(|error| named(error, "variable_parent_id"))?;
                let created = create(
                    &state,
                    &caller,
                    &parent,
                    request.variable,
                    request.is_secret,
                )
                .await?;
                Ok::<_, ApiError>((StatusCode::CREATED, Json(created)))
            },
        )
        .add(
            Method::GET,
            "/variable/{variable_id}",
            Permission::Read,
            Doc::new("Read a variable or a secret").answers::<EnvironmentVariable>(StatusCode::OK),
            |State(state): State<AppState>, caller: Caller, ApiPath(id): ApiPath<Uuid>| async move {
                let stored = own(&state, &caller, id).await?;
                let parent = parent(&state, &caller, stored.scope, stored.parent_id).await?;
                Ok::<_, ApiError>(Json(
                    shape(&mut *state.db.acquire().await?, &parent, stored).await?,
                ))
            },
        )
        .add(
            Method::PUT,
            "/variable/{variable_id}",
            Permission::Write,
            Doc::new("Update a variable or a secret; a secret's value left out is kept")
                .body::<VariableRequest>()
                .answers::<EnvironmentVariable>(StatusCode::OK),
            |State(state): State<AppState>,
             caller: Caller,
             ApiPath(id): ApiPath<Uuid>,
             ApiJson(request): ApiJson<VariableRequest>| async move {
                let stored = own(&state, &caller, id).await?;
                Ok::<_, ApiError>(Json(update(&state, &caller, stored, request).await?))
            },
        )
        .add(
            Method::DELETE,
            "/variable/{variable_id}",
            Permission::Admin,
            Doc::new("Delete a variable or a secret").answers_nothing(StatusCode::NO_CONTENT),
            |State(state): State<AppState>, caller: Caller, ApiPath(id): ApiPath<Uuid>| async move {
                let stored = own(&state, &caller, id).await?;
                delete(&state, &caller, stored).await?;
                Ok::<_, ApiError>(StatusCode::NO_CONTENT)
            },
        )
        .add(
            Method::POST,
            "/variable/{variable_id}/alias",
            Permission::Write,
            Doc::new("Give a variable another key at the same or a deeper scope")
                .body::<AliasRequest>()
                .answers::<EnvironmentVariable>(StatusCode::CREATED),
            |State(state): State<AppState>,
             caller: Caller,
             ApiPath(target_id): ApiPath<Uuid>,
             ApiJson(request): ApiJson<AliasRequest>| async move {
                request.validate().map_err(ApiError::invalid)?;
                let parent = parent(
                    &state,
                    &caller,
                    request.alias_scope,
                    request.alias_parent_id,
                )
                .await
                .map_err(|error| named(error, "alias_parent_id"))?;
                let target = reachable(&state, &caller, &parent, target_id, false).await?;
                let alias = NewVariable {
                    key: request.key,
                    value: None,
                    secret_value: None,
                    is_secret: target.is_secret,
                    variable_type: VariableType::Alias,
                    mount_path: None,
                    description: request.description,
                    enable_interpolation_in_file: false,
                    target_id: Some(target.id),
                };
                let created = insert(&state, &caller, &parent, alias).await?;
                Ok::<_, ApiError>((StatusCode::CREATED, Json(created)))
            },
        )
        .add(
            Method::POST,
            "/variable/{variable_id}/override",
            Permission::Write,
            Doc::new("Override a variable at a deeper scope")
                .body::<OverrideRequest>()
                .answers::<EnvironmentVariable>(StatusCode::CREATED),
            |State(state): State<AppState>,
             caller: Caller,
             ApiPath(target_id): ApiPath<Uuid>,
             ApiJson(request): ApiJson<OverrideRequest>| async move {
                let checked = request.validate();
                let (Ok(()), Some(value), Some(scope), Some(parent_id)) = (
                    &checked,
                    request.value,
                    request.override_scope,
                    request.override_parent_id,
                ) else {
                    return Err(ApiError::invalid(checked.err().unwrap_or_default()));
                };
                let parent = parent(&state, &caller, scope, parent_id)
                    .await
                    .map_err(|error| named(error, "override_parent_id"))?;
                let created = create_override(
                    &state,
                    &caller,
                    &parent,
                    target_id,
                    value,
                    request.description,
                    request.enable_interpolation_in_file.unwrap_or(false),
                )
                .await?;
                Ok::<_, ApiError>((StatusCode::CREATED, Json(created)))
            },
        );
}

/// A 404 of a parent named in the body reads as a 400 naming the field.
fn named(error: ApiError, field: &str) -> ApiError {
    error.naming(field, "is not a record of this scope in your organization")
}

/// What a variable is defined on, and the chain of parents it inherits from.
struct Parent {
    scope: VariableScope,
    id: Uuid,
    project_id: Uuid,
    environment_id: Option<Uuid>,
    service: Option<(Uuid, String, ServiceType)>,
}

impl Parent {
    /// The ids whose variables this parent sees.
    fn chain(&self) -> Vec<Uuid> {
        let mut chain = vec![self.project_id];
        chain.extend(self.environment_id);
        chain.extend(self.service.as_ref().map(|(id, _, _)| *id));
        chain
    }

    fn scope_of_changes(&self) -> Scope {
        match (&self.service, self.environment_id) {
            (Some((id, _, _)), _) => Scope::Service(*id),
            (None, Some(environment)) => Scope::Environment(environment),
            (None, None) => Scope::Project(self.project_id),
        }
    }
}

/// The caller's project, environment or service of `scope` with this id, or 404.
async fn parent(
    state: &AppState,
    caller: &Caller,
    scope: VariableScope,
    id: Uuid,
) -> ApiResult<Parent> {
    match scope {
        VariableScope::Project => {
            find_project(state, caller, id).await?;
            Ok(Parent {
                scope,
                id,
                project_id: id,
                environment_id: None,
                service: None,
            })
        }
        VariableScope::Environment => {
            let environment = find_environment(state, caller, id).await?;
            Ok(Parent {
                scope,
                id,
                project_id: environment.project.id,
                environment_id: Some(id),
                service: None,
            })
        }
        VariableScope::BuiltIn => Err(ApiError::invalid(vec![FieldError::new(
            "scope",
            "BUILT_IN variables are generated by the platform and defined on nothing",
        )])),
        _ => {
            let service_type = scope
                .service_type()
                .expect("every other scope is a service's");
            let row: Option<(String, String, String)> = sqlx::query_as(
                "SELECT s.environment_id, e.project_id, s.name FROM services s
                 JOIN environments e ON e.id = s.environment_id
                 WHERE s.id = ? AND s.organization_id = ? AND s.kind = ?",
            )
            .bind(id.to_string())
            .bind(caller.organization_id.to_string())
            .bind(service_type.as_str())
            .fetch_optional(&state.db)
            .await?;
            let (environment_id, project_id, name) =
                row.ok_or_else(|| ApiError::not_found(&scope.as_str().to_lowercase()))?;
            Ok(Parent {
                scope,
                id,
                project_id: db::id(&project_id)?,
                environment_id: Some(db::id(&environment_id)?),
                service: Some((id, name, service_type)),
            })
        }
    }
}

/// A stored variable.
#[derive(Clone, Debug)]
struct Stored {
    id: Uuid,
    scope: VariableScope,
    parent_id: Uuid,
    key: String,
    value: Option<String>,
    has_secret_value: bool,
    is_secret: bool,
    variable_type: VariableType,
    mount_path: Option<String>,
    description: Option<String>,
    enable_interpolation_in_file: bool,
    target_id: Option<Uuid>,
    created_at: DateTime<Utc>,
    updated_at: Option<DateTime<Utc>>,
}

#[derive(sqlx::FromRow)]
struct Row {
    id: String,
    scope: String,
    parent_id: String,
    key: String,
    value: Option<String>,
    has_secret_value: bool,
    is_secret: bool,
    variable_type: String,
    mount_path: Option<String>,
    description: Option<String>,
    enable_interpolation_in_file: bool,
    target_id: Option<String>,
    created_at: DateTime<Utc>,
    updated_at: Option<DateTime<Utc>>,
}

const COLUMNS: &str = "id, scope, parent_id, key, value,
    secret_value IS NOT NULL AS has_secret_value, is_secret, variable_type, mount_path,
    description, enable_interpolation_in_file, target_id, created_at, updated_at";

fn stored(row: Row) -> ApiResult<Stored> {
    Ok(Stored {
        id: db::id(&row.id)?,
        scope: db::wire(&row.scope)?,
        parent_id: db::id(&row.parent_id)?,
        key: row.key,
        value: row.value,
        has_secret_value: row.has_secret_value,
        is_secret: row.is_secret,
        variable_type: db::wire(&row.variable_type)?,
        mount_path: row.mount_path,
        description: row.description,
        enable_interpolation_in_file: row.enable_interpolation_in_file,
        target_id: row.target_id.as_deref().map(db::id).transpose()?,
        created_at: row.created_at,
        updated_at: row.updated_at,
    })
}

/// The caller's stored variable with this id, or 404.
async fn own(state: &AppState, caller: &Caller, id: Uuid) -> ApiResult<Stored> {
    own_in(&mut *state.db.acquire().await?, caller, id).await
}

/// `own`, as `conn` sees the variable.
async fn own_in(conn: &mut SqliteConnection, caller: &Caller, id: Uuid) -> ApiResult<Stored> {
    let row: Row = sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM variables WHERE id = ? AND organization_id = ?"
    ))
    .bind(id.to_string())
    .bind(caller.organization_id.to_string())
    .fetch_optional(conn)
    .await?
    .ok_or_else(|| ApiError::not_found("variable"))?;
    stored(row)
}

/// The caller's variable (or, with `secret`, secret) `id` defined on the parent `parent_id` of
/// `scope`, or 404.
async fn own_at(
    state: &AppState,
    caller: &Caller,
    scope: VariableScope,
    parent_id: Uuid,
    id: Uuid,
    secret: bool,
) -> ApiResult<Stored> {
    let parent = parent(state, caller, scope, parent_id).await?;
    let stored = own(state, caller, id).await?;
    if stored.parent_id != parent.id || stored.is_secret != secret {
        return Err(ApiError::not_found("variable"));
    }
    Ok(stored)
}

/// The variable `target_id` as seen from `parent`: 400 unless it is defined on the parent's chain
/// at a shallower scope (with `deeper_only`) or at most as deep.
async fn reachable(
    state: &AppState,
    caller: &Caller,
    parent: &Parent,
    target_id: Uuid,
    deeper_only: bool,
) -> ApiResult<Stored> {
    let target = own(state, caller, target_id).await?;
    let visible = parent.chain().contains(&target.parent_id);
    let deep_enough = if deeper_only {
        parent.scope.depth() > target.scope.depth()
    } else {
        parent.scope.depth() >= target.scope.depth()
    };
    if !visible || !deep_enough {
        return Err(ApiError::invalid(vec![FieldError::new(
            "variable_id",
            "is not a variable of a higher scope of this parent",
        )]));
    }
    Ok(target)
}

struct NewVariable {
    key: String,
    value: Option<String>,
    secret_value: Option<String>,
    is_secret: bool,
    variable_type: VariableType,
    mount_path: Option<String>,
    description: Option<String>,
    enable_interpolation_in_file: bool,
    target_id: Option<Uuid>,
}

async fn create(
    state: &AppState,
    caller: &Caller,
    parent: &Parent,
    request: VariableRequest,
    secret: bool,
) -> ApiResult<EnvironmentVariable> {
    let variable_type = if request.mount_path.is_some() {
        VariableType::File
    } else {
        VariableType::Value
    };
    let (value, secret_value) = if secret {
        (None, request.value)
    } else {
        (request.value, None)
    };
    let new = NewVariable {
        key: request.key,
        value,
        secret_value,
        is_secret: secret,
        variable_type,
        mount_path: request.mount_path,
        description: request.description,
        enable_interpolation_in_file: request.enable_interpolation_in_file,
        target_id: None,
    };
    insert(state, caller, parent, new).await
}

/// Imports variables in one transaction: each defined at the scope it names (this parent's, or
/// its environment's or project's), a name already defined there replaced when `overwrite` says
/// so (and it is a plain variable or secret of the same kind), left alone otherwise. Any broken
/// rule, named by its place, and nothing is written.
async fn import(
    state: &AppState,
    caller: &Caller,
    parent: &Parent,
    request: VariableImportRequest,
) -> ApiResult<VariableImport> {
    request.validate().map_err(ApiError::invalid)?;
    let target = |scope: VariableScope| match scope {
        VariableScope::Project => Some(parent.project_id),
        VariableScope::Environment => parent.environment_id,
        own if own == parent.scope => Some(parent.id),
        _ => None,
    };
    let mut problems = Vec::new();
    let mut imported = Vec::new();
    let now = Utc::now();
    let mut tx = db::begin_write(&state.writes).await?;
    for (at, variable) in request.vars.iter().enumerate() {
        let Some(parent_id) = target(variable.scope) else {
            problems.push(FieldError::new(
                format!("vars[{at}].scope"),
                format!("must be {} or a scope above it", parent.scope.as_str()),
            ));
            continue;
        };
        let existing: Option<(String, bool, String)> = sqlx::query_as(
            "SELECT id, is_secret, variable_type FROM variables
             WHERE scope = ? AND parent_id = ? AND key = ?",
        )
        .bind(variable.scope.as_str())
        .bind(parent_id.to_string())
        .bind(&variable.name)
        .fetch_optional(&mut *tx)
        .await?;
        let plain = (!variable.is_secret).then(|| variable.value.clone());
        match existing {
            None => {
                let new = NewVariable {
                    key: variable.name.clone(),
                    value: plain,
                    secret_value: variable.is_secret.then(|| variable.value.clone()),
                    is_secret: variable.is_secret,
                    variable_type: VariableType::Value,
                    mount_path: None,
                    description: None,
                    enable_interpolation_in_file: false,
                    target_id: None,
                };
                write_new(&mut tx, state, caller, (variable.scope, parent_id), &new).await?;
            }
            Some(_) if !request.overwrite => continue,
            Some((id, is_secret, kind))
                if is_secret == variable.is_secret && kind == VariableType::Value.as_str() =>
            {
                sqlx::query(
                    "UPDATE variables SET value = ?, secret_value = ?, updated_at = ? WHERE id = ?",
                )
                .bind(plain)
                .bind(
                    variable
                        .is_secret
                        .then(|| state.sealer.seal(&variable.value)),
                )
                .bind(now)
                .bind(id)
                .execute(&mut *tx)
                .await?;
            }
            Some((_, is_secret, _)) => {
                problems.push(FieldError::new(
                    format!("vars[{at}].name"),
                    if is_secret != variable.is_secret {
                        "is defined there as a secret or not, the other way: delete it first"
                    } else {
                        "is defined there as a file, an alias or an override: not replaced"
                    },
                ));
                continue;
            }
        }
        imported.push(ImportOutcome {
            name: variable.name.clone(),
            value: (!variable.is_secret).then(|| variable.value.clone()),
            scope: variable.scope,
            is_secret: variable.is_secret,
        });
    }
    if !problems.is_empty() {
        // Nothing of it is kept: the transaction is dropped.
        return Err(ApiError::invalid(problems));
    }
    let mut parents: Vec<Uuid> = request
        .vars
        .iter()
        .filter_map(|variable| target(variable.scope))
        .collect();
    parents.sort();
    parents.dedup();
    check_room(&mut tx, &parents, "vars").await?;
    let widest = request
        .vars
        .iter()
        .map(|variable| match variable.scope {
            VariableScope::Project => Scope::Project(parent.project_id),
            VariableScope::Environment => {
                Scope::Environment(parent.environment_id.unwrap_or(parent.id))
            }
            _ => parent.scope_of_changes(),
        })
        .min_by_key(|scope| match scope {
            Scope::Project(_) => 0,
            Scope::Environment(_) => 1,
            Scope::Service(_) => 2,
        });
    if let Some(scope) = widest {
        engine::mark_scope_out_of_date(&mut tx, scope).await?;
    }
    let import = VariableImport {
        total_variables_to_import: request.vars.len() as i64,
        successful_imported_variables: imported,
    };
    // An import that changed nothing (empty, or every name kept) is no change to record.
    if !import.successful_imported_variables.is_empty() {
        let secrets = request.vars.iter().filter(|v| v.is_secret);
        let change = change_of(&mut tx, EventType::Import, parent, false)
            .await?
            .after(&import)
            .secrets(secrets.map(|variable| variable.name.clone()));
        audit::record(&mut tx, caller, change).await?;
    }
    tx.commit().await?;
    Ok(import)
}

/// Applies a bulk change to the variables defined on `parent` in one transaction: every id must
/// be one of them (a plain one, to be made secret or set), every new key free there; any broken
/// rule is named by its place and nothing is written.
async fn bulk(
    state: &AppState,
    caller: &Caller,
    parent: &Parent,
    request: VariableBulkRequest,
) -> ApiResult<VariableBulk> {
    request.validate().map_err(ApiError::invalid)?;
    if !request.delete.is_empty() {
        caller.require(Permission::Admin)?;
    }
    let mut tx = db::begin_write(&state.writes).await?;
    let defined = defined_on(&mut tx, parent.id).await?;
    let mut before = snapshot(&defined);
    let find = |id: Uuid| defined.iter().find(|variable| variable.id == id);
    let plain =
        |variable: &&Stored| !variable.is_secret && variable.variable_type == VariableType::Value;
    let mut problems = Vec::new();
    let mut outcome = VariableBulk::default();
    let now = Utc::now();
    for (at, id) in request.delete.iter().enumerate() {
        if find(*id).is_none() {
            problems.push(FieldError::new(
                format!("delete[{at}]"),
                "is not a variable or secret defined here (deleted since?)",
            ));
            continue;
        }
        sqlx::query("DELETE FROM variables WHERE id = ?")
            .bind(id.to_string())
            .execute(&mut *tx)
            .await?;
        outcome.deleted += 1;
    }
    let mut made_secret = Vec::new();
    for (at, id) in request.to_secret.iter().enumerate() {
        let Some(variable) = find(*id).filter(plain) else {
            problems.push(FieldError::new(
                format!("to_secret[{at}]"),
                "is not a plain variable defined here",
            ));
            continue;
        };
        let sealed = state
            .sealer
            .seal(variable.value.as_deref().unwrap_or_default());
        sqlx::query(
            "UPDATE variables SET is_secret = 1, secret_value = ?, value = NULL, updated_at = ?
             WHERE id = ?",
        )
        .bind(sealed)
        .bind(now)
        .bind(id.to_string())
        .execute(&mut *tx)
        .await?;
        // Its aliases are aliases of a secret now.
        sqlx::query("UPDATE variables SET is_secret = 1 WHERE target_id = ? AND variable_type = ?")
            .bind(id.to_string())
            .bind(VariableType::Alias.as_str())
            .execute(&mut *tx)
            .await?;
        // Nor does the log show the value any longer, where it shows the variable or the
        // aliases and overrides that show it.
        let mut targets: Vec<Uuid> = sqlx::query_scalar::<_, String>(
            "SELECT DISTINCT parent_id FROM variables WHERE target_id = ?",
        )
        .bind(id.to_string())
        .fetch_all(&mut *tx)
        .await?
        .iter()
        .map(|parent| db::id(parent))
        .collect::<ApiResult<_>>()?;
        targets.push(parent.id);
        let made = audit::MadeSecret {
            id: *id,
            key: &variable.key,
            scope: variable.scope.as_str(),
            plain_value: variable.value.as_deref().unwrap_or_default(),
        };
        audit::seal_made_secret(&mut tx, caller.organization_id, &targets, &made).await?;
        made_secret.push(variable.key.clone());
        outcome.moved_to_secret += 1;
    }
    for (at, set) in request.set.iter().enumerate() {
        match set.id {
            Some(id) => {
                let Some(variable) = find(id).filter(plain).filter(|v| v.key == set.key) else {
                    problems.push(FieldError::new(
                        format!("set[{at}].id"),
                        format!(
                            "is not the plain variable {} defined here (changed since?)",
                            set.key
                        ),
                    ));
                    continue;
                };
                sqlx::query("UPDATE variables SET value = ?, updated_at = ? WHERE id = ?")
                    .bind(&set.value)
                    .bind(now)
                    .bind(variable.id.to_string())
                    .execute(&mut *tx)
                    .await?;
                outcome.updated += 1;
            }
            None => {
                let taken = defined.iter().any(|variable| {
                    variable.key == set.key && !request.delete.contains(&variable.id)
                });
                if taken {
                    problems.push(FieldError::new(
                        format!("set[{at}].key"),
                        "is defined here already (added since?)",
                    ));
                    continue;
                }
                let new = NewVariable {
                    key: set.key.clone(),
                    value: Some(set.value.clone()),
                    secret_value: None,
                    is_secret: false,
                    variable_type: VariableType::Value,
                    mount_path: None,
                    description: None,
                    enable_interpolation_in_file: false,
                    target_id: None,
                };
                write_new(&mut tx, state, caller, (parent.scope, parent.id), &new).await?;
                outcome.created += 1;
            }
        }
    }
    if !problems.is_empty() {
        return Err(ApiError::invalid(problems));
    }
    check_room(&mut tx, &[parent.id], "set").await?;
    engine::mark_scope_out_of_date(&mut tx, parent.scope_of_changes()).await?;
    let after = snapshot(&defined_on(&mut tx, parent.id).await?);
    // A value made secret is not shown before either: `changed_secrets` names its key.
    for key in &made_secret {
        before.insert(key.clone(), audit::SEALED.to_string());
    }
    let change = change_of(&mut tx, EventType::Update, parent, false)
        .await?
        .before(&before)
        .after(&after)
        .secrets(made_secret);
    audit::record(&mut tx, caller, change).await?;
    tx.commit().await?;
    Ok(outcome)
}

/// The variables and secrets defined on the parent `parent_id`.
async fn defined_on(conn: &mut SqliteConnection, parent_id: Uuid) -> ApiResult<Vec<Stored>> {
    let rows: Vec<Row> = sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM variables WHERE parent_id = ? ORDER BY key"
    ))
    .bind(parent_id.to_string())
    .fetch_all(conn)
    .await?;
    rows.into_iter().map(stored).collect()
}

/// Variables by key as the audit log shows them: a plain value, or that it is a secret.
fn snapshot(variables: &[Stored]) -> std::collections::BTreeMap<String, String> {
    variables
        .iter()
        .map(|variable| {
            let shown = if variable.is_secret {
                audit::SEALED.to_string()
            } else {
                variable.value.clone().unwrap_or_default()
            };
            (variable.key.clone(), shown)
        })
        .collect()
}

async fn create_override(
    state: &AppState,
    caller: &Caller,
    parent: &Parent,
    target_id: Uuid,
    value: String,
    description: Option<String>,
    enable_interpolation_in_file: bool,
) -> ApiResult<EnvironmentVariable> {
    let target = reachable(state, caller, parent, target_id, true).await?;
    let (value, secret_value) = if target.is_secret {
        (None, Some(value))
    } else {
        (Some(value), None)
    };
    let new = NewVariable {
        key: target.key.clone(),
        value,
        secret_value,
        is_secret: target.is_secret,
        variable_type: VariableType::Override,
        mount_path: target.mount_path.clone(),
        description,
        enable_interpolation_in_file,
        target_id: Some(target.id),
    };
    insert(state, caller, parent, new).await
}

async fn insert(
    state: &AppState,
    caller: &Caller,
    parent: &Parent,
    new: NewVariable,
) -> ApiResult<EnvironmentVariable> {
    let mut tx = db::begin_write(&state.writes).await?;
    let id = write_new(&mut tx, state, caller, (parent.scope, parent.id), &new)
        .await
        .on_unique_violation("key", "variable")?;
    check_room(&mut tx, &[parent.id], "key").await?;
    engine::mark_scope_out_of_date(&mut tx, parent.scope_of_changes()).await?;
    let stored = own_in(&mut tx, caller, id).await?;
    let created = shape(&mut tx, parent, stored).await?;
    let change = change_of(&mut tx, EventType::Create, parent, new.is_secret)
        .await?
        .after(&created)
        .secrets(new.secret_value.as_ref().map(|_| "value"));
    audit::record(&mut tx, caller, change).await?;
    tx.commit().await?;
    Ok(created)
}

/// Refuses the change (naming `field`) when it leaves one of `parents` defining more than
/// `VARIABLES_PER_SCOPE_MAX` variables and secrets. Called in the change's transaction, after
/// its writes.
async fn check_room(conn: &mut SqliteConnection, parents: &[Uuid], field: &str) -> ApiResult<()> {
    for parent_id in parents {
        let defined: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM variables WHERE parent_id = ?")
            .bind(parent_id.to_string())
            .fetch_one(&mut *conn)
            .await?;
        if defined > VARIABLES_PER_SCOPE_MAX {
            return Err(ApiError::invalid(vec![FieldError::new(
                field,
                format!(
                    "would make {defined} variables and secrets here: a project, an environment or a service defines at most {VARIABLES_PER_SCOPE_MAX}"
                ),
            )]));
        }
    }
    Ok(())
}

/// A change to a variable (or secret) defined on `parent`, for the audit log.
async fn change_of(
    conn: &mut SqliteConnection,
    event_type: EventType,
    parent: &Parent,
    secret: bool,
) -> ApiResult<Change> {
    let target = match parent.scope {
        VariableScope::Project => Target::project(conn, parent.id).await?,
        VariableScope::Environment => Target::environment(conn, parent.id).await?,
        _ => Target::service(conn, parent.id).await?,
    };
    Ok(Change::new(event_type, target).of(if secret {
        SubTargetType::Secret
    } else {
        SubTargetType::Variable
    }))
}

/// Writes a new variable defined at `(scope, parent id)` on `db` (a transaction's connection, or
/// a pool's), its secret value sealed; its id.
async fn write_new(
    db: &mut SqliteConnection,
    state: &AppState,
    caller: &Caller,
    (scope, parent_id): (VariableScope, Uuid),
    new: &NewVariable,
) -> sqlx::Result<Uuid> {
    let id = Uuid::new_v4();
    sqlx::query(
        "INSERT INTO variables (id, organization_id, scope, parent_id, key, value, secret_value,
             is_secret, variable_type, mount_path, description, enable_interpolation_in_file,
             target_id, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(id.to_string())
    .bind(caller.organization_id.to_string())
    .bind(scope.as_str())
    .bind(parent_id.to_string())
    .bind(&new.key)
    .bind(&new.value)
    .bind(
        new.secret_value
            .as_deref()
            .map(|value| state.sealer.seal(value)),
    )
    .bind(new.is_secret)
    .bind(new.variable_type.as_str())
    .bind(&new.mount_path)
    .bind(&new.description)
    .bind(new.enable_interpolation_in_file)
    .bind(new.target_id.map(|id| id.to_string()))
    .bind(Utc::now())
    .execute(&mut *db)
    .await?;
    Ok(id)
}

async fn update(
    state: &AppState,
    caller: &Caller,
    stored: Stored,
    request: VariableRequest,
) -> ApiResult<EnvironmentVariable> {
    request
        .validate(stored.is_secret && stored.has_secret_value)
        .map_err(ApiError::invalid)?;
    let parent = parent(state, caller, stored.scope, stored.parent_id).await?;
    let (value, secret_value) = if stored.is_secret {
        (None, request.value)
    } else {
        (request.value, None)
    };
    let mut tx = db::begin_write(&state.writes).await?;
    let before = shape(&mut tx, &parent, stored.clone()).await?;
    sqlx::query(
        "UPDATE variables SET key = ?, value = ?, secret_value = COALESCE(?, secret_value),
             mount_path = ?, description = ?, enable_interpolation_in_file = ?, updated_at = ?
         WHERE id = ?",
    )
    .bind(&request.key)
    .bind(value)
    .bind(
        secret_value
            .as_deref()
            .map(|value| state.sealer.seal(value)),
    )
    .bind(&request.mount_path)
    .bind(&request.description)
    .bind(request.enable_interpolation_in_file)
    .bind(Utc::now())
    .bind(stored.id.to_string())
    .execute(&mut *tx)
    .await
    .on_unique_violation("key", "variable")?;
    engine::mark_scope_out_of_date(&mut tx, parent.scope_of_changes()).await?;
    let updated = own_in(&mut tx, caller, stored.id).await?;
    let updated = shape(&mut tx, &parent, updated).await?;
    let change = change_of(&mut tx, EventType::Update, &parent, stored.is_secret)
        .await?
        .before(&before)
        .after(&updated)
        .secrets(secret_value.as_ref().map(|_| "value"));
    audit::record(&mut tx, caller, change).await?;
    tx.commit().await?;
    Ok(updated)
}

async fn delete(state: &AppState, caller: &Caller, stored: Stored) -> ApiResult<()> {
    let parent = parent(state, caller, stored.scope, stored.parent_id).await?;
    let mut tx = db::begin_write(&state.writes).await?;
    let is_secret = stored.is_secret;
    let before = shape(&mut tx, &parent, stored.clone()).await?;
    sqlx::query("DELETE FROM variables WHERE id = ?")
        .bind(stored.id.to_string())
        .execute(&mut *tx)
        .await?;
    engine::mark_scope_out_of_date(&mut tx, parent.scope_of_changes()).await?;
    let change = change_of(&mut tx, EventType::Delete, &parent, is_secret)
        .await?
        .before(&before);
    audit::record(&mut tx, caller, change).await?;
    tx.commit().await?;
    Ok(())
}

/// The most a whole list (asked for without `pageSize`) may weigh in values: past it, the list
/// is to be asked for by pages.
const WHOLE_LIST_VALUES_MAX_BYTES: i64 = 8 * 1024 * 1024;

/// A stored variable seen from a parent, with what it aliases or overrides.
#[derive(sqlx::FromRow)]
struct Listed {
    #[sqlx(flatten)]
    row: Row,
    target_key: Option<String>,
    target_value: Option<String>,
    target_mount_path: Option<String>,
    target_scope: Option<String>,
    target_variable_type: Option<String>,
}

impl Listed {
    fn reference(&self) -> ApiResult<Option<VariableReference>> {
        let (Some(id), Some(key), Some(scope), Some(kind)) = (
            self.row.target_id.as_deref(),
            &self.target_key,
            self.target_scope.as_deref(),
            self.target_variable_type.as_deref(),
        ) else {
            return Ok(None);
        };
        Ok(Some(VariableReference {
            id: db::id(id)?,
            key: key.clone(),
            value: self.target_value.clone(),
            mount_path: self.target_mount_path.clone().unwrap_or_default(),
            scope: db::wire(scope)?,
            variable_type: db::wire(kind)?,
        }))
    }
}

/// What `parent` sees, its variables or its secrets (`secret`) or both, whole or the page
/// `page` asks for: the variables of its chain, an override hiding what it overrides, then the
/// built-in variables of its environment's services.
async fn visible(
    db: &SqlitePool,
    parent: &Parent,
    secret: Option<bool>,
    page: PageQuery,
) -> ApiResult<List<EnvironmentVariable>> {
    page.validate(VARIABLE_PAGE_SIZE_MAX)
        .map_err(ApiError::invalid)?;
    let chain: Vec<String> = parent.chain().iter().map(Uuid::to_string).collect();
    let placeholders = vec!["?"; chain.len()].join(", ");
    let seen = format!(
        "FROM variables WHERE parent_id IN ({placeholders}) AND (? IS NULL OR is_secret = ?)
         AND id NOT IN (SELECT target_id FROM variables WHERE parent_id IN ({placeholders})
                        AND variable_type = ? AND target_id IS NOT NULL)"
    );
    fn bound<'q>(
        sql: &'q str,
        chain: &[String],
        secret: Option<bool>,
    ) -> sqlx::query::Query<'q, sqlx::Sqlite, sqlx::sqlite::SqliteArguments<'q>> {
        let mut query = sqlx::query(sql);
        for id in chain {
            query = query.bind(id.clone());
        }
        query = query.bind(secret).bind(secret);
        for id in chain {
            query = query.bind(id.clone());
        }
        query.bind(VariableType::Override.as_str())
    }
    if page.page_size.is_none() {
        // An override or an alias shows its target's value beside its own.
        let weight_sql = format!(
            "SELECT COALESCE(SUM(LENGTH(COALESCE(v.value, '')) + LENGTH(v.key)
                                 + COALESCE(LENGTH(t.value), 0)), 0)
             FROM variables v LEFT JOIN variables t ON t.id = v.target_id
             WHERE v.id IN (SELECT id {seen})"
        );
        let weight: i64 = {
            use sqlx::Row as _;
            bound(&weight_sql, &chain, secret)
                .fetch_one(db)
                .await?
                .try_get(0)?
        };
        if weight > WHOLE_LIST_VALUES_MAX_BYTES {
            return Err(ApiError::invalid(vec![FieldError::new(
                "pageSize",
                format!(
                    "is required here: the values seen weigh more than {} MiB; ask for the list by pages of at most {VARIABLE_PAGE_SIZE_MAX}",
                    WHOLE_LIST_VALUES_MAX_BYTES / (1024 * 1024)
                ),
            )]));
        }
    }
    let (limit, offset) = page.limit_and_offset();
    let listed_sql = format!(
        "SELECT l.*, t.key AS target_key, t.value AS target_value,
                t.mount_path AS target_mount_path, t.scope AS target_scope,
                t.variable_type AS target_variable_type
         FROM (SELECT {COLUMNS} {seen} ORDER BY key, scope LIMIT ? OFFSET ?) l
         LEFT JOIN variables t ON t.id = l.target_id
         ORDER BY l.key, l.scope"
    );
    let rows: Vec<Listed> = {
        use sqlx::FromRow as _;
        bound(&listed_sql, &chain, secret)
            .bind(limit)
            .bind(offset)
            .fetch_all(db)
            .await?
            .iter()
            .map(Listed::from_row)
            .collect::<Result<_, _>>()?
    };
    let stored_count = rows.len() as i64;
    let mut variables = Vec::with_capacity(rows.len());
    for listed in rows {
        let reference = listed.reference()?;
        variables.push(shaped(parent, stored(listed.row)?, reference));
    }
    // The built-in ones follow the stored ones: on the page that has room left for them.
    let room = if limit < 0 {
        i64::MAX
    } else {
        limit - stored_count
    };
    if let (Some(environment_id), true) = (parent.environment_id, room > 0) {
        let skipped = if offset == 0 || stored_count > 0 {
            0
        } else {
            use sqlx::Row as _;
            let count_sql = format!("SELECT COUNT(*) {seen}");
            let stored_total: i64 = bound(&count_sql, &chain, secret)
                .fetch_one(db)
                .await?
                .try_get(0)?;
            offset - stored_total
        };
        variables.extend(
            built_ins(db, environment_id)
                .await?
                .into_iter()
                .filter(|variable| secret.is_none_or(|secret| variable.is_secret == secret))
                .skip(skipped.max(0) as usize)
                .take(room.min(usize::MAX as i64) as usize),
        );
    }
    Ok(List::paged(variables, page))
}

/// The answer for a stored variable seen from `parent`.
async fn shape(
    conn: &mut SqliteConnection,
    parent: &Parent,
    row: Stored,
) -> ApiResult<EnvironmentVariable> {
    let reference = match row.target_id {
        Some(target_id) => {
            let target: Row =
                sqlx::query_as(&format!("SELECT {COLUMNS} FROM variables WHERE id = ?"))
                    .bind(target_id.to_string())
                    .fetch_one(conn)
                    .await?;
            let target = stored(target)?;
            Some(VariableReference {
                id: target.id,
                key: target.key,
                value: target.value,
                mount_path: target.mount_path.unwrap_or_default(),
                scope: target.scope,
                variable_type: target.variable_type,
            })
        }
        None => None,
    };
    Ok(shaped(parent, row, reference))
}

/// A stored variable seen from `parent`, with `reference` to what it aliases or overrides.
fn shaped(
    parent: &Parent,
    row: Stored,
    reference: Option<VariableReference>,
) -> EnvironmentVariable {
    let (overridden_variable, aliased_variable) = match row.variable_type {
        VariableType::Override => (reference, None),
        VariableType::Alias => (None, reference),
        _ => (None, None),
    };
    let service = (row.parent_id == parent.id)
        .then_some(parent.service.as_ref())
        .flatten();
    EnvironmentVariable {
        id: row.id,
        created_at: row.created_at,
        updated_at: row.updated_at,
        key: row.key,
        value: if row.is_secret { None } else { row.value },
        scope: row.scope,
        variable_type: row.variable_type,
        is_secret: row.is_secret,
        mount_path: row.mount_path,
        description: row.description,
        enable_interpolation_in_file: row.enable_interpolation_in_file,
        overridden_variable,
        aliased_variable,
        service_id: service.map(|(id, _, _)| *id),
        service_name: service.map(|(_, name, _)| name.clone()),
        service_type: service.map(|(_, _, kind)| *kind),
        owned_by: OWNED_BY.to_string(),
    }
}

/// The built-in variables of an environment's services: where to reach each, and for databases
/// how to sign in (the password a secret). Generated, never stored; their ids are stable.
async fn built_ins(db: &SqlitePool, environment_id: Uuid) -> ApiResult<Vec<EnvironmentVariable>> {
    let rows: Vec<(String, String, String, String, DateTime<Utc>)> = sqlx::query_as(
        "SELECT id, kind, name, spec, created_at FROM services WHERE environment_id = ? ORDER BY name",
    )
    .bind(environment_id.to_string())
    .fetch_all(db)
    .await?;
    let short = &environment_id.simple().to_string()[..8];
    let mut variables = Vec::new();
    for (id, kind, name, spec, created_at) in rows {
        let service_id = db::id(&id)?;
        let kind: ServiceType = db::wire(&kind)?;
        let prefix = format!(
            "{}_{}",
            kind.as_str(),
            name.to_uppercase()
                .replace(|c: char| !c.is_ascii_alphanumeric(), "_")
        );
        let host = format!("{name}.{short}.svc.cluster.local");
        let mut pairs = vec![(format!("{prefix}_HOST_INTERNAL"), Some(host.clone()), false)];
        if kind == ServiceType::Database {
            let spec: serde_json::Value =
                serde_json::from_str(&spec).map_err(ApiError::internal)?;
            let database: DatabaseType =
                serde_json::from_value(spec["type"].clone()).map_err(ApiError::internal)?;
            let port = match database {
                DatabaseType::Postgresql => 5432,
                DatabaseType::Mysql => 3306,
                DatabaseType::Mongodb => 27017,
                DatabaseType::Redis => 6379,
                // Stored types are read strictly: none is unknown.
                DatabaseType::Other(_) => 0,
            };
            pairs.extend([
                (format!("{prefix}_PORT"), Some(port.to_string()), false),
                (
                    format!("{prefix}_LOGIN"),
                    Some("superuser".to_string()),
                    false,
                ),
                (format!("{prefix}_PASSWORD"), None, true),
            ]);
        }
        for (key, value, is_secret) in pairs {
            variables.push(EnvironmentVariable {
                id: built_in_id(service_id, &key),
                created_at,
                updated_at: None,
                key,
                value,
                scope: VariableScope::BuiltIn,
                variable_type: VariableType::BuiltIn,
                is_secret,
                mount_path: None,
                description: None,
                enable_interpolation_in_file: false,
                overridden_variable: None,
                aliased_variable: None,
                service_id: Some(service_id),
                service_name: Some(name.clone()),
                service_type: Some(kind),
                owned_by: OWNED_BY.to_string(),
            });
        }
    }
    Ok(variables)
}

fn built_in_id(service_id: Uuid, key: &str) -> Uuid {
    let digest = Sha256::digest(format!("{service_id}/{key}").as_bytes());
    let mut bytes = [0u8; 16];
    bytes.copy_from_slice(&digest[..16]);
    uuid::Builder::from_random_bytes(bytes).into_uuid()
}

/// A list of variables, or of secrets in the secret shape.
fn shown(variables: List<EnvironmentVariable>, secret: bool) -> serde_json::Value {
    if secret {
        serde_json::json!(List {
            results: variables
                .results
                .into_iter()
                .map(Secret::from)
                .collect::<Vec<_>>(),
            page: variables.page,
            page_size: variables.page_size,
        })
    } else {
        serde_json::json!(variables)
    }
}

fn one_shown(variable: EnvironmentVariable, secret: bool) -> serde_json::Value {
    if secret {
        serde_json::json!(Secret::from(variable))
    } else {
        serde_json::json!(variable)
    }
}
