//! End-to-end tests of `kakurod serve`: the real binary on temporary folders, fed with real
//! puzzles whose published solutions are known. Every wait polls with a generous deadline;
//! nothing here asserts on speed.

use crate::daemon_common;

use daemon_common::{
    Daemon, LONG, assert_all_answered, batch, claimed, drop_file, fixtures, names, results,
    same_grid, wait_until,
};
use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::path::Path;
use std::time::Duration;

fn answered(d: &Daemon, n: usize) -> bool {
    names(&d.path("done")).len() + names(&d.path("failed")).len() >= n
}

#[test]
fn five_hundred_files_dropped_at_once_are_all_answered_correctly() {
    let mut d = Daemon::new("");
    d.start(&[]);
    let inputs = batch(500);
    for (name, f) in &inputs {
        drop_file(&d.path("inbox"), name, f.text.as_bytes());
    }
    wait_until("500 results", LONG, Some(&d), || answered(&d, 500));
    d.signal("TERM");
    assert!(d.wait_exit().success());
    assert_all_answered(&d, &inputs, true);
}

#[test]
fn a_file_written_slowly_is_not_read_before_it_is_complete() {
    // Pauses longer than the settle time: only the close may count as "complete".
    let mut d = Daemon::new("[intake]\nsettle_ms = 100\n");
    d.start(&[]);
    let f = &fixtures()[0];
    let path = d.path("inbox").join("slow.txt");
    let mut file = fs::File::create(&path).unwrap();
    let bytes = f.text.as_bytes();
    let pieces = 4;
    for i in 0..pieces {
        let piece = &bytes[i * bytes.len() / pieces..(i + 1) * bytes.len() / pieces];
        file.write_all(piece).unwrap();
        file.flush().unwrap();
        std::thread::sleep(Duration::from_millis(300));
        assert!(path.exists(), "taken while still open after piece {i}\n{}", d.log());
    }
    drop(file);
    wait_until("the slow file's result", LONG, Some(&d), || answered(&d, 1));
    assert_all_answered(&d, &[("slow.txt".to_string(), f.clone())], true);
}

#[test]
fn malformed_files_get_error_results_and_valid_ones_around_them_are_solved() {
    let mut d = Daemon::new("[intake]\nmax_file_bytes = 4096\n");
    d.start(&[]);
    let inbox = d.path("inbox");
    let good = batch(10);
    let bad: Vec<(&str, Vec<u8>)> = vec![
        ("garbage.txt", b"this is not a puzzle\n".to_vec()),
        ("empty.txt", Vec::new()),
        ("binary.txt", vec![0xff, 0xfe, 0x00, 0x80, 0x81]),
        ("huge.txt", vec![b'0'; 5000]),
        ("truncated.txt", fixtures()[0].text.lines().take(3).collect::<Vec<_>>().join("\n").into()),
        // Rejected from its first 100 lines, whatever follows.
        ("junk.txt", (0..120).map(|i| format!("q{i:x}/+\n")).collect::<String>().into()),
        // A solution is never solved as a Sudoku, as `solve DIR` never takes it either.
        ("solution.sol", fixtures()[0].sol.clone().into()),
    ];
    for (i, (name, f)) in good.iter().enumerate() {
        drop_file(&inbox, name, f.text.as_bytes());
        if let Some((bad_name, bytes)) = bad.get(i) {
            drop_file(&inbox, bad_name, bytes);
        }
    }
    wait_until("17 results", LONG, Some(&d), || answered(&d, 17));
    let outbox = d.path("outbox");
    for (name, _) in &bad {
        // A refused solution keeps its whole name as its stem.
        let stem = match name.rsplit_once('.') {
            Some((stem, ext)) if ext != "sol" => stem,
            _ => *name,
        };
        let text = fs::read_to_string(outbox.join(format!("{stem}.error.json")))
            .unwrap_or_else(|e| panic!("{stem}.error.json: {e}\n{}", d.log()));
        let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(doc["status"], "invalid", "{text}");
        assert!(doc["error"]["message"].as_str().is_some_and(|m| !m.is_empty()), "{text}");
        assert!(!outbox.join(format!("{stem}.json")).exists());
        assert!(d.path("failed").join(name).exists(), "{name} not in failed/");
    }
    let huge = fs::read_to_string(outbox.join("huge.error.json")).unwrap();
    assert!(huge.contains("over the limit of 4096 bytes"), "{huge}");
    let junk = fs::read_to_string(outbox.join("junk.error.json")).unwrap();
    assert!(junk.contains("none of the first 100 puzzle lines can be read"), "{junk}");
    let sol = fs::read_to_string(outbox.join("solution.sol.error.json")).unwrap();
    assert!(sol.contains("is a solution file"), "{sol}");
    let solved: Vec<_> = good.clone();
    for (name, f) in &solved {
        let stem = name.trim_end_matches(".txt");
        let solution = fs::read_to_string(outbox.join(format!("{stem}.solution.txt"))).unwrap();
        assert!(same_grid(&solution, &f.sol), "{name}");
        assert!(d.path("done").join(name).exists());
    }
}

#[test]
fn a_published_solution_dropped_beside_its_puzzle_never_takes_the_puzzles_result_name() {
    let mut d = Daemon::new("");
    d.start(&[]);
    let inbox = d.path("inbox");
    let fixture = &fixtures()[0];
    // The solution first, so that it is the first to want the stem `p`.
    drop_file(&inbox, "p.sol", fixture.sol.as_bytes());
    wait_until("the solution refused", LONG, Some(&d), || d.path("failed").join("p.sol").exists());
    drop_file(&inbox, "p.txt", fixture.text.as_bytes());
    wait_until("the puzzle answered", LONG, Some(&d), || d.path("done").join("p.txt").exists());
    let outbox = d.path("outbox");
    let error = fs::read_to_string(outbox.join("p.sol.error.json")).unwrap();
    assert!(error.contains("is a solution file"), "{error}");
    let solution = fs::read_to_string(outbox.join("p.solution.txt")).unwrap();
    assert!(same_grid(&solution, &fixture.sol));
    let answer: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(outbox.join("p.json")).unwrap()).unwrap();
    assert_eq!(answer["status"], "solved");
    assert!(!outbox.join("p.error.json").exists() && !outbox.join("p-2.json").exists());
}

#[test]
fn a_file_name_with_a_newline_is_answered_on_one_log_line_with_the_name_escaped() {
    let mut d = Daemon::new("");
    d.start(&[]);
    let fixture = &fixtures()[0];
    drop_file(&d.path("inbox"), "two\nlines.txt", fixture.text.as_bytes());
    wait_until("the answer", LONG, Some(&d), || d.path("done").join("two\nlines.txt").exists());
    wait_until("its log line", LONG, Some(&d), || d.log().contains(r#"result="two\nlines""#));
    let log = d.log();
    let answered: Vec<&str> = log.lines().filter(|l| l.contains(" answered")).collect();
    assert_eq!(answered.len(), 1, "{log}");
    assert!(answered[0].contains(r#"file="two\nlines.txt""#), "{log}");
    assert!(!log.lines().any(|l| l.starts_with("lines.txt")), "a line split by the name:\n{log}");
}

#[test]
fn a_kill_in_the_middle_of_a_batch_loses_and_duplicates_nothing() {
    let mut d = Daemon::new("");
    d.start(&[]);
    let inputs = batch(300);
    for (name, f) in &inputs {
        drop_file(&d.path("inbox"), name, f.text.as_bytes());
    }
    wait_until("the first results", LONG, Some(&d), || answered(&d, 20));
    d.kill9();
    let before = names(&d.path("done")).len();
    eprintln!("killed with {before} of 300 inputs answered");
    d.start(&[]);
    wait_until("300 results after the restart", LONG, Some(&d), || answered(&d, 300));
    d.signal("TERM");
    assert!(d.wait_exit().success());
    assert_all_answered(&d, &inputs, true);
}

#[test]
fn sigterm_drains_exits_zero_and_leaves_cancelled_work_for_the_next_start() {
    // Counting the solutions of an empty 16x16 Sudoku never ends: its search is cancelled
    // at the end of the drain and its input stays claimed.
    let config =
        "[solver]\nmode = \"count\"\n[workers]\nworkers = 2\ndrain_timeout_seconds = 0.5\n";
    let mut d = Daemon::new(config);
    d.start(&[]);
    let empty16 = ".".repeat(256) + "\n";
    drop_file(&d.path("inbox"), "endless.txt", empty16.as_bytes());
    wait_until("the claim", LONG, Some(&d), || claimed(&d.path("claim")) == ["endless.txt"]);
    std::thread::sleep(Duration::from_millis(200));
    d.signal("TERM");
    let status = d.wait_exit();
    assert!(status.success(), "exit status {status:?}\n{}", d.log());
    assert_eq!(claimed(&d.path("claim")), ["endless.txt"], "{}", d.log());
    assert!(results(&d.path("outbox")).is_empty(), "a cancelled search wrote a result");
    assert!(d.log().contains("left claimed for requeue"), "{}", d.log());

    // The next start requeues it; with a time limit the count stops and is answered.
    d.start(&["--timeout", "0.5"]);
    wait_until("the requeued result", LONG, Some(&d), || answered(&d, 1));
    let results = results(&d.path("outbox"));
    let doc = &results["endless.txt"][0].1;
    // A line-format file is a batch: its puzzles are listed under "puzzles".
    let puzzle = if doc["puzzles"].is_array() { &doc["puzzles"][0] } else { doc };
    assert_eq!(puzzle["stopped_by"], "timeout", "{doc}");
    // A count cut short is not an answer: the solutions found so far are a lower bound.
    assert_eq!(puzzle["status"], "timeout", "{doc}");
    assert!(puzzle["solutions_found"].as_u64().is_some_and(|n| n >= 2), "{doc}");
    // The answer line is logged just after the input is archived.
    wait_until("the answer line", LONG, Some(&d), || d.log().contains("timeout=1"));
    assert!(claimed(&d.path("claim")).is_empty());
    d.signal("INT");
    assert!(d.wait_exit().success());
}

#[test]
fn removing_a_claimed_input_cancels_its_job_with_one_clear_line() {
    // An endless count, as above; the other worker goes on answering meanwhile.
    let config = "[solver]\nmode = \"count\"\n[workers]\nworkers = 2\n";
    let mut d = Daemon::new(config);
    d.start(&[]);
    let empty16 = ".".repeat(256) + "\n";
    drop_file(&d.path("inbox"), "endless.txt", empty16.as_bytes());
    wait_until("the claim", LONG, Some(&d), || claimed(&d.path("claim")) == ["endless.txt"]);
    let claim = names(&d.path("claim")).into_iter().find(|n| n.ends_with(".endless.txt")).unwrap();
    fs::remove_file(d.path("claim").join(claim)).unwrap();
    wait_until("the cancel line", LONG, Some(&d), || {
        d.log().contains("the input was removed from the claim folder while it was worked on")
    });
    let inputs = batch(3);
    for (name, f) in &inputs {
        drop_file(&d.path("inbox"), name, f.text.as_bytes());
    }
    wait_until("3 results", LONG, Some(&d), || answered(&d, 3));
    d.signal("TERM");
    assert!(d.wait_exit().success(), "{}", d.log());
    let log = d.log();
    assert!(!log.contains("cannot take the input"), "{log}");
    assert!(!results(&d.path("outbox")).contains_key("endless.txt"), "answered anyway: {log}");
    assert_eq!(log.matches("endless.txt").count(), 1, "one line about it: {log}");
    assert!(log.contains("drained=true"), "the cancelled search ended: {log}");
}

#[test]
fn sigterm_with_a_backlog_exits_zero_and_the_rest_is_answered_after_a_restart() {
    let mut d = Daemon::new("");
    d.start(&[]);
    let inputs = batch(200);
    for (name, f) in &inputs {
        drop_file(&d.path("inbox"), name, f.text.as_bytes());
    }
    wait_until("the first results", LONG, Some(&d), || answered(&d, 5));
    d.signal("TERM");
    assert!(d.wait_exit().success(), "{}", d.log());
    // Whatever was answered is complete; the rest is still waiting in the inbox.
    let outbox_results = results(&d.path("outbox"));
    assert_eq!(outbox_results.len(), names(&d.path("done")).len());
    d.start(&[]);
    wait_until("200 results after the restart", LONG, Some(&d), || answered(&d, 200));
    d.signal("TERM");
    assert!(d.wait_exit().success());
    assert_all_answered(&d, &inputs, true);
}

#[test]
fn a_second_daemon_on_the_same_inbox_exits_2_naming_the_one_that_runs() {
    let mut d = Daemon::new("");
    d.start(&[]);
    let second = std::process::Command::new(daemon_common::BIN)
        .args(["serve", "--config"])
        .arg(d.config())
        .output()
        .unwrap();
    assert_eq!(second.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&second.stderr);
    assert!(stderr.contains("another kakurod already serves the inbox"), "{stderr}");
    assert!(stderr.contains(&format!("pid {}", d.pid())), "{stderr}");
    // The first one still works.
    let inputs = batch(3);
    for (name, f) in &inputs {
        drop_file(&d.path("inbox"), name, f.text.as_bytes());
    }
    wait_until("3 results", LONG, Some(&d), || answered(&d, 3));
    d.signal("TERM");
    assert!(d.wait_exit().success());
    assert_all_answered(&d, &inputs, true);
}

#[test]
fn files_present_before_start_up_are_processed() {
    let mut d = Daemon::new("");
    let inputs = batch(30);
    for (name, f) in &inputs {
        // Written in place, not renamed: only the start-up scan can find them.
        fs::write(d.path("inbox").join(name), &f.text).unwrap();
    }
    fs::write(d.path("inbox").join(".hidden.txt"), "ignored").unwrap();
    d.start(&[]);
    wait_until("30 results", LONG, Some(&d), || answered(&d, 30));
    d.signal("TERM");
    assert!(d.wait_exit().success());
    fs::remove_file(d.path("inbox").join(".hidden.txt")).unwrap();
    assert_all_answered(&d, &inputs, true);
}

#[test]
fn a_second_input_of_the_same_name_gets_a_numbered_result() {
    let mut d = Daemon::new("");
    d.start(&[]);
    let all = fixtures();
    let inbox = d.path("inbox");
    drop_file(&inbox, "same.txt", all[0].text.as_bytes());
    wait_until("the first result", LONG, Some(&d), || answered(&d, 1));
    drop_file(&inbox, "same.txt", all[1].text.as_bytes());
    wait_until("the second result", LONG, Some(&d), || answered(&d, 2));
    let outbox = d.path("outbox");
    let first = fs::read_to_string(outbox.join("same.solution.txt")).unwrap();
    let second = fs::read_to_string(outbox.join("same-2.solution.txt")).unwrap();
    assert!(same_grid(&first, &all[0].sol));
    assert!(same_grid(&second, &all[1].sol));
    assert_eq!(names(&d.path("done")), ["same-2.txt", "same.txt"]);
    let by_file: BTreeMap<_, _> = results(&outbox);
    assert_eq!(by_file["same.txt"].len(), 2);
    assert!(Path::new(&outbox.join("same-2.json")).exists());
}

#[test]
fn the_service_manager_hears_ready_and_stopping_and_json_logs_are_json() {
    let mut d = Daemon::new("");
    let socket_path = d.path("notify.sock");
    let socket = std::os::unix::net::UnixDatagram::bind(&socket_path).unwrap();
    socket.set_read_timeout(Some(LONG)).unwrap();
    d.start_with_env(&["--log-format", "json"], &[("NOTIFY_SOCKET", &socket_path)]);
    let mut buffer = [0u8; 4096];
    let n = socket.recv(&mut buffer).unwrap();
    let message = String::from_utf8_lossy(&buffer[..n]).into_owned();
    assert!(message.lines().any(|l| l == "READY=1"), "{message}");

    let inputs = batch(2);
    for (name, f) in &inputs {
        drop_file(&d.path("inbox"), name, f.text.as_bytes());
    }
    wait_until("2 results", LONG, Some(&d), || answered(&d, 2));
    d.signal("TERM");
    // Status lines come and go meanwhile; the stop comes at the end.
    loop {
        let n = socket.recv(&mut buffer).expect("STOPPING=1");
        if String::from_utf8_lossy(&buffer[..n]).lines().any(|l| l == "STOPPING=1") {
            break;
        }
    }
    assert!(d.wait_exit().success());

    let log = d.log();
    let lines: Vec<serde_json::Value> = log
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect();
    let answered_lines: Vec<_> = lines.iter().filter(|v| v["message"] == "answered").collect();
    assert_eq!(answered_lines.len(), 2, "{log}");
    for line in answered_lines {
        assert!(line["file"].is_string() && line["status"].is_string(), "{line}");
        assert!(line["nodes"].is_u64() && line["ms"].is_f64() && line["grid"].is_string());
    }
    assert!(lines.iter().any(|v| v["message"] == "kakurod stopped"), "{log}");
}

#[test]
fn with_after_success_delete_inputs_are_removed_once_answered_and_svg_off_draws_nothing() {
    let mut d = Daemon::new("[intake]\nafter_success = \"delete\"\n[output]\nsvg = false\n");
    d.start(&[]);
    let inputs = batch(3);
    for (name, f) in &inputs {
        drop_file(&d.path("inbox"), name, f.text.as_bytes());
    }
    drop_file(&d.path("inbox"), "bad.txt", b"not a puzzle\n");
    wait_until("4 results", LONG, Some(&d), || results(&d.path("outbox")).len() == 4);
    wait_until("the inputs moved on", LONG, Some(&d), || {
        claimed(&d.path("claim")).is_empty() && names(&d.path("inbox")).is_empty()
    });
    d.signal("TERM");
    assert!(d.wait_exit().success());
    assert!(names(&d.path("done")).is_empty());
    assert_eq!(names(&d.path("failed")), ["bad.txt"]);
    for (name, f) in &inputs {
        let stem = name.trim_end_matches(".txt");
        let solution = fs::read_to_string(d.path("outbox").join(format!("{stem}.solution.txt")));
        assert!(same_grid(&solution.unwrap(), &f.sol), "{name}");
    }
    let pictures = names(&d.path("outbox")).into_iter().filter(|n| n.ends_with(".svg")).count();
    assert_eq!(pictures, 0, "svg = false still drew pictures");
}

#[test]
fn the_unit_documents_itself_with_the_manual_page_and_the_pages_the_install_steps_put_there() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let unit = fs::read_to_string(root.join("systemd/kakurod.service")).unwrap();
    let docs: Vec<&str> = unit
        .lines()
        .filter_map(|l| l.strip_prefix("Documentation="))
        .flat_map(str::split_whitespace)
        .collect();
    assert_eq!(docs, ["man:kakurod-serve(1)", "file:///usr/local/share/doc/kakurod/service.md"]);
    // The install steps copy the docs folder's pages and the manual pages there, and the
    // page exists.
    let steps = fs::read_to_string(root.join("docs/service.md")).unwrap();
    let folder = docs[1].trim_start_matches("file://").trim_end_matches("/service.md");
    assert!(
        steps.contains(&format!("-t {folder} README.md docs/*.md")),
        "docs/service.md does not install the pages into {folder}"
    );
    assert!(steps.contains("kakurod man /usr/local/share/man/man1"), "no manual pages installed");
    assert!(root.join("docs/service.md").is_file());
    // The queue worker's unit points at its page in the same folder.
    let worker = fs::read_to_string(root.join("deploy/nats/kakurod-worker.service")).unwrap();
    let line = format!("Documentation=man:kakurod-worker(1) file://{folder}/queue.md\n");
    assert!(worker.contains(&line), "the worker's unit lacks {line}");
    assert!(root.join("docs/queue.md").is_file());
}

#[test]
fn the_answer_line_says_whether_a_solved_puzzle_is_unique() {
    let mut d = Daemon::new("");
    d.start(&[]);
    let kakuro = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/kakuro");
    for name in ["257_24x28.txt", "1_10x12.txt"] {
        drop_file(&d.path("inbox"), name, &fs::read(kakuro.join(name)).unwrap());
    }
    wait_until("both results", LONG, Some(&d), || answered(&d, 2));
    // An input is archived before its answer line is logged: the log is read once the
    // daemon has stopped.
    d.signal("TERM");
    assert!(d.wait_exit().success());
    let log = d.log();
    let line = |file: &str| log.lines().find(|l| l.contains(file)).unwrap_or("").to_string();
    assert!(line("257_24x28").contains("status=solved (multiple)"), "{log}");
    assert!(line("1_10x12").contains("status=solved (unique)"), "{log}");
}

#[test]
fn a_long_puzzle_shows_in_the_log_while_it_runs_with_its_counters() {
    let mut d = Daemon::new("");
    d.start(&[]);
    // An empty 9x9 Sudoku counted: billions of solutions, so it runs to its 3 s limit.
    let empty = r#"{"kind": "sudoku", "givens": [[0,0,0,0,0,0,0,0,0],[0,0,0,0,0,0,0,0,0],
        [0,0,0,0,0,0,0,0,0],[0,0,0,0,0,0,0,0,0],[0,0,0,0,0,0,0,0,0],[0,0,0,0,0,0,0,0,0],
        [0,0,0,0,0,0,0,0,0],[0,0,0,0,0,0,0,0,0],[0,0,0,0,0,0,0,0,0]],
        "settings": {"mode": "count", "timeout_seconds": 3}}"#;
    drop_file(&d.path("inbox"), "long.json", empty.as_bytes());
    let quick = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/kakuro/1_10x12.txt");
    drop_file(&d.path("inbox"), "quick.txt", &fs::read(quick).unwrap());
    wait_until("both results", LONG, Some(&d), || answered(&d, 2));
    d.signal("TERM");
    assert!(d.wait_exit().success());
    let log = d.log();
    let running: Vec<&str> = log.lines().filter(|l| l.contains("still running")).collect();
    assert_eq!(running.len(), 1, "one notice, for the long puzzle only:\n{log}");
    assert!(running[0].contains("file=long.json"), "{log}");
    let field = |name: &str| -> u64 {
        let start = running[0].find(&format!("{name}=")).unwrap() + name.len() + 1;
        running[0][start..].split(' ').next().unwrap().parse().unwrap()
    };
    assert!(field("nodes") > 0 && field("solutions") > 0, "live counters: {}", running[0]);
    // The notice comes before the answer.
    let answer = log.lines().position(|l| l.contains("file=long.json") && l.contains("answered"));
    let notice = log.lines().position(|l| l.contains("still running"));
    assert!(notice < answer, "{log}");
}

#[test]
fn large_grids_on_sixteen_workers_of_fewer_cores_are_all_answered() {
    // The default configuration on a 16-core server: sixteen workers, each puzzle's search
    // free to borrow sixteen threads. Here the cores are fewer, so the pool's jobs wait
    // longer before a thread takes them up, and a pipeline whose helper waited for its own
    // unfinished tasks hung every large grid (none of the three answered in a minute).
    let mut d = Daemon::new(
        "[workers]\nworkers = 16\n[solver]\nthreads = 16\nmode = \"first\"\n[output]\nsvg = false\n",
    );
    d.start(&[]);
    let grids = [("l300", 300, 1), ("h300", 300, 2), ("l200", 200, 1)];
    let mut puzzles = Vec::new();
    for (name, size, seed) in grids {
        // Made beside the inbox and moved in whole, as a client would.
        let file = d.path(&format!("{name}.txt"));
        puzzles.push(crate::common::random_filling(&file, size, seed));
        fs::rename(&file, d.path("inbox").join(format!("{name}.txt"))).unwrap();
    }
    wait_until("the three large grids answered", LONG, Some(&d), || answered(&d, 3));
    let results = results(&d.path("outbox"));
    for ((name, _, _), puzzle) in grids.iter().zip(&puzzles) {
        let input = format!("{name}.txt");
        let doc = &results.get(&input).unwrap_or_else(|| panic!("{input}: no result"))[0].1;
        assert_eq!(doc["status"], "solved", "{input}: {doc}");
        let solution = fs::read_to_string(d.path("outbox").join(format!("{name}.solution.txt")));
        crate::common::assert_solves(puzzle, &solution.unwrap(), &input);
    }
}
