//! How deep a JSON text nests, counted in one pass before a deserializer (which recurses once
//! per array or object) reads it.

/// The deepest nesting of arrays and objects in `text`; brackets inside strings do not count.
pub fn depth(text: &[u8]) -> usize {
    let (mut depth, mut deepest) = (0usize, 0usize);
    let mut in_string = false;
    let mut at = 0;
    while at < text.len() {
        match (in_string, text[at]) {
            (true, b'\\') => at += 1,
            (true, b'"') => in_string = false,
            (true, _) => {}
            (false, b'"') => in_string = true,
            (false, b'[' | b'{') => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            (false, b']' | b'}') => depth = depth.saturating_sub(1),
            _ => {}
        }
        at += 1;
    }
    deepest
}

#[cfg(test)]
mod tests {
    use super::depth;

    #[test]
    fn brackets_count_outside_strings_only() {
        assert_eq!(depth(b"{}"), 1);
        assert_eq!(depth(br#"{"a": [1, {"b": [[]]}]}"#), 5);
        assert_eq!(depth(br#"{"a": "[[[[{{{{", "b": "\"[[["}"#), 1);
        assert_eq!(depth(br#"["\\", [[]]]"#), 3);
        let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
        assert_eq!(depth(deep.as_bytes()), 10_000);
    }
}
