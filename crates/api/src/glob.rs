//! Name patterns a caller writes (a deployment rule's `wildcard`, a webhook's
//! `project_names_filter`): `*` stands for any run of characters, `?` for one, letters compare
//! without case. Matched by two pointers with one backtrack point (the last `*`), so a match takes
//! at most `pattern × name` steps and no stack, whatever the pattern: `*a*a*a…b` or a hundred
//! thousand `*` cannot make it run long or overflow.

use crate::error::FieldError;

/// The longest pattern a caller may store: as long as the names it is matched against.
pub const PATTERN_MAX_CHARS: usize = crate::rules::NAME_MAX_CHARS;

/// Whether `name` matches `pattern` (case ignored).
pub fn matches(pattern: &str, name: &str) -> bool {
    let pattern: Vec<char> = pattern.chars().flat_map(char::to_lowercase).collect();
    let name: Vec<char> = name.chars().flat_map(char::to_lowercase).collect();
    let (mut p, mut n) = (0, 0);
    // The last `*` seen, and the place in the name it was tried from.
    let mut backtrack: Option<(usize, usize)> = None;
    while n < name.len() {
        match pattern.get(p) {
            Some('*') => {
                backtrack = Some((p, n));
                p += 1;
            }
            Some(&c) if c == '?' || c == name[n] => {
                p += 1;
                n += 1;
            }
            _ => match backtrack {
                // The star takes one more character, and the rest is tried again after it.
                Some((star, from)) => {
                    backtrack = Some((star, from + 1));
                    p = star + 1;
                    n = from + 1;
                }
                None => return false,
            },
        }
    }
    pattern[p..].iter().all(|c| *c == '*')
}

/// A pattern is at most `PATTERN_MAX_CHARS` characters, without spaces or control characters.
pub fn pattern(field: &str, value: &str) -> Option<FieldError> {
    if value.chars().count() > PATTERN_MAX_CHARS {
        Some(FieldError::new(
            field,
            format!("must be at most {PATTERN_MAX_CHARS} characters"),
        ))
    } else if value.chars().any(|c| c.is_whitespace() || c.is_control()) {
        Some(FieldError::new(
            field,
            "must be a name pattern without spaces, e.g. feat-*",
        ))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stars_and_question_marks_match_as_globs() {
        assert!(matches("", ""));
        assert!(!matches("", "a"));
        assert!(matches("*", ""));
        assert!(matches("feat-*", "feat-login"));
        assert!(matches("FEAT-*", "feat-"));
        assert!(matches("pr-???", "pr-123"));
        assert!(!matches("pr-???", "pr-12"));
        assert!(!matches("feat-*", "hotfix-1"));
        assert!(matches("*-preview", "shop-preview"));
        assert!(matches("*a*b*c", "xaxxbxxc"));
        assert!(!matches("*a*b*c", "xaxxcxxb"));
        assert!(matches("a*?c", "abc"));
        assert!(!matches("a*?c", "ac"));
        assert!(matches("shop*", "Shop-EU"));
        assert!(matches("É*", "été"));
    }

    #[test]
    fn pathological_patterns_end_at_once() {
        // Exponential for a backtracking matcher (21 s at 40 characters), and a stack overflow
        // for one that recurses per character.
        let name = "a".repeat(40);
        assert!(!matches("*a*a*a*a*a*a*a*a*a*a*b", &name));
        let stars = format!("{}x", "*".repeat(100_000));
        assert!(!matches(&stars, &"y".repeat(255)));
        assert!(matches(&stars, "x"));
        let long = "a".repeat(100_000);
        assert!(matches(&format!("{}*", "a".repeat(99_999)), &long));
    }

    #[test]
    fn patterns_are_bounded_and_without_spaces() {
        assert!(pattern("wildcard", "feat-*").is_none());
        assert!(pattern("wildcard", "").is_none());
        assert!(pattern("wildcard", "feat *").is_some());
        assert!(pattern("wildcard", "a\0").is_some());
        let error = pattern("wildcard", &"*".repeat(256)).unwrap();
        assert_eq!(error.field, "wildcard");
        assert_eq!(error.message, "must be at most 255 characters");
    }
}
