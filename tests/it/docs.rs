//! What the documentation names is there: every repository path it cites in backquotes,
//! every input format it lists, and every technique `generate --needs` is said to take.

use kakurod_engine::format::Format;
use std::fs;
use std::path::Path;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The README, the pages of `docs/` and the shipped configuration, with their names.
fn documents() -> Vec<(String, String)> {
    let root = Path::new(ROOT);
    let mut files = vec![root.join("README.md"), root.join("config.toml")];
    for entry in fs::read_dir(root.join("docs")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "md") {
            files.push(path);
        }
    }
    files.sort();
    files
        .into_iter()
        .map(|f| {
            (f.strip_prefix(root).unwrap().display().to_string(), fs::read_to_string(f).unwrap())
        })
        .collect()
}

/// Every `…` span of `text`.
fn quoted(text: &str) -> impl Iterator<Item = &str> {
    text.split('`').skip(1).step_by(2)
}

#[test]
fn every_repository_path_the_docs_cite_exists() {
    let roots = ["tests/", "docs/", "src/", "deploy/", "systemd/", "benches/", ".ci/", "fuzz/"];
    let mut missing = Vec::new();
    let mut checked = 0;
    for (name, text) in documents() {
        for span in quoted(&text) {
            let path = span.split([' ', ':', '#']).next().unwrap_or("");
            // Placeholders and patterns stand for many files, not one.
            let pattern =
                path.contains(['*', '<', '{']) || path.chars().any(|c| c.is_ascii_uppercase());
            if !roots.iter().any(|root| path.starts_with(root)) || pattern {
                continue;
            }
            checked += 1;
            if !Path::new(ROOT).join(path).exists() {
                missing.push(format!("{name}: {path}"));
            }
        }
    }
    assert!(checked > 30, "only {checked} paths found: the scan reads nothing");
    assert!(missing.is_empty(), "cited but not there:\n{}", missing.join("\n"));
}

#[test]
fn the_formats_the_docs_list_are_the_formats_there_are() {
    let names: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
    let docs = documents();
    let page = &docs.iter().find(|(name, _)| name == "docs/formats.md").unwrap().1;
    let rows: Vec<&str> = page
        .lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split('`').next())
        .filter(|first| first.chars().all(|c| c.is_ascii_lowercase()))
        .collect();
    for name in &names {
        assert!(rows.contains(name), "docs/formats.md has no row for `{name}`: {rows:?}");
    }
    let config = &docs.iter().find(|(name, _)| name == "config.toml").unwrap().1;
    let comment: String = config
        .lines()
        .skip_while(|l| !l.contains("as this format instead of detecting it"))
        .take_while(|l| l.starts_with('#'))
        .collect::<Vec<_>>()
        .join(" ");
    for name in &names {
        assert!(
            comment.contains(&format!("\"{name}\"")),
            "config.toml's format lacks {name}: {comment}"
        );
    }
}

#[test]
fn the_techniques_generating_md_gives_for_needs_are_taken_by_needs() {
    let page = fs::read_to_string(Path::new(ROOT).join("docs/generating.md")).unwrap();
    let sudoku = page.split("### Sudoku difficulty").nth(1).unwrap();
    let table: Vec<&str> = sudoku
        .lines()
        .skip_while(|l| !l.starts_with("| Level"))
        .take_while(|l| l.starts_with('|'))
        .collect();
    // In each row, the names in parentheses are those `--needs` takes.
    let mut named = 0;
    for row in &table[2..] {
        let techniques = row.split('|').nth(2).unwrap();
        for group in techniques.split('(').skip(1) {
            for name in quoted(group.split(')').next().unwrap()) {
                named += 1;
                let taken =
                    kakurod_engine::explain::techniques(kakurod_engine::puzzle::Kind::Sudoku)
                        .iter()
                        .any(|(technique, _)| *technique == name);
                assert!(taken, "generating.md gives `{name}` for --needs, which does not take it");
            }
        }
    }
    assert!(named >= 8, "{named} names found in {table:#?}");
}
