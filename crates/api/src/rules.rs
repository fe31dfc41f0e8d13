//! Field rules. Each returns `None` when the value keeps the rule, or the `FieldError` naming the
//! field and the rule. The console calls them before sending a form; the server calls them on
//! every request, so a rule is written once.

use crate::error::FieldError;

pub const NAME_MAX_CHARS: usize = 255;
pub const DESCRIPTION_MAX_CHARS: usize = 255;
/// A variable's value, a secret's, a terraform variable's: room for a certificate or a file.
pub const VALUE_MAX_BYTES: usize = 64 * 1024;
/// The longest string any request may carry, in any field: the server refuses a body holding a
/// longer one before reading it, naming the field. Fields with a meaning of their own have
/// tighter rules of their own.
pub const TEXT_MAX_BYTES: usize = VALUE_MAX_BYTES;
/// A cron expression: room for long lists of minutes and hours.
pub const CRON_MAX_CHARS: usize = 255;
pub const BUILD_MODES: &[&str] = &["DOCKER", "BUILDPACKS"];

/// Collects the broken rules of one request.
#[derive(Debug, Default)]
pub struct Violations(Vec<FieldError>);

impl Violations {
    pub fn check(&mut self, outcome: Option<FieldError>) {
        self.0.extend(outcome);
    }

    pub fn extend(&mut self, outcomes: impl IntoIterator<Item = FieldError>) {
        self.0.extend(outcomes);
    }

    /// Adds the violations of a part of the request, checked on its own.
    pub fn merge(&mut self, part: Violations) {
        self.0.extend(part.0);
    }

    pub fn into_result(self) -> Result<(), Vec<FieldError>> {
        if self.0.is_empty() {
            Ok(())
        } else {
            Err(self.0)
        }
    }
}

/// A name is required, not blank, and at most 255 characters.
pub fn name(field: &str, value: &str) -> Option<FieldError> {
    if value.trim().is_empty() {
        Some(FieldError::new(field, "is required"))
    } else if value.chars().count() > NAME_MAX_CHARS {
        Some(FieldError::new(
            field,
            format!("must be at most {NAME_MAX_CHARS} characters"),
        ))
    } else if value.chars().any(hidden) {
        Some(FieldError::new(
            field,
            "must not hold control characters, line breaks or text-direction marks",
        ))
    } else {
        None
    }
}

/// An environment's name goes into addresses and namespaces: letters, digits, hyphens and
/// underscores, starting with a letter (the platform compares names without case).
pub fn environment_name(field: &str, value: &str) -> Option<FieldError> {
    name(field, value).or_else(|| {
        let well_formed = value.starts_with(|c: char| c.is_ascii_alphabetic())
            && value
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        (!well_formed).then(|| {
            FieldError::new(
                field,
                "must start with a letter and hold only letters, digits, hyphens and underscores",
            )
        })
    })
}

/// A character that is not shown as itself and can make a name read as another: control
/// characters (NUL, line breaks, tabs...) and the marks that reorder text (U+202E...).
fn hidden(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{FEFF}')
}

/// A value is at most `VALUE_MAX_BYTES` long, and holds no control character but tabs and line
/// breaks: a NUL cuts the value short where a program reads it, an ESC rewrites the terminal
/// that prints it.
pub fn value(field: &str, value: Option<&str>) -> Option<FieldError> {
    let text = value.unwrap_or_default();
    let length = text.len();
    if length > VALUE_MAX_BYTES {
        return Some(FieldError::new(
            field,
            format!(
                "must be at most {} KiB (it has {} KiB)",
                VALUE_MAX_BYTES / 1024,
                length.div_ceil(1024)
            ),
        ));
    }
    control_characters(field, text)
}

/// 400 for a text holding a control character but tabs and line breaks.
fn control_characters(field: &str, text: &str) -> Option<FieldError> {
    let control = text
        .chars()
        .find(|c| c.is_control() && !matches!(c, '\t' | '\n' | '\r'))?;
    Some(FieldError::new(
        field,
        format!(
            "must not hold control characters but tabs and line breaks (it holds U+{:04X})",
            u32::from(control)
        ),
    ))
}

/// A description is optional, at most 255 characters, and holds no control character but tabs
/// and line breaks.
pub fn description(field: &str, value: Option<&str>) -> Option<FieldError> {
    let text = value.unwrap_or_default();
    let length = text.chars().count();
    if length > DESCRIPTION_MAX_CHARS {
        return Some(FieldError::new(
            field,
            format!("must be at most {DESCRIPTION_MAX_CHARS} characters (it has {length})"),
        ));
    }
    control_characters(field, text)
}

/// A text of at most `max` characters, on one line, without control characters: a path, a
/// command's argument, a word a setting takes.
pub fn line(field: &str, value: &str, max: usize) -> Option<FieldError> {
    if value.chars().count() > max {
        Some(FieldError::new(
            field,
            format!("must be at most {max} characters"),
        ))
    } else if value.chars().any(char::is_control) {
        Some(FieldError::new(
            field,
            "must be one line without control characters",
        ))
    } else {
        None
    }
}

/// Every string of a request's body (its keys too) at most `TEXT_MAX_BYTES` long: the fields
/// holding a longer one, each named by its path (`ports[0].name`).
pub fn texts_within_bounds(body: &serde_json::Value) -> Vec<FieldError> {
    fn walk(value: &serde_json::Value, path: &str, found: &mut Vec<FieldError>) {
        let too_long = |text: &str| text.len() > TEXT_MAX_BYTES;
        let named = |path: &str| if path.is_empty() { "body" } else { path }.to_string();
        let message = |length: usize| {
            format!(
                "must be at most {} KiB (it has {} KiB)",
                TEXT_MAX_BYTES / 1024,
                length.div_ceil(1024)
            )
        };
        match value {
            serde_json::Value::String(text) if too_long(text) => {
                found.push(FieldError::new(named(path), message(text.len())));
            }
            serde_json::Value::Array(items) => {
                for (index, item) in items.iter().enumerate() {
                    walk(item, &format!("{path}[{index}]"), found);
                }
            }
            serde_json::Value::Object(fields) => {
                for (key, item) in fields {
                    if too_long(key) {
                        found.push(FieldError::new(named(path), message(key.len())));
                        continue;
                    }
                    let inner = if path.is_empty() {
                        key.clone()
                    } else {
                        format!("{path}.{key}")
                    };
                    walk(item, &inner, found);
                }
            }
            _ => {}
        }
    }
    let mut found = Vec::new();
    walk(body, "", &mut found);
    found
}

/// Resources such as milli-CPU, MiB of memory or GiB of storage are whole numbers above zero.
pub fn positive(field: &str, value: i64) -> Option<FieldError> {
    (value <= 0).then(|| FieldError::new(field, "must be greater than 0"))
}

pub fn not_negative(field: &str, value: i64) -> Option<FieldError> {
    (value < 0).then(|| FieldError::new(field, "must be 0 or more"))
}

/// `low` may not exceed `high`; the error names the low field.
pub fn at_most(low_field: &str, low: i64, high_label: &str, high: i64) -> Option<FieldError> {
    (low > high)
        .then(|| FieldError::new(low_field, format!("must be at most {high_label} ({high})")))
}

/// A TCP port number: 1 to 65535.
pub fn port(field: &str, value: i64) -> Option<FieldError> {
    (!(1..=65535).contains(&value))
        .then(|| FieldError::new(field, "must be a port number from 1 to 65535"))
}

/// A service exposes an internal port once.
pub fn unique_ports(field: &str, ports: impl IntoIterator<Item = i64>) -> Option<FieldError> {
    let mut seen = std::collections::BTreeSet::new();
    ports
        .into_iter()
        .find(|port| !seen.insert(*port))
        .map(|port| {
            FieldError::new(
                field,
                format!("internal port {port} is listed more than once"),
            )
        })
}

/// The keys of a list of key/value pairs (`labels`, `annotations`): each required, none twice.
/// Errors name `list[index].key`.
pub fn keys<'a>(list: &str, keys: impl IntoIterator<Item = &'a str>) -> Vec<FieldError> {
    let mut seen = std::collections::BTreeSet::new();
    keys.into_iter()
        .enumerate()
        .filter_map(|(index, key)| {
            let field = format!("{list}[{index}].key");
            if key.trim().is_empty() {
                Some(FieldError::new(field, "is required"))
            } else if !seen.insert(key) {
                Some(FieldError::new(
                    field,
                    format!("{key} is listed more than once"),
                ))
            } else {
                None
            }
        })
        .collect()
}

/// An absolute http(s) address with a host, such as a webhook URL.
pub fn uri(field: &str, value: &str) -> Option<FieldError> {
    if value.trim().is_empty() {
        return Some(FieldError::new(field, "is required"));
    }
    let rest = value
        .trim()
        .strip_prefix("https://")
        .or_else(|| value.trim().strip_prefix("http://"));
    let host = rest.map(|rest| rest.split(['/', '?', '#']).next().unwrap_or_default());
    match host {
        Some(host) if !host.is_empty() && !host.contains(char::is_whitespace) => None,
        _ => Some(FieldError::new(
            field,
            "must be an absolute http:// or https:// address",
        )),
    }
}

/// A moment that must still be ahead, such as when a token expires.
pub fn in_the_future(
    field: &str,
    value: chrono::DateTime<chrono::Utc>,
    now: chrono::DateTime<chrono::Utc>,
) -> Option<FieldError> {
    (value <= now).then(|| FieldError::new(field, "must be in the future"))
}

/// A web origin, as a browser names the page that sends a message or frames another:
/// `https://portal.example.com` or `http://127.0.0.1:3000`, with no path, no trailing slash and no
/// wildcard, so that it is compared exactly.
pub fn origin(field: &str, value: &str) -> Option<FieldError> {
    let host = value
        .strip_prefix("https://")
        .or_else(|| value.strip_prefix("http://"));
    let well_formed = host.is_some_and(|host| {
        // An IPv6 address is in brackets and holds colons of its own.
        let port_at = match host.rfind(']') {
            Some(end) => host[end..].find(':').map(|at| end + at),
            None => host.rfind(':'),
        };
        let (name, port) = match port_at {
            Some(at) => (&host[..at], Some(&host[at + 1..])),
            None => (host, None),
        };
        !name.is_empty()
            && name.chars().all(|c| {
                c.is_ascii_lowercase()
                    || c.is_ascii_digit()
                    || matches!(c, '.' | '-' | '[' | ']' | ':')
            })
            && port.is_none_or(|port| port.parse::<u16>().is_ok_and(|port| port > 0))
    });
    (!well_formed).then(|| {
        FieldError::new(
            field,
            "must be an origin such as https://portal.example.com: a lowercase http:// or \
             https:// address with a host and an optional port, and no path",
        )
    })
}

/// A git repository is reached over https, http, ssh (`git@host:owner/name`), `file://`, or is an
/// absolute local path (the reference server reads local repositories).
pub fn git_url(field: &str, value: &str) -> Option<FieldError> {
    let value = value.trim();
    if value.is_empty() {
        return Some(FieldError::new(field, "is required"));
    }
    let accepted = ["https://", "http://", "ssh://", "git@", "file://", "/"];
    (!accepted.iter().any(|prefix| value.starts_with(prefix))).then(|| {
        FieldError::new(
            field,
            "must be an https://, http://, ssh://, git@ or file:// address, or an absolute path",
        )
    })
}

/// The longest path in a repository, branch or tag a request names.
pub const REPOSITORY_NAME_MAX_CHARS: usize = 255;

/// A path inside a repository (a root path, a Dockerfile's): one line of at most 255 characters,
/// with no `..` part nor backslash, so that it never leaves the repository, and not starting with
/// `:` (git reads such a path as a pattern with options).
pub fn repository_path(field: &str, value: &str) -> Option<FieldError> {
    let trimmed = value.trim();
    if trimmed.split('/').any(|part| part == "..") || trimmed.contains('\\') {
        return Some(FieldError::new(
            field,
            "must stay inside the repository (no ..)",
        ));
    }
    if trimmed.trim_start_matches('/').starts_with(':') {
        return Some(FieldError::new(field, "must not start with :"));
    }
    line(field, trimmed, REPOSITORY_NAME_MAX_CHARS)
}

/// A branch, tag or commit a repository is read at, as git names refs: at most 255 characters,
/// no white space, control character, `~ ^ : ? * [ \`, `..` or `@{`, not starting with `-`.
/// Git reads the others as expressions (`main^{/regex}` searches every commit's message).
pub fn git_revision(field: &str, value: &str) -> Option<FieldError> {
    let value = value.trim();
    let well_formed = value.chars().count() <= REPOSITORY_NAME_MAX_CHARS
        && !value.starts_with('-')
        && !value.contains("..")
        && !value.contains("@{")
        && !value
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || "~^:?*[\\".contains(c));
    (!well_formed).then(|| {
        FieldError::new(
            field,
            format!(
                "must be a branch, tag or commit name of at most {REPOSITORY_NAME_MAX_CHARS} \
                 characters, without spaces, ~ ^ : ? * [ \\, .. or @{{, not starting with -"
            ),
        )
    })
}

pub fn build_mode(field: &str, value: &str) -> Option<FieldError> {
    (!BUILD_MODES.contains(&value))
        .then(|| FieldError::new(field, format!("must be one of {}", BUILD_MODES.join(", "))))
}

/// An image name as registries know it: lowercase letters, digits and `._-/`.
pub fn image_name(field: &str, value: &str) -> Option<FieldError> {
    let valid = !value.is_empty()
        && value
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "._-/".contains(c))
        && !value.starts_with(['/', '.', '-']);
    (!valid).then(|| {
        FieldError::new(
            field,
            "must be lowercase letters, digits and . _ - /, e.g. library/nginx",
        )
    })
}

/// An image tag: 1 to 128 letters, digits and `._-`, not starting with `.` or `-`.
pub fn image_tag(field: &str, value: &str) -> Option<FieldError> {
    let valid = (1..=128).contains(&value.len())
        && value
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c))
        && !value.starts_with(['.', '-']);
    (!valid).then(|| {
        FieldError::new(
            field,
            "must be 1 to 128 letters, digits and . _ -, e.g. 1.27",
        )
    })
}

/// A cron expression of five fields (minute hour day-of-month month day-of-week), as croner
/// reads it (`crate::cron`).
pub fn cron(field: &str, value: &str) -> Option<FieldError> {
    if value.chars().count() > CRON_MAX_CHARS {
        return Some(FieldError::new(
            field,
            format!("must be at most {CRON_MAX_CHARS} characters"),
        ));
    }
    crate::cron::parse(value).err().map(|reason| {
        FieldError::new(
            field,
            format!(
                "must be a cron expression of five fields, e.g. 0 3 * * 1 (03:00 on Mondays): {reason}"
            ),
        )
    })
}

/// An IANA time zone: one of the IANA database where the server has it (`iana`); elsewhere
/// (the console, whose field offers the browser's zones) the shape of one, `UTC` or an area and a
/// location (`Europe/Paris`, `Etc/GMT+2`).
pub fn timezone(field: &str, value: &str) -> Option<FieldError> {
    #[cfg(feature = "iana")]
    let valid = value.parse::<chrono_tz::Tz>().is_ok();
    #[cfg(not(feature = "iana"))]
    let valid = {
        let part_ok = |part: &str| {
            part.chars().next().is_some_and(|c| c.is_ascii_uppercase())
                && part
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '+'))
        };
        let parts: Vec<&str> = value.split('/').collect();
        value == "UTC" || (parts.len() >= 2 && parts.len() <= 3 && parts.iter().all(|p| part_ok(p)))
    };
    (!valid).then(|| {
        FieldError::new(
            field,
            "must be a time zone of the IANA database, e.g. Europe/Paris or Etc/UTC",
        )
    })
}

/// A variable key is a shell variable name: letters, digits and `_`, not starting with a digit.
/// Keys are case sensitive.
pub fn variable_key(field: &str, value: &str) -> Option<FieldError> {
    let valid = value
        .chars()
        .next()
        .is_some_and(|first| first.is_ascii_alphabetic() || first == '_')
        && value.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && value.len() <= NAME_MAX_CHARS;
    (!valid).then(|| {
        FieldError::new(
            field,
            "must be letters, digits and _, not starting with a digit, e.g. DATABASE_URL",
        )
    })
}

/// A storage mount point is an absolute path.
pub fn mount_point(field: &str, value: &str) -> Option<FieldError> {
    (!value.starts_with('/')).then(|| FieldError::new(field, "must be an absolute path"))
}

/// A commit id is 7 to 40 hexadecimal characters (an abbreviated or full SHA-1).
pub fn git_commit_id(field: &str, value: &str) -> Option<FieldError> {
    let valid = (7..=40).contains(&value.len()) && value.chars().all(|c| c.is_ascii_hexdigit());
    (!valid).then(|| FieldError::new(field, "must be 7 to 40 hexadecimal characters"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_hold_no_control_characters_but_tabs_and_line_breaks() {
        assert_eq!(value("value", Some("line one\r\n\tline two")), None);
        for held in ["a\0b", "\u{1b}[2J", "bell\u{7}", "del\u{7f}"] {
            let refused = value("value", Some(held)).expect(held);
            assert_eq!(refused.field, "value");
            assert!(
                refused.message.contains("control characters"),
                "{refused:?}"
            );
        }
        assert!(value("value", Some("\0"))
            .unwrap()
            .message
            .contains("U+0000"));
    }

    #[test]
    fn every_text_of_a_body_is_bounded_and_named_by_its_path() {
        let long = "x".repeat(TEXT_MAX_BYTES + 1);
        let mut body = serde_json::json!({
            "name": "web",
            "ports": [{"name": "http"}, {"name": long}],
            "nested": {"deeper": [long]},
        });
        body.as_object_mut()
            .unwrap()
            .insert(long.clone(), serde_json::json!(1));
        let mut fields: Vec<String> = texts_within_bounds(&body)
            .into_iter()
            .map(|error| error.field)
            .collect();
        fields.sort();
        assert_eq!(fields, ["body", "nested.deeper[0]", "ports[1].name"]);
        let error = &texts_within_bounds(&serde_json::json!(long))[0];
        assert_eq!(error.message, "must be at most 64 KiB (it has 65 KiB)");
        let bounded = serde_json::json!({"value": "x".repeat(TEXT_MAX_BYTES)});
        assert!(texts_within_bounds(&bounded).is_empty());
    }

    #[test]
    fn descriptions_and_lines_hold_no_control_characters() {
        assert!(description("message", Some("before the\nmigration")).is_none());
        assert!(description("message", Some("a\0b")).is_some());
        assert!(line("path", "/health", 10).is_none());
        assert_eq!(
            line("path", "/x\r\nSet-Cookie: a", 100).unwrap().message,
            "must be one line without control characters"
        );
        assert!(line("path", "abcdef", 5).is_some());
        assert!(cron("s", &format!("0 {} * * *", "1,".repeat(100_000))).is_some());
    }

    #[test]
    fn names_hold_no_hidden_characters() {
        for name in [
            "a\0b",
            "line\nbreak",
            "tab\there",
            "evil\u{202E}gnp.exe",
            "zero\u{200B}width",
        ] {
            assert!(name_rule_refuses(name), "{name:?}");
        }
        for name in ["web", "Boutique — été", "数据库", "a-b_c.d"] {
            assert!(!name_rule_refuses(name), "{name:?}");
        }
    }

    fn name_rule_refuses(value: &str) -> bool {
        name("name", value).is_some()
    }

    #[test]
    fn an_origin_is_a_scheme_a_host_and_a_port_only() {
        for good in [
            "https://portal.example.com",
            "http://127.0.0.1:3000",
            "http://localhost:8080",
            "https://[::1]:8443",
            "https://[::1]",
        ] {
            assert_eq!(origin("origin", good), None, "{good}");
        }
        for bad in [
            "",
            "portal.example.com",
            "https://portal.example.com/",
            "https://portal.example.com/app",
            "https://*.example.com",
            "*",
            "https://Portal.example.com",
            "https://portal.example.com:",
            "https://portal.example.com:99999",
            "ftp://portal.example.com",
        ] {
            assert_eq!(origin("origin", bad).unwrap().field, "origin", "{bad}");
        }
    }

    #[test]
    fn name_is_required_and_bounded() {
        assert_eq!(name("name", "api"), None);
        assert_eq!(name("name", "  ").unwrap().message, "is required");
        assert!(name("name", &"x".repeat(255)).is_none());
        assert!(name("name", &"x".repeat(256)).is_some());
    }

    #[test]
    fn description_counts_characters_not_bytes() {
        assert_eq!(description("description", None), None);
        assert_eq!(description("description", Some(&"é".repeat(255))), None);
        let error = description("description", Some(&"a".repeat(256))).unwrap();
        assert_eq!(error.field, "description");
        assert_eq!(error.message, "must be at most 255 characters (it has 256)");
    }

    #[test]
    fn resources_are_positive() {
        assert!(positive("cpu", 1).is_none());
        assert!(positive("cpu", 0).is_some());
        assert!(positive("cpu", -5).is_some());
        assert!(not_negative("gpu", 0).is_none());
        assert!(not_negative("gpu", -1).is_some());
    }

    #[test]
    fn ports_are_in_range() {
        assert!(port("p", 1).is_none());
        assert!(port("p", 65535).is_none());
        assert!(port("p", 0).is_some());
        assert!(port("p", 65536).is_some());
        assert!(unique_ports("ports", [80, 443]).is_none());
        assert_eq!(
            unique_ports("ports", [80, 443, 80]).unwrap().message,
            "internal port 80 is listed more than once"
        );
    }

    #[test]
    fn cron_expressions_have_five_valid_fields() {
        for good in [
            "0 3 * * 1",
            "*/15 * * * *",
            "0 0 1,15 * *",
            "30 8-18/2 * 1-6 0-5",
        ] {
            assert!(cron("s", good).is_none(), "{good}");
        }
        for bad in [
            "",
            "* * * *",
            "60 * * * *",
            "0 24 * * *",
            "0 0 0 * *",
            "*/0 * * * *",
            "5-1 * * * *",
            "a * * * *",
        ] {
            assert!(cron("s", bad).is_some(), "{bad}");
        }
    }

    #[cfg(feature = "iana")]
    #[test]
    fn time_zones_are_those_of_the_iana_database() {
        for known in [
            "Europe/Paris",
            "Etc/UTC",
            "UTC",
            "America/Argentina/Buenos_Aires",
        ] {
            assert!(timezone("z", known).is_none(), "{known}");
        }
        for unknown in ["Europe/Narnia", "Mars/Olympus", "", "paris"] {
            assert!(timezone("z", unknown).is_some(), "{unknown}");
        }
    }

    #[test]
    fn images_are_named_and_tagged() {
        assert!(image_name("i", "library/nginx").is_none());
        assert!(image_name("i", "Nginx").is_some());
        assert!(image_name("i", "").is_some());
        assert!(image_tag("t", "1.27-alpine").is_none());
        assert!(image_tag("t", "").is_some());
        assert!(image_tag("t", "-x").is_some());
        assert!(image_tag("t", "a b").is_some());
    }

    #[test]
    fn uris_are_absolute_http_addresses() {
        assert!(uri("u", "https://hooks.example/x?y=1").is_none());
        assert!(uri("u", "http://127.0.0.1:9000").is_none());
        for wrong in [
            "",
            "hooks.example/x",
            "https://",
            "https:///x",
            "mailto:a@b",
            "https://a b",
        ] {
            assert!(uri("u", wrong).is_some(), "{wrong}");
        }
    }

    #[test]
    fn git_urls_and_commits() {
        for url in [
            "https://example.com/a/b.git",
            "git@example.com:a/b.git",
            "file:///tmp/repo",
            "/srv/repo",
        ] {
            assert!(git_url("url", url).is_none(), "{url}");
        }
        assert!(git_url("url", "").is_some());
        assert!(git_url("url", "example.com/repo").is_some());
        assert!(git_commit_id("c", "abc1234").is_none());
        assert!(git_commit_id("c", "abc12").is_some());
        assert!(git_commit_id("c", "zzzzzzz").is_some());
    }

    #[test]
    fn an_empty_address_is_required_rather_than_malformed() {
        assert_eq!(uri("target_url", " ").unwrap().message, "is required");
        assert_eq!(
            uri("target_url", "ftp://x").unwrap().message,
            "must be an absolute http:// or https:// address"
        );
        assert!(uri("target_url", "https://hooks.example.com/x").is_none());
    }

    #[test]
    fn min_instances_at_most_max() {
        assert!(at_most("min", 1, "the maximum", 2).is_none());
        assert_eq!(
            at_most("min_running_instances", 3, "the maximum instances", 2)
                .unwrap()
                .message,
            "must be at most the maximum instances (2)"
        );
    }
}
