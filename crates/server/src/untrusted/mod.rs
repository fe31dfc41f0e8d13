//! Parsing what the server did not write: a request's body, a file read from a repository (HCL,
//! YAML, a Dockerfile, a chart's index), a kubeconfig. Each kind has its limits (`Limits`): a
//! size, checked before the content is read (a repository's file by the size git gives it); a
//! depth, counted by a linear scan before a parser that recurses sees it. Parsing runs off the
//! async workers, on the parsers' threads (two at once, each with a stack far deeper than the
//! depth allows, at the lowest priority), within a deadline. What breaks a limit is `Refused`,
//! which the API answers with a 400 naming the file and the limit; parsers busy past the
//! deadline, a 503.

pub mod hcl_depth;
pub mod json_depth;

use std::sync::LazyLock;
use std::time::Duration;

use crate::offload::{Offload, Priority};

/// What one kind of content may be.
pub struct Limits {
    /// The kind, as a refusal names it: "a terraform file".
    pub what: &'static str,
    /// Its largest size, in bytes.
    pub bytes: usize,
    /// Its deepest nesting, and how it is counted; `None` where the parser does not recurse
    /// (a line reader).
    pub depth: Option<Depth>,
}

/// The deepest a kind of content may nest, and the scan that counts it.
pub struct Depth(pub usize, pub fn(&str) -> usize);

const MIB: usize = 1024 * 1024;

/// Nesting of HCL and JSON: far above what a configuration holds (a few levels), far below what
/// a parser's stack holds (`PARSER_STACK`).
pub const MOST_DEPTH: usize = 64;

pub const TERRAFORM_FILE: Limits = Limits {
    what: "a terraform file (.tf)",
    bytes: MIB,
    depth: Some(Depth(MOST_DEPTH, hcl_depth::depth)),
};

pub const TFVARS_FILE: Limits = Limits {
    what: "a .tfvars file",
    bytes: MIB,
    depth: Some(Depth(MOST_DEPTH, hcl_depth::depth)),
};

/// The `.tf` files of one module, or the `.tfvars` files of one listing, together.
pub const TERRAFORM_FILES_BYTES: usize = 4 * MIB;
/// And how many of them are read.
pub const TERRAFORM_FILES_MAX: usize = 200;

/// The identity provider's discovery document or key set (`oidc`).
pub const PROVIDER_DOCUMENT: Limits = Limits {
    what: "the identity provider's document",
    bytes: 256 * 1024,
    depth: Some(Depth(MOST_DEPTH, |text| json_depth::depth(text.as_bytes()))),
};

pub const DOCKERFILE: Limits = Limits {
    what: "a Dockerfile",
    bytes: MIB,
    depth: None,
};

/// A chart's `values.yaml`, answered as it is, and any other file a check reads.
pub const REPOSITORY_FILE: Limits = Limits {
    what: "a file read from a repository",
    bytes: MIB,
    depth: None,
};

/// A helm repository's `index.yaml`, read line by line.
pub const HELM_INDEX: Limits = Limits {
    what: "a helm repository's index.yaml",
    bytes: 8 * MIB,
    depth: None,
};

/// Two parsers at once: the others wait their turn.
const PARSERS_AT_ONCE: usize = 2;
/// A parser's stack: `MOST_DEPTH` levels of HCL take under 1 MiB in a debug build, where a
/// level of the parser's recursion is at its largest.
const PARSER_STACK: usize = 16 * MIB;
/// How long a caller waits for a turn and its answer; the sizes bound the work to well under it.
pub const PARSE_DEADLINE: Duration = Duration::from_secs(10);

/// The parsers yield to the server's workers, but never wait without end: a request waits on
/// them.
static PARSERS: LazyLock<Offload> =
    LazyLock::new(|| Offload::new("parser", PARSERS_AT_ONCE, PARSER_STACK, Priority::Lowest));

impl Limits {
    /// What to say when `size` bytes of `source` are more than this kind may be.
    pub fn too_large(&self, source: &str, size: usize) -> Option<String> {
        (size > self.bytes).then(|| {
            format!(
                "{source} is {} long: {} may be at most {} (the server's limit).",
                bytes(size),
                self.what,
                bytes(self.bytes)
            )
        })
    }

    /// Refused when `size` bytes of `source` are more than this kind may be.
    pub fn check_size(&self, source: &str, size: usize) -> Result<(), Refused> {
        match self.too_large(source, size) {
            None => Ok(()),
            Some(message) => Err(Refused::TooLarge(message)),
        }
    }

    /// Refused when `text` nests deeper than this kind may.
    fn check_depth(&self, source: &str, text: &str) -> Result<(), Refused> {
        let Some(Depth(most, depth)) = self.depth else {
            return Ok(());
        };
        if depth(text) <= most {
            return Ok(());
        }
        Err(too_deep(source, self.what, most))
    }
}

/// Why content was not parsed: each a sentence naming the content and the limit.
#[derive(Debug)]
pub enum Refused {
    TooLarge(String),
    TooDeep(String),
    /// No parser was free within the deadline.
    Busy,
}

/// Content nested past `most` levels.
pub fn too_deep(source: &str, what: &str, most: usize) -> Refused {
    Refused::TooDeep(format!(
        "{source} nests deeper than {most} levels (brackets, blocks, templates and operators \
         within one another): {what} may nest at most {most} levels (the server's limit)."
    ))
}

/// `text` (of `source`, a file's path or "the body") parsed by `parse` on a parser's thread,
/// once its size and depth are within `limits`.
pub async fn parse<T: Send + 'static, E: From<Refused> + Send + 'static>(
    limits: &'static Limits,
    source: String,
    text: String,
    parse: impl FnOnce(&str, &str) -> Result<T, E> + Send + 'static,
) -> Result<T, E> {
    limits.check_size(&source, text.len())?;
    offload(move || {
        limits.check_depth(&source, &text)?;
        parse(&source, &text)
    })
    .await
}

/// `work` on a parser's thread, within `PARSE_DEADLINE`; `Busy` when none is free in time.
pub async fn offload<T: Send + 'static, E: From<Refused> + Send + 'static>(
    work: impl FnOnce() -> Result<T, E> + Send + 'static,
) -> Result<T, E> {
    PARSERS
        .run(PARSE_DEADLINE, work)
        .await
        .map_err(|_| Refused::Busy)?
}

/// A size as people read it: "3.2 MiB", "900 KiB", "12 bytes".
pub fn bytes(size: usize) -> String {
    if size >= MIB {
        format!("{:.1} MiB", size as f64 / MIB as f64)
    } else if size >= 1024 {
        format!("{} KiB", size.div_ceil(1024))
    } else {
        format!("{size} bytes")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each construct that makes HCL's parser recurse, nested `levels` deep.
    fn nested(levels: usize) -> Vec<(&'static str, String)> {
        let wrap = |open: &str, close: &str| {
            format!("x = {}1{}\n", open.repeat(levels), close.repeat(levels))
        };
        vec![
            ("lists", wrap("[", "]")),
            ("parentheses", wrap("(", ")")),
            ("objects", wrap("{a = ", "}")),
            ("calls", wrap("max(", ")")),
            ("indexes", wrap("a[", "]")),
            ("templates", wrap("\"${", "}\"")),
            ("for expressions", wrap("[for v in ", " : v]")),
            ("negations", format!("x = {}true\n", "!".repeat(levels))),
            ("sums", format!("x = 1{}\n", " + 1".repeat(levels))),
            (
                "conditions",
                format!("x = {}1\n", "a ? b : ".repeat(levels)),
            ),
            (
                "directives",
                format!(
                    "x = \"{}a{}\"\n",
                    "%{ if true }".repeat(levels),
                    "%{ endif }".repeat(levels)
                ),
            ),
            (
                "blocks",
                format!("{}{}", "b {\n".repeat(levels), "}\n".repeat(levels)),
            ),
            (
                "heredocs",
                format!(
                    "x = <<E\n{}1{}\nE\n",
                    "${[".repeat(levels / 2),
                    "]}".repeat(levels / 2)
                ),
            ),
        ]
    }

    /// The deepest of `nested` that the scan lets through is parsed, read as values and dropped
    /// in a quarter of a parser's stack (the overflow the limit prevents aborts the process).
    #[test]
    fn what_the_depth_scan_lets_through_fits_in_a_parsers_stack() {
        for (name, _) in nested(1) {
            let mut levels = 1;
            let text = loop {
                let deeper = &nested(levels + 1)
                    .into_iter()
                    .find(|(n, _)| *n == name)
                    .unwrap()
                    .1;
                if hcl_depth::depth(deeper) > MOST_DEPTH {
                    break nested(levels)
                        .into_iter()
                        .find(|(n, _)| *n == name)
                        .unwrap()
                        .1;
                }
                levels += 1;
            };
            assert!(
                levels >= MOST_DEPTH / 4,
                "{name}: only {levels} levels let through"
            );
            let parsed = std::thread::Builder::new()
                .stack_size(PARSER_STACK / 4)
                .spawn(move || {
                    let body = hcl::parse(&text).map_err(|error| error.to_string())?;
                    for attribute in body.attributes() {
                        let value = hcl::Value::from(attribute.expr().clone());
                        let _ = hcl::format::to_string(&value);
                    }
                    let _ = hcl::from_str::<hcl::Value>(&text);
                    Ok::<_, String>(())
                })
                .unwrap()
                .join()
                .unwrap();
            // What matters is that it ends: some constructs, nested so, are not valid HCL.
            let _ = parsed;
        }
    }

    /// A random HCL expression of at most `budget` constructs within one another: every
    /// construct that makes the parser recurse, mixed.
    fn expression(random: &mut impl rand::Rng, budget: usize) -> String {
        if budget == 0 || random.random_ratio(1, 12) {
            return ["1", "a", "\"s\"", "true", "a.b[0]"][random.random_range(0..5)].to_string();
        }
        // One branch goes deep, the other stays shallow: the text grows with the depth, not
        // exponentially.
        let a = expression(random, budget - 1);
        let shallow = random.random_range(0..3).min(budget - 1);
        let b = expression(random, shallow);
        match random.random_range(0..14) {
            0 => format!("[{a}, {b}]"),
            1 => format!("({a})"),
            2 => format!("{{k = {a}\nl = {b}}}"),
            3 => format!("\"x${{{a}}}y\""),
            4 => format!("!{a}"),
            5 => format!("-{a}"),
            6 => format!("{a} + {b}"),
            7 => format!("{a} == {b} ? {a} : {b}"),
            8 => format!("max({a}, {b})"),
            9 => format!("a[{a}]"),
            10 => format!("[for v in {a} : {b}]"),
            11 => format!("\"%{{ if {a} }}t%{{ else }}f%{{ endif }}\""),
            12 => format!("<<E\n${{{a}}}\nE\n"),
            _ => format!("{a} && {b} || {a}"),
        }
    }

    /// Random expressions of every construct mixed: whatever the scan lets through parses in a
    /// quarter of a parser's stack (an overflow aborts the test's process).
    #[test]
    fn mixed_constructs_the_scan_lets_through_fit_in_a_parsers_stack() {
        use rand::{Rng, SeedableRng};
        let cases: usize = std::env::var("HCL_DEPTH_CASES")
            .ok()
            .and_then(|cases| cases.parse().ok())
            .unwrap_or(300);
        let mut random = rand::rngs::StdRng::seed_from_u64(0x5eed_0079);
        let (mut let_through, mut deepest) = (0, 0);
        for _ in 0..cases {
            let budget = random.random_range(1..160);
            let mut text = format!("x = {}\n", expression(&mut random, budget));
            text.truncate(TERRAFORM_FILE.bytes);
            let depth = hcl_depth::depth(&text);
            if depth > MOST_DEPTH {
                continue;
            }
            let_through += 1;
            deepest = deepest.max(depth);
            std::thread::Builder::new()
                .stack_size(PARSER_STACK / 4)
                .spawn(move || {
                    if let Ok(body) = hcl::parse(&text) {
                        for attribute in body.attributes() {
                            let value = hcl::Value::from(attribute.expr().clone());
                            let _ = hcl::format::to_string(&value);
                        }
                    }
                })
                .unwrap()
                .join()
                .unwrap();
        }
        assert!(
            let_through > cases / 10,
            "only {let_through} of {cases} let through"
        );
        assert!(
            deepest > MOST_DEPTH / 2,
            "the deepest let through: {deepest}"
        );
    }

    #[tokio::test]
    async fn content_past_its_limits_is_refused_naming_the_file_and_the_limit() {
        let large = "#".repeat(TERRAFORM_FILE.bytes + 1);
        let refused = parse(&TERRAFORM_FILE, "infra/main.tf".into(), large, |_, _| {
            Ok::<_, Refused>(())
        });
        match refused.await {
            Err(Refused::TooLarge(said)) => {
                assert!(
                    said.contains("infra/main.tf") && said.contains("1.0 MiB"),
                    "{said}"
                )
            }
            other => panic!("{other:?}"),
        }
        let deep = format!("x = {}1{}\n", "[".repeat(100), "]".repeat(100));
        let refused = parse(&TERRAFORM_FILE, "main.tf".into(), deep, |_, _| {
            Ok::<_, Refused>(())
        });
        match refused.await {
            Err(Refused::TooDeep(said)) => {
                assert!(
                    said.contains("main.tf") && said.contains("64 levels"),
                    "{said}"
                )
            }
            other => panic!("{other:?}"),
        }
        let fine = parse(
            &TERRAFORM_FILE,
            "main.tf".into(),
            "x = [[1]]\n".into(),
            |_, text| Ok::<_, Refused>(text.len()),
        );
        assert_eq!(fine.await.unwrap(), 10);
    }
}
