//! A big `lines` batch through the shared queue on a real NATS server: cut into parts that
//! every worker answers, put together by the daemon into the files `kakurod solve` writes
//! for the same batch, through a worker killed and a daemon killed on the way.

use crate::chaos_common::puzzles;
use crate::daemon_common;

use daemon_common::nats::{NatsServer, QueueWorker, server_binary};
use daemon_common::{BIN, Daemon, LONG, claimed, drop_file, names, wait_until};
use serde_json::Value;
use std::collections::BTreeSet;
use std::fs;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// `count` puzzle lines (distinct Sudoku with one solution each), and now and then a
/// comment, a blank line or a line that is no Sudoku.
fn big_batch(count: usize) -> String {
    let (lines, _) = puzzles::lines_batch(count, 3);
    let mut text = String::from("# a big batch\n");
    for (i, line) in lines.lines().enumerate() {
        match i % 5000 {
            17 => text.push_str("not a sudoku\n"),
            4321 => text.push_str("\n# a comment\n"),
            _ => {}
        }
        text.push_str(line);
        text.push('\n');
    }
    text
}

/// The document without what differs from run to run: times, and who answered.
fn steady(mut doc: Value) -> Value {
    if let Some(puzzles) = doc["puzzles"].as_array_mut() {
        for puzzle in puzzles {
            if let Some(stats) = puzzle["statistics"].as_object_mut() {
                stats.retain(|k, _| !k.ends_with("_ms"));
            }
        }
    }
    if let Some(summary) = doc["summary"].as_object_mut() {
        summary.remove("answered_by");
    }
    doc
}

/// What `kakurod solve --out` writes for `input`: its solution file and JSON document.
fn solved_here(input: &Path, dir: &Path) -> (String, Value) {
    let out = dir.join("here");
    let args = ["solve", "--timeout", "60", "--out"];
    let status = Command::new(BIN).args(args).arg(&out).arg(input).status();
    assert!(status.unwrap().code().is_some());
    let stem = input.file_stem().unwrap().to_string_lossy().to_string();
    let solution = fs::read_to_string(out.join(format!("{stem}.solution.txt"))).unwrap();
    let doc = fs::read_to_string(out.join(format!("{stem}.json"))).unwrap();
    (solution, serde_json::from_str(&doc).unwrap())
}

fn config(url: &str) -> String {
    format!(
        "[workers]\nworkers = 1\nfsync = false\n[output]\nsvg = false\n\
         [queue]\nurl = \"{url}\"\nack_wait_seconds = 5\nmax_in_flight = 8\n\
         batch_chunk_puzzles = 1000\nreconcile_seconds = 5\n"
    )
}

/// The one result of `big.txt` equals the batch solved here, line for line; its summary
/// says who answered; nothing is left over.
fn assert_same_as_here(d: &Daemon, input: &Path, dir: &Path) -> Value {
    let outbox = d.path("outbox");
    let (solution, doc) = solved_here(input, dir);
    let queued = fs::read_to_string(outbox.join("big.solution.txt")).unwrap();
    assert!(queued == solution, "the solution files differ");
    let json = fs::read_to_string(outbox.join("big.json")).unwrap();
    let queued_doc: Value = serde_json::from_str(&json).unwrap();
    let (queued, here) = (steady(queued_doc.clone()), steady(doc));
    if queued != here {
        let keys = ["file", "checksum", "format", "summary", "invalid_lines"];
        let differ: Vec<&str> = keys.into_iter().filter(|k| queued[k] != here[k]).collect();
        let puzzles = |d: &Value| d["puzzles"].as_array().cloned().unwrap_or_default();
        let (a, b) = (puzzles(&queued), puzzles(&here));
        let first = a.iter().zip(&b).find(|(x, y)| x != y).map(|(x, y)| {
            let (x, y) = (x.as_object().unwrap(), y.as_object().unwrap());
            let keys: Vec<String> = x.keys().filter(|k| x[*k] != y[*k]).cloned().collect();
            keys.iter().map(|k| format!("{k}: {} / {}", x[k], y[k])).collect::<Vec<_>>()
        });
        panic!(
            "the documents differ in {differ:?}, {} against {} puzzles, first {first:?}",
            a.len(),
            b.len()
        );
    }
    let results: Vec<String> = names(&outbox).into_iter().filter(|n| n.contains("big")).collect();
    assert_eq!(results, ["big.json", "big.solution.txt"]);
    let leftovers: Vec<_> = names(&outbox).into_iter().filter(|n| n.starts_with('.')).collect();
    assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");
    assert!(claimed(&d.path("claim")).is_empty());
    queued_doc
}

#[test]
fn a_big_batch_is_answered_in_parts_by_every_worker_as_solve_answers_it_through_a_killed_worker() {
    let Some(binary) = server_binary("a batch in parts") else { return };
    let dir = tempfile::tempdir().unwrap();
    let server = NatsServer::start(&binary, dir.path());
    let mut d = Daemon::new(&config(&server.url()));
    d.start(&[]);
    let mut workers: Vec<QueueWorker> = (0..2)
        .map(|i| QueueWorker::start(&server.url(), 1, &[], dir.path().join(format!("w{i}.log"))))
        .collect();
    let text = big_batch(49_158);
    assert!(text.len() > 4_000_000, "over the server's max_payload four times");
    let input = dir.path().join("big.txt");
    fs::write(&input, &text).unwrap();
    drop_file(&d.path("inbox"), "big.txt", text.as_bytes());
    std::thread::sleep(Duration::from_secs(1));
    workers[0].kill9();
    wait_until("the batch's result", LONG * 3, Some(&d), || names(&d.path("done")).len() == 1);
    let doc = assert_same_as_here(&d, &input, dir.path());
    let by: BTreeSet<&String> = doc["summary"]["answered_by"].as_object().unwrap().keys().collect();
    assert!(by.len() >= 2, "answered by {by:?}");
    let total: u64 =
        doc["summary"]["answered_by"].as_object().unwrap().values().filter_map(Value::as_u64).sum();
    assert_eq!(total, 49_158 + 10);
    assert_eq!(doc["invalid_lines"].as_array().unwrap().len(), 10, "{}", doc["invalid_lines"]);
    d.signal("TERM");
    assert!(d.wait_exit().success(), "{}", d.log());
    assert!(d.log().contains("in parts"), "{}", d.log());
}

#[test]
fn a_daemon_killed_in_the_middle_of_a_batch_finishes_it_after_its_restart() {
    let Some(binary) = server_binary("a daemon killed mid-batch") else { return };
    let dir = tempfile::tempdir().unwrap();
    let server = NatsServer::start(&binary, dir.path());
    let mut d = Daemon::new(&config(&server.url()));
    d.start(&[]);
    let _worker = QueueWorker::start(&server.url(), 1, &[], dir.path().join("w.log"));
    let text = big_batch(30_000);
    let input = dir.path().join("big.txt");
    fs::write(&input, &text).unwrap();
    drop_file(&d.path("inbox"), "big.txt", text.as_bytes());
    wait_until("the batch in parts", LONG, Some(&d), || d.log().contains("in parts"));
    std::thread::sleep(Duration::from_millis(700));
    d.kill9();
    assert!(names(&d.path("done")).is_empty(), "answered before the kill: make the batch larger");
    d.start(&[]);
    wait_until("the batch's result", LONG * 3, Some(&d), || names(&d.path("done")).len() == 1);
    assert_same_as_here(&d, &input, dir.path());
    d.signal("TERM");
    assert!(d.wait_exit().success(), "{}", d.log());
}
