//! How deep HCL's parser may recurse on a text, counted in one pass before it runs. The parser
//! (hcl-edit's) recurses once per bracket, per template and interpolation, per nested block and
//! template directive, and once per operator of a chain (`a + b + c` is parsed right to left),
//! so the count is the sum, over every construct open at a point, of one plus the operators met
//! in it since its last separator. A separator (`,`, a newline where it ends an expression, an
//! assignment's `=`) ends an expression: what came before it is no longer on the parser's stack.
//! The count errs high, never low: an operator in a comment-free expression always counts, a
//! `:` never separates (a conditional's branches nest).

/// What is open at a point of the text.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    /// The file's body, or a block's.
    Body,
    /// `( … )`, `[ … ]`, an object's `{ … }`.
    Round,
    Square,
    Object,
    /// A quoted template, `" … "`, or a heredoc's, ended by its marker's line.
    Quoted,
    Heredoc,
    /// `${ … }` or `%{ … }` within a template.
    Interpolation,
}

struct Frame<'a> {
    kind: Kind,
    /// Operators met since the frame's last separator, and template directives (`%{ if }`,
    /// `%{ for }`) open in it.
    weight: usize,
    /// A heredoc's end marker.
    marker: &'a [u8],
    /// In a body: the statement met its `=`, so a `{` opens an object, not a block.
    assigned: bool,
}

impl<'a> Frame<'a> {
    fn new(kind: Kind) -> Self {
        Frame {
            kind,
            weight: 0,
            marker: &[],
            assigned: false,
        }
    }
}

/// The stack of open constructs and the deepest sum it reached.
struct Scan<'a> {
    frames: Vec<Frame<'a>>,
    depth: usize,
    deepest: usize,
}

impl<'a> Scan<'a> {
    fn push(&mut self, frame: Frame<'a>) {
        self.depth += 1 + frame.weight;
        self.frames.push(frame);
        self.deepest = self.deepest.max(self.depth);
    }

    /// Closes the innermost construct if it is of `kind`; `false` when it is not (the text is
    /// not HCL there, and the parser stops at that point).
    fn pop(&mut self, kinds: &[Kind]) -> bool {
        match self.frames.last() {
            Some(frame) if kinds.contains(&frame.kind) && self.frames.len() > 1 => {
                self.depth -= 1 + frame.weight;
                self.frames.pop();
                true
            }
            _ => false,
        }
    }

    fn top(&mut self) -> &mut Frame<'a> {
        self.frames.last_mut().expect("the body is never closed")
    }

    fn weigh(&mut self) {
        self.top().weight += 1;
        self.depth += 1;
        self.deepest = self.deepest.max(self.depth);
    }

    fn unweigh(&mut self) {
        let frame = self.top();
        if frame.weight > 0 {
            frame.weight -= 1;
            self.depth -= 1;
        }
    }

    /// A separator: the expression before it is done.
    fn separate(&mut self) {
        let weight = std::mem::take(&mut self.top().weight);
        self.depth -= weight;
    }
}

/// An upper bound of the parser's nesting on `text`.
pub fn depth(text: &str) -> usize {
    let bytes = text.as_bytes();
    let mut scan = Scan {
        frames: Vec::new(),
        depth: 0,
        deepest: 0,
    };
    scan.push(Frame::new(Kind::Body));
    let mut at = 0;
    while at < bytes.len() {
        let kind = scan.top().kind;
        let next = bytes.get(at + 1).copied();
        match kind {
            Kind::Quoted | Kind::Heredoc => {
                if kind == Kind::Heredoc && starts_line(bytes, at) {
                    let marker = scan.top().marker;
                    let indented = skip_blanks(bytes, at);
                    if bytes[indented..].starts_with(marker) {
                        scan.pop(&[Kind::Heredoc]);
                        at = indented + marker.len();
                        continue;
                    }
                }
                let three = bytes.get(at..at + 3);
                if three == Some(b"$${") || three == Some(b"%%{") {
                    at += 3;
                } else if matches!(bytes[at], b'$' | b'%') && next == Some(b'{') {
                    if bytes[at] == b'%' {
                        match directive(&bytes[at + 2..]) {
                            Directive::Opens => scan.weigh(),
                            Directive::Closes => scan.unweigh(),
                            Directive::Other => {}
                        }
                    }
                    scan.push(Frame::new(Kind::Interpolation));
                    at += 2;
                } else if kind == Kind::Quoted && bytes[at] == b'\\' {
                    at += 2;
                } else if kind == Kind::Quoted && bytes[at] == b'"' {
                    scan.pop(&[Kind::Quoted]);
                    at += 1;
                } else {
                    at += 1;
                }
            }
            _ => match bytes[at] {
                b'#' => at = line_end(bytes, at),
                b'/' if next == Some(b'/') => at = line_end(bytes, at),
                b'/' if next == Some(b'*') => {
                    at = find(bytes, at + 2, b"*/").map_or(bytes.len(), |end| end + 2);
                }
                b'"' => {
                    scan.push(Frame::new(Kind::Quoted));
                    at += 1;
                }
                b'<' if next == Some(b'<') => match heredoc_start(text, at + 2) {
                    Some((marker, body)) => {
                        scan.push(Frame {
                            marker,
                            ..Frame::new(Kind::Heredoc)
                        });
                        at = body;
                    }
                    None => {
                        scan.weigh();
                        at += 1;
                    }
                },
                b'(' | b'[' => {
                    let kind = if bytes[at] == b'(' {
                        Kind::Round
                    } else {
                        Kind::Square
                    };
                    scan.push(Frame::new(kind));
                    at += 1;
                }
                b'{' => {
                    let frame = scan.top();
                    let kind = if frame.kind == Kind::Body && !frame.assigned {
                        Kind::Body
                    } else {
                        Kind::Object
                    };
                    scan.push(Frame::new(kind));
                    at += 1;
                }
                b')' | b']' | b'}' => {
                    let kinds: &[Kind] = match bytes[at] {
                        b')' => &[Kind::Round],
                        b']' => &[Kind::Square],
                        _ => &[Kind::Body, Kind::Object, Kind::Interpolation],
                    };
                    if !scan.pop(kinds) {
                        break;
                    }
                    at += 1;
                }
                b',' => {
                    scan.separate();
                    at += 1;
                }
                b'\n' => {
                    if matches!(kind, Kind::Body | Kind::Object) {
                        scan.separate();
                        scan.top().assigned = false;
                    }
                    at += 1;
                }
                b'=' if next == Some(b'=') => {
                    scan.weigh();
                    at += 2;
                }
                b'=' if next == Some(b'>') => at += 2,
                b'=' => {
                    if matches!(kind, Kind::Body | Kind::Object) {
                        scan.separate();
                        scan.top().assigned = true;
                    }
                    at += 1;
                }
                b'!' | b'<' | b'>' => {
                    scan.weigh();
                    // `!=`, `<=`, `>=`: the `=` is the operator's, not an assignment.
                    at += if next == Some(b'=') { 2 } else { 1 };
                }
                b'-' | b'+' | b'*' | b'/' | b'%' | b'&' | b'|' | b'?' => {
                    scan.weigh();
                    at += 1;
                }
                _ => at += 1,
            },
        }
    }
    scan.deepest
}

enum Directive {
    Opens,
    Closes,
    Other,
}

/// What the directive after `%{` does to a template's nesting.
fn directive(after: &[u8]) -> Directive {
    let start = after
        .iter()
        .position(|c| !matches!(c, b'~' | b' ' | b'\t' | b'\r' | b'\n'))
        .unwrap_or(after.len());
    let word: Vec<u8> = after[start..]
        .iter()
        .take_while(|c| c.is_ascii_alphabetic())
        .copied()
        .collect();
    match word.as_slice() {
        b"if" | b"for" => Directive::Opens,
        b"endif" | b"endfor" => Directive::Closes,
        _ => Directive::Other,
    }
}

/// After `<<`: an optional `-`, an identifier and a line break open a heredoc; its marker and
/// where its first line starts.
fn heredoc_start(text: &str, from: usize) -> Option<(&[u8], usize)> {
    let rest = &text[from..];
    let rest_from = usize::from(rest.starts_with('-'));
    let named = &rest[rest_from..];
    let length: usize = named
        .chars()
        .take_while(|c| c.is_alphanumeric() || matches!(c, '_' | '-'))
        .map(char::len_utf8)
        .sum();
    let first = named.chars().next()?;
    if length == 0 || !(first.is_alphabetic() || first == '_') {
        return None;
    }
    let after = &named[length..];
    let line_break = if after.starts_with("\r\n") {
        2
    } else if after.starts_with('\n') {
        1
    } else {
        return None;
    };
    let start = from + rest_from;
    Some((
        &text.as_bytes()[start..start + length],
        start + length + line_break,
    ))
}

fn starts_line(bytes: &[u8], at: usize) -> bool {
    at == 0 || bytes[at - 1] == b'\n'
}

fn skip_blanks(bytes: &[u8], mut at: usize) -> usize {
    while at < bytes.len() && matches!(bytes[at], b' ' | b'\t') {
        at += 1;
    }
    at
}

fn line_end(bytes: &[u8], at: usize) -> usize {
    find(bytes, at, b"\n").unwrap_or(bytes.len())
}

fn find(bytes: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    bytes
        .get(from..)?
        .windows(needle.len())
        .position(|window| window == needle)
        .map(|found| from + found)
}

#[cfg(test)]
mod tests {
    use super::depth;

    #[test]
    fn each_construct_that_nests_counts_once_per_level() {
        let nested = |open: &str, close: &str, levels: usize| {
            format!("x = {}1{}\n", open.repeat(levels), close.repeat(levels))
        };
        for (open, close) in [("[", "]"), ("(", ")"), ("{a = ", "}"), ("\"${", "}\"")] {
            let shallow = depth(&nested(open, close, 3));
            let deep = depth(&nested(open, close, 30));
            assert!(
                deep >= 30 && deep > shallow,
                "{open}: {shallow} then {deep}"
            );
        }
        let blocks = format!("{}{}", "a {\n".repeat(40), "}\n".repeat(40));
        assert!(depth(&blocks) >= 40);
        let directives = format!(
            "x = \"{}{}\"\n",
            "%{ if true }".repeat(40),
            "%{ endif }".repeat(40)
        );
        assert!(depth(&directives) >= 40);
        let heredoc = format!("x = <<EOT\n{}1{}\nEOT\n", "${(".repeat(20), ")}".repeat(20));
        assert!(depth(&heredoc) >= 40);
    }

    #[test]
    fn an_operator_chain_counts_each_operator_until_its_expression_ends() {
        assert!(depth(&format!("x = 1{}\n", " + 1".repeat(50))) > 50);
        assert!(depth(&format!("x = {}true\n", "!".repeat(50))) > 50);
        assert!(depth(&format!("x = {}1\n", "a ? b : ".repeat(50))) > 50);
        // Within brackets a line break does not end the expression.
        assert!(depth(&format!("x = [1{}]\n", " +\n 1".repeat(50))) > 50);
        // Separate expressions do not add up.
        let list = format!("x = [{}]\n", "-1, ".repeat(500));
        let lines = "x = -1\n".repeat(500);
        let object = format!("x = {{\n{}}}\n", "a = -1\n".repeat(500));
        for flat in [list, lines, object] {
            assert!(depth(&flat) < 6, "{flat:.40}: {}", depth(&flat));
        }
    }

    #[test]
    fn what_only_looks_like_nesting_does_not_count() {
        let texts = [
            "x = \"((((((((((((((((((((\"\n".to_string(),
            "# [[[[[[[[[[[[[[[[[[[[\nx = 1\n".to_string(),
            "/* {{{{{{{{{{{{{{{{{{{{ */ x = 1\n".to_string(),
            format!("x = \"{}\"\n", "$${".repeat(30)),
            format!("x = <<EOT\n{}\nEOT\n", "((((".repeat(30)),
        ];
        for text in texts {
            assert!(depth(&text) < 6, "{text}: {}", depth(&text));
        }
        // Quotes in a string do not hide what follows it.
        let hidden = format!(
            "x = \")))\\\"]]]\"\ny = {}1{}\n",
            "[".repeat(30),
            "]".repeat(30)
        );
        assert!(depth(&hidden) >= 30);
    }

    #[test]
    fn the_scan_is_linear_and_ends_on_any_input() {
        let inputs = [
            "\"".repeat(100_000),
            "<<".repeat(100_000),
            "<<-EOT\n".repeat(10_000),
            "${".repeat(50_000),
            "}".repeat(100_000),
            "\u{e9}<<\u{e9}\n".repeat(10_000),
        ];
        for input in inputs {
            depth(&input);
        }
    }
}
