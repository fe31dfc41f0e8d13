use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// Every list of the API is an object with a `results` array.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct List<T> {
    /// The platform may leave an empty list's `results` out (`Vec::new`, not `default`: that
    /// would ask every item type to be `Default`).
    #[serde(default = "Vec::new")]
    pub results: Vec<T>,
}

impl<T> List<T> {
    pub fn new(results: Vec<T>) -> Self {
        Self { results }
    }
}

/// A reference to a parent record, as `{"id": "..."}`.
#[serde_with::skip_serializing_none]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Reference {
    pub id: Uuid,
}
