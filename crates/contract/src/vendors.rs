//! The document's vendor names, translated to the spec's letters ("each letter stands for one
//! fixed vendor"): in enumerations, and in the property names that carry a vendor's name.

use serde_json::Value;

/// Vendor prefixes of property names (`scaleway_access_key` is the spec's `provider_a_access_key`).
const PROPERTIES: &[(&str, &str)] = &[
    ("scaleway_", "provider_a_"),
    ("gcp_", "provider_e_"),
    ("azure_", "provider_f_"),
];

/// An enumeration value with its vendor word replaced (the rule is platform-api's, which the
/// server reads requests by).
pub fn value(word: &str) -> String {
    platform_api::in_spec_letters(word).unwrap_or_else(|| word.to_string())
}

pub fn property(name: &str) -> String {
    for (vendor, letter) in PROPERTIES {
        if let Some(rest) = name.strip_prefix(vendor) {
            return format!("{letter}{rest}");
        }
    }
    name.to_string()
}

/// Translates every enumeration, property name and required list of the document, in place.
pub fn translate(document: &mut Value) {
    match document {
        Value::Object(map) => {
            if let Some(Value::Array(values)) = map.get_mut("enum") {
                for item in values.iter_mut() {
                    if let Value::String(word) = item {
                        *word = value(word);
                    }
                }
            }
            if let Some(Value::Array(names)) = map.get_mut("required") {
                for item in names.iter_mut() {
                    if let Value::String(name) = item {
                        *name = property(name);
                    }
                }
            }
            if let Some(Value::Object(properties)) = map.get_mut("properties") {
                let renamed = std::mem::take(properties)
                    .into_iter()
                    .map(|(name, schema)| (property(&name), schema))
                    .collect();
                *properties = renamed;
            }
            map.values_mut().for_each(translate);
        }
        Value::Array(items) => items.iter_mut().for_each(translate),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vendor_words_become_letters_and_other_words_stay() {
        assert_eq!(value("SCALEWAY_CR"), "PROVIDER_A_CR");
        assert_eq!(value("OCI_DOCKER_HUB"), "OCI_PROVIDER_B_HUB");
        assert_eq!(value("GITHUB_ENTERPRISE_CR"), "PROVIDER_C_ENTERPRISE_CR");
        assert_eq!(
            value("GCP_ARTIFACT_REGISTRY"),
            "PROVIDER_E_ARTIFACT_REGISTRY"
        );
        assert_eq!(value("SCW"), "PROVIDER_A");
        assert_eq!(value("BITBUCKET"), "PROVIDER_G");
        assert_eq!(value("DOCKER"), "DOCKER");
        assert_eq!(value("ECR"), "ECR");
        assert_eq!(value("DEPLOYMENT_QUEUED"), "DEPLOYMENT_QUEUED");
        assert_eq!(property("scaleway_secret_key"), "provider_a_secret_key");
        assert_eq!(property("azure_tenant_id"), "provider_f_tenant_id");
        assert_eq!(property("dockerfile_path"), "dockerfile_path");
    }
}
