#!/usr/bin/env python3
"""The import circles of a crate: each source file is a node, each `use crate::a::b` (or
`crate::a::b` path) an edge to the file that defines `a::b`; prints every strongly connected
component of more than one file, largest first.

    python3 scripts/import-circles.py crates/server/src
"""
import os
import re
import sys

root = sys.argv[1] if len(sys.argv) > 1 else "crates/server/src"
files = {}
for folder, _, names in os.walk(root):
    for name in names:
        # main.rs is the binary, a crate of its own over the library.
        if name.endswith(".rs") and not (folder == root and name == "main.rs"):
            path = os.path.join(folder, name)
            module = os.path.relpath(path, root)[:-3].replace(os.sep, "::")
            module = re.sub(r"(^|::)(mod|lib|main)$", "", module)
            files[module] = path


def file_of(path):
    """The file defining the longest prefix of `path` (a::b::c); the crate root's for an item
    of its own (`crate::AppState`)."""
    parts = [part for part in path.split("::") if part and part != "self"]
    for end in range(len(parts), 0, -1):
        module = "::".join(parts[:end])
        if module in files:
            return module
    return ""


def expand(tree):
    """`a::{b, c::{d, e}}` as [a::b, a::c::d, a::c::e]."""
    tree = tree.strip()
    if "{" not in tree:
        return [tree]
    head, rest = tree.split("{", 1)
    inner = rest[: rest.rfind("}")]
    parts, depth, current = [], 0, ""
    for char in inner:
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
            continue
        depth += char == "{"
        depth -= char == "}"
        current += char
    parts.append(current)
    return [head + path for part in parts if part.strip() for path in expand(part)]


def used_paths(text, prefix):
    """Every path after `prefix::` in `use` statements and in code."""
    paths = []
    for tree in re.findall(r"\buse\s+" + prefix + r"::([^;]*);", text, re.S):
        paths.extend(expand(tree))
    code = re.sub(r"\buse\s+[^;]*;", "", text)
    paths.extend(re.findall(r"\b" + prefix + r"::([A-Za-z_][A-Za-z0-9_:]*)", code))
    return [re.sub(r"\s+as\s+\w+$", "", path).strip().rstrip(":") for path in paths]


edges = {module: set() for module in files}
for module, path in files.items():
    text = open(path, encoding="utf-8").read().split("#[cfg(test)]")[0]
    own = module.rsplit("::", 1)[0] if "::" in module else ""
    if path.endswith("mod.rs"):
        own = module.rsplit("::", 1)[0] if "::" in module else ""
    for used in used_paths(text, "crate"):
        edges[module].add(file_of(used))
    if module == "":
        # The crate root names its own modules without `crate::`.
        tops = {name.split("::")[0] for name in files if name}
        for top in tops:
            for used in used_paths(text, top):
                edges[module].add(file_of(top + "::" + used))
    for used in used_paths(text, "super"):
        edges[module].add(file_of((own + "::" if own else "") + used))
    edges[module].discard(module)

# Tarjan's strongly connected components.
index, low, on_stack, stack, components = {}, {}, set(), [], []
counter = [0]


def visit(node):
    index[node] = low[node] = counter[0]
    counter[0] += 1
    stack.append(node)
    on_stack.add(node)
    for target in edges.get(node, ()):
        if target not in index:
            visit(target)
            low[node] = min(low[node], low[target])
        elif target in on_stack:
            low[node] = min(low[node], index[target])
    if low[node] == index[node]:
        component = []
        while True:
            member = stack.pop()
            on_stack.discard(member)
            component.append(member)
            if member == node:
                break
        components.append(sorted(component))


sys.setrecursionlimit(10000)
for module in files:
    if module not in index:
        visit(module)
circles = sorted((c for c in components if len(c) > 1), key=len, reverse=True)
print(f"{root}: {len(files)} files, {len(circles)} import circles")
for circle in circles:
    print(f"  {len(circle)} files: {', '.join(name or '(crate root)' for name in circle)}")
