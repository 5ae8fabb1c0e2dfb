//! The shared queue on a real NATS JetStream server: `kakurod serve --queue` with its own
//! worker slots plus two `kakurod worker` processes answer a thousand small inputs, each
//! exactly once and right; a second daemon on the same inbox is refused; a worker that
//! stops hands its jobs back.

use crate::daemon_common;

use daemon_common::nats::{NatsServer, QueueWorker, server_binary};
use daemon_common::{
    Daemon, Fixture, LONG, assert_all_answered, batch, claimed, drop_file, names, results, runner,
    wait_until,
};
use std::fs;
use std::time::Duration;

fn answered(d: &Daemon) -> usize {
    names(&d.path("done")).len() + names(&d.path("failed")).len()
}

fn queue_config(url: &str, extra: &str) -> String {
    format!(
        "[workers]\nworkers = 1\nfsync = false\n[output]\nsvg = false\n\
         [queue]\nurl = \"{url}\"\nack_wait_seconds = 5\nmax_in_flight = 64\n{extra}"
    )
}

#[test]
fn a_thousand_inputs_through_serve_and_two_workers_are_each_answered_once_and_right() {
    let Some(binary) = server_binary("a thousand inputs on one server") else { return };
    let dir = tempfile::tempdir().unwrap();
    let server = NatsServer::start(&binary, dir.path());
    let mut d = Daemon::new(&queue_config(&server.url(), ""));
    d.start(&[]);
    let workers: Vec<QueueWorker> = (0..2)
        .map(|i| {
            let log = dir.path().join(format!("worker-{i}.log"));
            QueueWorker::start(&server.url(), 2, &[], log)
        })
        .collect();
    let inputs = batch(1000);
    for (name, f) in &inputs {
        drop_file(&d.path("inbox"), name, f.text.as_bytes());
    }
    wait_until("1000 answers", LONG * 3, Some(&d), || answered(&d) >= 1000);
    d.signal("TERM");
    assert!(d.wait_exit().success(), "{}", d.log());
    assert_all_answered(&d, &inputs, false);
    // The work was shared: each worker process answered some, and the log says which.
    let log = d.log();
    for w in &workers {
        let mark = format!("/{}", w.pid());
        let by_it = log
            .lines()
            .filter(|l| l.contains("answered"))
            .any(|l| l.split_whitespace().any(|t| t.starts_with("worker=") && t.ends_with(&mark)));
        assert!(by_it, "worker {} answered none", w.pid());
        // And the worker itself says, one line per input, what it answered.
        let own = w.log_text();
        let lines = own.lines().filter(|l| l.contains("answered; sent to the daemon")).count();
        assert!(lines > 0 && own.contains("kind=kakuro"), "worker {}:\n{own}", w.pid());
    }
    assert!(log.contains("jobs go through NATS JetStream"), "{log}");
}

#[test]
fn a_second_queue_daemon_on_the_inbox_is_refused_and_a_stopped_worker_hands_its_job_back() {
    let Some(binary) = server_binary("a stopped worker") else { return };
    let dir = tempfile::tempdir().unwrap();
    let server = NatsServer::start(&binary, dir.path());
    // Counts that run into a 3 s limit.
    let extra = "[solver]\nmode = \"count\"\n[limits]\ntimeout_seconds = 3\n";
    let mut d = Daemon::new(&queue_config(&server.url(), extra));
    d.start(&[]);
    let second = std::process::Command::new(daemon_common::BIN)
        .args(["serve", "--config"])
        .arg(d.config())
        .output()
        .unwrap();
    assert_eq!(second.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&second.stderr).contains("already serves the inbox"));
    // Two long counts: one on the daemon's own slot, one on a worker that is stopped
    // meanwhile with a short drain: its job goes back, and the daemon's slot answers it.
    let drain = ["--drain-timeout", "0.2"];
    let mut worker = QueueWorker::start(&server.url(), 1, &drain, dir.path().join("w.log"));
    let empty16 = ".".repeat(256) + "\n";
    drop_file(&d.path("inbox"), "long.txt", empty16.as_bytes());
    drop_file(&d.path("inbox"), "long2.txt", empty16.as_bytes());
    wait_until("both claimed", LONG, Some(&d), || claimed(&d.path("claim")).len() == 2);
    std::thread::sleep(Duration::from_millis(500));
    assert!(worker.terminate().success(), "{}", worker.log_text());
    assert!(worker.log_text().contains("drained=false"), "{}", worker.log_text());
    wait_until("both answered", LONG, Some(&d), || answered(&d) == 2);
    let results = results(&d.path("outbox"));
    for name in ["long.txt", "long2.txt"] {
        assert_eq!(results[name].len(), 1, "{name}: {:?}", results[name]);
        let doc = &results[name][0].1;
        let puzzle = if doc["puzzles"].is_array() { &doc["puzzles"][0] } else { doc };
        assert_eq!(puzzle["stopped_by"], "timeout", "{doc}");
    }
    d.signal("TERM");
    assert!(d.wait_exit().success(), "{}", d.log());
}

/// The node ids in a status document.
fn node_ids(doc: &serde_json::Value) -> Vec<String> {
    let nodes = doc["nodes"].as_array().cloned().unwrap_or_default();
    nodes.iter().map(|n| n["node_id"].as_str().unwrap_or("").to_string()).collect()
}

#[test]
fn status_lists_the_queues_nodes_drops_a_killed_worker_and_cancel_stops_a_remote_search() {
    let Some(binary) = server_binary("status of the queue's nodes") else { return };
    let dir = tempfile::tempdir().unwrap();
    let server = NatsServer::start(&binary, dir.path());
    let extra = "[solver]\nmode = \"count\"\n";
    let mut d = Daemon::new(&queue_config(&server.url(), extra));
    let metrics = dir.path().join("kakurod.prom");
    d.start(&["--drain-timeout", "0.2", "--metrics-file", metrics.to_str().unwrap()]);
    let mut workers: Vec<QueueWorker> = (0..2)
        .map(|i| QueueWorker::start(&server.url(), 1, &[], dir.path().join(format!("w{i}.log"))))
        .collect();
    let ids: Vec<String> = workers.iter().map(|w| format!("/{}", w.pid())).collect();
    let listed = |doc: &serde_json::Value, id: &str| node_ids(doc).iter().any(|n| n.ends_with(id));
    wait_until("both workers in the status", LONG, Some(&d), || {
        let doc = d.status_json();
        ids.iter().all(|id| listed(&doc, id))
    });
    let empty16 = ".".repeat(256) + "\n";
    for name in ["a.txt", "b.txt", "c.txt"] {
        drop_file(&d.path("inbox"), name, empty16.as_bytes());
    }
    // Three endless counts on three slots (two workers, the daemon's own): each counts.
    let counting = |doc: &serde_json::Value| -> Vec<(String, u64)> {
        let nodes = doc["nodes"].as_array().cloned().unwrap_or_default();
        let running =
            nodes.iter().flat_map(|n| n["running"].as_array().cloned().unwrap_or_default());
        running
            .map(|r| (r["input"].as_str().unwrap_or("").into(), r["nodes"].as_u64().unwrap_or(0)))
            .collect()
    };
    wait_until("three searches counting in the status", LONG, Some(&d), || {
        let running = counting(&d.status_json());
        running.len() == 3 && running.iter().all(|(_, nodes)| *nodes > 0)
    });
    let doc = d.status_json();
    assert_eq!(doc["nodes"][0]["on_shared_queue"], 3, "{doc}");
    // The server's own counts of the queue: three jobs held, none waiting, no answer.
    wait_until("the shared queue's backlog in the status and the metrics", LONG, Some(&d), || {
        let backlog = &d.status_json()["nodes"][0]["shared_queue"];
        let text = std::fs::read_to_string(&metrics).unwrap_or_default();
        backlog["running"] == 3
            && backlog["pending"] == 0
            && backlog["answers_waiting"] == 0
            && text.contains("kakurod_shared_queue_running 3\n")
            && text.contains("kakurod_shared_queue_pending 0\n")
    });
    // A worker killed without a word drops out of the status, the others stay.
    let killed = workers.remove(0);
    let killed_id = ids[0].clone();
    drop(killed);
    wait_until("the killed worker gone from the status", LONG, Some(&d), || {
        let doc = d.status_json();
        !listed(&doc, &killed_id) && listed(&doc, &ids[1])
    });
    // Cancelling the input a worker on another process runs: it stops there and is
    // answered `cancelled` here; its slot is free for the next job.
    let doc = d.status_json();
    let nodes = doc["nodes"].as_array().unwrap();
    let survivor =
        nodes.iter().find(|n| n["node_id"].as_str().unwrap().ends_with(&ids[1])).unwrap();
    let input = survivor["running"][0]["input"].as_str().unwrap().to_string();
    d.cancel(&input);
    let results = results(&d.path("outbox"));
    assert_eq!(results[&input].len(), 1);
    assert_eq!(results[&input][0].1["status"], "cancelled", "{:?}", results[&input]);
    wait_until("the worker to drop the job", LONG, Some(&d), || {
        workers[0].log_text().contains("the daemon cancelled the job; dropped")
    });
    wait_until("the cancelled input gone from every node", LONG, Some(&d), || {
        !counting(&d.status_json()).iter().any(|(name, _)| *name == input)
    });
    d.signal("TERM");
    assert!(d.wait_exit().success(), "{}", d.log());
}

#[test]
fn status_counts_the_inputs_held_in_the_inbox_for_a_full_queue_and_forgets_a_cancelled_one() {
    let Some(binary) = server_binary("the inputs held for the queue") else { return };
    let dir = tempfile::tempdir().unwrap();
    let server = NatsServer::start(&binary, dir.path());
    let config = queue_config(&server.url(), "[solver]\nmode = \"count\"\n")
        .replace("max_in_flight = 64", "max_in_flight = 2");
    let mut d = Daemon::new(&config);
    d.start(&["--drain-timeout", "0.2"]);
    let empty16 = ".".repeat(256) + "\n";
    for name in ["a.txt", "b.txt", "c.txt", "d.txt", "e.txt", "f.txt"] {
        drop_file(&d.path("inbox"), name, empty16.as_bytes());
    }
    // Two endless counts in flight (the daemon's own slot runs one), four held back.
    wait_until("two in flight and four held", LONG, Some(&d), || {
        let node = &d.status_json()["nodes"][0];
        node["on_shared_queue"] == 2 && node["held_for_queue"] == 4
    });
    let text = std::process::Command::new(daemon_common::BIN)
        .args(["status", "--config"])
        .arg(d.config())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("4 held in the inbox until the shared queue has room"), "{text}");
    let held = names(&d.path("inbox"));
    assert_eq!(held.len(), 4, "{held:?}");
    d.cancel(&held[0]);
    wait_until("three held after the cancel", LONG, Some(&d), || {
        d.status_json()["nodes"][0]["held_for_queue"] == 3
    });
    d.signal("TERM");
    assert!(d.wait_exit().success(), "{}", d.log());
}

#[test]
fn a_claim_removed_while_a_worker_solves_it_stops_that_search_and_nothing_is_answered() {
    let Some(binary) = server_binary("a removed claim on the queue") else { return };
    let dir = tempfile::tempdir().unwrap();
    let server = NatsServer::start(&binary, dir.path());
    let extra = "reconcile_seconds = 1\n[solver]\nmode = \"count\"\n";
    let mut d = Daemon::new(&queue_config(&server.url(), extra));
    d.start(&["--drain-timeout", "0.2"]);
    let worker = QueueWorker::start(&server.url(), 1, &[], dir.path().join("w.log"));
    let empty16 = ".".repeat(256) + "\n";
    drop_file(&d.path("inbox"), "endless.txt", empty16.as_bytes());
    drop_file(&d.path("inbox"), "endless2.txt", empty16.as_bytes());
    wait_until("both searches running", LONG, Some(&d), || {
        let doc = d.status_json();
        let nodes = doc["nodes"].as_array().cloned().unwrap_or_default();
        nodes.iter().map(|n| n["running"].as_array().map_or(0, Vec::len)).sum::<usize>() == 2
    });
    let on_worker = |doc: &serde_json::Value| -> Vec<String> {
        let nodes = doc["nodes"].as_array().cloned().unwrap_or_default();
        let mark = format!("/{}", worker.pid());
        let node = nodes.iter().find(|n| n["node_id"].as_str().unwrap_or("").ends_with(&mark));
        let running = node.and_then(|n| n["running"].as_array().cloned()).unwrap_or_default();
        running.iter().map(|r| r["input"].as_str().unwrap_or("").to_string()).collect()
    };
    let input = on_worker(&d.status_json()).pop().expect("one search on the worker");
    let claim = names(&d.path("claim")).into_iter().find(|n| n.ends_with(&format!(".{input}")));
    fs::remove_file(d.path("claim").join(claim.unwrap())).unwrap();
    wait_until("the worker to drop the job", LONG, Some(&d), || {
        worker.log_text().contains("the daemon cancelled the job; dropped")
    });
    wait_until("the search gone from the worker", LONG, Some(&d), || {
        !on_worker(&d.status_json()).contains(&input)
    });
    assert!(!results(&d.path("outbox")).contains_key(&input), "answered anyway");
    d.signal("TERM");
    assert!(d.wait_exit().success(), "{}", d.log());
}

#[test]
fn large_inputs_leave_a_slot_to_the_small_ones_queued_behind_them() {
    let Some(binary) = server_binary("large inputs on the queue") else { return };
    let dir = tempfile::tempdir().unwrap();
    let server = NatsServer::start(&binary, dir.path());
    // Two slots, the daemon's own; inputs of 1,000 bytes or more are large.
    let config = queue_config(&server.url(), "large_input_bytes = 1000\n")
        .replace("workers = 1", "workers = 2");
    let mut d = Daemon::new(&config);
    d.start(&[]);
    // Two large inputs that count for 6 s each: without the kept slot they would hold both
    // slots for 6 s; with it, one runs and the other waits.
    let empty = "[0,0,0,0,0,0,0,0,0]";
    let rows = [empty; 9].join(",");
    let long = format!(
        r#"{{"kind": "sudoku", "givens": [{rows}], "settings": {{"mode": "count", "timeout_seconds": 6}}}}"#
    );
    let large = format!("{long}{}", " ".repeat(1000));
    for name in ["large-1.json", "large-2.json"] {
        drop_file(&d.path("inbox"), name, large.as_bytes());
    }
    let running = |doc: &serde_json::Value| -> Vec<String> {
        let nodes = doc["nodes"].as_array().cloned().unwrap_or_default();
        let jobs = nodes.iter().flat_map(|n| n["running"].as_array().cloned().unwrap_or_default());
        jobs.map(|r| r["input"].as_str().unwrap_or("").to_string()).collect()
    };
    wait_until("a large input running", LONG, Some(&d), || !running(&d.status_json()).is_empty());
    let small: Vec<(String, Fixture)> =
        batch(40).into_iter().filter(|(_, f)| f.text.len() < 1000).take(6).collect();
    assert_eq!(small.len(), 6);
    for (name, f) in &small {
        drop_file(&d.path("inbox"), name, f.text.as_bytes());
    }
    // Every small input is answered while the first large one still runs, and the two
    // large ones never ran together.
    wait_until("the small inputs answered", LONG, Some(&d), || {
        let now = running(&d.status_json());
        assert!(now.iter().filter(|n| n.starts_with("large")).count() <= 1, "{now:?}");
        small.iter().all(|(name, _)| d.path("done").join(name).exists())
    });
    let early = results(&d.path("outbox"));
    assert!(!early.contains_key("large-1.json"), "the large input ended first: {early:?}");
    assert!(!early.contains_key("large-2.json"), "{early:?}");
    wait_until("the large inputs answered", LONG, Some(&d), || answered(&d) == 8);
    let all = results(&d.path("outbox"));
    for name in ["large-1.json", "large-2.json"] {
        assert_eq!(all[name][0].1["status"], "timeout", "{:?}", all[name]);
    }
    d.signal("TERM");
    assert!(d.wait_exit().success(), "{}", d.log());
}

#[test]
fn a_queue_that_cannot_be_reached_refuses_the_start_before_any_folder_is_made() {
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let mut d = Daemon::new(&queue_config(&format!("nats://127.0.0.1:{port}"), ""));
    d.launch(&[]);
    let status = d.wait_exit();
    assert_eq!(status.code(), Some(2), "{}", d.log());
    for folder in ["claim", "done", "failed"] {
        assert!(!d.path(folder).exists(), "{folder}/ made by a daemon that did not start");
    }
}

#[test]
fn an_input_its_workers_die_on_is_answered_failed_after_max_crashes() {
    let Some(binary) = server_binary("crash counts") else { return };
    let dir = tempfile::tempdir().unwrap();
    let server = NatsServer::start(&binary, dir.path());
    let extra = "max_crashes = 2\n[solver]\nmode = \"count\"\n";
    let config =
        queue_config(&server.url(), extra).replace("ack_wait_seconds = 5", "ack_wait_seconds = 1");
    let mut d = Daemon::new(&config);
    d.start(&[]);
    // The daemon's own slot runs an endless count, so the next input goes to a worker.
    let empty16 = ".".repeat(256) + "\n";
    drop_file(&d.path("inbox"), "blocker.txt", empty16.as_bytes());
    wait_until("the blocker on the daemon's slot", LONG, Some(&d), || {
        runner(&d.status_json(), "blocker.txt").is_some()
    });
    drop_file(&d.path("inbox"), "poison.txt", empty16.as_bytes());
    // Two workers in turn die while they run it (SIGKILL: no hand-back).
    for run in 0..2 {
        let log = dir.path().join(format!("w{run}.log"));
        let mut worker = QueueWorker::start(&server.url(), 1, &[], log);
        let mark = format!("/{}", worker.pid());
        wait_until("the poison on a worker", LONG, Some(&d), || {
            runner(&d.status_json(), "poison.txt").is_some_and(|n| n.ends_with(&mark))
        });
        worker.kill9();
    }
    // The third start is not made: it is answered as failed.
    let _survivor = QueueWorker::start(&server.url(), 1, &[], dir.path().join("w2.log"));
    wait_until("the poison answered", LONG, Some(&d), || names(&d.path("failed")).len() == 1);
    let error = fs::read_to_string(d.path("outbox").join("poison.error.json")).unwrap();
    assert!(error.contains("failed after 2 crashes"), "{error}");
    assert_eq!(names(&d.path("failed")), ["poison.txt"]);
}
