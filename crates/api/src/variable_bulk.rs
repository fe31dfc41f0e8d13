//! Many variables of one parent changed at once (ours: the production document has no such
//! route): deleted, turned into secrets, set; and the "edit as text" mode, whose save is the
//! replacement of the parent's plain variables by the lines of a `.env` text.

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::error::FieldError;
use crate::rules::{self, Violations};

/// A plain variable set on the parent: the one `id` names (its value replaced), or a new one
/// (no `id`) whose key must not be defined there yet. So a save never duplicates a key, and never
/// brings back a variable deleted since the text was read.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct VariableSet {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<Uuid>,
    pub key: String,
    pub value: String,
}

/// Body of `POST /{scope}/{id}/environmentVariable/bulk`: applied whole or not at all.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct VariableBulkRequest {
    /// Variables or secrets defined on the parent, deleted.
    #[serde(default)]
    pub delete: Vec<Uuid>,
    /// Plain variables defined on the parent, made secrets (their value kept, sealed).
    #[serde(default)]
    pub to_secret: Vec<Uuid>,
    #[serde(default)]
    pub set: Vec<VariableSet>,
}

/// The answer of a bulk change: how many of each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct VariableBulk {
    pub deleted: i64,
    pub moved_to_secret: i64,
    pub created: i64,
    pub updated: i64,
}

impl VariableBulk {
    /// How many variables it changed in all.
    pub fn total(&self) -> usize {
        (self.deleted + self.moved_to_secret + self.created + self.updated) as usize
    }
}

impl VariableBulkRequest {
    /// Each rule broken, named by its place (`set[3].key`): a variable named twice, a key set
    /// twice, a key or value the rules refuse, nothing to do.
    pub fn validate(&self) -> Result<(), Vec<FieldError>> {
        let mut violations = Violations::default();
        if self.delete.is_empty() && self.to_secret.is_empty() && self.set.is_empty() {
            violations.check(Some(FieldError::new("set", "nothing to change")));
        }
        let mut named = HashSet::new();
        let ids = self
            .delete
            .iter()
            .enumerate()
            .map(|(at, id)| (format!("delete[{at}]"), *id))
            .chain(
                self.to_secret
                    .iter()
                    .enumerate()
                    .map(|(at, id)| (format!("to_secret[{at}]"), *id)),
            )
            .chain(
                self.set
                    .iter()
                    .enumerate()
                    .filter_map(|(at, set)| Some((format!("set[{at}].id"), set.id?))),
            );
        for (field, id) in ids {
            if !named.insert(id) {
                violations.check(Some(FieldError::new(
                    field,
                    "names a variable this request already changes",
                )));
            }
        }
        let mut keys = HashSet::new();
        for (at, set) in self.set.iter().enumerate() {
            violations.check(rules::variable_key(&format!("set[{at}].key"), &set.key));
            violations.check(rules::value(&format!("set[{at}].value"), Some(&set.value)));
            if !keys.insert(set.key.as_str()) {
                violations.check(Some(FieldError::new(
                    format!("set[{at}].key"),
                    "is set twice",
                )));
            }
        }
        violations.into_result()
    }
}

/// A plain variable defined on the parent, as the text mode reads it: id, key, value.
pub type PlainVariable = (Uuid, String, String);

/// What a save of the text does to one key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextChange {
    pub key: String,
    pub before: Option<String>,
    pub after: Option<String>,
}

impl TextChange {
    pub fn outcome(&self) -> &'static str {
        match (&self.before, &self.after) {
            (None, _) => "added",
            (_, None) => "removed",
            _ => "changed",
        }
    }
}

/// The replacement of the parent's plain variables (`current`) by the lines of a text: the
/// request that makes it and what it changes, key by key (the keys it leaves as they are left
/// out). A key on two lines is refused, naming the second.
pub fn replacement(
    current: &[PlainVariable],
    lines: &[(usize, String, String)],
) -> Result<(VariableBulkRequest, Vec<TextChange>), Vec<FieldError>> {
    let mut first_line: HashMap<&str, usize> = HashMap::new();
    let mut problems = Vec::new();
    for (line, key, _) in lines {
        if let Some(first) = first_line.insert(key, *line) {
            problems.push(FieldError::new(
                format!("line {line}"),
                format!("sets {key} again (line {first} sets it first)"),
            ));
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let by_key: HashMap<&str, &PlainVariable> = current
        .iter()
        .map(|variable| (variable.1.as_str(), variable))
        .collect();
    let mut request = VariableBulkRequest::default();
    let mut changes = Vec::new();
    for (_, key, value) in lines {
        match by_key.get(key.as_str()) {
            Some((_, _, before)) if before == value => {}
            Some((id, _, before)) => {
                request.set.push(VariableSet {
                    id: Some(*id),
                    key: key.clone(),
                    value: value.clone(),
                });
                changes.push(TextChange {
                    key: key.clone(),
                    before: Some(before.clone()),
                    after: Some(value.clone()),
                });
            }
            None => {
                request.set.push(VariableSet {
                    id: None,
                    key: key.clone(),
                    value: value.clone(),
                });
                changes.push(TextChange {
                    key: key.clone(),
                    before: None,
                    after: Some(value.clone()),
                });
            }
        }
    }
    for (id, key, before) in current {
        if !first_line.contains_key(key.as_str()) {
            request.delete.push(*id);
            changes.push(TextChange {
                key: key.clone(),
                before: Some(before.clone()),
                after: None,
            });
        }
    }
    Ok((request, changes))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(key: &str, value: &str) -> PlainVariable {
        (Uuid::new_v4(), key.to_string(), value.to_string())
    }

    fn line(at: usize, key: &str, value: &str) -> (usize, String, String) {
        (at, key.to_string(), value.to_string())
    }

    #[test]
    fn a_text_replaces_the_plain_variables_key_by_key() {
        let current = [plain("KEEP", "1"), plain("CHANGE", "a"), plain("GONE", "x")];
        let lines = [
            line(1, "KEEP", "1"),
            line(2, "CHANGE", "b"),
            line(3, "NEW", "n"),
        ];
        let (request, changes) = replacement(&current, &lines).unwrap();
        let outcomes: Vec<(&str, &str)> = changes
            .iter()
            .map(|change| (change.key.as_str(), change.outcome()))
            .collect();
        assert_eq!(
            outcomes,
            [("CHANGE", "changed"), ("NEW", "added"), ("GONE", "removed")]
        );
        assert_eq!(request.delete, [current[2].0]);
        assert_eq!(request.set[0].id, Some(current[1].0));
        assert_eq!(request.set[1].id, None);
        assert!(request.validate().is_ok());
    }

    #[test]
    fn a_key_on_two_lines_is_refused() {
        let lines = [line(1, "A", "1"), line(4, "A", "2")];
        let problems = replacement(&[], &lines).unwrap_err();
        assert_eq!(problems[0].field, "line 4");
        assert!(problems[0].message.contains("line 1"));
    }

    #[test]
    fn a_request_names_each_broken_rule() {
        let id = Uuid::new_v4();
        let request = VariableBulkRequest {
            delete: vec![id],
            to_secret: vec![id],
            set: vec![
                VariableSet {
                    id: None,
                    key: "1BAD".into(),
                    value: "v".into(),
                },
                VariableSet {
                    id: None,
                    key: "OK".into(),
                    value: "v".into(),
                },
                VariableSet {
                    id: None,
                    key: "OK".into(),
                    value: "w".into(),
                },
            ],
        };
        let fields: Vec<String> = request
            .validate()
            .unwrap_err()
            .into_iter()
            .map(|problem| problem.field)
            .collect();
        assert_eq!(fields, ["to_secret[0]", "set[0].key", "set[2].key"]);
        assert!(VariableBulkRequest::default().validate().is_err());
    }
}
