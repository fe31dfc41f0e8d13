//! Environment variables and secrets at every scope (spec 2.2, 2.3): the per-scope routes of spec
//! 4.2 (`/{scope}/{id}/environmentVariable`, `/{scope}/{id}/secret`, and the override of 4.1) and
//! the `/variable` family (list by parent and scope, create, update, delete, alias, override).
//! A service sees its own variables, its environment's and its project's, an override hiding the
//! variable it overrides, plus the built-in variables of its environment's services.

mod bulk;
mod edit;
mod family;
mod import;
mod parent;
mod read;
mod scoped;

use axum::http::{Method, StatusCode};
use platform_api::paths;
use platform_api::{
    AliasRequest, EnvironmentVariable, OverrideRequest, ScopedAliasRequest, ScopedOverrideRequest,
    Secret, ServiceType, VariableBulk, VariableBulkRequest, VariableCreation, VariableImport,
    VariableImportRequest, VariableRequest, VariableScope, VARIABLE_PAGE_SIZE_MAX,
};

use crate::caller::Permission;
use crate::routes::doc::{self, Doc};
use crate::routes::RouteTable;

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

pub fn register(routes: &mut RouteTable) {
    for (_, segment, parameter) in SCOPES {
        for secret in [false, true] {
            register_scope(routes, segment, parameter, secret);
        }
        routes
            .add(
                Method::POST,
                format!("/{segment}/{{{parameter}}}/environmentVariable/import"),
                Permission::Write,
                Doc::new(format!(
                    "Import variables and secrets at this {segment} or above it, all or none"
                ))
                .body::<VariableImportRequest>()
                .answers::<VariableImport>(StatusCode::CREATED),
                scoped::import,
            )
            .add(
                Method::POST,
                format!("/{segment}/{{{parameter}}}/environmentVariable/bulk"),
                Permission::Write,
                Doc::new(format!(
                    "Delete, make secret and set many variables of this {segment} at once, all \
                     or none (deleting needs ADMIN)"
                ))
                .body::<VariableBulkRequest>()
                .answers::<VariableBulk>(StatusCode::OK),
                scoped::bulk,
            );
        for secret in [false, true] {
            register_alias_and_override(routes, segment, parameter, secret);
        }
    }
    register_variable_family(routes);
}

/// The alias and override of a variable (or secret) of a higher scope, made at this one.
fn register_alias_and_override(
    routes: &mut RouteTable,
    segment: &str,
    parameter: &str,
    secret: bool,
) {
    let (noun, item) = if secret {
        (
            "secret",
            format!("/{segment}/{{{parameter}}}/secret/{{secret_id}}"),
        )
    } else {
        (
            "variable",
            format!("/{segment}/{{{parameter}}}/environmentVariable/{{variable_id}}"),
        )
    };
    let answers = |doc: Doc| {
        if secret {
            doc.answers::<Secret>(StatusCode::CREATED)
        } else {
            doc.answers::<EnvironmentVariable>(StatusCode::CREATED)
        }
    };
    routes
        .add(
            Method::POST,
            format!("{item}/alias"),
            Permission::Write,
            answers(
                Doc::new(format!(
                    "Give a {noun} of this {segment} or a higher scope another key here; it \
                     follows its {noun}'s value and goes when it goes"
                ))
                .body::<ScopedAliasRequest>(),
            ),
            scoped::create_alias,
        )
        .add(
            Method::POST,
            format!("{item}/override"),
            Permission::Write,
            answers(
                Doc::new(format!(
                    "Override a {noun} of a higher scope at this {segment}; it goes when its \
                     {noun} goes"
                ))
                .body::<ScopedOverrideRequest>(),
            ),
            scoped::create_override,
        );
}

/// The list, create, update and delete routes of variables (or secrets) at one scope.
fn register_scope(routes: &mut RouteTable, segment: &str, parameter: &str, secret: bool) {
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
        read::WHOLE_LIST_VALUES_MAX_BYTES / (1024 * 1024)
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
            scoped::list,
        )
        .add(
            Method::POST,
            collection,
            Permission::Write,
            answer_doc(
                Doc::new(format!("Create a {noun} on a {segment}")).body::<VariableRequest>(),
                StatusCode::CREATED,
            ),
            scoped::create,
        )
        .add(
            Method::GET,
            item.clone(),
            Permission::Read,
            answer_doc(Doc::new(format!("Read a {noun}")), StatusCode::OK),
            scoped::read,
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
            scoped::update,
        )
        .add(
            Method::DELETE,
            item,
            Permission::Admin,
            Doc::new(format!("Delete a {noun}")).answers_nothing(StatusCode::NO_CONTENT),
            scoped::delete,
        );
}

fn register_variable_family(routes: &mut RouteTable) {
    routes
        .add(
            Method::POST,
            paths::VARIABLES_IMPORT,
            Permission::Write,
            Doc::new(
                "Import variables and secrets through a service (`?service_id=&service_type=`), each at the scope it names (the service's or above it), all or none",
            )
            .query("service_id", true, doc::uuid())
            .query("service_type", true, doc::one_of_enum::<ServiceType>())
            .body::<VariableImportRequest>()
            .answers::<VariableImport>(StatusCode::CREATED),
            family::import,
        )
        .add(
            Method::GET,
            paths::VARIABLES,
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
            family::list,
        )
        .add(
            Method::POST,
            paths::VARIABLES,
            Permission::Write,
            Doc::new("Create a variable or a secret at a scope")
                .body::<VariableCreation>()
                .answers::<EnvironmentVariable>(StatusCode::CREATED),
            family::create,
        )
        .add(
            Method::GET,
            paths::VARIABLE,
            Permission::Read,
            Doc::new("Read a variable or a secret").answers::<EnvironmentVariable>(StatusCode::OK),
            family::read,
        )
        .add(
            Method::PUT,
            paths::VARIABLE,
            Permission::Write,
            Doc::new("Update a variable or a secret; a secret's value left out is kept")
                .body::<VariableRequest>()
                .answers::<EnvironmentVariable>(StatusCode::OK),
            family::update,
        )
        .add(
            Method::DELETE,
            paths::VARIABLE,
            Permission::Admin,
            Doc::new("Delete a variable or a secret").answers_nothing(StatusCode::NO_CONTENT),
            family::delete,
        )
        .add(
            Method::POST,
            paths::VARIABLE_ALIAS,
            Permission::Write,
            Doc::new("Give a variable another key at the same or a deeper scope")
                .body::<AliasRequest>()
                .answers::<EnvironmentVariable>(StatusCode::CREATED),
            family::alias,
        )
        .add(
            Method::POST,
            paths::VARIABLE_OVERRIDE,
            Permission::Write,
            Doc::new("Override a variable at a deeper scope")
                .body::<OverrideRequest>()
                .answers::<EnvironmentVariable>(StatusCode::CREATED),
            family::create_override,
        );
}
