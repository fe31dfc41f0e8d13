//! Packs the split console's modules into one file per group of pages.
//!
//! `wasm-split-cli` cuts the code that groups of pages share into a module per combination of
//! groups: with nine groups, a page fetched 90 to 150 small files, each a request and a
//! compression of its own (measured: the 1,000-service environment page 216 → 339 ms from
//! navigation to rows, 30 → 131 files). This packs them, after wasm-opt, into one file per group
//! (`split_<group>.bin`): the group's module and every module its loader fetches, but those the
//! group every page loads (`shell`) also fetches, which are in that group's file alone. A module
//! several groups share is in each of their files; the loader (`__wasm_split.js`, written anew
//! here as data: see `LOADING`) takes it from a file already fetched if there is one, else from the file of the group
//! being loaded, so that a page fetches the files of its groups and no other. A group shown
//! within another's pages (a service's tab within the service's frame) leaves what it shares
//! with that parent to the parent's file, and to a file of its own fetched only when it is
//! opened without its parent (`Beside`): the service settings page fetched the service
//! variables' code twice.
//!
//! `bundle-split DIR ALWAYS ON_DEMAND [PARENT:CHILD,CHILD…]…`: DIR holds `__wasm_split.js` and
//! the modules; ALWAYS is the group every signed-in page loads; ON_DEMAND, comma-separated, the
//! groups no page is made of (dialogs, embed mode), fetched when opened; each PARENT's pages
//! frame its CHILDren's.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;
use std::process::ExitCode;

use bundle_split::{file_of, groups_of, own_module, parents_of, Loader, GROUP_START};

fn bundle(
    dir: &Path,
    always: &str,
    on_demand: &[String],
    parents: &BTreeMap<String, String>,
) -> Result<(), String> {
    let read = |file: &str| fs::read(dir.join(file)).map_err(|e| format!("{file}: {e}"));
    let js = String::from_utf8(read("__wasm_split.js")?).map_err(|e| e.to_string())?;
    let loader = Loader::parse(&js)?;
    let helpers = loader.helpers(&js)?;
    let packing = loader.pack(always, on_demand, parents)?;
    // A number per module: the chunks in `chunk_order`, then each group's own. A file's modules
    // are then runs of numbers (`3-40,42`), which the loader carries as such.
    let chunks = chunk_order(&loader)?;
    let chunk_count = chunks.len();
    let modules: Vec<String> = chunks
        .into_iter()
        .chain(loader.groups.iter().map(|group| own_module(&group.name)))
        .collect();
    let number: BTreeMap<&str, usize> = modules
        .iter()
        .enumerate()
        .map(|(n, module)| (module.as_str(), n))
        .collect();
    let runs_of = |names: &mut dyn Iterator<Item = &String>| -> String {
        runs(&names.map(|name| number[name.as_str()]).collect::<Vec<_>>())
    };
    let sorted = |names: &[String]| -> Vec<String> {
        let mut names = names.to_vec();
        names.sort_by_key(|name| number[name.as_str()]);
        names
    };
    let always_file = file_of(always);
    let in_always_file = &packing
        .packs
        .iter()
        .find(|pack| pack.file == always_file)
        .ok_or(format!("no file for {always}"))?
        .modules;

    // Each file's modules in order, and each module's length: where a module is in a file is
    // the lengths of those before it, so the loader carries a length per module and a short
    // list per file rather than two offsets per copy.
    let mut lengths = vec![0; modules.len()];
    let mut packs_js = Vec::new();
    for pack in &packing.packs {
        // In number order, so that the file's list is runs: the group's own module, which the
        // packing puts first, is numbered after every chunk and goes last.
        let pack_modules = sorted(&pack.modules);
        let mut bytes = Vec::new();
        for module in &pack_modules {
            let module_bytes = read(module)?;
            lengths[number[module.as_str()]] = module_bytes.len();
            bytes.extend(module_bytes);
        }
        fs::write(dir.join(&pack.file), bytes).map_err(|e| format!("{}: {e}", pack.file))?;
        packs_js.push(format!(
            "\"{}\":\"{}\"",
            pack.file,
            runs_of(&mut pack_modules.iter())
        ));
    }
    if let Some(n) = lengths.iter().position(|length| *length == 0) {
        return Err(format!("{}: in no file", modules[n]));
    }

    let mut rewritten = String::with_capacity(js.len() / 4);
    rewritten.push_str(&helpers);
    let lengths_js: Vec<String> = lengths.iter().map(usize::to_string).collect();
    rewritten.push_str(&format!("const __lengths = [{}];\n", lengths_js.join(",")));
    rewritten.push_str(&format!("const __chunkCount = {chunk_count};\n"));
    rewritten.push_str(&format!("const __always = \"{always_file}\";\n"));
    rewritten.push_str(&format!("{PACKS_START}{}}};\n", packs_js.join(",")));
    rewritten.push_str(LOADING);
    rewritten.push_str(&format!(
        "export function fetchGroup(group) {{ __file(`{}`).catch(() => {{}}); }}\n",
        file_of("${group}")
    ));
    for group in &loader.groups {
        // Without its parent's file asked for, a group asks for its `beside` file too.
        let files = match packing.beside.get(&group.name) {
            Some(beside) => format!(
                "\"{}\", \"{}\", \"{}\"",
                file_of(&group.name),
                beside.file,
                beside.parent_file
            ),
            None => format!("\"{}\"", file_of(&group.name)),
        };
        // Its chunks are those of its files, and of the shell's when it needs one of them.
        let needs_always_file = group.name != always
            && group
                .chunks
                .iter()
                .any(|chunk| in_always_file.contains(chunk));
        rewritten.push_str(&format!(
            "{GROUP_START}{} = __group([{files}], {}, {});\n",
            group.name,
            number[own_module(&group.name).as_str()],
            u8::from(needs_always_file)
        ));
    }
    fs::write(dir.join("__wasm_split.js"), rewritten).map_err(|e| e.to_string())?;
    for module in &modules {
        fs::remove_file(dir.join(module)).map_err(|e| format!("{module}: {e}"))?;
    }
    Ok(())
}

/// The chunks in an order that makes each group's list of chunks, and each file's, a few runs of
/// numbers: a chunk is the code of one set of groups; read as bits (the group most chunks serve
/// the highest), the sets are taken in Gray code order, where neighbours differ by one group.
/// The loader's tables, which every page fetches, 0.6 KB smaller in brotli than in the loader's
/// order.
fn chunk_order(loader: &Loader) -> Result<Vec<String>, String> {
    let mut served: BTreeMap<&str, usize> = BTreeMap::new();
    for group in loader.chunks.iter().flat_map(|chunk| &chunk.groups) {
        *served.entry(group.as_str()).or_default() += 1;
    }
    let mut by_chunks: Vec<(&str, usize)> = served.into_iter().collect();
    by_chunks.sort_by_key(|(group, chunks)| (std::cmp::Reverse(*chunks), *group));
    if by_chunks.len() > 64 {
        return Err(format!(
            "{} groups: more than a chunk's set as bits holds",
            by_chunks.len()
        ));
    }
    let bit = |group: &str| {
        let rank = by_chunks.iter().position(|(g, _)| *g == group).unwrap_or(0);
        1u64 << (by_chunks.len() - 1 - rank)
    };
    let gray_rank = |mut bits: u64| {
        let mut rank = bits;
        while bits > 0 {
            bits >>= 1;
            rank ^= bits;
        }
        rank
    };
    let mut chunks: Vec<(u64, &str)> = loader
        .chunks
        .iter()
        .map(|chunk| {
            let bits = chunk
                .groups
                .iter()
                .map(|group| bit(group))
                .fold(0, |a, b| a | b);
            (gray_rank(bits), chunk.file.as_str())
        })
        .collect();
    chunks.sort();
    Ok(chunks
        .into_iter()
        .map(|(_, file)| file.to_string())
        .collect())
}

/// Numbers as runs: `[3, 4, 5, 9]` is `3-5,9`.
fn runs(numbers: &[usize]) -> String {
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for &n in numbers {
        match runs.last_mut() {
            Some((_, last)) if *last + 1 == n => *last = n,
            _ => runs.push((n, n)),
        }
    }
    let runs: Vec<String> = runs
        .into_iter()
        .map(|(first, last)| match first == last {
            true => first.to_string(),
            false => format!("{first}-{last}"),
        })
        .collect();
    runs.join(",")
}

/// How the loader's table of files starts: `{"split_shell.bin":"860,3-5,9",…}`, each file's
/// modules by number, in order, as runs (crates/e2e/tests/budgets.rs reads it too).
const PACKS_START: &str = "const __packs = {";

/// The loader's way to the files and the modules: each file fetched once (again after a
/// failure), a module read from the first of its files already asked for, else from its first;
/// a group's loader asks for its own file before its modules, and for its `beside` file when
/// its parent's is not asked for. A group loads every chunk of its own file and of its `beside`
/// file, and of the shell's file when it needs one of those (`always`): the packing put each
/// chunk it needs in one of them, so the loader carries no list of chunks per group (1.8 KB of
/// brotli less on every page). A chunk is loaded once whichever group asks for it, as
/// wasm-split's loader does with a constant per chunk; chunks import only the main module's
/// memory and table, so one loaded before a group needs it is no harm. `fetchGroup` asks for a
/// group's file before the main module has started (`start.js`, written by
/// scripts/build-wasm.sh).
const LOADING: &str = r#"function __runs(runs) {
    return runs === "" ? [] : runs.split(",").flatMap((run) => {
        const [first, last = first] = run.split("-").map(Number);
        return Array.from({ length: last - first + 1 }, (_, i) => first + i);
    });
}
const __places = __lengths.map(() => []);
for (const [name, modules] of Object.entries(__packs)) {
    let start = 0;
    for (const module of __runs(modules)) {
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
function __instantiate(module) {
    return () => {
        const src = __part(module);
        src.catch(() => {});
        return async (imports) => (WebAssembly.instantiateStreaming(src, imports));
    };
}
const __chunks = [];
function __chunk(module) {
    return __chunks[module] ??= makeLoad(__instantiate(module), []);
}
function __chunksIn(file) {
    return __runs(__packs[file]).filter((module) => module < __chunkCount);
}
function __group([own, beside, parent], module, always) {
    const files = [own, beside, always ? __always : undefined].filter((f) => f !== undefined);
    const load = makeLoad(__instantiate(module), files.flatMap(__chunksIn).map(__chunk));
    return wrapAsyncCb(() => {
        __file(own).catch(() => {});
        if (beside !== undefined && !__files.has(parent)) __file(beside).catch(() => {});
        return load();
    });
}
"#;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [dir, always, on_demand, nesting @ ..] = args.as_slice() else {
        eprintln!("usage: bundle-split DIR ALWAYS ON_DEMAND [PARENT:CHILD,CHILD…]…");
        return ExitCode::from(2);
    };
    let parents = match parents_of(nesting) {
        Ok(parents) => parents,
        Err(error) => {
            eprintln!("bundle-split: {error}");
            return ExitCode::from(2);
        }
    };
    match bundle(Path::new(dir), always, &groups_of(on_demand), &parents) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("bundle-split: {error}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::runs;

    #[test]
    fn numbers_are_written_as_runs_in_their_order() {
        assert_eq!(runs(&[3, 4, 5, 9, 10, 12]), "3-5,9-10,12");
        // A group's own module first, then its chunks: the order is kept, not sorted.
        assert_eq!(runs(&[860, 0, 1, 2, 7]), "860,0-2,7");
        assert_eq!(runs(&[]), "");
    }
}
