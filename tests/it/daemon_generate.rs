//! End-to-end tests of generation jobs (`{"kind": "generate", ...}` dropped into the inbox)
//! with the real binary on temporary folders: the puzzles are checked by solving them
//! again with another algorithm, bad jobs must be answered with a placed error, and the
//! outbox rules (JSON last, claims, requeue, time limits, shutdown) hold as for puzzles.
//! Grids stay small (10x10 to 12x12), so every job takes well under a second.

use crate::daemon_common;

use daemon_common::{BIN, Daemon, LONG, claimed, drop_file, names, results, same_grid, wait_until};
use serde_json::Value;
use std::fs;
use std::path::Path;
use std::process::Command;

fn json(path: &Path) -> Value {
    let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn wait_for(d: &Daemon, file: &str) {
    let path = d.path("outbox").join(file);
    wait_until(file, LONG, Some(d), || path.exists());
}

/// The solution `kakurod solve --json --mode count --algorithm fc` finds for `puzzle`, in
/// the `.sol` layout, after checking that it is the only one.
fn only_solution(puzzle: &Path) -> String {
    let out = Command::new(BIN)
        .args(["solve", "--json", "--mode", "count", "--algorithm", "fc"])
        .arg(puzzle)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["solutions_found"], 1, "{doc}");
    assert_eq!(doc["uniqueness"], "unique", "{doc}");
    let rows = doc["solution"].as_array().unwrap();
    let mut text = format!("{} {}\n", doc["rows"], doc["cols"]);
    for row in rows {
        let tokens: Vec<String> = row
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().map_or("-".to_string(), |d| d.to_string()))
            .collect();
        text.push_str(&tokens.join(" "));
        text.push('\n');
    }
    text
}

#[test]
fn a_job_of_two_graded_puzzles_gives_two_unique_puzzles_with_their_solutions() {
    let mut d = Daemon::new("");
    d.start(&[]);
    let job = r#"{"kind": "generate", "rows": 10, "cols": 11, "count": 2, "seed": 7,
                  "difficulty": "medium", "symmetry": "mirror"}"#;
    drop_file(&d.path("inbox"), "batch.json", job.as_bytes());
    wait_for(&d, "batch.json");
    let outbox = d.path("outbox");
    let doc = json(&outbox.join("batch.json"));
    assert_eq!(
        (doc["kind"].as_str(), doc["status"].as_str()),
        (Some("generate"), Some("generated"))
    );
    assert_eq!((doc["file"].as_str(), doc["made"].as_u64()), (Some("batch.json"), Some(2)));
    assert_eq!(doc["job"]["rows"], 10, "{doc}");
    assert_eq!(
        (doc["job"]["black"].as_f64(), doc["job"]["symmetry"].as_str()),
        (Some(40.0), Some("mirror"))
    );
    assert_eq!(doc["checksum"].as_str().map(str::len), Some(64));
    let puzzles = doc["puzzles"].as_array().unwrap();
    assert_eq!(puzzles.len(), 2, "{doc}");
    for (i, entry) in puzzles.iter().enumerate() {
        let n = i + 1;
        assert_eq!(entry["seed"], 7 + i as u64, "{doc}");
        assert_eq!(entry["difficulty"], "medium", "{doc}");
        assert_eq!(entry["unique"], true, "{doc}");
        assert!(
            entry["proof"]["engine"].is_string() && entry["proof"]["checks"].as_u64() >= Some(1)
        );
        assert!(entry["seconds"].is_f64(), "{doc}");
        assert_eq!(entry["puzzle"], format!("batch.{n}.txt"));
        assert_eq!(entry["solution"], format!("batch.{n}.sol"));
        assert_eq!(entry["svg"], format!("batch.{n}.puzzle.svg"));
        let puzzle = outbox.join(format!("batch.{n}.txt"));
        assert!(fs::read_to_string(&puzzle).unwrap().starts_with("10 11\n"));
        let sol = fs::read_to_string(outbox.join(format!("batch.{n}.sol"))).unwrap();
        let found = only_solution(&puzzle);
        assert!(same_grid(&found, &sol), "puzzle {n}: solved\n{found}\nbut its .sol is\n{sol}");
        let picture = fs::read_to_string(outbox.join(format!("batch.{n}.puzzle.svg"))).unwrap();
        assert!(picture.starts_with("<svg") && picture.trim_end().ends_with("</svg>"));
    }
    assert_eq!(names(&d.path("done")), ["batch.json"]);
    assert!(claimed(&d.path("claim")).is_empty());

    // A generated puzzle dropped back in is solved beside the job's files, none replaced.
    let text = fs::read_to_string(outbox.join("batch.1.txt")).unwrap();
    drop_file(&d.path("inbox"), "batch.1.txt", text.as_bytes());
    wait_for(&d, "batch.1.json");
    assert_eq!(json(&outbox.join("batch.1.json"))["status"], "solved");
    let solved = fs::read_to_string(outbox.join("batch.1.solution.txt")).unwrap();
    let sol = fs::read_to_string(outbox.join("batch.1.sol")).unwrap();
    assert!(same_grid(&solved, &sol));
    assert!(outbox.join("batch.1.svg").exists() && outbox.join("batch.1.puzzle.svg").exists());
    d.signal("TERM");
    assert!(d.wait_exit().success());
}

#[test]
fn bad_jobs_get_an_error_document_placed_on_what_is_wrong() {
    let config = "[generate]\nmax_rows = 15\nmax_cols = 15\nmax_count = 3\n";
    let mut d = Daemon::new(config);
    d.start(&[]);
    let head = r#"{"kind": "generate", "#;
    // (name, job, text the error is placed on (its first occurrence), words of the message)
    let jobs: Vec<(&str, String, &str, &str)> = vec![
        ("small", format!(r#"{head}"rows": 2, "cols": 10}}"#), "2,", "too small"),
        ("zero", format!(r#"{head}"rows": 10, "cols": 0}}"#), "0}", "too small"),
        ("wide", format!(r#"{head}"rows": 10, "cols": 16}}"#), "16", "max_cols"),
        ("tall", format!(r#"{head}"rows": 151, "cols": 10}}"#), "151", "max_rows"),
        ("none", format!(r#"{head}"rows": 9, "cols": 9, "count": 0}}"#), "0}", "count"),
        ("many", format!(r#"{head}"rows": 9, "cols": 9, "count": 4}}"#), "4}", "max_count"),
        ("grade", format!(r#"{head}"rows": 9, "cols": 9, "difficulty": "epic"}}"#), "\"}", "epic"),
        ("type", format!(r#"{head}"rows": "ten", "cols": 9}}"#), "\",", "invalid type"),
        (
            "field",
            format!("{head}\n \"rows\": 9, \"cols\": 9,\n \"colour\": 1}}"),
            "\"colour",
            "colour",
        ),
        ("syntax", format!(r#"{head}"rows": 9, "cols": 9,}}"#), "}", "trailing comma"),
        (
            "refused",
            format!(r#"{head}"rows": 3, "cols": 3, "difficulty": "expert"}}"#),
            "{",
            "no 3x3",
        ),
    ];
    for (name, text, _, _) in &jobs {
        drop_file(&d.path("inbox"), &format!("{name}.json"), text.as_bytes());
    }
    wait_until("every error document", LONG, Some(&d), || {
        names(&d.path("failed")).len() == jobs.len()
    });
    let outbox = d.path("outbox");
    for (name, text, at, words) in &jobs {
        let doc = json(&outbox.join(format!("{name}.error.json")));
        let error = &doc["error"];
        assert_eq!(doc["status"], "invalid", "{name}: {doc}");
        let message = error["message"].as_str().unwrap();
        assert!(message.contains(words), "{name}: {doc}");
        assert!(error["expected"].as_str().is_some_and(|e| !e.is_empty()), "{name}: {doc}");
        // serde places some errors just past the value; ours sit on its first character.
        let offset = if ["grade", "type", "syntax"].contains(name) {
            text.rfind(at).unwrap()
        } else {
            text.find(at).unwrap()
        };
        let line = text[..offset].matches('\n').count() + 1;
        let column = offset - text[..offset].rfind('\n').map_or(0, |p| p + 1) + 1;
        assert_eq!(
            (error["line"].as_u64(), error["column"].as_u64()),
            (Some(line as u64), Some(column as u64)),
            "{name}: {text}\n{doc}"
        );
        assert!(!outbox.join(format!("{name}.json")).exists(), "{name}");
    }
    let generated = names(&outbox).into_iter().filter(|n| n.ends_with(".txt")).count();
    assert_eq!(generated, 0, "a rejected job wrote puzzles");
    assert!(names(&d.path("done")).is_empty());
}

#[test]
fn a_job_past_its_time_limit_is_answered_with_the_puzzles_made_before_it() {
    let config = "[generate]\nmax_count = 10000\ntimeout_seconds = 1\n";
    let mut d = Daemon::new(config);
    d.start(&[]);
    let job = r#"{"kind": "generate", "rows": 10, "cols": 10, "count": 10000}"#;
    drop_file(&d.path("inbox"), "long.json", job.as_bytes());
    wait_for(&d, "long.json");
    let outbox = d.path("outbox");
    let doc = json(&outbox.join("long.json"));
    assert_eq!(doc["status"], "timeout", "{doc}");
    let message = doc["message"].as_str().unwrap();
    assert!(message.contains("time limit") && message.contains("kept and listed"), "{message}");
    let made = doc["made"].as_u64().unwrap() as usize;
    let puzzles = doc["puzzles"].as_array().unwrap();
    assert!((1..10000).contains(&made) && puzzles.len() == made, "{made} made: {doc}");
    for entry in puzzles {
        for key in ["puzzle", "solution", "svg"] {
            let file = entry[key].as_str().unwrap();
            assert!(outbox.join(file).is_file(), "{file} is listed but missing");
        }
    }
    let last = puzzles[made - 1]["puzzle"].as_str().unwrap();
    let sol = fs::read_to_string(outbox.join(last.replace(".txt", ".sol"))).unwrap();
    assert!(same_grid(&only_solution(&outbox.join(last)), &sol));
    assert_eq!(names(&d.path("done")), ["long.json"]);
}

#[test]
fn shutdown_leaves_a_running_job_claimed_and_the_next_start_answers_it() {
    let config = |timeout: &str| {
        format!(
            "[workers]\nworkers = 2\ndrain_timeout_seconds = 0.3\n\
             [generate]\nmax_count = 10000\ntimeout_seconds = {timeout}\n"
        )
    };
    let mut d = Daemon::new(&config("0"));
    d.start(&[]);
    let job = r#"{"kind": "generate", "rows": 10, "cols": 10, "count": 10000}"#;
    drop_file(&d.path("inbox"), "endless.json", job.as_bytes());
    wait_until("the claim", LONG, Some(&d), || claimed(&d.path("claim")) == ["endless.json"]);
    std::thread::sleep(std::time::Duration::from_millis(200));
    d.signal("TERM");
    assert!(d.wait_exit().success(), "{}", d.log());
    assert_eq!(claimed(&d.path("claim")), ["endless.json"], "{}", d.log());
    assert!(results(&d.path("outbox")).is_empty(), "a cancelled job wrote a result");
    assert!(names(&d.path("outbox")).is_empty(), "a cancelled job left files");
    assert!(d.log().contains("left claimed for requeue"), "{}", d.log());

    // Requeued at the next start, and answered within the new time limit.
    fs::write(d.config(), config("0.5")).unwrap();
    d.start(&[]);
    wait_for(&d, "endless.json");
    assert_eq!(json(&d.path("outbox").join("endless.json"))["status"], "timeout");
    wait_until("the input moved on", LONG, Some(&d), || names(&d.path("done")) == ["endless.json"]);
    d.signal("TERM");
    assert!(d.wait_exit().success());

    // An answered job found claimed again (a crash before its move) is only moved on; here
    // it is left in a node folder, as a version with a shared-inbox protocol left claims.
    let claim = d.path("claim").join("n1");
    fs::create_dir_all(&claim).unwrap();
    fs::rename(d.path("done").join("endless.json"), claim.join("endless.json")).unwrap();
    let files = names(&d.path("outbox"));
    d.start(&[]);
    // The log line follows the move.
    wait_until("the requeued input moved on", LONG, Some(&d), || {
        d.log().contains("already answered by an earlier run")
    });
    assert_eq!(names(&d.path("done")), ["endless.json"]);
    let now = names(&d.path("outbox"));
    let new: Vec<_> = now.iter().filter(|n| !files.contains(n)).collect();
    let gone: Vec<_> = files.iter().filter(|n| !now.contains(n)).collect();
    assert!(new.is_empty() && gone.is_empty(), "answered twice: new {new:?}, gone {gone:?}");
}

#[test]
fn solve_points_a_job_file_to_the_daemon() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("job.json");
    fs::write(&path, r#"{"kind": "generate", "rows": 10, "cols": 10}"#).unwrap();
    let out = Command::new(BIN).arg("solve").arg(&path).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let expected = format!("{}:1:10: a generation job, not a puzzle", path.display());
    assert!(stderr.starts_with(&expected), "{stderr}");
    assert!(stderr.contains("kakurod generate"), "{stderr}");
    assert!(out.stdout.is_empty());
}

#[test]
fn sudoku_and_killer_jobs_give_unique_puzzles_in_their_own_formats() {
    let mut d = Daemon::new("");
    d.start(&[]);
    let jobs = [
        (
            "sudokus.json",
            r#"{"kind": "generate", "puzzle": "sudoku", "size": 9, "count": 2, "difficulty": "medium"}"#,
        ),
        ("killers.json", r#"{"kind": "generate", "puzzle": "killer", "size": 9, "seed": 5}"#),
    ];
    for (name, job) in jobs {
        drop_file(&d.path("inbox"), name, job.as_bytes());
    }
    let outbox = d.path("outbox");
    for ((name, _), (kind, made)) in jobs.iter().zip([("sudoku", 2), ("killer", 1)]) {
        wait_for(&d, name);
        let doc = json(&outbox.join(name));
        assert_eq!((doc["status"].as_str(), doc["made"].as_u64()), (Some("generated"), Some(made)));
        assert_eq!(
            (doc["job"]["puzzle"].as_str(), doc["job"]["size"].as_u64()),
            (Some(kind), Some(9))
        );
        for entry in doc["puzzles"].as_array().unwrap() {
            assert_eq!(entry["unique"], true, "{doc}");
            // A Sudoku has the grade asked for; a Killer Sudoku is not graded.
            let grade = if kind == "sudoku" { Value::from("medium") } else { Value::Null };
            assert_eq!(entry.get("difficulty").cloned().unwrap_or(Value::Null), grade, "{doc}");
            let puzzle = outbox.join(entry["puzzle"].as_str().unwrap());
            let solution = fs::read_to_string(outbox.join(entry["solution"].as_str().unwrap()));
            // Solved again by forward checking, read by the reader of its own kind.
            assert!(same_grid(&only_solution(&puzzle), &solution.unwrap()), "{}", puzzle.display());
            let read = Command::new(BIN).args(["solve", "--json"]).arg(&puzzle).output().unwrap();
            let report: Value = serde_json::from_slice(&read.stdout).unwrap();
            assert_eq!(report["kind"], kind, "{report}");
            assert!(outbox.join(entry["svg"].as_str().unwrap()).exists(), "{doc}");
        }
    }
    d.signal("TERM");
    assert!(d.wait_exit().success());
    let log = d.log();
    assert!(log.contains("killer 9x9"), "{log}");
}
