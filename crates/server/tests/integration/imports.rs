//! Layers that point one way, in every crate of the workspace: each source file is a node, each
//! `crate::a::b` or `super::a` path it uses (in `use` or in code, tests left out) an edge to the
//! file that defines `a::b`; a strongly connected component of more than one file is an import
//! circle. None is allowed, between files nor between a crate's top-level modules (folders and
//! the files beside them: `routes` → `store` and never back). The graphs are drawn by
//! `cargo test -p platform-server --test integration -- imports --nocapture`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const CRATES: &[&str] = &[
    "crates/server/src",
    "crates/api/src",
    "crates/contract/src",
    "src",
];

#[test]
fn no_crate_has_an_import_circle() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut found = Vec::new();
    for root in CRATES {
        let files = Graph::of(&workspace.join(root));
        let modules = files.top_level();
        let mut circles = files.circles();
        circles.extend(modules.circles());
        let edges = |graph: &Graph| graph.edges.values().map(BTreeSet::len).sum::<usize>();
        println!(
            "{root}: {} files, {} imports; {} top-level modules, {} arrows between them; {} circles",
            files.edges.len(),
            edges(&files),
            modules.edges.len(),
            edges(&modules),
            circles.len()
        );
        for circle in circles {
            let names: Vec<&str> = circle
                .iter()
                .map(|name| {
                    if name.is_empty() {
                        "(crate root)"
                    } else {
                        name
                    }
                })
                .collect();
            found.push(format!("{root}: {}", names.join(", ")));
        }
    }
    assert!(found.is_empty(), "import circles:\n{}", found.join("\n"));
}

/// Handlers hold no SQL: what they read and write goes through `store` (or the engine's own
/// rows), where a resource's queries are found by its name.
#[test]
fn no_handler_holds_a_query() {
    let routes = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/routes");
    let mut found = Vec::new();
    for path in rust_files(&routes) {
        let text = std::fs::read_to_string(&path).unwrap();
        for (number, line) in text.lines().enumerate() {
            if ["sqlx::query", "query_as", "query_scalar"]
                .iter()
                .any(|query| line.contains(query))
            {
                let file = path.strip_prefix(&routes).unwrap().display();
                found.push(format!("routes/{file}:{}: {}", number + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "queries in handlers:\n{}",
        found.join("\n")
    );
}

#[test]
fn a_circle_is_found() {
    let mut graph = Graph::default();
    for (from, to) in [("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")] {
        graph
            .edges
            .entry(from.into())
            .or_default()
            .insert(to.into());
        graph.edges.entry(to.into()).or_default();
    }
    assert_eq!(graph.circles(), [vec!["a", "b", "c"]]);
    let mut files = Graph::default();
    for (from, to) in [("x::one", "y"), ("y::two", "x::three"), ("", "x")] {
        files
            .edges
            .entry(from.into())
            .or_default()
            .insert(to.into());
    }
    assert!(files.circles().is_empty());
    assert_eq!(files.top_level().circles(), [vec!["x", "y"]]);
    assert_eq!(
        expand("a::{b, c::{d, e as f}}"),
        ["a::b", "a::c::d", "a::c::e"]
    );
}

#[derive(Default)]
struct Graph {
    /// Module (`routes::table`, `` for the crate root) to the modules it uses.
    edges: BTreeMap<String, BTreeSet<String>>,
}

impl Graph {
    fn of(root: &Path) -> Self {
        let mut files = BTreeMap::new();
        for path in rust_files(root) {
            let relative = path.strip_prefix(root).unwrap().with_extension("");
            let parts: Vec<String> = relative
                .iter()
                .map(|part| part.to_string_lossy().into_owned())
                .collect();
            // main.rs beside lib.rs is the binary, a crate of its own over the library.
            if parts == ["main"] && root.join("lib.rs").exists() {
                continue;
            }
            let mut module = parts.join("::");
            for tail in ["mod", "lib", "main"] {
                if module == tail {
                    module.clear();
                } else if let Some(parent) = module.strip_suffix(&format!("::{tail}")) {
                    module = parent.to_string();
                }
            }
            files.insert(module, path);
        }
        let modules: BTreeSet<String> = files.keys().cloned().collect();
        let mut edges = BTreeMap::new();
        for (module, path) in &files {
            let text = std::fs::read_to_string(path).unwrap();
            let text = text.split("#[cfg(test)]").next().unwrap_or_default();
            // `super` is the module above (for `a/b.rs` and `a/b/mod.rs` alike, `a`).
            let parent = module.rsplit_once("::").map_or("", |(parent, _)| parent);
            let mut used = BTreeSet::new();
            for path in used_paths(text, "crate") {
                used.insert(file_of(&modules, &path));
            }
            for path in used_paths(text, "super") {
                let full = if parent.is_empty() {
                    path
                } else {
                    format!("{parent}::{path}")
                };
                used.insert(file_of(&modules, &full));
            }
            if module.is_empty() {
                // The crate root names its own modules without `crate::`.
                let tops: BTreeSet<&str> = modules
                    .iter()
                    .filter(|name| !name.is_empty())
                    .map(|name| name.split("::").next().unwrap())
                    .collect();
                for top in tops {
                    for path in used_paths(text, top) {
                        used.insert(file_of(&modules, &format!("{top}::{path}")));
                    }
                }
            }
            used.remove(module);
            edges.insert(module.clone(), used);
        }
        Self { edges }
    }

    /// The graph between top-level modules: a file stands for the module it is in at the crate's
    /// top (`routes::services::actions` for `routes`); the crate root, which names them all, is
    /// left out.
    fn top_level(&self) -> Graph {
        let top = |module: &str| module.split("::").next().unwrap_or_default().to_string();
        let mut modules = Graph::default();
        for (from, targets) in self.edges.iter().filter(|(from, _)| !from.is_empty()) {
            let used = modules.edges.entry(top(from)).or_default();
            used.extend(targets.iter().map(|target| top(target)));
        }
        for (module, used) in &mut modules.edges {
            used.remove(module);
            used.remove("");
        }
        modules
    }

    /// Strongly connected components of more than one module (Tarjan), each sorted.
    fn circles(&self) -> Vec<Vec<String>> {
        struct Walk<'a> {
            graph: &'a Graph,
            next: usize,
            index: BTreeMap<&'a str, usize>,
            low: BTreeMap<&'a str, usize>,
            stack: Vec<&'a str>,
            on_stack: BTreeSet<&'a str>,
            components: Vec<Vec<String>>,
        }
        impl<'a> Walk<'a> {
            fn visit(&mut self, node: &'a str) {
                self.index.insert(node, self.next);
                self.low.insert(node, self.next);
                self.next += 1;
                self.stack.push(node);
                self.on_stack.insert(node);
                for target in self.graph.edges.get(node).into_iter().flatten() {
                    let target = target.as_str();
                    if !self.index.contains_key(target) {
                        self.visit(target);
                        let low = self.low[node].min(self.low[target]);
                        self.low.insert(node, low);
                    } else if self.on_stack.contains(target) {
                        let low = self.low[node].min(self.index[target]);
                        self.low.insert(node, low);
                    }
                }
                if self.low[node] == self.index[node] {
                    let mut component = Vec::new();
                    while let Some(member) = self.stack.pop() {
                        self.on_stack.remove(member);
                        component.push(member.to_string());
                        if member == node {
                            break;
                        }
                    }
                    component.sort();
                    self.components.push(component);
                }
            }
        }
        let mut walk = Walk {
            graph: self,
            next: 0,
            index: BTreeMap::new(),
            low: BTreeMap::new(),
            stack: Vec::new(),
            on_stack: BTreeSet::new(),
            components: Vec::new(),
        };
        for node in self.edges.keys() {
            if !walk.index.contains_key(node.as_str()) {
                walk.visit(node);
            }
        }
        let mut circles: Vec<Vec<String>> = walk
            .components
            .into_iter()
            .filter(|component| component.len() > 1)
            .collect();
        circles.sort_by_key(|circle| std::cmp::Reverse(circle.len()));
        circles
    }
}

fn rust_files(folder: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(folder).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            found.extend(rust_files(&path));
        } else if path.extension().is_some_and(|extension| extension == "rs") {
            found.push(path);
        }
    }
    found
}

/// The module defining the longest prefix of `path` (`a::b::Item` is `a::b`'s); the crate
/// root's for an item of its own.
fn file_of(modules: &BTreeSet<String>, path: &str) -> String {
    let parts: Vec<&str> = path
        .split("::")
        .filter(|part| !part.is_empty() && *part != "self")
        .collect();
    (1..=parts.len())
        .rev()
        .map(|end| parts[..end].join("::"))
        .find(|module| modules.contains(module))
        .unwrap_or_default()
}

/// Every path after `prefix::` in `use` statements and in code.
fn used_paths(text: &str, prefix: &str) -> Vec<String> {
    let mut paths = Vec::new();
    let mut code = String::new();
    let mut rest = text;
    // `use` statements, whose braces name several paths.
    while let Some(start) = find_word(rest, "use") {
        code.push_str(&rest[..start]);
        let statement = &rest[start + 3..];
        let end = statement.find(';').unwrap_or(statement.len());
        let tree = statement[..end].trim();
        if let Some(tree) = tree.strip_prefix(&format!("{prefix}::")) {
            paths.extend(expand(tree));
        }
        rest = &statement[(end + 1).min(statement.len())..];
    }
    code.push_str(rest);
    let marker = format!("{prefix}::");
    let mut at = 0;
    while let Some(found) = code[at..].find(&marker) {
        let start = at + found;
        at = start + marker.len();
        let before = code[..start].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
            continue;
        }
        let path: String = code[at..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
            .collect();
        paths.push(path.trim_end_matches(':').to_string());
    }
    paths
}

/// Where `word` stands alone in `text` (not inside another name).
fn find_word(text: &str, word: &str) -> Option<usize> {
    let mut at = 0;
    while let Some(found) = text[at..].find(word) {
        let start = at + found;
        let before = text[..start].chars().next_back();
        let after = text[start + word.len()..].chars().next();
        let alone = |c: Option<char>| !c.is_some_and(|c| c.is_alphanumeric() || c == '_');
        if alone(before) && after.is_some_and(char::is_whitespace) {
            return Some(start);
        }
        at = start + word.len();
    }
    None
}

/// `a::{b, c::{d, e}}` as `[a::b, a::c::d, a::c::e]` (an `as` rename dropped).
fn expand(tree: &str) -> Vec<String> {
    let tree = tree.trim();
    let Some((head, rest)) = tree.split_once('{') else {
        let path = tree.split(" as ").next().unwrap_or(tree).trim();
        return vec![path.to_string()];
    };
    let inner = &rest[..rest.rfind('}').unwrap_or(rest.len())];
    let mut parts = Vec::new();
    let (mut depth, mut current) = (0, String::new());
    for c in inner.chars() {
        match c {
            ',' if depth == 0 => parts.push(std::mem::take(&mut current)),
            '{' => {
                depth += 1;
                current.push(c);
            }
            '}' => {
                depth -= 1;
                current.push(c);
            }
            _ => current.push(c),
        }
    }
    parts.push(current);
    parts
        .iter()
        .filter(|part| !part.trim().is_empty())
        .flat_map(|part| expand(part))
        .map(|path| format!("{head}{path}"))
        .collect()
}
