//! The layers stay layers: no two modules import each other, directly or round a circle,
//! among the top-level modules of either crate and among the files of `src/daemon/` (see
//! docs/layout.md). Production code only: a module's tests may reach anywhere. And no
//! source file of either crate grows past 500 lines: a longer one does more than one job.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Which module imports which, by name.
type Graph = BTreeMap<String, BTreeSet<String>>;

/// The repository's root.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.rs` file under `dir` that is production code (no `tests.rs`, no `tests/`).
fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if path.is_dir() && name != "tests" {
            files.extend(sources(&path));
        } else if name.ends_with(".rs") && name != "tests.rs" {
            files.push(path);
        }
    }
    files
}

/// The code of `path` without its test module and without comments.
fn code(path: &Path) -> String {
    let text = fs::read_to_string(path).unwrap();
    let text = text.split("#[cfg(test)]\nmod tests").next().unwrap_or_default();
    let lines = text.lines().filter(|line| !line.trim_start().starts_with("//"));
    lines.collect::<Vec<_>>().join("\n")
}

/// The names that follow `prefix` in `code`: `prefix NAME` and each first name of a
/// `prefix {A, B::c, ...}` group.
fn names_after(code: &str, prefix: &str) -> BTreeSet<String> {
    let ident = |s: &str| -> String {
        s.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect()
    };
    let mut names = BTreeSet::new();
    for (at, _) in code.match_indices(prefix) {
        let before = code[..at].chars().last();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
            continue;
        }
        let rest = &code[at + prefix.len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let (mut depth, mut start) = (0, true);
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => start = true,
                    c if start && !c.is_whitespace() => {
                        names.insert(ident(&group[i..]));
                        start = false;
                    }
                    _ => {}
                }
            }
        } else {
            names.insert(ident(rest));
        }
    }
    names
}

/// The graph of the top-level modules of the crate whose sources are in `src`.
fn crate_graph(src: &Path) -> Graph {
    let mut graph = Graph::new();
    for file in sources(src) {
        let relative = file.strip_prefix(src).unwrap();
        let top = relative.components().next().unwrap().as_os_str().to_string_lossy();
        let top = top.trim_end_matches(".rs").to_string();
        if top == "lib" || top == "main" {
            continue;
        }
        let uses = names_after(&code(&file), "crate::");
        graph.entry(top.clone()).or_default().extend(uses.into_iter().filter(|n| *n != top));
    }
    keep_known(graph)
}

/// The graph of the files (and folders) right under `src/daemon/`.
fn daemon_graph() -> Graph {
    let dir = root().join("src/daemon");
    let mut graph = Graph::new();
    for file in sources(&dir) {
        let relative = file.strip_prefix(&dir).unwrap();
        let depth = relative.components().count();
        let top = relative.components().next().unwrap().as_os_str().to_string_lossy();
        let top = top.trim_end_matches(".rs").to_string();
        if top == "mod" {
            continue;
        }
        let code = code(&file);
        let mut uses = names_after(&code, "crate::daemon::");
        // `super::` is the daemon from its own files; `super::super::` from one folder down
        // (a folder's mod.rs is one level up already).
        let is_mod = relative.file_name().is_some_and(|n| n == "mod.rs");
        let ups = depth - usize::from(is_mod);
        uses.extend(names_after(&code, &"super::".repeat(ups)));
        graph.entry(top.clone()).or_default().extend(uses.into_iter().filter(|n| *n != top));
    }
    keep_known(graph)
}

/// `graph` without the names that are not among its modules (types, functions, crates).
fn keep_known(graph: Graph) -> Graph {
    let known: BTreeSet<String> = graph.keys().cloned().collect();
    graph
        .into_iter()
        .map(|(module, uses)| (module, uses.intersection(&known).cloned().collect()))
        .collect()
}

/// A circle of imports in `graph`, if there is one.
fn circle(graph: &Graph) -> Option<Vec<String>> {
    fn visit(
        graph: &Graph,
        module: &str,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|m| m == module) {
            let mut found = path[at..].to_vec();
            found.push(module.to_string());
            return Some(found);
        }
        if done.contains(module) {
            return None;
        }
        path.push(module.to_string());
        for next in graph.get(module).into_iter().flatten() {
            if let Some(found) = visit(graph, next, path, done) {
                return Some(found);
            }
        }
        path.pop();
        done.insert(module.to_string());
        None
    }
    let mut done = BTreeSet::new();
    graph.keys().find_map(|module| visit(graph, module, &mut Vec::new(), &mut done))
}

#[test]
fn no_module_imports_another_that_imports_it_back() {
    for (what, graph) in [
        ("the engine crate", crate_graph(&root().join("crates/engine/src"))),
        ("the kakurod crate", crate_graph(&root().join("src"))),
        ("src/daemon", daemon_graph()),
    ] {
        assert!(graph.len() > 8, "{what}: only {} modules found", graph.len());
        if let Some(found) = circle(&graph) {
            panic!("{what}: the imports go round a circle: {}", found.join(" -> "));
        }
    }
}

#[test]
fn no_source_file_is_over_500_lines() {
    let mut files = sources(&root().join("src"));
    files.extend(sources(&root().join("crates/engine/src")));
    assert!(files.len() > 100, "only {} files found", files.len());
    let long: Vec<String> = files
        .iter()
        .map(|file| (file, fs::read_to_string(file).unwrap().lines().count()))
        .filter(|&(_, lines)| lines > 500)
        .map(|(file, lines)| format!("{} ({lines} lines)", file.display()))
        .collect();
    assert!(long.is_empty(), "split along the jobs they do: {long:?}");
}

#[test]
fn the_circle_finder_finds_a_circle_and_reads_grouped_imports() {
    let code = "use crate::{a, b::{c, d}, e::f};\nuse crate::g::h;\nx::crate::i;";
    let names: Vec<String> = names_after(code, "crate::").into_iter().collect();
    assert_eq!(names, ["a", "b", "e", "g"]);
    let edge = |from: &str, to: &str| (from.to_string(), BTreeSet::from([to.to_string()]));
    let graph: Graph = [edge("a", "b"), edge("b", "c"), edge("c", "a")].into();
    assert_eq!(circle(&graph).unwrap(), ["a", "b", "c", "a"]);
    let line: Graph = [edge("a", "b"), edge("b", "c"), edge("c", "d")].into();
    assert_eq!(circle(&line), None);
}
