//! Requests generated from a document's schemas, for fuzzing a server that claims to follow it:
//! mostly values the schema allows (edge cases of each type), sometimes ones it does not (a wrong
//! type, a required field left out, an unknown field), so that both the rules and the document
//! are put to the test. Seeded: a failing case can be replayed.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{json, Map, Value};

use crate::document::Document;

const MAX_DEPTH: usize = 8;
const QUERY_VALUE_MAX_CHARS: usize = 2_000;

pub struct Fuzzer<'a> {
    document: &'a Document,
    rng: StdRng,
}

impl<'a> Fuzzer<'a> {
    pub fn new(document: &'a Document, seed: u64) -> Self {
        Self {
            document,
            rng: StdRng::seed_from_u64(seed),
        }
    }

    /// A request body for `schema`.
    pub fn body(&mut self, schema: &Value) -> Value {
        self.value(schema, "body", 0)
    }

    /// A value for a query parameter of `schema`, as the query string writes it: at most
    /// `QUERY_VALUE_MAX_CHARS`, as an address holds a few thousand characters at most.
    pub fn query_value(&mut self, schema: &Value) -> String {
        let text = match self.value(schema, "query", MAX_DEPTH) {
            Value::String(text) => text,
            Value::Null => String::new(),
            other => other.to_string(),
        };
        text.chars().take(QUERY_VALUE_MAX_CHARS).collect()
    }

    /// One of `choices`, at random.
    pub fn pick<T: Clone>(&mut self, choices: &[T]) -> T {
        choices[self.rng.random_range(0..choices.len())].clone()
    }

    fn chance(&mut self, percent: u32) -> bool {
        self.rng.random_range(0..100) < percent
    }

    fn value(&mut self, schema: &Value, name: &str, depth: usize) -> Value {
        let schema = self.document.resolve(schema).clone();
        if depth > MAX_DEPTH {
            return Value::Null;
        }
        // Now and then, a value of the wrong type.
        if self.chance(2) {
            return self.pick(&[
                json!(null),
                json!(7),
                json!("x"),
                json!([]),
                json!({}),
                json!(true),
            ]);
        }
        if schema["nullable"] == true && self.chance(15) {
            return Value::Null;
        }
        if let Some(parts) = schema["allOf"].as_array() {
            let mut merged = Map::new();
            for part in parts {
                if let Value::Object(object) = self.value(part, name, depth + 1) {
                    merged.extend(object);
                }
            }
            return Value::Object(merged);
        }
        for alternatives in ["oneOf", "anyOf"] {
            if let Some(choices) = schema[alternatives].as_array().filter(|c| !c.is_empty()) {
                let chosen = self.pick(choices);
                return self.value(&chosen, name, depth + 1);
            }
        }
        if let Some(values) = schema["enum"].as_array().filter(|v| !v.is_empty()) {
            return self.pick(values);
        }
        // OpenAPI 3.1 writes an optional value's type as a list: `["string", "null"]`.
        let listed: Vec<&str> = schema["type"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        let type_name = match listed.as_slice() {
            [] => schema["type"].as_str(),
            types if types.contains(&"null") && self.chance(15) => return Value::Null,
            types => types.iter().copied().find(|t| *t != "null"),
        };
        match type_name {
            Some("object") | None if schema.get("properties").is_some() => {
                self.object(&schema, depth)
            }
            Some("object") => json!({}),
            Some("array") => {
                let count = self.rng.random_range(0..4);
                Value::Array(
                    (0..count)
                        .map(|_| self.value(&schema["items"], name, depth + 1))
                        .collect(),
                )
            }
            Some("string") => self.string(&schema, name),
            Some("integer") => self.integer(&schema),
            Some("number") => json!(self.integer(&schema).as_i64().unwrap_or(0) as f64 / 2.0),
            Some("boolean") => json!(self.chance(50)),
            Some("null") => Value::Null,
            _ => json!({}),
        }
    }

    fn object(&mut self, schema: &Value, depth: usize) -> Value {
        let required: Vec<String> = schema["required"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|name| name.as_str().map(str::to_string))
            .collect();
        let mut object = Map::new();
        let properties = schema["properties"]
            .as_object()
            .cloned()
            .unwrap_or_default();
        for (name, property) in properties {
            let is_required = required.contains(&name);
            // Required fields are nearly always there; optional ones half the time.
            let wanted = if is_required {
                !self.chance(2)
            } else {
                self.chance(50)
            };
            if wanted {
                let value = self.value(&property, &name, depth + 1);
                object.insert(name, value);
            }
        }
        if self.chance(3) {
            object.insert("field_nobody_knows".into(), json!("?"));
        }
        Value::Object(object)
    }

    fn string(&mut self, schema: &Value, name: &str) -> Value {
        let by_format = match schema["format"].as_str() {
            Some("uuid") => Some(uuid::Uuid::from_u128(self.rng.random()).to_string()),
            Some("date-time") => Some("2026-01-02T03:04:05Z".to_string()),
            Some("uri" | "url") => Some("https://example.com/hook".to_string()),
            Some("email") => Some("someone@example.com".to_string()),
            _ => None,
        };
        if let Some(text) = by_format.filter(|_| !self.chance(10)) {
            return Value::String(text);
        }
        let max = schema["maxLength"].as_u64().map(|m| m as usize);
        let text = self.pick(&[
            String::new(),
            " ".to_string(),
            format!("{name}-1"),
            "web".to_string(),
            "0 3 * * *".to_string(),
            "https://git.example.com/acme/web.git".to_string(),
            "Été — 数据 ✓".to_string(),
            "line\nbreak".to_string(),
            "nul\u{0}char".to_string(),
            "evil\u{202E}txt".to_string(),
            "x".repeat(300),
            "x".repeat(100_000),
            format!("{}b", "*a".repeat(40)),
            "../../etc/passwd".to_string(),
            "'; DROP TABLE services; --".to_string(),
            "DEVELOPMENT".to_string(),
        ]);
        let text = match max {
            Some(max) if self.chance(80) => text.chars().take(max).collect(),
            _ => text,
        };
        Value::String(text)
    }

    fn integer(&mut self, schema: &Value) -> Value {
        let minimum = schema["minimum"].as_i64();
        let maximum = schema["maximum"].as_i64();
        let mut value = self.pick(&[0, 1, 2, 8080, 500, 65535, -1, i64::MAX, i64::MIN, 100_000]);
        if self.chance(80) {
            if let Some(minimum) = minimum {
                value = value.max(minimum);
            }
            if let Some(maximum) = maximum {
                value = value.min(maximum);
            }
        }
        json!(value)
    }
}
