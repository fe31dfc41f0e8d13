//! The catalogue of advanced settings (`platform_api::advanced_settings`) is the document's:
//! for each owner, the same settings, each of the document's type, values and
//! nullability, its default the document's where it gives one.

use contract::Document;
use platform_api::advanced_settings::{SettingType, SettingsOf};
use serde_json::Value;

fn documented_type(kind: SettingType) -> &'static str {
    match kind {
        SettingType::Boolean => "boolean",
        SettingType::Integer { .. } => "integer",
        SettingType::Text(_) | SettingType::OneOf(_) => "string",
        SettingType::TextList(_) => "array",
        SettingType::Labels => "object",
    }
}

#[test]
fn every_owners_settings_are_the_documents() {
    let document = Document::production();
    let mut failures = Vec::new();
    for of in SettingsOf::ALL {
        let name = format!("{}AdvancedSettings", of.name());
        let schema = document
            .schema(&name)
            .unwrap_or_else(|| panic!("the document has no {name}"));
        let properties = schema["properties"].as_object().expect("properties");
        let documented: Vec<&str> = properties.keys().map(String::as_str).collect();
        let mut ours: Vec<&str> = of.settings().map(|s| s.key).collect();
        // The document's properties are read in key order.
        ours.sort_unstable();
        if documented != ours {
            failures.push(format!(
                "{name}: the document has {documented:?}, we {ours:?}"
            ));
            continue;
        }
        for setting in of.settings() {
            let mut property = &properties[setting.key];
            if let Some(reference) = property["$ref"].as_str() {
                let target = reference.rsplit('/').next().unwrap();
                property = document.schema(target).expect("a referenced schema");
            }
            let key = setting.key;
            if property["type"] != documented_type(setting.kind) {
                failures.push(format!("{name}.{key}: of type {}", property["type"]));
            }
            let values: Option<Vec<&str>> = property["enum"]
                .as_array()
                .map(|values| values.iter().filter_map(Value::as_str).collect());
            let our_values = match setting.kind {
                SettingType::OneOf(values) => Some(values.to_vec()),
                _ => None,
            };
            if values != our_values {
                failures.push(format!(
                    "{name}.{key}: values {values:?}, ours {our_values:?}"
                ));
            }
            if property["nullable"].as_bool().unwrap_or(false) != setting.nullable {
                failures.push(format!("{name}.{key}: nullable differs"));
            }
            if let Some(default) = property.get("default") {
                if *default != setting.default() {
                    failures.push(format!("{name}.{key}: default {default}"));
                }
            }
            if let Some(minimum) = property["minimum"].as_i64() {
                if !matches!(setting.kind, SettingType::Integer { min, .. } if min == minimum) {
                    failures.push(format!("{name}.{key}: minimum {minimum}"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
