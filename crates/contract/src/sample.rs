//! Answers built from the document's schemas, to feed the console's types exactly what the
//! platform may send.

use serde_json::{json, Map, Value};

use crate::document::{Document, Operation};

/// Which fields a sample holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fields {
    /// Only the required ones; a nullable field is `null`. The least the platform may send.
    Required,
    /// The required ones, plus `results` with one item in a list answer: the least the platform
    /// sends for a list that is not empty.
    RequiredWithResults,
    /// Every field the schema names, each with a value.
    All,
}

const MAX_DEPTH: usize = 12;

pub fn build(document: &Document, schema: &Value, fields: Fields) -> Value {
    build_choosing(document, schema, fields, 0)
}

/// A sample whose every enumeration holds its value number `choice` and every `oneOf` or `anyOf`
/// its alternative number `choice` (wrapping around their lists): samples for each `choice` up
/// to the longest list hold every value and every alternative.
pub fn build_choosing(document: &Document, schema: &Value, fields: Fields, choice: usize) -> Value {
    Builder {
        document,
        fields,
        choice: Choice::Listed(choice),
        alternative: choice,
    }
    .value(schema, "value", 0, true)
}

/// A sample whose every `oneOf` or `anyOf` holds its alternative number `alternative`, and every
/// enumeration its first value.
pub fn build_alternative(
    document: &Document,
    schema: &Value,
    fields: Fields,
    alternative: usize,
) -> Value {
    Builder {
        document,
        fields,
        choice: Choice::Listed(0),
        alternative,
    }
    .value(schema, "value", 0, true)
}

/// What a newer platform may send in an enumeration: a value the document does not list yet.
pub const UNLISTED_VALUE: &str = "A_VALUE_OF_A_NEWER_PLATFORM";

/// A sample whose every enumeration holds `UNLISTED_VALUE`.
pub fn build_unlisted(document: &Document, schema: &Value, fields: Fields) -> Value {
    Builder {
        document,
        fields,
        choice: Choice::Unlisted,
        alternative: 0,
    }
    .value(schema, "value", 0, true)
}

/// Which value an enumeration holds.
#[derive(Clone, Copy)]
enum Choice {
    /// The value of this number in its list, wrapping around.
    Listed(usize),
    Unlisted,
}

struct Builder<'a> {
    document: &'a Document,
    fields: Fields,
    choice: Choice,
    /// Which alternative of a `oneOf` or an `anyOf`, wrapping around.
    alternative: usize,
}

impl Builder<'_> {
    fn value(&self, schema: &Value, name: &str, depth: usize, top: bool) -> Value {
        let schema = self.document.resolve(schema);
        if depth > MAX_DEPTH {
            return Value::Null;
        }
        if schema["nullable"] == true && self.fields != Fields::All {
            return Value::Null;
        }
        if let Some(parts) = schema["allOf"].as_array() {
            let mut merged = Map::new();
            for part in parts {
                if let Value::Object(object) = self.value(part, name, depth + 1, top) {
                    merged.extend(object);
                }
            }
            return Value::Object(merged);
        }
        for alternatives in ["oneOf", "anyOf"] {
            if let Some(listed) = schema[alternatives].as_array().filter(|a| !a.is_empty()) {
                let chosen = &listed[self.alternative % listed.len()];
                return self.value(chosen, name, depth + 1, top);
            }
        }
        if let Some(values) = schema["enum"]
            .as_array()
            .filter(|values| !values.is_empty())
        {
            return match self.choice {
                Choice::Listed(choice) => values[choice % values.len()].clone(),
                Choice::Unlisted => json!(UNLISTED_VALUE),
            };
        }
        match schema["type"].as_str() {
            Some("object") | None if schema.get("properties").is_some() => {
                self.object(schema, depth, top)
            }
            Some("object") => json!({}),
            // Two items (one when the schema allows no more): the document's pairs are arrays of
            // a key and a value.
            Some("array") => {
                let item = self.value(&schema["items"], name, depth + 1, false);
                let count = schema["maxItems"].as_u64().unwrap_or(2).min(2);
                Value::Array(vec![item; count as usize])
            }
            Some("string") => string(schema, name),
            Some("integer") => json!(number(schema) as i64),
            // JSON does not tell 1 from 1.0; the platform writes whole numbers without a point.
            Some("number") => json!(number(schema).ceil() as i64),
            Some("boolean") => json!(true),
            _ => json!({}),
        }
    }

    fn object(&self, schema: &Value, depth: usize, top: bool) -> Value {
        let required: Vec<&str> = schema["required"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        let mut object = Map::new();
        for (name, property) in schema["properties"].as_object().into_iter().flatten() {
            let wanted = match self.fields {
                Fields::All => true,
                Fields::Required => required.contains(&name.as_str()),
                Fields::RequiredWithResults => {
                    required.contains(&name.as_str()) || (top && name == "results")
                }
            };
            if wanted && self.document.resolve(property)["writeOnly"] != true {
                object.insert(name.clone(), self.value(property, name, depth + 1, false));
            }
        }
        Value::Object(object)
    }
}

fn string(schema: &Value, name: &str) -> Value {
    // Some ids are left without `format: uuid` in the document, or with a mistyped one (a helm
    // source's repository id says `uu`); the platform's ids are uuids.
    let is_id = name == "id" || name.ends_with("_id");
    let text = match schema["format"].as_str() {
        Some("uuid") => uuid::Uuid::new_v4().to_string(),
        None | Some("uu") if is_id => uuid::Uuid::new_v4().to_string(),
        Some("date-time") => "2026-01-02T03:04:05Z".into(),
        Some("date") => "2026-01-02".into(),
        Some("uri" | "url") => "https://example.com/sample".into(),
        Some("email") => "someone@example.com".into(),
        _ => match schema["example"].as_str() {
            Some(example) => example.to_string(),
            None => format!("sample {name}"),
        },
    };
    Value::String(text)
}

fn number(schema: &Value) -> f64 {
    let minimum = schema["minimum"].as_f64().unwrap_or(1.0);
    let maximum = schema["maximum"].as_f64().unwrap_or(f64::MAX);
    minimum.max(1.0).min(maximum)
}

/// Samples of an operation's requests and answers.
impl Operation<'_> {
    /// A request built from the operation's request schema, if it takes a body.
    pub fn sample_request(&self, fields: Fields) -> Option<Value> {
        let schema = self.request_schema()?;
        Some(build(self.document, schema, fields))
    }

    /// An answer built from the schema of the operation's first success code with a body:
    /// `(status, body)`.
    pub fn sample_response(&self, fields: Fields) -> Option<(u16, Value)> {
        self.sample_response_choosing(fields, 0)
    }

    /// `sample_response` whose enumerations hold their value number `choice`
    /// (`build_choosing`).
    pub fn sample_response_choosing(&self, fields: Fields, choice: usize) -> Option<(u16, Value)> {
        self.sample_of_answer(|schema| build_choosing(self.document, schema, fields, choice))
    }

    /// `sample_response` whose every `oneOf` and `anyOf` holds its alternative number
    /// `alternative` (`build_alternative`).
    pub fn sample_response_alternative(
        &self,
        fields: Fields,
        alternative: usize,
    ) -> Option<(u16, Value)> {
        self.sample_of_answer(|schema| {
            build_alternative(self.document, schema, fields, alternative)
        })
    }

    /// `sample_response` whose every enumeration holds a value the document does not list
    /// (`UNLISTED_VALUE`), as a newer platform may send.
    pub fn sample_response_unlisted(&self, fields: Fields) -> Option<(u16, Value)> {
        self.sample_of_answer(|schema| build_unlisted(self.document, schema, fields))
    }

    /// `build` of the schema of the first success code with a body: `(status, body)`.
    fn sample_of_answer(&self, build: impl FnOnce(&Value) -> Value) -> Option<(u16, Value)> {
        let status = self
            .success_codes()
            .into_iter()
            .find(|code| self.response_schema(*code).is_some())?;
        Some((status, build(self.response_schema(status)?)))
    }

    /// The longest enumeration or list of alternatives (`oneOf`, `anyOf`) the operation's answers
    /// hold, at any depth: samples choosing each value up to it hold every value of every
    /// enumeration and every alternative.
    pub fn longest_enumeration(&self) -> usize {
        self.longest_list(&["enum", "oneOf", "anyOf"])
    }

    /// The longest list of alternatives (`oneOf`, `anyOf`) the operation's answers hold, at any
    /// depth: samples of each alternative up to it hold every alternative.
    pub fn most_alternatives(&self) -> usize {
        self.longest_list(&["oneOf", "anyOf"])
    }

    /// The longest of the lists named `lists` in the operation's answers, at any depth.
    fn longest_list(&self, lists: &[&str]) -> usize {
        fn longest(document: &Document, schema: &Value, lists: &[&str], depth: usize) -> usize {
            if depth > 12 {
                return 0;
            }
            let schema = document.resolve(schema);
            let own = lists
                .iter()
                .map(|list| schema[*list].as_array().map_or(0, Vec::len))
                .max()
                .unwrap_or(0);
            let nested = match schema {
                Value::Object(fields) => fields
                    .iter()
                    .filter(|(key, _)| *key != "enum" && *key != "example")
                    .map(|(_, value)| longest(document, value, lists, depth + 1))
                    .max()
                    .unwrap_or(0),
                Value::Array(items) => items
                    .iter()
                    .map(|item| longest(document, item, lists, depth + 1))
                    .max()
                    .unwrap_or(0),
                _ => 0,
            };
            own.max(nested)
        }
        self.success_codes()
            .into_iter()
            .filter_map(|code| self.response_schema(code))
            .map(|schema| longest(self.document, schema, lists, 0))
            .max()
            .unwrap_or(0)
    }
}
