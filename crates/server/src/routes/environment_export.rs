//! `GET /environment/{id}/terraformExport`: an environment as Terraform manifests, one `main.tf`
//! to download. Each service is a resource holding its configuration (the request that would
//! make it again, read from its record) and its variables; the environment's own variables go
//! on the environment's resource. Secrets are never exported, `exportSecrets` or not: each is a
//! sensitive input variable of the manifests, to be given when they are applied. The resource
//! types (`platform_environment`, `platform_application`, …) are named after the API's kinds: a
//! reference server knows no provider's schema, and says so in the file's first lines.

use std::collections::HashSet;

use axum::extract::State;
use axum::http::{header, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use chrono::Utc;
use hcl::expr::{ObjectKey, TemplateExpr, Traversal, Variable};
use hcl::{Attribute, Block, Body, Expression, Identifier};
use platform_api::paths;
use platform_api::{
    Application, Container, Database, FieldError, HelmService, Job, ServiceType, TerraformService,
    VariableType,
};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
use uuid::Uuid;

use crate::caller::{Caller, Permission};
use crate::error::{ApiError, ApiPath, ApiQuery, ApiResult};
use crate::routes::doc::boolean;
use crate::routes::environments::find_environment;
use crate::routes::projects::find_project;
use crate::routes::{Doc, RouteTable};
use crate::state::AppState;
use crate::store;
use crate::store::services::AnyKind;
use crate::store::variables::Exported;

pub fn register(routes: &mut RouteTable) {
    let file = Schema::Object(
        ObjectBuilder::new()
            .schema_type(Type::String)
            .format(Some(utoipa::openapi::SchemaFormat::KnownFormat(
                utoipa::openapi::KnownFormat::Binary,
            )))
            .build(),
    );
    routes.add(
        Method::GET,
        paths::ENVIRONMENT_TERRAFORM_EXPORT,
        Permission::Read,
        Doc::new(
            "An environment as Terraform manifests (`main.tf`): its services' configuration and \
             variables; secrets are input variables, never their values (`exportSecrets=true` \
             is refused)",
        )
        .query("exportSecrets", false, boolean())
        .answers_named("TerraformExport", file, StatusCode::OK),
        export,
    );
}

#[derive(Deserialize)]
struct ExportQuery {
    #[serde(default, rename = "exportSecrets")]
    export_secrets: bool,
}

async fn export(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(environment_id): ApiPath<Uuid>,
    ApiQuery(query): ApiQuery<ExportQuery>,
) -> ApiResult<Response> {
    if query.export_secrets {
        return Err(ApiError::invalid(vec![FieldError::new(
            "exportSecrets",
            "secrets are never read back: they are exported as input variables to give",
        )]));
    }
    let environment = find_environment(&state, &caller, environment_id).await?;
    let project = find_project(&state, &caller, environment.project.id).await?;
    let services = store::services::of_every_kind(&state.db, environment_id).await?;
    let mut parents = vec![environment_id];
    parents.extend(services.iter().map(|service| service.id));
    let variables = store::variables::exported(&state.db, &parents).await?;

    let mut manifests = Manifests::default();
    let environment_label = manifests.label(&environment.name);
    let attributes = manifests.variables(&environment_label, environment_id, &variables);
    manifests.body.push(
        Block::builder("resource")
            .add_label("platform_environment")
            .add_label(environment_label.as_str())
            .add_attribute(("project_id", text(&project.id.to_string())))
            .add_attribute(("name", text(&environment.name)))
            .add_attribute(("mode", text(environment.mode.as_str())))
            .add_attribute(("cluster_id", text(&environment.cluster_id.to_string())))
            .add_attributes(attributes)
            .build(),
    );
    let environment_reference = Traversal::builder(Variable::unchecked("platform_environment"))
        .attr(Identifier::unchecked(environment_label.as_str()))
        .attr("id")
        .build();
    for service in &services {
        let label = manifests.label(&service.name);
        let mut block = Block::builder("resource")
            .add_label(format!("platform_{}", service.kind.as_str().to_lowercase()))
            .add_label(label.as_str())
            .add_attribute(("environment_id", environment_reference.clone()));
        let hcl::Value::Object(fields) = configuration(service)? else {
            return Err(ApiError::internal("a service's configuration is an object"));
        };
        for (key, value) in fields {
            let value = match (service.kind, key.as_str()) {
                // A terraform service's secret variables are input variables, as secrets are.
                (ServiceType::Terraform, "terraform_variables_source") => {
                    manifests.terraform_variables(&label, value)
                }
                _ => expression(value),
            };
            block = block.add_attribute(Attribute::new(Identifier::sanitized(key), value));
        }
        let attributes = manifests.variables(&label, service.id, &variables);
        manifests
            .body
            .push(block.add_attributes(attributes).build());
    }

    let header = format!(
        "# The environment \"{}\" of the project \"{}\", as Terraform manifests.\n\
         # Written by the reference server on {} from its records: the resource types are named\n\
         # after the API's kinds, not a provider's schema. Secrets are input variables: give them\n\
         # (TF_VAR_…) when you apply.\n\n",
        environment.name.replace(['\n', '"'], " "),
        project.name.replace(['\n', '"'], " "),
        Utc::now().format("%Y-%m-%dT%H:%M:%SZ"),
    );
    let body: Body = manifests.inputs.into_iter().chain(manifests.body).collect();
    let text = hcl::to_string(&body).map_err(ApiError::internal)?;
    Ok((
        [
            (header::CONTENT_TYPE, "application/octet-stream".to_string()),
            (
                header::CONTENT_DISPOSITION,
                "attachment; filename=\"main.tf\"".to_string(),
            ),
        ],
        header + &text,
    )
        .into_response())
}

/// The blocks written so far: the secrets' input variables first, then the resources.
#[derive(Default)]
struct Manifests {
    inputs: Vec<Block>,
    body: Vec<Block>,
    labels: HashSet<String>,
}

impl Manifests {
    /// A label (a resource's, an input variable's) from a name: lower case, letters, digits and
    /// `_`, unique in the file.
    fn label(&mut self, name: &str) -> String {
        let mut label: String = name
            .to_lowercase()
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        if !label.starts_with(|c: char| c.is_ascii_alphabetic()) {
            label.insert_str(0, "r_");
        }
        let mut unique = label.clone();
        let mut count = 1;
        while !self.labels.insert(unique.clone()) {
            count += 1;
            unique = format!("{label}_{count}");
        }
        unique
    }

    /// A sensitive input variable named after `name`, declared here: the reference to it.
    fn input(&mut self, name: &str) -> Expression {
        let input = self.label(name);
        self.inputs.push(
            Block::builder("variable")
                .add_label(input.as_str())
                .add_attribute(("type", Variable::unchecked("string")))
                .add_attribute(("sensitive", true))
                .build(),
        );
        Traversal::builder(Variable::unchecked("var"))
            .attr(Identifier::unchecked(input))
            .build()
            .into()
    }

    /// The attributes of the variables defined on `parent`: values, aliases and overrides as
    /// they are, secrets as references to input variables (declared here, sensitive).
    fn variables(&mut self, label: &str, parent: Uuid, all: &[Exported]) -> Vec<Attribute> {
        let mut plain = Vec::new();
        let mut secrets = Vec::new();
        for variable in all.iter().filter(|variable| variable.parent_id == parent) {
            let mut entry = vec![("key", text(&variable.key))];
            if variable.is_secret {
                let reference = self.input(&format!("{label}_{}", variable.key));
                entry.push(("value", reference));
            } else if let Some(value) = &variable.value {
                entry.push(("value", text(value)));
            }
            if let Some(target) = &variable.target_key {
                let named = match variable.variable_type {
                    VariableType::Alias => "alias_of",
                    _ => "overrides",
                };
                entry.push((named, text(target)));
            }
            if let Some(path) = &variable.mount_path {
                entry.push(("mount_path", text(path)));
            }
            let entry: Expression = entry
                .into_iter()
                .map(|(key, value)| (Identifier::unchecked(key), value))
                .collect();
            if variable.is_secret {
                secrets.push(entry);
            } else {
                plain.push(entry);
            }
        }
        let mut attributes = Vec::new();
        if !plain.is_empty() {
            attributes.push(Attribute::new("environment_variables", plain));
        }
        if !secrets.is_empty() {
            attributes.push(Attribute::new("secrets", secrets));
        }
        attributes
    }

    /// A terraform service's `terraform_variables_source`: its secret `tf_vars` (kept without
    /// their values) given an input variable each for their value.
    fn terraform_variables(&mut self, label: &str, source: hcl::Value) -> Expression {
        let hcl::Value::Object(mut source) = source else {
            return expression(source);
        };
        let Some(hcl::Value::Array(variables)) = source.shift_remove("tf_vars") else {
            return expression(hcl::Value::Object(source));
        };
        let variables: Vec<Expression> = variables
            .into_iter()
            .map(|variable| match variable {
                hcl::Value::Object(mut fields) if fields.get("secret") == Some(&true.into()) => {
                    let key = fields
                        .get("key")
                        .and_then(hcl::Value::as_str)
                        .unwrap_or("tf_var");
                    let reference = self.input(&format!("{label}_{key}"));
                    fields.shift_remove("value");
                    let mut entry = object(fields);
                    if let Expression::Object(entry) = &mut entry {
                        entry.insert(
                            ObjectKey::Identifier(Identifier::unchecked("value")),
                            reference,
                        );
                    }
                    entry
                }
                other => expression(other),
            })
            .collect();
        let mut written = object(source);
        if let Expression::Object(written) = &mut written {
            written.insert(
                ObjectKey::Identifier(Identifier::unchecked("tf_vars")),
                Expression::Array(variables),
            );
        }
        written
    }
}

/// A text as an HCL string, through the one function that escapes it (`hcl-rs`'s own writer
/// leaves a `${` unescaped after a `%`): written as a quoted template holding exactly that text.
fn text(value: &str) -> Expression {
    let quoted = platform_api::escape::hcl_string(value);
    let inner = quoted[1..quoted.len() - 1].to_string();
    Expression::TemplateExpr(Box::new(TemplateExpr::QuotedString(inner)))
}

/// A value as an expression, its objects' keys written bare where they are identifiers, every
/// text through `text`.
fn expression(value: hcl::Value) -> Expression {
    match value {
        hcl::Value::Object(fields) => object(fields),
        hcl::Value::Array(items) => items.into_iter().map(expression).collect(),
        hcl::Value::String(value) => text(&value),
        other => other.into(),
    }
}

fn object(fields: hcl::Map<String, hcl::Value>) -> Expression {
    fields
        .into_iter()
        .map(|(key, value)| {
            let key = match Identifier::new(key.as_str()) {
                Ok(identifier) => ObjectKey::Identifier(identifier),
                Err(_) => ObjectKey::Expression(text(&key)),
            };
            (key, expression(value))
        })
        .collect()
}

/// A service's configuration: the request that would make it again, from its stored record.
fn configuration(service: &AnyKind) -> ApiResult<hcl::Value> {
    fn request<R: DeserializeOwned, Q: Serialize>(
        spec: &str,
        to_request: impl Fn(&R) -> Q,
    ) -> ApiResult<hcl::Value> {
        let record: R = serde_json::from_str(spec).map_err(ApiError::internal)?;
        hcl::to_value(to_request(&record)).map_err(ApiError::internal)
    }
    let spec = service.spec.as_str();
    match service.kind {
        ServiceType::Application => request(spec, Application::to_request),
        ServiceType::Container => request(spec, Container::to_request),
        ServiceType::Database => request(spec, Database::to_request),
        ServiceType::Job => request(spec, Job::to_request),
        ServiceType::Helm => request(spec, HelmService::to_request),
        ServiceType::Terraform => request(spec, TerraformService::to_request),
        ServiceType::Other(kind) => Err(ApiError::internal(format!(
            "a stored service of an unknown kind: {kind}"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `value` written as an attribute's text by the export's writer, read back by hcl-rs.
    fn read_back(value: &str) -> Result<String, String> {
        let body = Body::builder()
            .add_attribute(Attribute::new("x", text(value)))
            .build();
        let written = hcl::to_string(&body).map_err(|error| error.to_string())?;
        let read: hcl::Map<String, hcl::Value> =
            hcl::from_str(&written).map_err(|error| format!("{written}: {error}"))?;
        match read.get("x") {
            Some(hcl::Value::String(read)) => Ok(read.clone()),
            other => Err(format!("{written}: read as {other:?}")),
        }
    }

    /// Every text of up to five characters of the alphabet that makes HCL's templates and
    /// strings (markers, braces, quotes, backslashes, line breaks, NUL), and longer random ones:
    /// each reads back as itself, never as an interpolation or a directive.
    #[test]
    fn every_value_reads_back_as_the_text_it_is() {
        use rand::{Rng, SeedableRng};
        const ALPHABET: [char; 10] = ['$', '%', '{', '}', '\\', '"', '\n', 'a', '\0', '~'];
        let mut texts: Vec<String> = vec![String::new()];
        let mut last = vec![String::new()];
        for _ in 0..5 {
            last = last
                .iter()
                .flat_map(|text| ALPHABET.iter().map(move |c| format!("{text}{c}")))
                .collect();
            texts.extend(last.iter().cloned());
        }
        let mut random = rand::rngs::StdRng::seed_from_u64(0x5eed_0079);
        let pieces = [
            "${",
            "%{",
            "$${",
            "%%{",
            "}",
            "\"",
            "\\",
            "\n",
            "\r",
            "\t",
            "\0",
            "\u{1b}",
            "\u{7f}",
            "\u{2028}",
            "é",
            "upper(path.module)",
            " if true ",
            "endif",
            "~",
            "<<EOT",
        ];
        for _ in 0..5_000 {
            let length = random.random_range(1..24);
            texts.push(
                (0..length)
                    .map(|_| pieces[random.random_range(0..pieces.len())])
                    .collect(),
            );
        }
        let wrong: Vec<String> = texts
            .iter()
            .filter_map(|text| match read_back(text) {
                Ok(read) if read == *text => None,
                Ok(read) => Some(format!("{text:?} read back as {read:?}")),
                Err(error) => Some(format!("{text:?}: {error}")),
            })
            .take(10)
            .collect();
        assert!(
            wrong.is_empty(),
            "{} texts:\n{}",
            texts.len(),
            wrong.join("\n")
        );
    }
}
