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
//! being loaded, so that a page fetches the files of its groups and no other. A group shown
//! within another's pages (a service's tab within the service's frame) leaves what it shares
//! with that parent to the parent's file, and to a file of its own fetched only when it is
//! opened without its parent (`Beside`): the service settings page fetched the service
//! variables' code twice.
//!
//! `bundle-split DIR ALWAYS [PARENT:CHILD,CHILD…]…`: DIR holds `__wasm_split.js` and the
//! modules; ALWAYS is the group every signed-in page loads; each PARENT's pages frame its
//! CHILDren's.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;
use std::process::ExitCode;

use bundle_split::{file_of, parents_of, Loader, FETCH_END, FETCH_START, GROUP_START};

fn bundle(dir: &Path, always: &str, parents: &BTreeMap<String, String>) -> Result<(), String> {
    let read = |file: &str| fs::read(dir.join(file)).map_err(|e| format!("{file}: {e}"));
    let js = String::from_utf8(read("__wasm_split.js")?).map_err(|e| e.to_string())?;
    let loader = Loader::parse(&js)?;
    let packing = loader.pack(always, parents)?;
    // Each file's modules in order, and each module's length: where a module is in a file is
    // the lengths of those before it, so the loader carries a length per module and a short
    // list per file rather than two offsets per copy.
    let mut lengths: BTreeMap<String, usize> = BTreeMap::new();
    for pack in &packing.packs {
        let mut bytes = Vec::new();
        for module in &pack.modules {
            let module_bytes = read(module)?;
            lengths.insert(module.clone(), module_bytes.len());
            bytes.extend(module_bytes);
        }
        fs::write(dir.join(&pack.file), bytes).map_err(|e| format!("{}: {e}", pack.file))?;
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
    let packs_js: Vec<String> = packing
        .packs
        .iter()
        .map(|pack| {
            let numbers: Vec<String> = pack
                .modules
                .iter()
                .map(|module| number[module.as_str()].to_string())
                .collect();
            format!("\"{}\":[{}]", pack.file, numbers.join(","))
        })
        .collect();
    rewritten.push_str(&format!("{PACKS_START}{}}};\n", packs_js.join(",")));
    rewritten.push_str(HELPERS);
    rewritten.push_str(&format!(
        "export function fetchGroup(group) {{ __file(`{}`).catch(() => {{}}); }}\n",
        file_of("${group}")
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
        // Without its parent's file asked for, a group asks for its `beside` file too.
        let files = match packing.beside.get(&group.name) {
            Some(beside) => format!(
                "[\"{}\", \"{}\", \"{}\"]",
                file_of(&group.name),
                beside.file,
                beside.parent_file
            ),
            None => format!("[\"{}\"]", file_of(&group.name)),
        };
        rest.replace_range(
            at..at + start.len(),
            &format!(
                "{GROUP_START}{} = wrapAsyncCb(__claim({files}, makeLoad(",
                group.name
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

/// How the loader's table of files starts: `{"split_shell.bin":[3,0,5],…}`, each file's modules
/// by number, in order (crates/e2e/tests/budgets.rs reads it too).
const PACKS_START: &str = "const __packs = {";

/// The loader's way to the files: each fetched once (again after a failure), a module read from
/// the first of its files already asked for, else from its first; a group's loader asks for its
/// own file before its modules, and for its `beside` file when its parent's is not asked for.
/// `fetchGroup` asks for a group's file before the main module has started (`start.js`, written
/// by scripts/build-wasm.sh).
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
function __claim([own, beside, parent], load) {
    return () => {
        __file(own).catch(() => {});
        if (beside !== undefined && !__files.has(parent)) __file(beside).catch(() => {});
        return load();
    };
}
"#;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [dir, always, nesting @ ..] = args.as_slice() else {
        eprintln!("usage: bundle-split DIR ALWAYS [PARENT:CHILD,CHILD…]…");
        return ExitCode::from(2);
    };
    let parents = match parents_of(nesting) {
        Ok(parents) => parents,
        Err(error) => {
            eprintln!("bundle-split: {error}");
            return ExitCode::from(2);
        }
    };
    match bundle(Path::new(dir), always, &parents) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("bundle-split: {error}");
            ExitCode::FAILURE
        }
    }
}
