//! Packs the split console's modules into one file per group of pages.
//!
//! `wasm-split-cli` cuts the code that groups of pages share into a module per combination of
//! groups: with nine groups, a page fetched 90 to 150 small files, each a request and a
//! compression of its own (measured: the 1,000-service environment page 216 → 339 ms from
//! navigation to rows, 30 → 131 files). This packs them, after wasm-opt, into one file per group
//! (`split_<group>.bin`): the group's module and every module its loader fetches, but those the
//! group every page loads (`shell`) also fetches, which are in that group's file alone. A module
//! several groups share is in each of their files, each of which starts with a table of its
//! modules; the loader (`__wasm_split.js`, written anew here: see `LOADING`) loads a module from
//! the first file asked for it, so that a page fetches the files of its groups and no other. A
//! group shown within another's pages (a service's tab within the service's frame) leaves what
//! it shares with that parent to the parent's file, and to a file of its own fetched only when
//! it is opened without its parent (`Beside`): the service settings page fetched the service
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
    // are then runs of numbers (`3-40,42`), which its table carries as such.
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

    // Each file starts with its own table: the modules it holds, by number, as runs, and
    // their lengths (where a module is in the file is the lengths of those before it). The
    // loader, which every page fetches, then carries no table of every file's modules (6.5 KB
    // of brotli), and a page reads the tables of the files it fetches alone.
    let mut holds: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for pack in &packing.packs {
        // In number order, so that the file's list is runs: the group's own module, which the
        // packing puts first, is numbered after every chunk and goes last.
        let pack_modules = sorted(&pack.modules);
        let mut lengths = Vec::new();
        let mut bytes = Vec::new();
        for module in &pack_modules {
            let module_bytes = read(module)?;
            lengths.push(module_bytes.len().to_string());
            bytes.extend(module_bytes);
        }
        let table = format!(
            "{};{}",
            runs_of(&mut pack_modules.iter()),
            lengths.join(",")
        );
        let table_length = u32::try_from(table.len()).map_err(|e| e.to_string())?;
        let mut file = table_length.to_le_bytes().to_vec();
        file.extend(table.as_bytes());
        file.extend(bytes);
        fs::write(dir.join(&pack.file), file).map_err(|e| format!("{}: {e}", pack.file))?;
        holds.insert(
            &pack.file,
            pack_modules.iter().map(|m| number[m.as_str()]).collect(),
        );
    }
    if let Some(module) = modules.iter().find(|module| {
        !holds
            .values()
            .flatten()
            .any(|n| *n == number[module.as_str()])
    }) {
        return Err(format!("{module}: in no file"));
    }

    let mut rewritten = String::with_capacity(js.len() / 4);
    rewritten.push_str(&helpers);
    rewritten.push_str(&format!("const __chunkCount = {chunk_count};\n"));
    rewritten.push_str(&format!("const __always = \"{always_file}\";\n"));
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
        // The loader reads a group's chunks from those files alone, its parent's (already
        // fetched) in place of its `beside` file: each chunk it needs must be in them, both ways.
        let beside = packing.beside.get(&group.name);
        let ways = match beside {
            Some(beside) => vec![Some(&beside.file), Some(&beside.parent_file)],
            None => vec![None],
        };
        for other in ways {
            let files = [
                Some(&file_of(&group.name)),
                other,
                needs_always_file.then_some(&always_file),
            ];
            let held: Vec<usize> = files
                .into_iter()
                .flatten()
                .flat_map(|file| holds[file.as_str()].iter().copied())
                .collect();
            if let Some(chunk) = group
                .chunks
                .iter()
                .find(|chunk| !held.contains(&number[chunk.as_str()]))
            {
                return Err(format!(
                    "{chunk}: needed by {}, in none of {files:?}",
                    group.name
                ));
            }
        }
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
/// The files' tables 0.6 KB smaller in brotli than in the loader's order (measured when the
/// loader carried them).
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

/// The loader's way to the files and the modules: each file fetched once (again after a
/// failure), its table read from its start; a group's loader asks for its own file, for its
/// parent's if asked for already, else for its `beside` file, and for the shell's file when it
/// needs one of its chunks (`always`), then loads every chunk of those files and its own module.
/// The packing put each chunk a group needs in one of them (checked in `bundle`), so the loader
/// carries no list of chunks per group nor of modules per file. A chunk is loaded once, from the
/// first file asked for it, whichever group asks, as wasm-split's loader does with a constant
/// per chunk; chunks import only the main module's memory and table, so one loaded before a
/// group needs it is no harm. `fetchGroup` asks for a group's file before the main module has
/// started (`start.js`, written by scripts/build-wasm.sh).
const LOADING: &str = r#"function __runs(runs) {
    return runs === "" ? [] : runs.split(",").flatMap((run) => {
        const [first, last = first] = run.split("-").map(Number);
        return Array.from({ length: last - first + 1 }, (_, i) => first + i);
    });
}
const __files = new Map();
function __read(bytes) {
    const size = new DataView(bytes).getUint32(0, true);
    const table = new TextDecoder().decode(new Uint8Array(bytes, 4, size)).split(";");
    const lengths = table[1].split(",").map(Number);
    const modules = new Map();
    let start = 4 + size;
    __runs(table[0]).forEach((module, i) => {
        modules.set(module, [start, start + lengths[i]]);
        start += lengths[i];
    });
    return { bytes, modules };
}
function __file(name) {
    let file = __files.get(name);
    if (file === undefined) {
        file = fetch(new URL("./" + name, import.meta.url)).then((answer) => {
            if (!answer.ok) throw new Error(`${name}: ${answer.status}`);
            return answer.arrayBuffer();
        }).then(__read);
        file.catch(() => { if (__files.get(name) === file) __files.delete(name); });
        __files.set(name, file);
    }
    return file;
}
function __instantiate(name, module) {
    return () => {
        const src = __file(name).then(({ bytes, modules }) => {
            const [start, end] = modules.get(module);
            return new Response(new Uint8Array(bytes, start, end - start),
                { headers: { "Content-Type": "application/wasm" } });
        });
        src.catch(() => {});
        return async (imports) => (WebAssembly.instantiateStreaming(src, imports));
    };
}
const __chunks = [];
function __chunk(name, module) {
    return __chunks[module] ??= makeLoad(__instantiate(name, module), []);
}
async function __chunksOf(name) {
    const { modules } = await __file(name);
    const chunks = [...modules.keys()].filter((module) => module < __chunkCount);
    await Promise.all(chunks.map((module) => __chunk(name, module)()));
}
function __group([own, beside, parent], module, always) {
    let files = [];
    const load = makeLoad(() => {
        const instantiate = __instantiate(own, module)();
        return async (imports) => {
            await Promise.all(files.map(__chunksOf));
            return instantiate(imports);
        };
    }, []);
    return wrapAsyncCb(() => {
        const shared = parent !== undefined && __files.has(parent) ? parent : beside;
        files = [own, shared, always ? __always : undefined].filter((f) => f !== undefined);
        files.forEach((name) => __file(name).catch(() => {}));
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
