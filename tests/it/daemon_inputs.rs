//! End-to-end tests of what the daemon makes of unusual inputs (the real binary): symbolic
//! links, FIFOs and folders in the inbox, batches without one readable puzzle, and names
//! that could be mistaken for another input's result. None may be met with silence.

use crate::daemon_common;

use daemon_common::{Daemon, LONG, drop_file, fixtures, names, same_grid, wait_until};
use std::fs;
use std::os::unix::fs::symlink;
use std::time::Duration;

fn json(path: &std::path::Path) -> serde_json::Value {
    let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap()
}

#[test]
fn links_are_followed_and_what_cannot_be_read_is_rejected_and_folders_are_warned_about() {
    let mut d = Daemon::new("[intake]\nrescan_seconds = 0.1\n");
    let elsewhere = d.path("elsewhere");
    fs::create_dir_all(&elsewhere).unwrap();
    let all = fixtures();
    fs::write(elsewhere.join("a.txt"), &all[0].text).unwrap();
    fs::write(elsewhere.join("b.txt"), &all[1].text).unwrap();
    fs::create_dir_all(d.path("inbox").join("early")).unwrap();
    d.start(&[]);
    let inbox = d.path("inbox");
    symlink(elsewhere.join("a.txt"), inbox.join("absolute.txt")).unwrap();
    // A relative link is read from the inbox, where it was dropped.
    symlink("../elsewhere/b.txt", inbox.join("relative.txt")).unwrap();
    symlink(elsewhere.join("missing.txt"), inbox.join("dangling.txt")).unwrap();
    symlink(&elsewhere, inbox.join("to-folder.txt")).unwrap();
    let fifo = std::process::Command::new("mkfifo").arg(inbox.join("fifo.txt")).status();
    assert!(fifo.unwrap().success());
    fs::create_dir_all(inbox.join("late")).unwrap();

    wait_until("5 answers", LONG, Some(&d), || {
        names(&d.path("done")).len() + names(&d.path("failed")).len() == 5
    });
    let outbox = d.path("outbox");
    for (stem, fixture) in [("absolute", &all[0]), ("relative", &all[1])] {
        assert_eq!(json(&outbox.join(format!("{stem}.json")))["status"], "solved");
        let solution = fs::read_to_string(outbox.join(format!("{stem}.solution.txt"))).unwrap();
        assert!(same_grid(&solution, &fixture.sol), "{stem}");
    }
    for (stem, words) in [
        ("dangling", "a symbolic link to"),
        ("to-folder", "(a folder), not a regular file"),
        ("fifo", "a FIFO, not a regular file"),
    ] {
        let doc = json(&outbox.join(format!("{stem}.error.json")));
        let message = doc["error"]["message"].as_str().unwrap();
        assert!(message.contains(words), "{stem}: {message}");
    }
    assert_eq!(names(&d.path("done")), ["absolute.txt", "relative.txt"]);
    assert_eq!(names(&d.path("failed")), ["dangling.txt", "fifo.txt", "to-folder.txt"]);
    // The link was moved, never the file it points to.
    assert!(elsewhere.join("a.txt").is_file() && elsewhere.join("b.txt").is_file());
    // Many rescans later, each folder was warned about once and is still there.
    std::thread::sleep(Duration::from_millis(600));
    let log = d.log();
    for folder in ["early", "late"] {
        let warnings =
            log.lines().filter(|l| l.contains("WARN") && l.contains(&format!("/{folder}"))).count();
        assert_eq!(warnings, 1, "{folder}\n{log}");
    }
    assert_eq!(names(&inbox), ["early", "late"]);
    d.signal("TERM");
    assert!(d.wait_exit().success());
}

#[test]
fn a_batch_without_a_readable_puzzle_is_rejected_and_a_mixed_one_names_its_bad_lines() {
    let mut d = Daemon::new("");
    d.start(&[]);
    let good = format!("1{}\n", ".".repeat(80));
    let bad = format!("Z{}\n", ".".repeat(80));
    drop_file(&d.path("inbox"), "none.txt", (bad.clone() + &bad).as_bytes());
    drop_file(&d.path("inbox"), "mixed.txt", (good + &bad).as_bytes());
    wait_until("2 answers", LONG, Some(&d), || {
        names(&d.path("done")).len() + names(&d.path("failed")).len() == 2
    });
    assert_eq!(names(&d.path("failed")), ["none.txt"]);
    assert_eq!(names(&d.path("done")), ["mixed.txt"]);
    let outbox = d.path("outbox");
    assert!(!outbox.join("none.json").exists());
    let error = json(&outbox.join("none.error.json"));
    assert!(error["error"]["message"].as_str().unwrap().contains("lines 1, 2"), "{error}");
    let mixed = json(&outbox.join("mixed.json"));
    assert_eq!(mixed["invalid_lines"], serde_json::json!([2]), "{mixed}");
    // The answer line is logged just after the input is archived.
    wait_until("the answer line", LONG, Some(&d), || d.log().contains("(invalid line 2)"));
}

#[test]
fn a_hard_link_made_in_the_inbox_is_answered_though_no_close_is_ever_seen() {
    let mut d = Daemon::new("[intake]\nopen_idle_seconds = 0.5\nrescan_seconds = 3600\n");
    let source = d.path("source.txt");
    fs::write(&source, &fixtures()[0].text).unwrap();
    d.start(&[]);
    fs::hard_link(&source, d.path("inbox").join("linked.txt")).unwrap();
    wait_until("the linked file's answer", LONG, Some(&d), || {
        names(&d.path("done")) == ["linked.txt"]
    });
    let solution = fs::read_to_string(d.path("outbox").join("linked.solution.txt")).unwrap();
    assert!(same_grid(&solution, &fixtures()[0].sol));
}

#[test]
fn an_input_whose_result_would_read_as_another_inputs_error_is_refused_by_name() {
    let mut d = Daemon::new("");
    d.start(&[]);
    let inbox = d.path("inbox");
    drop_file(&inbox, "q.error.txt", fixtures()[0].text.as_bytes());
    wait_until("the first answer", LONG, Some(&d), || names(&d.path("failed")).len() == 1);
    drop_file(&inbox, "q.txt", b"not a puzzle\n");
    wait_until("the second answer", LONG, Some(&d), || names(&d.path("failed")).len() == 2);
    let outbox = d.path("outbox");
    assert_eq!(names(&outbox), ["q.error.error.json", "q.error.json"]);
    // A client waiting for q.txt's error finds it, and only it, under q.error.json.
    assert_eq!(json(&outbox.join("q.error.json"))["file"], "q.txt");
    let reserved = json(&outbox.join("q.error.error.json"));
    assert_eq!(reserved["file"], "q.error.txt");
    assert!(reserved["error"]["message"].as_str().unwrap().contains("is reserved"), "{reserved}");
}

#[test]
fn a_json_input_that_asks_explain_gets_its_solving_path_and_no_other_does() {
    let mut d = Daemon::new("");
    d.start(&[]);
    let inbox = d.path("inbox");
    let kakuro =
        r#"{"kind": "kakuro", "explain": true, "grid": ["-  4,  3,", ",4  0   0", ",3  0   0"]}"#;
    drop_file(&inbox, "kakuro.json", kakuro.as_bytes());
    let fixture = crate::common::fixtures().join("killer/101_4x4.json");
    let mut killer: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(fixture).unwrap()).unwrap();
    killer["settings"] = serde_json::json!({"mode": "unique", "explain": true});
    drop_file(&inbox, "killer.json", killer.to_string().as_bytes());
    let sudoku = r#"{"kind": "sudoku", "givens": [[1,0,0,0],[0,0,3,0],[0,4,0,0],[0,0,0,2]]}"#;
    drop_file(&inbox, "plain.json", sudoku.as_bytes());
    let declined = sudoku.replacen('{', r#"{"explain": false, "#, 1);
    drop_file(&inbox, "declined.json", declined.as_bytes());
    wait_until("4 answers", LONG, Some(&d), || names(&d.path("done")).len() == 4);
    let outbox = d.path("outbox");

    let kakuro = json(&outbox.join("kakuro.json"));
    assert_eq!(kakuro["status"], "solved");
    let path = &kakuro["explain"];
    assert_eq!(
        (&path["solved"], &path["difficulty"]),
        (&serde_json::json!(true), &kakuro["difficulty"])
    );
    // Every white cell is placed once, at the solution's digit.
    let placed: Vec<&serde_json::Value> = path["steps"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["place"].as_array().unwrap())
        .collect();
    assert_eq!(placed.len(), 4, "{path}");
    for cell in placed {
        let (r, c) = (cell[0].as_u64().unwrap() as usize, cell[1].as_u64().unwrap() as usize);
        assert_eq!(kakuro["solution"][r][c], cell[2], "{path}");
    }

    let killer = json(&outbox.join("killer.json"));
    assert_eq!(killer["status"], "solved");
    assert_eq!(killer["explain"]["difficulty"], serde_json::Value::Null);
    let steps = killer["explain"]["steps"].as_array().unwrap();
    assert!(steps.iter().any(|s| s["technique"] == "cage_combination"), "{steps:?}");

    for name in ["plain.json", "declined.json"] {
        let answer = json(&outbox.join(name));
        assert_eq!(answer["status"], "solved");
        assert!(answer.get("explain").is_none(), "{name}: a path nobody asked for");
    }
}
