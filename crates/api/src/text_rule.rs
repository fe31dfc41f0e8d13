//! What a text setting may hold (`advanced_settings`): every one is bounded and on its own lines,
//! and the settings a program reads (source ranges, status codes, response headers, an image
//! name, a Kubernetes name) are of that program's form, so that nothing a caller writes reaches a
//! proxy's configuration, a header or a shell as something else.

use std::net::IpAddr;

/// One line of free text: room for a list of origins or headers.
pub const LINE_MAX_CHARS: usize = 1024;
/// A text of several lines, such as a command's argument.
pub const LINES_MAX_CHARS: usize = 4096;
/// The most items a list or a set of names holds.
pub const ITEMS_MAX: usize = 100;
/// The most response headers a service adds, and the longest text that writes them.
pub const HEADERS_MAX: usize = 50;
pub const HEADERS_MAX_CHARS: usize = 16 * 1024;

/// The form of a text setting's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextRule {
    /// One line without control characters, at most `LINE_MAX_CHARS`.
    Line,
    /// At most `LINES_MAX_CHARS`, with tabs and line breaks but no other control character.
    Lines,
    /// One of these words (the document gives no enumeration, the program reading it does).
    Word(&'static [&'static str]),
    /// Some of these words, separated by commas.
    Words(&'static [&'static str]),
    /// Source ranges separated by commas: CIDRs (`10.0.0.0/24`) or addresses (`172.10.0.1`).
    Cidrs,
    /// One source range, as a list's item.
    Cidr,
    /// HTTP status codes, 100 to 599, separated by commas.
    StatusCodes,
    /// A JSON object of response header names and values (`{"X-Frame-Options":"DENY"}`).
    Headers,
    /// The name of an environment variable, or empty.
    VariableName,
    /// A Kubernetes object's name (lowercase letters, digits, `-` and `.`), or empty.
    KubernetesName,
    /// The image of EKS worker nodes: a family (`AmazonLinux2023`), an AMI id or name pattern,
    /// optionally after its base family (`al2023:ami-0abc…`).
    Ami,
}

impl TextRule {
    /// The form as a person reads it, after "must be".
    pub fn label(self) -> String {
        match self {
            TextRule::Line => format!("text on one line, at most {LINE_MAX_CHARS} characters"),
            TextRule::Lines => format!("text of at most {LINES_MAX_CHARS} characters"),
            TextRule::Word(words) => format!("one of {}", words.join(", ")),
            TextRule::Words(words) => format!("some of {} separated by commas", words.join(", ")),
            TextRule::Cidrs => {
                "source ranges separated by commas, e.g. 10.0.0.0/24,172.10.0.1".to_string()
            }
            TextRule::Cidr => "a source range, e.g. 10.0.0.0/24 or 172.10.0.1".to_string(),
            TextRule::StatusCodes => {
                "HTTP status codes from 100 to 599 separated by commas, e.g. 502,503".to_string()
            }
            TextRule::Headers => {
                "a JSON object of header names and values, e.g. {\"X-Frame-Options\":\"DENY\"}"
                    .to_string()
            }
            TextRule::VariableName => {
                "an environment variable's name (letters, digits and _), or empty".to_string()
            }
            TextRule::KubernetesName => {
                "a Kubernetes name (lowercase letters, digits, - and .), or empty".to_string()
            }
            TextRule::Ami => "AmazonLinux2, AmazonLinux2023, Bottlerocket, or an AMI id or name \
                 (ami-0abc…, my-ami-*), optionally after al2:, al2023: or bottlerocket:"
                .to_string(),
        }
    }

    /// Whether `text` is of this form.
    pub fn holds(self, text: &str) -> bool {
        let within = |max: usize| text.chars().count() <= max;
        let one_line = within(LINE_MAX_CHARS) && !text.chars().any(char::is_control);
        let items = || text.split(',').map(str::trim);
        match self {
            TextRule::Line => one_line,
            TextRule::Lines => {
                within(LINES_MAX_CHARS)
                    && !text
                        .chars()
                        .any(|c| c.is_control() && !matches!(c, '\t' | '\n' | '\r'))
            }
            TextRule::Word(words) => words.contains(&text),
            TextRule::Words(words) => {
                one_line && items().count() <= ITEMS_MAX && items().all(|w| words.contains(&w))
            }
            TextRule::Cidrs => {
                one_line
                    && (text.trim().is_empty()
                        || (items().count() <= ITEMS_MAX && items().all(source_range)))
            }
            TextRule::StatusCodes => {
                one_line
                    && items().count() <= ITEMS_MAX
                    && items().all(|code| {
                        code.len() == 3
                            && code.parse::<u16>().is_ok_and(|c| (100..=599).contains(&c))
                    })
            }
            TextRule::Headers => within(HEADERS_MAX_CHARS) && response_headers(text),
            TextRule::Cidr => source_range(text),
            TextRule::VariableName => {
                text.is_empty() || crate::rules::variable_key("", text).is_none()
            }
            TextRule::KubernetesName => text.is_empty() || kubernetes_name(text),
            TextRule::Ami => ami(text),
        }
    }
}

/// `10.0.0.0/24`, `172.10.0.1`, `2001:db8::/32`: an address, and a prefix length within its size.
pub fn source_range(text: &str) -> bool {
    let (address, prefix) = match text.split_once('/') {
        Some((address, prefix)) => (address, Some(prefix)),
        None => (text, None),
    };
    let Ok(address) = address.parse::<IpAddr>() else {
        return false;
    };
    let bits = if address.is_ipv4() { 32 } else { 128 };
    prefix.is_none_or(|prefix| {
        prefix.len() <= 3 && prefix.parse::<u8>().is_ok_and(|length| length <= bits)
    })
}

/// A JSON object of at most `HEADERS_MAX` headers: each name a header's token (RFC 9110 §5.6.2),
/// each value a string of at most 1,024 characters without control characters (a line break
/// would start another header).
fn response_headers(text: &str) -> bool {
    let Ok(serde_json::Value::Object(headers)) = serde_json::from_str(text) else {
        return false;
    };
    let token = |name: &str| {
        !name.is_empty()
            && name.len() <= 256
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c))
    };
    headers.len() <= HEADERS_MAX
        && headers.iter().all(|(name, value)| {
            token(name)
                && value.as_str().is_some_and(|value| {
                    value.chars().count() <= LINE_MAX_CHARS && !value.chars().any(char::is_control)
                })
        })
}

/// A DNS-1123 subdomain: at most 253 lowercase letters, digits, `-` and `.`, starting and ending
/// with a letter or digit.
fn kubernetes_name(text: &str) -> bool {
    let alphanumeric = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit();
    text.len() <= 253
        && text.starts_with(alphanumeric)
        && text.ends_with(alphanumeric)
        && text
            .chars()
            .all(|c| alphanumeric(c) || c == '-' || c == '.')
}

/// An EKS worker node image, as the document lists the forms.
fn ami(text: &str) -> bool {
    if matches!(text, "AmazonLinux2" | "AmazonLinux2023" | "Bottlerocket") {
        return true;
    }
    let image = ["al2:", "al2023:", "bottlerocket:"]
        .iter()
        .find_map(|family| text.strip_prefix(family))
        .unwrap_or(text);
    // An AMI's name: 3 to 128 letters, digits and ()[]./-'@_, and * in a pattern.
    (3..=128).contains(&image.len())
        && image
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "()[]./-'@_*".contains(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn source_ranges_are_addresses_with_a_prefix_of_their_size() {
        for good in [
            "10.0.0.0/24",
            "172.10.0.1",
            "0.0.0.0/0",
            "2001:db8::/32",
            "::1",
        ] {
            assert!(source_range(good), "{good}");
        }
        for bad in [
            "not-a-cidr",
            "10.0.0.0/33",
            "10.0.0/8",
            "::/129",
            "10.0.0.0/",
            "",
        ] {
            assert!(!source_range(bad), "{bad}");
        }
        assert!(TextRule::Cidrs.holds("10.0.0.0/24, 172.10.0.1"));
        assert!(TextRule::Cidrs.holds(""));
        assert!(!TextRule::Cidrs.holds("10.0.0.0/24,not-a-cidr"));
    }

    #[test]
    fn status_codes_are_three_digits_from_100_to_599() {
        assert!(TextRule::StatusCodes.holds("502,503, 504"));
        for bad in ["999,abc,-1", "99", "600", "0502", ""] {
            assert!(!TextRule::StatusCodes.holds(bad), "{bad}");
        }
    }

    #[test]
    fn response_headers_cannot_start_another_header() {
        let rule = TextRule::Headers;
        assert!(rule.holds(r#"{"X-Frame-Options":"DENY ","X-Content-Type-Options":"nosniff"}"#));
        assert!(rule.holds("{}"));
        for bad in [
            r#"{"X-A":"a\r\nSet-Cookie: b=1"}"#,
            r#"{"X-A":"a\u0000"}"#,
            r#"{"Bad Name":"x"}"#,
            r#"{"X-A":1}"#,
            "not json",
            "[]",
        ] {
            assert!(!rule.holds(bad), "{bad}");
        }
        let long = format!(r#"{{"X-A":"{}"}}"#, "a".repeat(900_000));
        assert!(!rule.holds(&long));
    }

    #[test]
    fn an_ami_is_a_family_or_an_image_name() {
        for good in [
            "AmazonLinux2023",
            "Bottlerocket",
            "ami-0abcdef1234567890",
            "my-custom-ami-*",
            "al2023:ami-0abc123",
        ] {
            assert!(TextRule::Ami.holds(good), "{good}");
        }
        for bad in ["; rm -rf /", "ami 1", "$(reboot)", "", "al2:"] {
            assert!(!TextRule::Ami.holds(bad), "{bad}");
        }
    }

    #[test]
    fn words_names_and_lines() {
        let policy = TextRule::Word(&["Allow", "Forbid", "Replace"]);
        assert!(policy.holds("Forbid"));
        assert!(!policy.holds("Whatever"));
        let triggers = TextRule::Words(&["reset", "connect-failure"]);
        assert!(triggers.holds("reset, connect-failure"));
        assert!(!triggers.holds("reset,explode"));
        assert!(TextRule::KubernetesName.holds("fast-ssd.v1"));
        assert!(!TextRule::KubernetesName.holds("Fast SSD"));
        assert!(TextRule::VariableName.holds("BASIC_AUTH"));
        assert!(!TextRule::VariableName.holds("1X"));
        assert!(TextRule::Line.holds("GET, PUT"));
        assert!(!TextRule::Line.holds("a\nb"));
        assert!(TextRule::Lines.holds("echo a\necho b"));
        assert!(!TextRule::Lines.holds("a\0"));
    }
}
