//! A part of a request written flat into it (`#[serde(flatten)]`), read strictly.
//!
//! serde hands a flattened part the fields its request did not take, buffered where no observer
//! of the whole request sees them: a field nobody knows would be dropped without a word, and a
//! wrong value inside the part reported without its name. A part read with `strictly` reads
//! itself from those fields observed, and tells a reader of requests that asks (`noticing`) the
//! fields it did not know and where a wrong value was.

use std::cell::RefCell;

use serde::de::{Deserialize, DeserializeOwned, Deserializer, Error};
use serde_json::{Map, Value};

/// What the flattened parts of one request noticed.
#[derive(Debug, Default, PartialEq)]
pub struct Noticed {
    /// Paths (`ports.0.name`, as serde_ignored writes them) of fields no part knew: the
    /// request's own unknown fields among them, since a part is handed every field its request
    /// did not take.
    pub unknown: Vec<String>,
    /// The path of a value of the wrong type inside a part, and what was wrong.
    pub wrong: Option<(String, String)>,
}

thread_local! {
    // Deserializing is synchronous: what `read` notices is on this thread while it runs.
    static NOTICED: RefCell<Option<Noticed>> = const { RefCell::new(None) };
}

/// `read`'s result, and what the flattened parts it read noticed.
pub fn noticing<R>(read: impl FnOnce() -> R) -> (R, Noticed) {
    let outer = NOTICED.with(|noticed| noticed.replace(Some(Noticed::default())));
    let result = read();
    let noticed = NOTICED
        .with(|noticed| noticed.replace(outer))
        .unwrap_or_default();
    (result, noticed)
}

/// The `deserialize_with` of a flattened part: read as is unless someone is `noticing`.
pub fn strictly<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: DeserializeOwned,
{
    if NOTICED.with(|noticed| noticed.borrow().is_none()) {
        return T::deserialize(deserializer);
    }
    let fields = Map::<String, Value>::deserialize(deserializer)?;
    let mut unknown = Vec::new();
    let mut notice = |path: serde_ignored::Path| unknown.push(path.to_string());
    let observed = serde_ignored::Deserializer::new(Value::Object(fields), &mut notice);
    let read = serde_path_to_error::deserialize(observed);
    NOTICED.with(|noticed| {
        let mut noticed = noticed.borrow_mut();
        let noticed = noticed.get_or_insert_with(Noticed::default);
        noticed.unknown.extend(unknown);
        if let Err(error) = &read {
            noticed.wrong = Some((error.path().to_string(), error.inner().to_string()));
        }
    });
    read.map_err(|error| D::Error::custom(error.into_inner()))
}
