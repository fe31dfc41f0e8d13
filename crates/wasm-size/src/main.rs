//! Where the console's wasm bytes are: for the main module and each file of the build (as
//! crates/bundle-split packs them), its largest functions and crates, and the code that several
//! files hold. It reads the split's modules before wasm-opt strips their names
//! (scripts/wasm-size.sh), so its figures are code bytes before optimization and compression:
//! they say where the bytes are, the budget test (crates/e2e/tests/budgets.rs) how many ship.
//!
//! `wasm-size DIR ALWAYS ON_DEMAND [PARENT:CHILD,CHILD…]…`, the arguments of bundle-split;
//! `WASM_SIZE_TOP` sets how many functions and crates are listed per file (10).

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;
use std::process::ExitCode;

use bundle_split::{groups_of, parents_of, Loader, Pack};
use wasmparser::{KnownCustom, Name, Parser, Payload, TypeRef};

/// A function's demangled name (without its hash) and the bytes of its body.
struct Function {
    name: String,
    bytes: usize,
}

fn functions_of(path: &Path) -> Result<Vec<Function>, String> {
    let bytes = fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut imported = 0u32;
    let mut bodies = Vec::new();
    let mut names = BTreeMap::new();
    for payload in Parser::new(0).parse_all(&bytes) {
        match payload.map_err(|e| format!("{}: {e}", path.display()))? {
            Payload::ImportSection(imports) => {
                for import in imports.into_imports() {
                    let import = import.map_err(|e| e.to_string())?;
                    if matches!(import.ty, TypeRef::Func(_) | TypeRef::FuncExact(_)) {
                        imported += 1;
                    }
                }
            }
            Payload::CodeSectionEntry(body) => bodies.push(body.range().len()),
            Payload::CustomSection(section) => {
                if let KnownCustom::Name(reader) = section.as_known() {
                    for name in reader {
                        if let Ok(Name::Function(map)) = name {
                            for naming in map.into_iter().flatten() {
                                names.insert(naming.index, naming.name.to_string());
                            }
                        }
                    }
                }
            }
            _ => {}
        }
    }
    Ok(bodies
        .into_iter()
        .enumerate()
        .map(|(at, bytes)| {
            let index = imported + at as u32;
            let name = names
                .get(&index)
                .map(|name| format!("{:#}", rustc_demangle::demangle(name)))
                .unwrap_or_else(|| format!("function[{index}]"));
            Function { name, bytes }
        })
        .collect())
}

/// The crate a function is charged to: its path's first segment, or for a method of an
/// implementation (`<Type as Trait>::method`) its type's, or its trait's when the type is a
/// generic parameter (`<T as leptos_router::…>`).
fn crate_of(name: &str) -> &str {
    let name = name.trim_start_matches(['<', '&', '*', '(', '[']);
    let name = match name.split_once(" as ") {
        Some((ty, tr)) if ty.len() <= 3 && ty.chars().all(|c| c.is_ascii_uppercase()) => tr,
        _ => name,
    };
    let name = name
        .trim_start_matches("mut ")
        .trim_start_matches("const ")
        .trim_start_matches("dyn ");
    let end = name
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(name.len());
    &name[..end]
}

fn largest<K: Ord + Clone>(
    sizes: impl IntoIterator<Item = (K, usize)>,
    top: usize,
) -> Vec<(K, usize)> {
    let mut summed: BTreeMap<K, usize> = BTreeMap::new();
    for (key, bytes) in sizes {
        *summed.entry(key).or_default() += bytes;
    }
    let mut sorted: Vec<(K, usize)> = summed.into_iter().collect();
    sorted.sort_by_key(|(_, bytes)| std::cmp::Reverse(*bytes));
    sorted.truncate(top);
    sorted
}

fn report(
    dir: &Path,
    always: &str,
    on_demand: &[String],
    nesting: &[String],
    top: usize,
) -> Result<(), String> {
    let js = fs::read_to_string(dir.join("__wasm_split.js")).map_err(|e| e.to_string())?;
    let packing = Loader::parse(&js)?.pack(always, on_demand, &parents_of(nesting)?)?;
    let main = Pack {
        file: "console.wasm (main)".into(),
        modules: vec!["console.wasm".into()],
    };
    let mut modules: BTreeMap<&str, Vec<Function>> = BTreeMap::new();
    for pack in std::iter::once(&main).chain(&packing.packs) {
        for module in &pack.modules {
            if !modules.contains_key(module.as_str()) {
                modules.insert(module, functions_of(&dir.join(module))?);
            }
        }
    }

    println!("code bytes before wasm-opt and compression, per file of the build\n");
    for pack in std::iter::once(&main).chain(&packing.packs) {
        let functions: Vec<&Function> = pack
            .modules
            .iter()
            .flat_map(|module| &modules[module.as_str()])
            .collect();
        let total: usize = functions.iter().map(|f| f.bytes).sum();
        println!(
            "{} — {total} bytes, {} functions",
            pack.file,
            functions.len()
        );
        println!("  crates:");
        for (name, bytes) in largest(functions.iter().map(|f| (crate_of(&f.name), f.bytes)), top) {
            println!("  {bytes:>9}  {name}");
        }
        println!("  functions:");
        for (name, bytes) in largest(functions.iter().map(|f| (f.name.as_str(), f.bytes)), top) {
            println!("  {bytes:>9}  {}", shorten(name));
        }
        println!();
    }

    // A module in the files of several groups is fetched again by each page that opens two of
    // them (a `beside` file is fetched only without its parent's, and is not counted).
    let group_files: Vec<&Pack> = packing
        .packs
        .iter()
        .filter(|pack| !pack.file.contains("_without_"))
        .collect();
    let mut held: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for pack in &group_files {
        for module in &pack.modules {
            held.entry(module).or_default().push(&pack.file);
        }
    }
    let shared: Vec<(&str, usize, &Vec<&str>)> = held
        .iter()
        .filter(|(_, files)| files.len() > 1)
        .map(|(module, files)| {
            let bytes: usize = modules[module].iter().map(|f| f.bytes).sum();
            (*module, bytes, files)
        })
        .collect();
    let copies: usize = shared
        .iter()
        .map(|(_, bytes, files)| bytes * (files.len() - 1))
        .sum();
    println!(
        "held by several groups' files: {} modules, {copies} bytes of copies",
        shared.len()
    );
    let mut shared = shared;
    shared.sort_by_key(|(_, bytes, files)| std::cmp::Reverse(bytes * (files.len() - 1)));
    for (module, bytes, files) in shared.into_iter().take(top) {
        let crates = largest(
            modules[module].iter().map(|f| (crate_of(&f.name), f.bytes)),
            3,
        );
        let crates: Vec<String> = crates.iter().map(|(c, b)| format!("{c} {b}")).collect();
        println!(
            "  {bytes:>9}  {module} in {} ({})",
            files.join(", "),
            crates.join(", ")
        );
    }
    Ok(())
}

/// A name cut to a line: generic arguments can run to thousands of characters.
fn shorten(name: &str) -> String {
    const MOST: usize = 150;
    if name.chars().count() <= MOST {
        return name.to_string();
    }
    let cut: String = name.chars().take(MOST).collect();
    format!("{cut}…")
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [dir, always, on_demand, nesting @ ..] = args.as_slice() else {
        eprintln!("usage: wasm-size DIR ALWAYS ON_DEMAND [PARENT:CHILD,CHILD…]…");
        return ExitCode::from(2);
    };
    let top = std::env::var("WASM_SIZE_TOP")
        .ok()
        .and_then(|top| top.parse().ok())
        .unwrap_or(10);
    match report(Path::new(dir), always, &groups_of(on_demand), nesting, top) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("wasm-size: {error}");
            ExitCode::FAILURE
        }
    }
}
