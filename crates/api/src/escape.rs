//! Values written into another language's text, one function per language: whatever a value
//! holds (quotes, backslashes, line breaks, NUL, a template's `${`), the text reads back as that
//! value and never as code of its own. Each is tested by reading its output back with a real
//! parser of the language (the server's tests, with hcl-rs and serde_yaml).

/// `text` as an HCL quoted string: quotes, backslashes, line breaks and control characters
/// escaped, and the template markers `${` and `%{` written `$${` and `%%{`, which HCL reads as
/// the markers' text, wherever they stand (after a `$` or a `%` too).
pub fn hcl_string(text: &str) -> String {
    let mut written = String::with_capacity(text.len() + 2);
    written.push('"');
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => written.push_str("\\\""),
            '\\' => written.push_str("\\\\"),
            '\n' => written.push_str("\\n"),
            '\r' => written.push_str("\\r"),
            '\t' => written.push_str("\\t"),
            '$' | '%' if chars.peek() == Some(&'{') => {
                written.push(c);
                written.push(c);
            }
            c if c.is_control() => written.push_str(&format!("\\u{:04X}", u32::from(c))),
            c => written.push(c),
        }
    }
    written.push('"');
    written
}

/// `text` as a YAML double-quoted scalar: quotes, backslashes and every control character
/// escaped, so that it stays on its line and holds no structure of its own.
pub fn yaml_string(text: &str) -> String {
    let mut written = String::with_capacity(text.len() + 2);
    written.push('"');
    for c in text.chars() {
        match c {
            '"' => written.push_str("\\\""),
            '\\' => written.push_str("\\\\"),
            '\n' => written.push_str("\\n"),
            '\t' => written.push_str("\\t"),
            // Line and paragraph separators end a line for YAML too; U+FFFE and U+FFFF are not
            // characters a YAML stream may hold.
            c if c.is_control()
                || matches!(
                    c,
                    '\u{2028}' | '\u{2029}' | '\u{85}' | '\u{FFFE}' | '\u{FFFF}'
                ) =>
            {
                written.push_str(&format!("\\u{:04X}", u32::from(c)))
            }
            c => written.push(c),
        }
    }
    written.push('"');
    written
}

/// `text` as one line of a log: line breaks and other control characters shown as escapes
/// (`\n`, `\u{1b}`), so that a value cannot end its line, start a forged one or rewrite the
/// terminal that prints it.
pub fn log_line(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut written = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' => written.push_str("\\n"),
            '\r' => written.push_str("\\r"),
            '\t' => written.push_str("\\t"),
            c if c.is_control() => written.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
            c => written.push(c),
        }
    }
    std::borrow::Cow::Owned(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hcl_markers_are_doubled_wherever_they_stand() {
        assert_eq!(hcl_string("plain"), "\"plain\"");
        assert_eq!(
            hcl_string("${x}%${upper(path.module)}"),
            "\"$${x}%$${upper(path.module)}\""
        );
        assert_eq!(hcl_string("$${a}%%{b}"), "\"$$${a}%%%{b}\"");
        assert_eq!(hcl_string("a\"b\\c\nd\0"), "\"a\\\"b\\\\c\\nd\\u0000\"");
    }

    #[test]
    fn a_log_line_stays_one_line() {
        assert_eq!(log_line("deployed v1"), "deployed v1");
        assert_eq!(
            log_line("FROM a\nRUN \u{1b}[2J\0"),
            "FROM a\\nRUN \\u{1b}[2J\\u{0}"
        );
        assert!(!log_line("a\r\nb\u{85}c").chars().any(char::is_control));
    }

    #[test]
    fn a_yaml_string_stays_on_its_line() {
        assert_eq!(
            yaml_string("prod: \"eu\"\n- x"),
            "\"prod: \\\"eu\\\"\\n- x\""
        );
        assert!(!yaml_string("a\u{2028}b\rc").contains(['\u{2028}', '\r']));
    }

    /// Every text of up to four pieces of YAML's structure (quotes, colons, dashes, comments,
    /// anchors, line breaks, NUL): each reads back, with serde_yaml, as itself.
    #[cfg(feature = "kubeconfig-check")]
    #[test]
    fn every_yaml_string_reads_back_as_itself() {
        const ALPHABET: [&str; 12] = [
            "\"", "'", ":", "- ", "#", "&a", "*a", "\n", "\\", "\0", "\u{2028}", "\u{FFFE}",
        ];
        let mut texts = vec![String::new()];
        let mut last = vec![String::new()];
        for _ in 0..4 {
            last = last
                .iter()
                .flat_map(|text| ALPHABET.iter().map(move |piece| format!("{text}{piece}")))
                .collect();
            texts.extend(last.iter().cloned());
        }
        for text in texts {
            let written = format!("name: {}\nother: 1\n", yaml_string(&text));
            let read: std::collections::BTreeMap<String, serde_yaml::Value> =
                serde_yaml::from_str(&written)
                    .unwrap_or_else(|error| panic!("{written:?}: {error}"));
            assert_eq!(read["name"].as_str(), Some(text.as_str()), "{written:?}");
            assert_eq!(read.len(), 2, "{written:?}");
        }
    }
}
