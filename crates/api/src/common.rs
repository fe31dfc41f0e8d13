use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::error::FieldError;
use crate::history::PAGE_MAX;
use crate::rules::Violations;

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
    /// Of a list asked for by pages (`PageQuery`): this page's number and size. A list without
    /// them is whole.
    pub page: Option<i64>,
    pub page_size: Option<i64>,
}

/// Read item by item into the list (not into a list of options copied again): this is compiled
/// once per record type, and the console carries each one.
fn without_nulls<'de, D, T>(deserializer: D) -> Result<Vec<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    struct Items<T>(std::marker::PhantomData<T>);

    impl<'de, T: Deserialize<'de>> serde::de::Visitor<'de> for Items<T> {
        type Value = Vec<T>;

        fn expecting(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
            formatter.write_str("a list")
        }

        fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
            let mut items = Vec::new();
            while let Some(item) = seq.next_element::<Option<T>>()? {
                items.extend(item);
            }
            Ok(items)
        }
    }

    deserializer.deserialize_seq(Items(std::marker::PhantomData))
}

impl<T> List<T> {
    pub fn new(results: Vec<T>) -> Self {
        Self {
            results,
            page: None,
            page_size: None,
        }
    }

    /// `results`, the list's page `query` asked for, or the whole list when it asked for none.
    pub fn paged(results: Vec<T>, query: PageQuery) -> Self {
        Self {
            results,
            page: query.page_size.map(|_| query.page.unwrap_or(1)),
            page_size: query.page_size,
        }
    }

    /// Whether more may follow this list: a page as full as its size.
    pub fn is_full_page(&self) -> bool {
        self.page_size
            .is_some_and(|size| self.results.len() as i64 >= size)
    }
}

/// Query of a list the production API does not page: without `pageSize` the whole list, as
/// there; with it, `pageSize` from 1 to the list's most and `page` from 1 to `PAGE_MAX`.
#[serde_with::skip_serializing_none]
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PageQuery {
    #[serde(rename = "pageSize", default)]
    pub page_size: Option<i64>,
    #[serde(default)]
    pub page: Option<i64>,
}

impl PageQuery {
    pub fn validate(&self, page_size_max: i64) -> Result<(), Vec<FieldError>> {
        let mut violations = Violations::default();
        if let Some(size) = self.page_size {
            if !(1..=page_size_max).contains(&size) {
                violations.check(Some(FieldError::new(
                    "pageSize",
                    format!("must be from 1 to {page_size_max}"),
                )));
            }
        }
        if let Some(page) = self.page {
            if !(1..=PAGE_MAX).contains(&page) {
                violations.check(Some(FieldError::new(
                    "page",
                    format!("must be from 1 to {PAGE_MAX}"),
                )));
            }
        }
        violations.into_result()
    }

    /// The rows to read, as SQL's `LIMIT` and `OFFSET`: every row (`-1`) unless `pageSize` is given.
    pub fn limit_and_offset(&self) -> (i64, i64) {
        match self.page_size {
            Some(size) => (size, (self.page.unwrap_or(1) - 1) * size),
            None => (-1, 0),
        }
    }
}

/// A reference to a parent record, as `{"id": "..."}`.
#[serde_with::skip_serializing_none]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Reference {
    pub id: Uuid,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lists_null_items_are_skipped_and_a_missing_list_is_empty() {
        let list: List<String> =
            serde_json::from_str(r#"{"results": ["a", null, "b", null]}"#).unwrap();
        assert_eq!(list.results, ["a", "b"]);
        let list: List<String> = serde_json::from_str("{}").unwrap();
        assert!(list.results.is_empty());
        let wrong = serde_json::from_str::<List<String>>(r#"{"results": "a"}"#).unwrap_err();
        assert!(wrong.to_string().contains("a list"), "{wrong}");
    }
}
