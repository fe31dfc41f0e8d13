//! Packs the split console's modules into one file per group of pages.
//!
//! `wasm-split-cli` cuts the code that groups of pages share into a module per combination of
//! groups: with nine groups, a page fetched 90 to 150 small files, each a request and a
//! compression of its own (measured: the 1,000-service environment page 216 → 339 ms from
//! navigation to rows, 30 → 131 files). This packs them, after wasm-opt, into one file per group
//! (`split_<group>.bin`): the group's module and every module its loader fetches, but those the
//! group every page loads (`shell`) also fetches, which are in that group's file alone. A module
//! several groups share is in each of their files; the loader (`__wasm_split.js`, rewritten
//! here) takes it from a file already fetched if there is one, else from the file of the group
//! being loaded, so that a page fetches the files of its groups and no other.
//!
//! `bundle-split DIR ALWAYS`: DIR holds `__wasm_split.js` and the modules; ALWAYS is the group
//! every signed-in page loads.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;
use std::process::ExitCode;

/// One module of the loader: a chunk (`const __chunk_8 = makeLoad(…)`) or a group's own
/// (`export const __wasm_split_load_shell = wrapAsyncCb(makeLoad(…))`).
struct Chunk {
    /// `chunk_8.wasm`.
    file: String,
    /// The groups whose code it holds, from the loader's comment above it.
    groups: Vec<String>,
}

struct Group {
    name: String,
    /// The chunks its loader fetches, in order.
    chunks: Vec<String>,
}

struct Loader {
    chunks: Vec<Chunk>,
    groups: Vec<Group>,
}

const FETCH_START: &str = "fetch(new URL(\"./";
const FETCH_END: &str = "\", import.meta.url))";
const GROUP_START: &str = "export const __wasm_split_load_";

impl Loader {
    fn parse(js: &str) -> Result<Loader, String> {
        let mut chunks = Vec::new();
        for part in js.split("\n/* ").skip(1) {
            let Some((groups, rest)) = part.split_once(" */\nconst __chunk_") else {
                continue;
            };
            let number: String = rest.chars().take_while(char::is_ascii_digit).collect();
            chunks.push(Chunk {
                file: format!("chunk_{number}.wasm"),
                groups: groups.split(", ").map(String::from).collect(),
            });
        }
        let mut groups = Vec::new();
        for part in js.split(GROUP_START).skip(1) {
            let name: String = part
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            let end = part
                .find("]));")
                .ok_or(format!("{name}: the end of its loader"))?;
            let deps = &part[part[..end].rfind('[').ok_or("a loader's chunks")? + 1..end];
            let chunks = deps
                .split(',')
                .map(str::trim)
                .filter(|dep| !dep.is_empty())
                .map(|dep| {
                    dep.strip_prefix("__chunk_")
                        .map(|number| format!("chunk_{number}.wasm"))
                        .ok_or(format!("{name}: not a chunk: {dep}"))
                })
                .collect::<Result<_, _>>()?;
            groups.push(Group { name, chunks });
        }
        if groups.is_empty() {
            return Err("no group in __wasm_split.js: has wasm-split-cli's loader changed?".into());
        }
        Ok(Loader { chunks, groups })
    }
}

fn bundle(dir: &Path, always: &str) -> Result<(), String> {
    let read = |file: &str| fs::read(dir.join(file)).map_err(|e| format!("{file}: {e}"));
    let js = String::from_utf8(read("__wasm_split.js")?).map_err(|e| e.to_string())?;
    let loader = Loader::parse(&js)?;
    if !loader.groups.iter().any(|group| group.name == always) {
        return Err(format!("no group named {always}"));
    }
    let groups_of: BTreeMap<&str, &[String]> = loader
        .chunks
        .iter()
        .map(|chunk| (chunk.file.as_str(), chunk.groups.as_slice()))
        .collect();
    // Each file's modules in order, and each module's length: where a module is in a file is
    // the lengths of those before it, so the loader carries a length per module and a short
    // list per file rather than two offsets per copy.
    let mut packs: Vec<(String, Vec<String>)> = Vec::new();
    let mut lengths: BTreeMap<String, usize> = BTreeMap::new();
    for group in &loader.groups {
        let file = bundle_name(&group.name);
        let own = format!("split_{}.wasm", group.name);
        let mut bytes = Vec::new();
        let taken = group.chunks.iter().filter(|chunk| {
            group.name == always || !groups_of[chunk.as_str()].iter().any(|g| g == always)
        });
        let modules: Vec<String> = std::iter::once(&own).chain(taken).cloned().collect();
        for module in &modules {
            let module_bytes = read(module)?;
            lengths.insert(module.clone(), module_bytes.len());
            bytes.extend(module_bytes);
        }
        fs::write(dir.join(&file), bytes).map_err(|e| format!("{file}: {e}"))?;
        packs.push((file, modules));
    }
    let number: BTreeMap<&str, usize> = lengths
        .keys()
        .enumerate()
        .map(|(n, module)| (module.as_str(), n))
        .collect();

    let mut rewritten = String::with_capacity(js.len());
    let (imports, rest) = js.split_once('\n').ok_or("an empty loader")?;
    rewritten.push_str(imports);
    rewritten.push('\n');
    let lengths_js: Vec<String> = lengths.values().map(usize::to_string).collect();
    rewritten.push_str(&format!("const __lengths = [{}];\n", lengths_js.join(",")));
    let packs_js: Vec<String> = packs
        .iter()
        .map(|(file, modules)| {
            let numbers: Vec<String> = modules
                .iter()
                .map(|module| number[module.as_str()].to_string())
                .collect();
            format!("\"{file}\":[{}]", numbers.join(","))
        })
        .collect();
    rewritten.push_str(&format!("{PACKS_START}{}}};\n", packs_js.join(",")));
    rewritten.push_str(HELPERS);
    rewritten.push_str(&format!(
        "export function fetchGroup(group) {{ __file(`{}`).catch(() => {{}}); }}\n",
        bundle_name("${group}")
    ));
    // The groups each chunk serves, a comment of wasm-split's, are read above and not shipped.
    let mut rest: String = rest
        .lines()
        .filter(|line| !(line.starts_with("/* ") && line.ends_with(" */")))
        .map(|line| format!("{line}\n"))
        .collect();
    for (module, n) in &number {
        let fetch = format!("{FETCH_START}{module}{FETCH_END}");
        if !rest.contains(&fetch) {
            return Err(format!("{module}: its fetch is not in the loader"));
        }
        rest = rest.replace(&fetch, &format!("__part({n})"));
    }
    for group in &loader.groups {
        let start = format!("{GROUP_START}{} = wrapAsyncCb(makeLoad(", group.name);
        let at = rest
            .find(&start)
            .ok_or(format!("{}: its loader", group.name))?;
        let end = at + rest[at..].find("]));").ok_or("a loader's end")?;
        rest.replace_range(end..end + 4, "])));");
        rest.replace_range(
            at..at + start.len(),
            &format!(
                "{GROUP_START}{} = wrapAsyncCb(__claim(\"{}\", makeLoad(",
                group.name,
                bundle_name(&group.name)
            ),
        );
    }
    if rest.contains(FETCH_START) {
        return Err("a module left out of every file".into());
    }
    rewritten.push_str(&rest);
    fs::write(dir.join("__wasm_split.js"), rewritten).map_err(|e| e.to_string())?;
    for module in lengths.keys() {
        fs::remove_file(dir.join(module)).map_err(|e| format!("{module}: {e}"))?;
    }
    Ok(())
}

fn bundle_name(group: &str) -> String {
    format!("split_{group}.bin")
}

/// How the loader's table of files starts: `{"split_shell.bin":[3,0,5],…}`, each file's modules
/// by number, in order (crates/e2e/tests/budgets.rs reads it too).
const PACKS_START: &str = "const __packs = {";

/// The loader's way to the files: each fetched once (again after a failure), a module read from
/// the first of its files already asked for, else from its first; a group's loader asks for its
/// own file before its modules. `fetchGroup` asks for a group's file before the main module has
/// started (`start.js`, written by scripts/build-wasm.sh).
const HELPERS: &str = r#"const __places = __lengths.map(() => []);
for (const [name, modules] of Object.entries(__packs)) {
    let start = 0;
    for (const module of modules) {
        __places[module].push([name, start, start + __lengths[module]]);
        start += __lengths[module];
    }
}
const __files = new Map();
function __file(name) {
    let bytes = __files.get(name);
    if (bytes === undefined) {
        bytes = fetch(new URL("./" + name, import.meta.url)).then((answer) => {
            if (!answer.ok) throw new Error(`${name}: ${answer.status}`);
            return answer.arrayBuffer();
        });
        bytes.catch(() => { if (__files.get(name) === bytes) __files.delete(name); });
        __files.set(name, bytes);
    }
    return bytes;
}
function __part(module) {
    const places = __places[module];
    const [name, start, end] = places.find(([name]) => __files.has(name)) ?? places[0];
    return __file(name).then((bytes) => new Response(new Uint8Array(bytes, start, end - start),
        { headers: { "Content-Type": "application/wasm" } }));
}
function __claim(name, load) {
    return () => { __file(name).catch(() => {}); return load(); };
}
"#;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [dir, always] = args.as_slice() else {
        eprintln!("usage: bundle-split DIR ALWAYS");
        return ExitCode::from(2);
    };
    match bundle(Path::new(dir), always) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("bundle-split: {error}");
            ExitCode::FAILURE
        }
    }
}
