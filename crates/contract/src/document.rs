//! The document itself: its operations, and whether a request or an answer fits their schemas.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use serde_json::Value;

use crate::{schema, vendors};

/// Where the document lives beside a checkout: `PRODUCTION_OPENAPI` overrides it.
pub fn default_path() -> PathBuf {
    if let Some(path) = std::env::var_os("PRODUCTION_OPENAPI") {
        return PathBuf::from(path);
    }
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/reference/production-openapi.yaml")
}

/// The document, vendor names translated.
pub struct Document {
    spec: Value,
    /// The components in JSON Schema's terms (`nullable` rewritten), the target of every `$ref`.
    components: Value,
    validators: Mutex<HashMap<String, Arc<jsonschema::Validator>>>,
}

/// One operation of the document: a method on a path template.
#[derive(Clone, Copy)]
pub struct Operation<'a> {
    pub method: &'a str,
    /// The document's template, e.g. `/organization/{organizationId}/project`.
    pub path: &'a str,
    pub(crate) document: &'a Document,
    value: &'a Value,
}

impl Document {
    /// The production document at `default_path()`; panics with the path when it is missing, so a
    /// contract test cannot pass without it.
    pub fn production() -> Self {
        let path = default_path();
        let text = std::fs::read_to_string(&path).unwrap_or_else(|error| {
            panic!(
                "cannot read the production API document at {}: {error}",
                path.display()
            )
        });
        Self::from_yaml(&text)
    }

    pub fn from_yaml(text: &str) -> Self {
        let mut spec: Value = serde_yaml::from_str(text).expect("the document is valid YAML");
        vendors::translate(&mut spec);
        let mut components = spec["components"].clone();
        schema::to_json_schema(&mut components);
        Self {
            spec,
            components,
            validators: Mutex::new(HashMap::new()),
        }
    }

    /// Every operation of the document.
    pub fn operations(&self) -> impl Iterator<Item = Operation<'_>> {
        self.spec["paths"]
            .as_object()
            .into_iter()
            .flatten()
            .flat_map(move |(path, item)| {
                item.as_object()
                    .into_iter()
                    .flatten()
                    .filter(|(method, _)| is_method(method))
                    .map(move |(method, value)| Operation {
                        method: method.as_str(),
                        path: path.as_str(),
                        document: self,
                        value,
                    })
            })
    }

    /// The operation at `method` and `path`, a template whose parameters may be named otherwise
    /// (`{organization_id}` finds `{organizationId}`) or a concrete path (ids in place of
    /// parameters; a query is ignored).
    pub fn operation(&self, method: &str, path: &str) -> Option<Operation<'_>> {
        let method = method.to_ascii_lowercase();
        let path = path.split('?').next().unwrap_or(path);
        let wanted: Vec<&str> = path.trim_end_matches('/').split('/').collect();
        let matches = |template: &str, exact: bool| {
            let segments: Vec<&str> = template.trim_end_matches('/').split('/').collect();
            segments.len() == wanted.len()
                && segments.iter().zip(&wanted).all(|(template, wanted)| {
                    let parameter = |s: &str| s.starts_with('{') && s.ends_with('}');
                    if exact {
                        template == wanted || (parameter(template) && parameter(wanted))
                    } else {
                        template == wanted || parameter(template)
                    }
                })
        };
        // A template's literal segments win over another template's parameters.
        let candidates: Vec<Operation<'_>> = self
            .operations()
            .filter(|operation| operation.method == method)
            .collect();
        candidates
            .iter()
            .find(|operation| matches(operation.path, true))
            .or_else(|| {
                candidates
                    .iter()
                    .filter(|operation| matches(operation.path, false))
                    .min_by_key(|operation| operation.path.matches('{').count())
            })
            .copied()
    }

    /// The named schema of the document's components, as written there.
    pub fn schema(&self, name: &str) -> Option<&Value> {
        self.spec["components"]["schemas"].get(name)
    }

    /// The schema `schema` stands for, its `$ref`s followed.
    pub fn resolve<'a>(&'a self, schema: &'a Value) -> &'a Value {
        let mut schema = schema;
        for _ in 0..16 {
            match schema.get("$ref").and_then(Value::as_str) {
                Some(reference) => schema = self.pointer(reference),
                None => break,
            }
        }
        schema
    }

    fn pointer(&self, reference: &str) -> &Value {
        let pointer = reference.trim_start_matches('#');
        self.spec
            .pointer(pointer)
            .unwrap_or_else(|| panic!("the document has no {reference}"))
    }

    fn validator(&self, key: &str, schema: &Value) -> Arc<jsonschema::Validator> {
        let mut validators = self.validators.lock().unwrap();
        if let Some(validator) = validators.get(key) {
            return validator.clone();
        }
        let mut schema = schema.clone();
        schema::to_json_schema(&mut schema);
        let root = serde_json::json!({
            "allOf": [schema],
            "components": self.components,
        });
        let validator = jsonschema::draft4::options()
            .should_validate_formats(true)
            .build(&root)
            .unwrap_or_else(|error| panic!("the schema of {key} does not compile: {error}"));
        let validator = Arc::new(validator);
        validators.insert(key.to_string(), validator.clone());
        validator
    }
}

fn is_method(name: &str) -> bool {
    matches!(name, "get" | "put" | "post" | "delete" | "patch")
}

impl<'a> Operation<'a> {
    /// `GET /organization/{organizationId}`, for messages.
    pub fn label(&self) -> String {
        format!("{} {}", self.method.to_uppercase(), self.path)
    }

    /// The 2xx codes the document gives.
    pub fn success_codes(&self) -> Vec<u16> {
        self.responses()
            .filter_map(|(code, _)| code.parse().ok())
            .filter(|code| (200..300).contains(code))
            .collect()
    }

    fn responses(&self) -> impl Iterator<Item = (&'a String, &'a Value)> {
        self.value["responses"].as_object().into_iter().flatten()
    }

    /// The JSON schema of the answer with `status`, if the document gives it a body.
    pub fn response_schema(&self, status: u16) -> Option<&'a Value> {
        let response = self
            .responses()
            .find(|(code, _)| code.as_str() == status.to_string())?
            .1;
        schema_of(self.document.resolve(response))
    }

    /// The query parameters the operation reads: name, schema, whether required.
    pub fn query_parameters(&self) -> Vec<(&'a str, &'a Value, bool)> {
        self.value["parameters"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|parameter| self.document.resolve(parameter))
            .filter(|parameter| parameter["in"] == "query")
            .filter_map(|parameter| {
                Some((
                    parameter["name"].as_str()?,
                    &parameter["schema"],
                    parameter["required"] == true,
                ))
            })
            .collect()
    }

    /// The JSON schema of the request body, if the operation takes one.
    pub fn request_schema(&self) -> Option<&'a Value> {
        let body = self.value.get("requestBody")?;
        schema_of(self.document.resolve(body))
    }

    /// Whether an answer of `status` with `body` is what the document says this operation
    /// answers: a success code it lists, and a body valid against that code's schema (none when
    /// it gives none). The errors name the place in the body.
    pub fn check_response(&self, status: u16, body: &Value) -> Result<(), Vec<String>> {
        let codes = self.success_codes();
        if !codes.contains(&status) {
            return Err(vec![format!(
                "answered {status}; the document answers {codes:?}"
            )]);
        }
        match self.response_schema(status) {
            Some(schema) => self.check(&format!("{} {status}", self.label()), schema, body),
            None if body.is_null() => Ok(()),
            None => Err(vec![format!(
                "answered a body with {status}; the document gives that code none"
            )]),
        }
    }

    /// Whether an answer of `status` with `body` is one the document gives for this operation,
    /// an error as well as a success: a code it lists, and a body valid against that code's
    /// schema.
    pub fn check_documented(&self, status: u16, body: &Value) -> Result<(), Vec<String>> {
        if !self
            .responses()
            .any(|(code, _)| code.as_str() == status.to_string())
        {
            return Err(vec![format!(
                "answered {status}, a code the document does not give"
            )]);
        }
        match self.response_schema(status) {
            Some(schema) => self.check(&format!("{} {status}", self.label()), schema, body),
            None if body.is_null() => Ok(()),
            None => Err(vec![format!(
                "answered a body with {status}; the document gives that code none"
            )]),
        }
    }

    /// Whether `body` is a request the document accepts for this operation.
    pub fn check_request(&self, body: &Value) -> Result<(), Vec<String>> {
        match self.request_schema() {
            Some(schema) => self.check(&format!("{} request", self.label()), schema, body),
            None => Ok(()),
        }
    }

    fn check(&self, key: &str, schema: &Value, instance: &Value) -> Result<(), Vec<String>> {
        let validator = self.document.validator(key, schema);
        let errors: Vec<String> = validator
            .iter_errors(instance)
            .take(8)
            .map(|error| format!("at '{}': {error}", error.instance_path()))
            .collect();
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }
}

/// The schema of a request's or an answer's content: its JSON one, else that of the one media
/// type it has (a kubeconfig's YAML text, read as a string).
fn schema_of(payload: &Value) -> Option<&Value> {
    let content = payload.get("content")?.as_object()?;
    content
        .get("application/json")
        .or_else(|| content.values().next())?
        .get("schema")
}
