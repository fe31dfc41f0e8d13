//! Variables by the hundred: an import (the production document's `VariableImportRequest` and
//! `VariableImport`), applied whole or not at all, and the `.env` text variables are read from and
//! written to.

use serde::{Deserialize, Serialize};

use crate::error::FieldError;
use crate::rules::{self, Violations};
use crate::variable::VariableScope;

/// One variable of an import.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ImportedVariable {
    pub name: String,
    pub value: String,
    /// Where it is defined: the scope imported into, or one above it (its environment, its
    /// project).
    pub scope: VariableScope,
    pub is_secret: bool,
}

/// Body of `POST /{scope}/{id}/environmentVariable/import`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct VariableImportRequest {
    /// Whether a variable of the same name already defined there takes the imported value;
    /// otherwise it is left as it is.
    #[serde(default)]
    pub overwrite: bool,
    pub vars: Vec<ImportedVariable>,
}

impl VariableImportRequest {
    /// Every variable's rules, each broken one named by its place (`vars[12].name`); a name
    /// imported twice into one scope is refused.
    pub fn validate(&self) -> Result<(), Vec<FieldError>> {
        let mut violations = Violations::default();
        let mut seen = std::collections::HashSet::new();
        for (at, variable) in self.vars.iter().enumerate() {
            violations.check(rules::variable_key(
                &format!("vars[{at}].name"),
                &variable.name,
            ));
            violations.check(rules::value(
                &format!("vars[{at}].value"),
                Some(&variable.value),
            ));
            if variable.scope == VariableScope::BuiltIn {
                violations.check(Some(FieldError::new(
                    format!("vars[{at}].scope"),
                    "must not be BUILT_IN: the platform makes those",
                )));
            }
            if !seen.insert((variable.scope, variable.name.as_str())) {
                violations.check(Some(FieldError::new(
                    format!("vars[{at}].name"),
                    "is imported twice into the same scope",
                )));
            }
        }
        violations.into_result()
    }
}

/// One variable an import defined or changed; a secret's value is never given back.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ImportOutcome {
    pub name: String,
    pub value: Option<String>,
    pub scope: VariableScope,
    pub is_secret: bool,
}

/// The answer of an import: how many were asked for, and those defined or changed (a variable
/// already there and not overwritten is not among them).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct VariableImport {
    pub total_variables_to_import: i64,
    #[serde(default)]
    pub successful_imported_variables: Vec<ImportOutcome>,
}

/// `.env` text as `(line, name, value)`: `NAME=value` a line, blank lines and `#` comments
/// skipped, `export ` allowed before a name, a value in double quotes (with `\n`, `\"` and `\\`)
/// or single quotes (as written) unquoted. A line that is none of these is named (`line 12`).
pub fn read_dotenv(text: &str) -> Result<Vec<(usize, String, String)>, Vec<FieldError>> {
    let mut read = Vec::new();
    let mut problems = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let line = line.strip_prefix("export ").unwrap_or(line);
        let field = format!("line {number}");
        let Some((name, value)) = line.split_once('=') else {
            problems.push(FieldError::new(field, "must be NAME=value"));
            continue;
        };
        let name = name.trim();
        if let Some(problem) = rules::variable_key(&field, name) {
            problems.push(problem);
            continue;
        }
        match unquoted(value.trim()) {
            Some(value) => read.push((number, name.to_string(), value)),
            None => problems.push(FieldError::new(field, "has a quote that is not closed")),
        }
    }
    if problems.is_empty() {
        Ok(read)
    } else {
        Err(problems)
    }
}

fn unquoted(value: &str) -> Option<String> {
    if let Some(inner) = value.strip_prefix('"') {
        let inner = inner.strip_suffix('"')?;
        let mut out = String::new();
        let mut chars = inner.chars();
        while let Some(c) = chars.next() {
            match (c, c == '\\') {
                (_, true) => match chars.next()? {
                    'n' => out.push('\n'),
                    other => out.push(other),
                },
                (c, false) => out.push(c),
            }
        }
        return Some(out);
    }
    if let Some(inner) = value.strip_prefix('\'') {
        return inner.strip_suffix('\'').map(str::to_string);
    }
    // A value left bare ends at a comment.
    Some(
        value
            .split_once(" #")
            .map_or(value, |(value, _)| value)
            .trim_end()
            .to_string(),
    )
}

/// Variables as `.env` text, a line each, values quoted when they need to be, so that
/// `read_dotenv` reads them back as they are.
pub fn write_dotenv<'a>(variables: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    variables
        .into_iter()
        .map(|(name, value)| {
            let plain = value
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "_-./:@,+".contains(c));
            if plain {
                format!("{name}={value}\n")
            } else {
                let escaped = value
                    .replace('\\', "\\\\")
                    .replace('"', "\\\"")
                    .replace('\n', "\\n");
                format!("{name}=\"{escaped}\"\n")
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dotenv_text_reads_back_as_written() {
        let written = write_dotenv([
            ("PLAIN", "postgres://db:5432/app"),
            ("SPACED", "two words # not a comment"),
            ("QUOTED", "say \"hi\"\nand \\ bye"),
            ("EMPTY", ""),
        ]);
        let read = read_dotenv(&written).unwrap();
        let pairs: Vec<(&str, &str)> = read
            .iter()
            .map(|(_, name, value)| (name.as_str(), value.as_str()))
            .collect();
        assert_eq!(
            pairs,
            [
                ("PLAIN", "postgres://db:5432/app"),
                ("SPACED", "two words # not a comment"),
                ("QUOTED", "say \"hi\"\nand \\ bye"),
                ("EMPTY", ""),
            ]
        );
    }

    #[test]
    fn comments_export_and_quotes_are_read_and_bad_lines_named() {
        let text =
            "# a comment\n\nexport A=1\nB='it''s' \nC=bare # comment\nnot a line\n9X=1\nD=\"open\n";
        let problems: Vec<String> = read_dotenv(text)
            .unwrap_err()
            .into_iter()
            .map(|problem| problem.field)
            .collect();
        assert_eq!(problems, ["line 6", "line 7", "line 8"]);
        let good = read_dotenv("export A=1\nC=bare # comment\nE='x=y'").unwrap();
        assert_eq!(good[0], (1, "A".into(), "1".into()));
        assert_eq!(good[1], (2, "C".into(), "bare".into()));
        assert_eq!(good[2], (3, "E".into(), "x=y".into()));
    }

    #[test]
    fn an_import_names_each_bad_variable_by_its_place() {
        let variable = |name: &str| ImportedVariable {
            name: name.into(),
            value: "v".into(),
            scope: VariableScope::Application,
            is_secret: false,
        };
        let request = VariableImportRequest {
            overwrite: false,
            vars: vec![variable("A"), variable("1B"), variable("A")],
        };
        let fields: Vec<String> = request
            .validate()
            .unwrap_err()
            .into_iter()
            .map(|problem| problem.field)
            .collect();
        assert_eq!(fields, ["vars[1].name", "vars[2].name"]);
    }
}
