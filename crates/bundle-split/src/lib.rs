//! What wasm-split's loader says (`__wasm_split.js`: the modules, the groups of pages each
//! chunk serves, the chunks each group's loader fetches) and which file of the build holds each
//! module (`packs`). The packer (`main.rs`) writes those files; `wasm-size` reads the same
//! decision to say where the bytes are.

use std::collections::BTreeMap;

/// One module of the loader: a chunk (`const __chunk_8 = makeLoad(…)`) or a group's own
/// (`export const __wasm_split_load_shell = wrapAsyncCb(makeLoad(…))`).
pub struct Chunk {
    /// `chunk_8.wasm`.
    pub file: String,
    /// The groups whose code it holds, from the loader's comment above it.
    pub groups: Vec<String>,
}

pub struct Group {
    pub name: String,
    /// The chunks its loader fetches, in order.
    pub chunks: Vec<String>,
}

pub struct Loader {
    pub chunks: Vec<Chunk>,
    pub groups: Vec<Group>,
}

pub const GROUP_START: &str = "export const __wasm_split_load_";

impl Loader {
    pub fn parse(js: &str) -> Result<Loader, String> {
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

impl Loader {
    /// wasm-split's own functions (the shared imports, `wrapAsyncCb`, `makeLoad`): the loader's
    /// text before its first chunk, once the rest is checked to be what the packer writes anew
    /// from the parsed chunks and groups (each chunk fetched on its own, with no chunk before
    /// it; each group's module fetched after its chunks), so that nothing it said is lost.
    pub fn helpers(&self, js: &str) -> Result<String, String> {
        let start = js.find("\n/* ").ok_or("no chunk in __wasm_split.js")? + 1;
        let (helpers, rest) = js.split_at(start);
        for function in ["function makeLoad(", "function wrapAsyncCb("] {
            if !helpers.contains(function) {
                return Err(format!("__wasm_split.js has no `{function}`"));
            }
        }
        let chunk_name = |file: &str| format!("__chunk_{}", chunk_number(file));
        let mut expected = String::with_capacity(rest.len());
        for chunk in &self.chunks {
            expected.push_str(&format!(
                "/* {} */\nconst {} = makeLoad({}, []);\n",
                chunk.groups.join(", "),
                chunk_name(&chunk.file),
                fetcher(&chunk.file)
            ));
        }
        for group in &self.groups {
            let chunks: Vec<String> = group.chunks.iter().map(|c| chunk_name(c)).collect();
            expected.push_str(&format!(
                "{GROUP_START}{} = wrapAsyncCb(makeLoad({}, [{}]));\n",
                group.name,
                fetcher(&own_module(&group.name)),
                chunks.join(", ")
            ));
        }
        match rest
            .lines()
            .zip(expected.lines())
            .find(|(was, known)| was != known)
        {
            Some((was, known)) => Err(format!(
                "wasm-split-cli's loader is not as bundle-split knows it: `{was}` where `{known}`"
            )),
            None if rest != expected => Err("wasm-split-cli's loader has more or fewer lines \
                than bundle-split knows"
                .into()),
            None => Ok(helpers.to_string()),
        }
    }
}

/// wasm-split's fetch of one module.
fn fetcher(file: &str) -> String {
    format!(
        "() => {{\n    const src = fetch(new URL(\"./{file}\", import.meta.url));\n    \
         src.catch(() => {{}});\n    return async (imports) => \
         (WebAssembly.instantiateStreaming(src, imports));\n}}\n"
    )
}

/// `chunk_8.wasm`'s `8`.
fn chunk_number(file: &str) -> &str {
    file.trim_start_matches("chunk_").trim_end_matches(".wasm")
}

/// A group's own module: `split_service.wasm`.
pub fn own_module(group: &str) -> String {
    format!("split_{group}.wasm")
}

/// A file of the build and the modules it holds, in order.
pub struct Pack {
    pub file: String,
    pub modules: Vec<String>,
}

/// A group's pages shown within a page of another group, its parent (a service's tabs within
/// the service's frame): what the group shares with its parent is in the parent's file, already
/// fetched, and in a file of its own (`beside`) fetched only when the group is opened without
/// its parent (the alerts page, of the monitoring group, is not a service's tab).
pub struct Beside {
    pub file: String,
    pub parent_file: String,
}

/// Which file holds each module: each group's file holds its own module and its chunks, but
/// those the file of the group every page loads (`always`) holds and those it shares with its
/// parent (`parents`: group → parent), which are in the parent's file and in its `beside` file.
/// The `always` group's file also holds the chunks that every group of pages needs, or its
/// parent does (every group but those fetched `on_demand`: a dialog's, embed mode's), and no
/// other file does: a page fetches them once, with the file it fetches anyway, rather than each
/// group's file holding a copy. A group fetched on demand that needs one reads it from there
/// too (a dialog opens on a signed-in page, whose shell is fetched).
pub struct Packing {
    pub packs: Vec<Pack>,
    /// The groups with a parent.
    pub beside: BTreeMap<String, Beside>,
}

impl Loader {
    pub fn pack(
        &self,
        always: &str,
        on_demand: &[String],
        parents: &BTreeMap<String, String>,
    ) -> Result<Packing, String> {
        let group_names: Vec<&str> = self.groups.iter().map(|g| g.name.as_str()).collect();
        for name in parents
            .keys()
            .chain(parents.values())
            .chain(on_demand)
            .chain([&always.to_string()])
        {
            if !group_names.contains(&name.as_str()) {
                return Err(format!("no group named {name}"));
            }
        }
        let groups_of: BTreeMap<&str, &[String]> = self
            .chunks
            .iter()
            .map(|chunk| (chunk.file.as_str(), chunk.groups.as_slice()))
            .collect();
        let serves = |chunk: &str, group: &str| groups_of[chunk].iter().any(|g| g == group);
        let pages: Vec<&Group> = self
            .groups
            .iter()
            .filter(|group| group.name != always && !on_demand.contains(&group.name))
            .collect();
        let needs = |name: &str, chunk: &String| {
            self.groups
                .iter()
                .any(|group| group.name == name && group.chunks.contains(chunk))
        };
        // A group shown within its parent's pages is fetched with its parent, whose code counts;
        // a frame is shown with one of its tabs, whose code counts when every tab needs it.
        let tabs_of = |frame: &str| -> Vec<&&Group> {
            pages
                .iter()
                .filter(|tab| parents.get(&tab.name).is_some_and(|parent| parent == frame))
                .collect()
        };
        let every_page_needs = |chunk: &String| {
            pages.iter().all(|group| {
                let tabs = tabs_of(&group.name);
                group.chunks.contains(chunk)
                    || parents
                        .get(&group.name)
                        .is_some_and(|parent| needs(parent, chunk))
                    || (!tabs.is_empty() && tabs.iter().all(|tab| tab.chunks.contains(chunk)))
            })
        };
        let in_always_file = |chunk: &String| serves(chunk, always) || every_page_needs(chunk);
        let mut packs = Vec::new();
        let mut beside = BTreeMap::new();
        for group in &self.groups {
            let name = group.name.as_str();
            let own = own_module(name);
            let taken: Vec<&String> = if name == always {
                let everywhere = self.chunks.iter().map(|chunk| &chunk.file);
                let extra = everywhere
                    .filter(|chunk| every_page_needs(chunk) && !group.chunks.contains(chunk));
                group.chunks.iter().chain(extra).collect()
            } else {
                group
                    .chunks
                    .iter()
                    .filter(|chunk| !in_always_file(chunk))
                    .collect()
            };
            let parent = parents.get(name);
            let (with_parent, alone): (Vec<&String>, Vec<&String>) = taken
                .into_iter()
                .partition(|chunk| parent.is_some_and(|parent| serves(chunk, parent)));
            let modules = std::iter::once(&own).chain(alone).cloned().collect();
            packs.push(Pack {
                file: file_of(name),
                modules,
            });
            if let Some(parent) = parent {
                let file = format!("split_{name}_without_{parent}.bin");
                packs.push(Pack {
                    file: file.clone(),
                    modules: with_parent.into_iter().cloned().collect(),
                });
                beside.insert(
                    name.to_string(),
                    Beside {
                        file,
                        parent_file: file_of(parent),
                    },
                );
            }
        }
        Ok(Packing { packs, beside })
    }
}

/// Each group's parent, from `PARENT:CHILD,CHILD…` arguments.
pub fn parents_of(nesting: &[String]) -> Result<BTreeMap<String, String>, String> {
    let mut parents = BTreeMap::new();
    for parent_and_children in nesting {
        let (parent, children) = parent_and_children
            .split_once(':')
            .ok_or(format!("{parent_and_children}: not PARENT:CHILD,CHILD…"))?;
        for child in children.split(',') {
            parents.insert(child.to_string(), parent.to_string());
        }
    }
    Ok(parents)
}

/// Groups named in a comma-separated list (none in an empty one).
pub fn groups_of(list: &str) -> Vec<String> {
    list.split(',')
        .filter(|name| !name.is_empty())
        .map(str::to_string)
        .collect()
}

/// A group's file: `split_service.bin`.
pub fn file_of(group: &str) -> String {
    format!("split_{group}.bin")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|name| name.to_string()).collect()
    }

    fn group(name: &str, chunks: &[&str]) -> Group {
        Group {
            name: name.into(),
            chunks: names(chunks),
        }
    }

    fn modules_of<'a>(packing: &'a Packing, file: &str) -> &'a [String] {
        let pack = packing.packs.iter().find(|pack| pack.file == file);
        &pack.unwrap_or_else(|| panic!("no file {file}")).modules
    }

    /// `everywhere.wasm` is needed by both groups of pages but not by the palette (a dialog);
    /// `two.wasm` by the two pages and the palette; `one.wasm` by one page alone.
    fn loader() -> Loader {
        let chunk = |file: &str, groups: &[&str]| Chunk {
            file: file.into(),
            groups: names(groups),
        };
        Loader {
            chunks: vec![
                chunk("everywhere.wasm", &["fleet", "cluster"]),
                chunk("two.wasm", &["fleet", "cluster", "palette"]),
                chunk("one.wasm", &["fleet"]),
            ],
            groups: vec![
                group("shell", &[]),
                group("fleet", &["everywhere.wasm", "two.wasm", "one.wasm"]),
                group("cluster", &["everywhere.wasm", "two.wasm"]),
                group("palette", &["two.wasm"]),
            ],
        }
    }

    #[test]
    fn what_every_group_of_pages_needs_is_in_the_shell_file_alone() {
        let packing = loader()
            .pack("shell", &names(&["palette"]), &BTreeMap::new())
            .unwrap();
        assert_eq!(
            modules_of(&packing, "split_shell.bin"),
            names(&["split_shell.wasm", "everywhere.wasm", "two.wasm"])
        );
        assert_eq!(
            modules_of(&packing, "split_fleet.bin"),
            names(&["split_fleet.wasm", "one.wasm"])
        );
        assert_eq!(
            modules_of(&packing, "split_cluster.bin"),
            names(&["split_cluster.wasm"])
        );
        assert_eq!(
            modules_of(&packing, "split_palette.bin"),
            names(&["split_palette.wasm"])
        );
    }

    #[test]
    fn a_dialog_counted_as_a_page_keeps_shared_code_in_the_groups_files() {
        // Without the palette named as fetched on demand, `everywhere.wasm` is not needed by
        // every group and stays in each page's file.
        let packing = loader().pack("shell", &[], &BTreeMap::new()).unwrap();
        assert_eq!(
            modules_of(&packing, "split_shell.bin"),
            names(&["split_shell.wasm", "two.wasm"])
        );
        assert_eq!(
            modules_of(&packing, "split_cluster.bin"),
            names(&["split_cluster.wasm", "everywhere.wasm"])
        );
    }

    #[test]
    fn a_tab_counts_its_frames_code() {
        // `frame.wasm` is needed by the fleet and by the service's frame, not by its logs tab,
        // which is shown within the frame: every page (the fleet, the logs in their frame)
        // fetches it.
        let loader = Loader {
            chunks: vec![Chunk {
                file: "frame.wasm".into(),
                groups: names(&["fleet", "service"]),
            }],
            groups: vec![
                group("shell", &[]),
                group("fleet", &["frame.wasm"]),
                group("service", &["frame.wasm"]),
                group("logs", &[]),
            ],
        };
        let parents = BTreeMap::from([("logs".to_string(), "service".to_string())]);
        let packing = loader.pack("shell", &[], &parents).unwrap();
        assert_eq!(
            modules_of(&packing, "split_shell.bin"),
            names(&["split_shell.wasm", "frame.wasm"])
        );
        assert_eq!(
            modules_of(&packing, "split_service.bin"),
            names(&["split_service.wasm"])
        );
        // Without the frame, the logs' pages would not need it: it stays in the groups' files.
        let packing = loader.pack("shell", &[], &BTreeMap::new()).unwrap();
        assert_eq!(
            modules_of(&packing, "split_shell.bin"),
            names(&["split_shell.wasm"])
        );
    }

    #[test]
    fn a_frame_counts_what_every_one_of_its_tabs_needs() {
        // `lists.wasm` is needed by the fleet and by both tabs of the environment's frame, not by
        // the frame: every page (the fleet, a tab in its frame) fetches it.
        let loader = Loader {
            chunks: vec![Chunk {
                file: "lists.wasm".into(),
                groups: names(&["fleet", "services", "variables"]),
            }],
            groups: vec![
                group("shell", &[]),
                group("fleet", &["lists.wasm"]),
                group("environment", &[]),
                group("services", &["lists.wasm"]),
                group("variables", &["lists.wasm"]),
            ],
        };
        let parents = BTreeMap::from([
            ("services".to_string(), "environment".to_string()),
            ("variables".to_string(), "environment".to_string()),
        ]);
        let packing = loader.pack("shell", &[], &parents).unwrap();
        assert_eq!(
            modules_of(&packing, "split_shell.bin"),
            names(&["split_shell.wasm", "lists.wasm"])
        );
        assert_eq!(
            modules_of(&packing, "split_services.bin"),
            names(&["split_services.wasm"])
        );
        // When one tab does not need it, the frame's pages do not all need it.
        let variables_alone = Loader {
            groups: vec![
                group("shell", &[]),
                group("fleet", &["lists.wasm"]),
                group("environment", &[]),
                group("services", &[]),
                group("variables", &["lists.wasm"]),
            ],
            ..loader
        };
        let packing = variables_alone.pack("shell", &[], &parents).unwrap();
        assert_eq!(
            modules_of(&packing, "split_shell.bin"),
            names(&["split_shell.wasm"])
        );
    }

    #[test]
    fn an_unknown_group_is_refused() {
        let refused = loader().pack("shell", &names(&["dialog"]), &BTreeMap::new());
        assert_eq!(refused.err(), Some("no group named dialog".to_string()));
    }
}
