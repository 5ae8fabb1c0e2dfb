//! Small inputs through the shared queue travel in packs (several inputs in one job), and
//! are still answered, cancelled and sent again one by one: on a real `nats-server`, a
//! worker SIGKILLed while it holds a pack loses none of its inputs and has none answered
//! twice, an input cancelled while its pack waits is answered cancelled while the others
//! of the pack are solved, and an input cancelled on the queue takes only its own job off
//! it, not the pack waiting behind it. The answers of a pack go back together in one
//! message.

use crate::daemon_common;

use daemon_common::nats::{NatsServer, QueueWorker, server_binary};
use daemon_common::{Daemon, LONG, drop_file, names, results, runner, wait_until};
use std::fs;
use std::path::Path;

/// A daemon with one slot of its own, debug logs (a pack sent says so) and a short ack
/// wait, on the server at `url`.
fn config(url: &str) -> String {
    format!(
        "[workers]\nworkers = 1\nfsync = false\n[output]\nsvg = false\n[log]\nlevel = \"debug\"\n\
         [solver]\nmode = \"count\"\n[queue]\nurl = \"{url}\"\nack_wait_seconds = 2\n"
    )
}

/// An empty 9x9 Sudoku counted until its `seconds` run out: an input that takes as long
/// as asked, small enough to be packed.
fn counted_for(seconds: f64) -> String {
    let row = "[0,0,0,0,0,0,0,0,0]";
    let rows = [row; 9].join(",");
    format!(
        r#"{{"kind": "sudoku", "givens": [{rows}], "settings": {{"mode": "count", "timeout_seconds": {seconds}}}}}"#
    )
}

/// Occupies the daemon's own slot with an endless count, so that the jobs go to workers.
fn block_the_daemons_slot(d: &Daemon) {
    drop_file(&d.path("inbox"), "blocker.txt", (".".repeat(81) + "\n").as_bytes());
    wait_until("the blocker on the daemon's slot", LONG, Some(d), || {
        runner(&d.status_json(), "blocker.txt").is_some()
    });
}

/// Writes `inputs` beside the inbox, then renames them all in at once, so that the daemon
/// claims them together and sends them in one pack.
fn drop_together(d: &Daemon, inputs: &[(String, String)]) {
    let staging = d.path("staging");
    fs::create_dir_all(&staging).unwrap();
    for (name, text) in inputs {
        fs::write(staging.join(name), text).unwrap();
    }
    for (name, _) in inputs {
        fs::rename(staging.join(name), d.path("inbox").join(name)).unwrap();
    }
}

/// Drops inputs named after `names` together, again under new names while none of them
/// went in a pack, and gives every input dropped. A pack gathers the inputs claimed within
/// its linger (2 ms) of its first, and the daemon's one slot claims them one after the
/// other: on a loaded machine a pair dropped at once was once claimed further apart, and
/// each went as a job of its own.
fn drop_until_packed(d: &Daemon, names: &[&str]) -> Vec<(String, String)> {
    let mut dropped = Vec::new();
    for round in 0..5 {
        let inputs: Vec<(String, String)> =
            names.iter().map(|n| (format!("{n}{round}.json"), counted_for(0.2))).collect();
        drop_together(d, &inputs);
        dropped.extend(inputs.iter().cloned());
        wait_until("the inputs claimed", LONG, Some(d), || {
            inputs.iter().all(|(name, _)| !d.path("inbox").join(name).exists())
        });
        // Past the linger of the pack that the last of them may have begun.
        std::thread::sleep(std::time::Duration::from_millis(200));
        if d.log().contains("a pack sent") {
            return dropped;
        }
    }
    panic!("no pack sent in five tries\n--- daemon log ---\n{}", d.log());
}

/// The result documents of `name` in `outbox`: one per answer written.
fn answers_of(outbox: &Path, name: &str) -> usize {
    results(outbox).get(name).map_or(0, Vec::len)
}

#[test]
fn a_worker_killed_holding_a_pack_loses_none_of_its_inputs_and_answers_none_twice() {
    let Some(binary) = server_binary("packs and a killed worker") else { return };
    let dir = tempfile::tempdir().unwrap();
    let server = NatsServer::start(&binary, dir.path());
    let mut d = Daemon::new(&config(&server.url()));
    d.start(&[]);
    block_the_daemons_slot(&d);
    let mut first = QueueWorker::start(&server.url(), 1, &[], dir.path().join("w1.log"));
    let inputs: Vec<(String, String)> =
        // Long enough that the kill lands while the first worker still runs its input and
        // holds the pack, however late the status shows it running on a loaded machine (at
        // 2 s the first input was once answered, and the pack acknowledged, before the kill).
        (0..4).map(|i| (format!("p{i}.json"), counted_for(5.0))).collect();
    drop_together(&d, &inputs);
    wait_until("a pack sent", LONG, Some(&d), || d.log().contains("a pack sent"));
    // The inputs become ready over a few milliseconds on a loaded machine: one whose
    // pack's linger ran out before the others were ready goes as a job of its own (once,
    // the first of the four), and the first worker may run it before it takes the pack.
    let log = d.log();
    let sent = log.lines().find(|l| l.contains("a pack sent")).unwrap_or_default();
    let files = sent.split_once("files=").map_or("", |(_, files)| files);
    let packed: Vec<&str> = files.split(", ").collect();
    assert!(packed.len() >= 2, "{sent}");
    // The first worker runs an input of the pack; it dies in the middle of it.
    let mark = format!("/{}", first.pid());
    wait_until("an input of the pack on the first worker", LONG, Some(&d), || {
        let doc = d.status_json();
        packed.iter().any(|name| runner(&doc, name).is_some_and(|n| n.ends_with(&mark)))
    });
    first.kill9();
    let second = QueueWorker::start(&server.url(), 1, &[], dir.path().join("w2.log"));
    let done = |d: &Daemon| inputs.iter().all(|(name, _)| d.path("done").join(name).exists());
    wait_until("every input of the pack answered", LONG * 2, Some(&d), || done(&d));
    // The pack came back with the crash counted, and went on as one job per input.
    let log = second.log_text();
    let all = format!("{log}\n--- first ---\n{}\n--- daemon ---\n{}", first.log_text(), d.log());
    assert!(log.contains("its inputs go on as jobs of their own"), "{all}");
    std::thread::sleep(std::time::Duration::from_millis(500));
    for (name, _) in &inputs {
        assert_eq!(answers_of(&d.path("outbox"), name), 1, "{name} answered twice or never");
    }
    assert!(names(&d.path("failed")).is_empty(), "{}", d.log());
    d.signal("TERM");
    assert!(d.wait_exit().success(), "{}", d.log());
}

#[test]
fn an_input_cancelled_while_its_pack_waits_is_answered_cancelled_and_the_others_solved() {
    let Some(binary) = server_binary("a cancel in a pack") else { return };
    let dir = tempfile::tempdir().unwrap();
    let server = NatsServer::start(&binary, dir.path());
    let mut d = Daemon::new(&config(&server.url()));
    d.start(&[]);
    block_the_daemons_slot(&d);
    // No worker yet: the pack waits on the queue.
    let inputs: Vec<(String, String)> =
        ["a", "b", "c"].iter().map(|n| (format!("{n}.json"), counted_for(0.2))).collect();
    drop_together(&d, &inputs);
    wait_until("a pack sent", LONG, Some(&d), || d.log().contains("a pack sent"));
    d.cancel("b.json");
    let worker =
        QueueWorker::start(&server.url(), 1, &["--log-level", "debug"], dir.path().join("w.log"));
    let answered =
        |d: &Daemon| ["a.json", "c.json"].iter().all(|n| d.path("done").join(n).exists());
    for _ in 0..200 {
        if answered(&d) {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert!(answered(&d), "{}\n--- daemon ---\n{}", worker.log_text(), d.log());
    std::thread::sleep(std::time::Duration::from_millis(500));
    let results = results(&d.path("outbox"));
    assert_eq!(results["b.json"].len(), 1, "{:?}", results["b.json"]);
    assert_eq!(results["b.json"][0].1["status"], "cancelled", "{:?}", results["b.json"]);
    for name in ["a.json", "c.json"] {
        assert_eq!(results[name].len(), 1, "{name}: {:?}", results[name]);
        assert_ne!(results[name][0].1["status"], "cancelled", "{name}: {:?}", results[name]);
    }
    d.signal("TERM");
    assert!(d.wait_exit().success(), "{}", d.log());
}

#[test]
fn an_input_cancelled_on_the_queue_takes_only_its_own_job_off_it() {
    let Some(binary) = server_binary("a cancel ahead of a pack") else { return };
    let dir = tempfile::tempdir().unwrap();
    let server = NatsServer::start(&binary, dir.path());
    let mut d = Daemon::new(&config(&server.url()));
    d.start(&[]);
    block_the_daemons_slot(&d);
    // No worker yet: the first input goes alone, as a job of its own, and a pack of two
    // waits behind it on the queue.
    drop_together(&d, &[("first.json".to_string(), counted_for(0.2))]);
    wait_until("the first input sent", LONG, Some(&d), || {
        !d.path("inbox").join("first.json").exists()
    });
    std::thread::sleep(std::time::Duration::from_millis(300));
    let behind = drop_until_packed(&d, &["a", "c"]);
    d.cancel("first.json");
    let worker =
        QueueWorker::start(&server.url(), 1, &["--log-level", "debug"], dir.path().join("w.log"));
    // Taking the cancelled job off the queue must leave the pack behind it there.
    let answered = |d: &Daemon| behind.iter().all(|(n, _)| d.path("done").join(n).exists());
    wait_until("the pack behind the cancelled job answered", LONG, Some(&d), || answered(&d));
    let results = results(&d.path("outbox"));
    assert_eq!(results["first.json"][0].1["status"], "cancelled", "{}", worker.log_text());
    d.signal("TERM");
    assert!(d.wait_exit().success(), "{}", d.log());
}

#[test]
fn the_answers_of_a_pack_travel_together_and_are_each_written_once() {
    let Some(binary) = server_binary("a pack's answers in one message") else { return };
    let dir = tempfile::tempdir().unwrap();
    let server = NatsServer::start(&binary, dir.path());
    let mut d = Daemon::new(&config(&server.url()));
    d.start(&[]);
    block_the_daemons_slot(&d);
    // Each counted at once: one solution, found by the first propagation.
    let solved = r#"{"kind": "sudoku", "givens": [[1,2,3,4],[3,4,1,2],[2,1,4,3],[4,3,2,0]]}"#;
    let inputs: Vec<(String, String)> =
        (0..6).map(|i| (format!("q{i}.json"), solved.to_string())).collect();
    drop_together(&d, &inputs);
    wait_until("a pack sent", LONG, Some(&d), || d.log().contains("a pack sent"));
    let worker =
        QueueWorker::start(&server.url(), 1, &["--log-level", "debug"], dir.path().join("w.log"));
    let done = |d: &Daemon| inputs.iter().all(|(name, _)| d.path("done").join(name).exists());
    wait_until("every input of the pack answered", LONG, Some(&d), || done(&d));
    std::thread::sleep(std::time::Duration::from_millis(500));
    let log = worker.log_text();
    let all = format!("{log}\n--- daemon ---\n{}", d.log());
    for (name, _) in &inputs {
        let results = results(&d.path("outbox"));
        assert_eq!(results[name].len(), 1, "{name}: {all}");
        assert_eq!(results[name][0].1["status"], "solved", "{name}: {all}");
    }
    // Unless the pack outlived its patience on a loaded machine (its inputs then went on
    // alone), its answers went back in one message.
    if !log.contains("outlived its patience") {
        assert!(log.contains("answers sent in one message"), "{all}");
    }
    d.signal("TERM");
    assert!(d.wait_exit().success(), "{}", d.log());
}
