//! The verdict after the chaos: every input answered exactly once, under its own name, with
//! the right answer, and nothing left behind. The outbox must hold exactly the expected
//! files (any `NAME-2.*`, temporary file or stem reservation is one too many), each input
//! must be in `done/` or `failed/` exactly once under its own name, and the inbox and the
//! claim folder must be empty (the daemon's lock file aside).

use super::puzzles::Input;
use crate::daemon_common::{names, same_grid};
use sha2::{Digest, Sha256};
use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

/// The folders of the daemon's tree.
pub struct Folders<'a> {
    pub inbox: &'a Path,
    pub outbox: &'a Path,
    pub claim: &'a Path,
    pub done: &'a Path,
    pub failed: &'a Path,
}

/// Everything wrong, one line each (empty when all is well). `daemon` inputs were dropped
/// into the inbox (answered with pictures), `client` inputs answered by `solve --out`.
pub fn problems(folders: &Folders, daemon: &[Input], client: &[Input]) -> Vec<String> {
    let mut problems = Vec::new();
    let mut expected = BTreeSet::new();
    for (inputs, pictures) in [(daemon, true), (client, false)] {
        for input in inputs {
            expected.extend(result_files(input, pictures));
            problems.extend(answer_problems(folders.outbox, input));
        }
    }
    let present: BTreeSet<String> = names(folders.outbox).into_iter().collect();
    for extra in present.difference(&expected) {
        problems.push(format!("left in the outbox: {extra}"));
    }
    for missing in expected.difference(&present) {
        problems.push(format!("missing from the outbox: {missing}"));
    }
    let moved = |solved: bool| -> BTreeSet<String> {
        let inputs = daemon.iter().filter(|i| i.solution.is_some() == solved);
        inputs.map(|i| i.name.clone()).collect()
    };
    problems.extend(same_names("done/", folders.done, &moved(true)));
    problems.extend(same_names("failed/", folders.failed, &moved(false)));
    problems.extend(same_names("the inbox", folders.inbox, &BTreeSet::new()));
    let lock = BTreeSet::from([".kakurod.lock".to_string()]);
    problems.extend(same_names("the claim folder", folders.claim, &lock));
    problems
}

/// The files of `input`'s result, under its own stem.
fn result_files(input: &Input, pictures: bool) -> Vec<String> {
    let stem = input.stem();
    match (&input.solution, pictures) {
        (None, _) => vec![format!("{stem}.error.json")],
        (Some(_), true) => ["json", "solution.txt", "svg"].map(|e| format!("{stem}.{e}")).to_vec(),
        (Some(_), false) => ["json", "solution.txt"].map(|e| format!("{stem}.{e}")).to_vec(),
    }
}

/// What is wrong with `input`'s answer: its document must name the input and its checksum,
/// and a solved puzzle's solution must be the known one.
fn answer_problems(outbox: &Path, input: &Input) -> Vec<String> {
    let stem = input.stem();
    let document = if input.solution.is_some() { "json" } else { "error.json" };
    let path = outbox.join(format!("{stem}.{document}"));
    let Ok(text) = fs::read_to_string(&path) else {
        return vec![format!("{}: no {stem}.{document}", input.name)];
    };
    let doc: serde_json::Value = match serde_json::from_str(&text) {
        Ok(doc) => doc,
        Err(e) => return vec![format!("{stem}.{document} is not complete JSON: {e}")],
    };
    let mut problems = Vec::new();
    let checksum: String =
        Sha256::digest(input.text.as_bytes()).iter().map(|b| format!("{b:02x}")).collect();
    if doc["file"].as_str() != Some(input.name.as_str()) || doc["checksum"] != checksum.as_str() {
        problems.push(format!("{stem}.{document} answers {} {}", doc["file"], doc["checksum"]));
    }
    let want = if input.solution.is_some() { "solved" } else { "invalid" };
    if doc["status"].as_str() != Some(want) {
        problems.push(format!("{stem}.{document}: status {}, not {want}", doc["status"]));
    }
    if let Some(solution) = &input.solution {
        let found = fs::read_to_string(outbox.join(format!("{stem}.solution.txt")));
        if !found.is_ok_and(|found| same_grid(&found, solution)) {
            problems.push(format!("{stem}.solution.txt is not the solution of {}", input.name));
        }
    }
    problems
}

/// The difference between what `dir` holds and `want`, one line per name.
fn same_names(what: &str, dir: &Path, want: &BTreeSet<String>) -> Vec<String> {
    let have: BTreeSet<String> = names(dir).into_iter().collect();
    let extra = have.difference(want).map(|n| format!("left in {what}: {n}"));
    let missing = want.difference(&have).map(|n| format!("missing from {what}: {n}"));
    extra.chain(missing).collect()
}
