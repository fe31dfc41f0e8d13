//! OpenAPI 3.0 schemas in JSON Schema's terms (draft 4, which OpenAPI 3.0 extends).

use serde_json::{json, Map, Value};

/// Rewrites what JSON Schema does not know, in place, throughout `value`:
/// - `nullable: true` becomes "this schema, or null";
/// - `oneOf` becomes `anyOf`: the document lists alternatives that overlap (a record with only
///   optional fields fits several), which a client reads as "one of these shapes", not "exactly
///   one";
/// - `discriminator` is dropped (it only names which alternative a body is).
pub fn to_json_schema(value: &mut Value) {
    match value {
        Value::Object(map) => {
            for child in map.values_mut() {
                to_json_schema(child);
            }
            if let Some(alternatives) = map.remove("oneOf") {
                map.insert("anyOf".into(), alternatives);
            }
            map.remove("discriminator");
            if map.get("nullable") == Some(&Value::Bool(true)) {
                map.remove("nullable");
                let schema = Value::Object(std::mem::take(map));
                let mut nullable = Map::new();
                nullable.insert("anyOf".into(), json!([schema, {"type": "null"}]));
                *map = nullable;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(to_json_schema),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_nullable_schema_accepts_null_and_its_type_only() {
        let mut schema = json!({"type": "string", "nullable": true, "enum": ["A", "B"]});
        to_json_schema(&mut schema);
        let validator = jsonschema::draft4::new(&schema).unwrap();
        assert!(validator.is_valid(&json!(null)));
        assert!(validator.is_valid(&json!("A")));
        assert!(!validator.is_valid(&json!("C")));
        assert!(!validator.is_valid(&json!(3)));
    }

    #[test]
    fn a_schema_without_nullable_refuses_null() {
        let mut schema = json!({"type": "object", "properties": {"name": {"type": "string"}}});
        to_json_schema(&mut schema);
        let validator = jsonschema::draft4::new(&schema).unwrap();
        assert!(!validator.is_valid(&json!({"name": null})));
        assert!(validator.is_valid(&json!({})));
    }
}
