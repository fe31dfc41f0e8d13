use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// Every list of the API is an object with a `results` array.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct List<T> {
    /// The platform may leave an empty list's `results` out, and its document lets some lists
    /// hold `null` items: those are skipped.
    #[serde(
        default = "Vec::new",
        deserialize_with = "without_nulls",
        bound(deserialize = "T: Deserialize<'de>")
    )]
    pub results: Vec<T>,
}

fn without_nulls<'de, D, T>(deserializer: D) -> Result<Vec<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    let items = Vec::<Option<T>>::deserialize(deserializer)?;
    Ok(items.into_iter().flatten().collect())
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
