//! The modules of `src/` depend on each other in one direction: no module uses another that uses
//! it back, directly or around a circle (docs/design.md, "Layers").
//!
//! A module's uses are read from its source outside comments and unit-test modules: every
//! `crate::` and `super::` path, and in a module with children its `use child::` lines. A path
//! counts as a use of the deepest module it names. `lib.rs`, which only declares the modules
//! and re-exports the Rust API, is not a node.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Module name ("capi::object") -> its source, for every file under `src/` but lib.rs and the
/// unit-test files.
fn modules() -> BTreeMap<String, String> {
    fn walk(dir: &Path, prefix: &str, found: &mut BTreeMap<String, String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let stem = path.file_stem().unwrap().to_str().unwrap().to_owned();
            let name = if prefix.is_empty() { stem.clone() } else { format!("{prefix}::{stem}") };
            if path.is_dir() {
                walk(&path, &name, found);
            } else if path.extension().is_some_and(|e| e == "rs") && stem != "lib" && stem != "tests" {
                let module = if stem == "mod" { prefix.to_owned() } else { name };
                found.insert(module, std::fs::read_to_string(&path).unwrap());
            }
        }
    }
    let mut found = BTreeMap::new();
    walk(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), "", &mut found);
    found
}

/// `source` without comments and without its unit-test module.
fn code(source: &str) -> String {
    let source = source.split("#[cfg(test)]\nmod tests").next().unwrap();
    source.lines().map(|line| line.split("//").next().unwrap()).collect::<Vec<_>>().join("\n")
}

/// The path segments after each occurrence of `prefix` ("crate::a::b::C" gives [a, b, C]).
fn paths_after<'a>(code: &'a str, prefix: &str) -> Vec<Vec<&'a str>> {
    let is_segment = |c: char| c.is_alphanumeric() || c == '_' || c == ':';
    code.match_indices(prefix)
        .filter(|(at, _)| !code[..*at].ends_with(|c: char| c.is_alphanumeric() || c == '_'))
        .map(|(at, _)| {
            let rest = &code[at + prefix.len()..];
            let end = rest.find(|c: char| !is_segment(c)).unwrap_or(rest.len());
            rest[..end].split("::").filter(|s| !s.is_empty()).collect()
        })
        .collect()
}

/// The deepest module of `known` that `base` followed by `segments` names.
fn deepest(known: &BTreeMap<String, String>, base: &str, segments: &[&str]) -> Option<String> {
    (0..=segments.len()).rev().find_map(|n| {
        let mut name = base.to_owned();
        for segment in &segments[..n] {
            if !name.is_empty() {
                name.push_str("::");
            }
            name.push_str(segment);
        }
        known.contains_key(&name).then_some(name)
    })
}

fn uses(known: &BTreeMap<String, String>) -> BTreeMap<String, BTreeSet<String>> {
    let mut graph = BTreeMap::new();
    for (module, source) in known {
        let code = code(source);
        let parent = module.rsplit_once("::").map_or("", |(parent, _)| parent);
        let mut used = BTreeSet::new();
        for segments in paths_after(&code, "crate::") {
            used.extend(deepest(known, "", &segments));
        }
        for segments in paths_after(&code, "super::") {
            used.extend(deepest(known, parent, &segments));
        }
        for prefix in ["\nuse ", "\npub use ", "\npub(crate) use ", "\npub(super) use "] {
            for segments in paths_after(&code, prefix) {
                used.extend(deepest(known, module, &segments[..1]).filter(|child| child != module));
            }
        }
        used.remove(module);
        used.remove("");
        graph.insert(module.clone(), used);
    }
    graph
}

/// A circle of uses through `start`, if there is one.
fn circle(graph: &BTreeMap<String, BTreeSet<String>>, start: &str) -> Option<Vec<String>> {
    let mut path = vec![start.to_owned()];
    let mut seen = BTreeSet::new();
    fn go(
        graph: &BTreeMap<String, BTreeSet<String>>,
        start: &str,
        path: &mut Vec<String>,
        seen: &mut BTreeSet<String>,
    ) -> bool {
        for next in &graph[path.last().unwrap()] {
            if next == start {
                return true;
            }
            if seen.insert(next.clone()) {
                path.push(next.clone());
                if go(graph, start, path, seen) {
                    return true;
                }
                path.pop();
            }
        }
        false
    }
    go(graph, start, &mut path, &mut seen).then_some(path)
}

#[test]
fn no_module_uses_one_that_uses_it_back() {
    let known = modules();
    let graph = uses(&known);
    for module in graph.keys() {
        if let Some(path) = circle(&graph, module) {
            panic!("a circle of uses: {} -> {module}", path.join(" -> "));
        }
    }
}

/// The reading itself finds uses: known edges are there, so an empty graph cannot pass.
#[test]
fn the_reading_finds_the_uses_it_should() {
    let graph = uses(&modules());
    for (from, to) in [
        ("capi::fortran", "capi::object"),
        ("capi::object", "capi::handle"),
        ("capi::object", "capi"),
        ("handles", "failure"),
        ("hints::check", "hints::vocab"),
        ("hints", "hints::vocab"),
        ("cstr", "error"),
    ] {
        assert!(graph[from].contains(to), "{from} -> {to} not found: {:?}", graph[from]);
    }
    let mut looped = graph.clone();
    looped.get_mut("error").unwrap().insert("capi::object".to_owned());
    assert!(circle(&looped, "error").is_some(), "an added circle was not found");
}
