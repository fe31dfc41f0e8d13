use serde::{Deserialize, Serialize};

/// The body of every error response (DESIGN §3).
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ErrorBody {
    pub status: u16,
    pub error: String,
    pub message: String,
    /// Present on validation errors (400): one entry per field that broke a rule.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fields: Vec<FieldError>,
}

/// One broken field rule: the field's path in the request body and a sentence naming the rule.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FieldError {
    pub field: String,
    pub message: String,
}

impl FieldError {
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            field: field.into(),
            message: message.into(),
        }
    }
}

/// The fields a check refused, in its order; none when it passed. What rule tests compare.
pub fn refused_fields(checked: Result<(), Vec<FieldError>>) -> Vec<String> {
    checked
        .err()
        .unwrap_or_default()
        .into_iter()
        .map(|error| error.field)
        .collect()
}

/// A wire string that is not one of an enumeration's values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownValue {
    pub kind: &'static str,
    pub value: String,
}

impl std::fmt::Display for UnknownValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?} is not a {} value", self.value, self.kind)
    }
}

impl std::error::Error for UnknownValue {}
