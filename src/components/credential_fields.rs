//! The credential fields of a container registry or a helm repository: the ones its kind takes
//! (from `platform-api`), secret ones typed unseen, and their values as the request's `config`.

use std::collections::HashMap;

use leptos::prelude::*;
use platform_api::{FieldError, RegistryConfigRequest, REGISTRY_SECRET_FIELDS};

use super::form_field::TextField;

/// One value for each config field any kind takes; a form shows those of the kind chosen.
#[derive(Clone)]
pub struct CredentialValues(HashMap<&'static str, RwSignal<String>>);

impl CredentialValues {
    pub fn new(fields: impl IntoIterator<Item = &'static str>) -> Self {
        Self(
            fields
                .into_iter()
                .map(|field| (field, RwSignal::new(String::new())))
                .collect(),
        )
    }

    /// The request's `config`: the non-empty values of `fields`.
    pub fn request(&self, fields: &[&str]) -> RegistryConfigRequest {
        let values: serde_json::Map<String, serde_json::Value> = fields
            .iter()
            .filter_map(|field| {
                let value = self.value(field)?;
                Some((field.to_string(), serde_json::Value::String(value)))
            })
            .collect();
        serde_json::from_value(values.into()).unwrap_or_default()
    }

    /// The value typed in `field`, trimmed, when there is one.
    pub fn value(&self, field: &str) -> Option<String> {
        let value = self.0.get(field)?.get_untracked();
        let value = value.trim();
        (!value.is_empty()).then(|| value.to_string())
    }

    /// The signal holding `field`'s value, when the form has that field.
    pub fn signal(&self, field: &str) -> Option<RwSignal<String>> {
        self.0.get(field).copied()
    }

    /// Empties every value: credentials do not linger in a form once sent.
    pub fn clear(&self) {
        for value in self.0.values() {
            value.set(String::new());
        }
    }
}

/// A config field's request name (for its errors) and label.
fn field_name(field: &str) -> Option<(&'static str, &'static str)> {
    Some(match field {
        "region" => ("config.region", "Region"),
        "access_key_id" => ("config.access_key_id", "Access key id"),
        "secret_access_key" => ("config.secret_access_key", "Secret access key"),
        "role_arn" => ("config.role_arn", "Role ARN"),
        "provider_a_access_key" => ("config.provider_a_access_key", "Access key"),
        "provider_a_secret_key" => ("config.provider_a_secret_key", "Secret key"),
        "provider_a_project_id" => ("config.provider_a_project_id", "Project id"),
        "json_credentials" => ("config.json_credentials", "JSON credentials"),
        "username" => ("config.username", "Username"),
        "password" => ("config.password", "Password"),
        "provider_f_tenant_id" => ("config.provider_f_tenant_id", "Tenant id"),
        "provider_f_subscription_id" => ("config.provider_f_subscription_id", "Subscription id"),
        _ => return None,
    })
}

/// The fields `fields()` names, marked required when `required()` names them too.
#[component]
pub fn CredentialFields(
    values: CredentialValues,
    fields: Signal<&'static [&'static str]>,
    required: Signal<&'static [&'static str]>,
    errors: RwSignal<Vec<FieldError>>,
) -> impl IntoView {
    move || {
        let required = required.get();
        fields
            .get()
            .iter()
            .filter_map(|field| {
                let (name, label) = field_name(field)?;
                let value = *values.0.get(field)?;
                let secret = REGISTRY_SECRET_FIELDS.contains(field);
                Some(view! {
                    <TextField label name value errors required=required.contains(field)
                        input_type=if secret { "password" } else { "text" }/>
                })
            })
            .collect_view()
    }
}
