//! Inputs and answers larger than a NATS message, on real servers with the real binary:
//! they go through the queue's object store (the bucket `kakurod_large`) and come out as
//! `kakurod solve` answers them on one host; a worker killed while it solves one still
//! leads to one answer; and the bucket is empty once everything is answered.

use crate::daemon_common;

use async_nats::jetstream;
use daemon_common::nats::{NatsServer, QueueWorker, server_binary};
use daemon_common::{BIN, Daemon, LONG, claimed, drop_file, names, results, wait_until};
use std::fs;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// The bucket's stream under the default prefix.
const BUCKET_STREAM: &str = "OBJ_kakurod_large";

fn queue_config(url: &str, extra: &str) -> String {
    format!(
        "[workers]\nworkers = 1\nfsync = false\n[output]\nsvg = false\n\
         [queue]\nurl = \"{url}\"\nack_wait_seconds = 5\nmax_in_flight = 16\n{extra}"
    )
}

/// A batch of puzz.link URLs of at least `bytes` bytes: the 20 Sudoku of the top1465
/// fixture over and over. (A `lines` batch would be cut into parts that each fit a
/// message; a batch of URLs travels whole.)
fn sudoku_batch(bytes: usize) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let fixture = root.join("tests/fixtures/sudoku/top1465-first20.txt");
    let out = Command::new(BIN).args(["convert", "--to", "puzzlink"]).arg(fixture).output();
    let text = String::from_utf8(out.unwrap().stdout).unwrap();
    let urls: Vec<&str> = text.lines().filter(|l| l.starts_with("https://")).collect();
    assert_eq!(urls.len(), 20, "{text}");
    let mut batch = String::with_capacity(bytes + 100);
    for url in urls.iter().cycle() {
        if batch.len() >= bytes {
            break;
        }
        batch.push_str(url);
        batch.push('\n');
    }
    batch
}

/// The 31x46 Kakuro fixture `across` times side by side and `down` times one below the
/// other: one puzzle of independent copies (each copy's border row and column of clues ends
/// the runs of the copy before it), so unique as the fixture is.
fn tiled_kakuro(across: usize, down: usize) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = fs::read_to_string(root.join("tests/fixtures/kakuro/960_31x46.txt")).unwrap();
    let mut lines = text.lines();
    let size: Vec<usize> =
        lines.next().unwrap().split_whitespace().map(|n| n.parse().unwrap()).collect();
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split_whitespace().collect()).collect();
    assert_eq!((rows.len(), rows[0].len()), (size[0], size[1]));
    let mut tiled = format!("{} {}\n", size[0] * down, size[1] * across);
    for _ in 0..down {
        for row in &rows {
            let wide: Vec<&str> = (0..across).flat_map(|_| row.iter().copied()).collect();
            tiled.push_str(&wide.join(" "));
            tiled.push('\n');
        }
    }
    tiled
}

/// `kakurod solve FILE --out DIR` (with `--svg`): the folder of its files, and how long it
/// took.
fn solve_locally(input: &Path, svg: bool) -> (tempfile::TempDir, Duration) {
    let out = tempfile::tempdir().unwrap();
    let started = Instant::now();
    let mut command = Command::new(daemon_common::BIN);
    command.arg("solve").arg(input).arg("--out").arg(out.path());
    if svg {
        command.arg("--svg");
    }
    let done = command.output().unwrap();
    let took = started.elapsed();
    assert!(done.status.success(), "{}", String::from_utf8_lossy(&done.stderr));
    (out, took)
}

/// The file `name` of the folder `dir`.
fn read(dir: &Path, name: &str) -> Vec<u8> {
    fs::read(dir.join(name)).unwrap_or_else(|e| panic!("{}: {e}", dir.join(name).display()))
}

/// A client of the server on its own runtime, for the test's look at the bucket.
struct Look {
    runtime: tokio::runtime::Runtime,
    js: jetstream::Context,
}

impl Look {
    fn new(url: &str) -> Look {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        let client = runtime.block_on(async_nats::connect(url)).unwrap();
        let js = {
            let _inside = runtime.enter();
            jetstream::new(client)
        };
        Look { runtime, js }
    }

    /// The messages of the bucket's stream: chunks and objects' infos.
    fn bucket_messages(&self) -> u64 {
        self.runtime.block_on(async {
            let mut stream = self.js.get_stream(BUCKET_STREAM).await.unwrap();
            stream.info().await.unwrap().state.messages
        })
    }

    /// Empties the bucket behind the daemon's back.
    fn purge(&self) {
        self.runtime.block_on(async {
            self.js.get_stream(BUCKET_STREAM).await.unwrap().purge().await.unwrap();
        });
    }

    /// Jobs delivered to a worker slot and not acknowledged yet.
    fn jobs_running(&self) -> usize {
        self.runtime.block_on(async {
            let stream = self.js.get_stream("kakurod_jobs").await.unwrap();
            stream.consumer_info("workers").await.unwrap().num_ack_pending
        })
    }

    /// Puts `bytes` as the object `name`, as a crashed run would have left it.
    fn put(&self, name: &str, bytes: &[u8]) {
        self.runtime.block_on(async {
            let store = self.js.get_object_store("kakurod_large").await.unwrap();
            let mut reader = bytes;
            // Chunks smaller than the server's messages.
            let meta = async_nats::jetstream::object_store::ObjectMetadata {
                name: name.to_string(),
                chunk_size: Some(16 << 10),
                ..Default::default()
            };
            store.put(meta, &mut reader).await.unwrap();
        });
    }

    /// Waits until the bucket holds nothing.
    fn wait_empty(&self, d: &Daemon) {
        wait_until("the bucket emptied", LONG, Some(d), || self.bucket_messages() == 0);
    }
}

/// `kakurod status --json --config CFG`, parsed: the inputs each node runs, by node id.
fn running(d: &Daemon) -> Vec<(String, String)> {
    let out = Command::new(daemon_common::BIN)
        .args(["status", "--json", "--config"])
        .arg(d.config())
        .output()
        .unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    let nodes = doc["nodes"].as_array().cloned().unwrap_or_default();
    let mut found = Vec::new();
    for node in nodes {
        let id = node["node_id"].as_str().unwrap_or("").to_string();
        for job in node["running"].as_array().cloned().unwrap_or_default() {
            found.push((id.clone(), job["input"].as_str().unwrap_or("").to_string()));
        }
    }
    found
}

/// The log line of `name`'s answer names the worker `pid`.
fn answered_by(d: &Daemon, name: &str, pid: u32) -> bool {
    let mark = format!("/{pid}");
    d.log()
        .lines()
        .filter(|l| l.contains("answered") && l.contains(name))
        .any(|l| l.split_whitespace().any(|t| t.starts_with("worker=") && t.ends_with(&mark)))
}

/// A Sudoku batch of about `bytes` as `DIR/big.txt`, and what `kakurod solve` answers for
/// it on one host.
fn big_batch(dir: &std::path::Path, bytes: usize) -> (String, tempfile::TempDir) {
    let batch = sudoku_batch(bytes);
    let input = dir.join("big.txt");
    fs::write(&input, &batch).unwrap();
    let (local, _) = solve_locally(&input, false);
    (batch, local)
}

/// Keeps the daemon's own slot busy with a count that runs into its limit of `seconds`
/// (no worker is there to take it), so that the separate workers answer what follows.
fn occupy_the_daemons_slot(d: &Daemon, seconds: u32) {
    let empty = "[0,0,0,0,0,0,0,0,0]";
    let rows = [empty; 9].join(",");
    let long = format!(
        r#"{{"kind": "sudoku", "givens": [{rows}], "settings": {{"mode": "count", "timeout_seconds": {seconds}}}}}"#
    );
    drop_file(&d.path("inbox"), "long.json", long.as_bytes());
    wait_until("the count running", LONG, Some(d), || !running(d).is_empty());
}

#[test]
fn a_five_mib_batch_goes_through_the_bucket_and_is_answered_as_solve_answers_it() {
    let Some(binary) = server_binary("a 5 MiB batch through the queue") else { return };
    let dir = tempfile::tempdir().unwrap();
    let server = NatsServer::start(&binary, dir.path());
    let batch = sudoku_batch(5 << 20);
    let input = dir.path().join("big.txt");
    fs::write(&input, &batch).unwrap();
    let (local, local_took) = solve_locally(&input, false);

    let mut d = Daemon::new(&queue_config(&server.url(), ""));
    d.start(&[]);
    occupy_the_daemons_slot(&d, 20);
    let worker = QueueWorker::start(&server.url(), 1, &[], dir.path().join("worker.log"));
    let started = Instant::now();
    drop_file(&d.path("inbox"), "big.txt", batch.as_bytes());
    wait_until("the batch answered", LONG * 3, Some(&d), || d.path("done/big.txt").exists());
    let queued_took = started.elapsed();
    eprintln!(
        "{} bytes, {} Sudoku: kakurod solve {:.2} s, through the queue {:.2} s",
        batch.len(),
        batch.lines().count(),
        local_took.as_secs_f64(),
        queued_took.as_secs_f64()
    );
    // The answer line is logged just after the input is archived.
    wait_until("the answer line naming the worker", LONG, Some(&d), || {
        answered_by(&d, "big.txt", worker.pid())
    });
    let outbox = d.path("outbox");
    assert_eq!(read(&outbox, "big.solution.txt"), read(local.path(), "big.solution.txt"));
    let doc = &results(&outbox)["big.txt"][0].1;
    let mine: serde_json::Value = serde_json::from_slice(&read(local.path(), "big.json")).unwrap();
    assert_eq!(doc["status"], mine["status"]);
    assert_eq!(doc["puzzles"].as_array().map(Vec::len), Some(batch.lines().count()));
    // Each puzzle's line, result and grid as on one host (the statistics hold timings).
    let facts = |doc: &serde_json::Value| -> Vec<String> {
        let puzzles = doc["puzzles"].as_array().cloned().unwrap_or_default();
        puzzles.iter().map(|p| format!("{} {} {}", p["line"], p["status"], p["solution"])).collect()
    };
    assert!(facts(doc) == facts(&mine), "the documents' puzzles differ");
    // Both the input and the answer (its JSON alone is far over 1 MiB) went through the
    // bucket, and nothing is left there.
    assert!(fs::metadata(outbox.join("big.json")).unwrap().len() > 1 << 20);
    Look::new(&server.url()).wait_empty(&d);
    wait_until("the count answered", LONG, Some(&d), || d.path("done/long.json").exists());
    d.signal("TERM");
    assert!(d.wait_exit().success(), "{}", d.log());
    assert!(claimed(&d.path("claim")).is_empty());
    assert!(!d.log().contains("too large"), "{}", d.log());
}

#[test]
fn a_large_kakuro_and_its_picture_go_through_a_server_with_64_kib_messages() {
    let Some(binary) = server_binary("a large Kakuro through small messages") else { return };
    let dir = tempfile::tempdir().unwrap();
    let conf = dir.path().join("nats.conf");
    fs::write(&conf, "max_payload: 65536\n").unwrap();
    let server = NatsServer::start_with(&binary, dir.path(), &["-c", conf.to_str().unwrap()]);
    let puzzle = tiled_kakuro(5, 5);
    assert!(puzzle.len() > 65536, "{} bytes", puzzle.len());
    let input = dir.path().join("tiled.txt");
    fs::write(&input, &puzzle).unwrap();
    let (local, _) = solve_locally(&input, true);

    let config =
        queue_config(&server.url(), "reconcile_seconds = 2\n").replace("svg = false", "svg = true");
    let mut d = Daemon::new(&config);
    d.start(&[]);
    let look = Look::new(&server.url());
    // An object a crashed run left behind, of a claim no longer held, is swept.
    look.put("0000000000000001.answer.0", &[7u8; 100_000]);
    assert!(look.bucket_messages() > 1);
    look.wait_empty(&d);
    // The line is written just after the deletion.
    wait_until("the sweep's log line", LONG, Some(&d), || {
        d.log().contains("deleted a large input's or answer's object")
    });

    let _worker = QueueWorker::start(&server.url(), 1, &[], dir.path().join("worker.log"));
    drop_file(&d.path("inbox"), "tiled.txt", puzzle.as_bytes());
    wait_until("the Kakuro answered", LONG * 3, Some(&d), || d.path("done/tiled.txt").exists());
    let outbox = d.path("outbox");
    let doc = &results(&outbox)["tiled.txt"][0].1;
    assert_eq!(doc["status"], "solved", "{doc}");
    assert_eq!(read(&outbox, "tiled.solution.txt"), read(local.path(), "tiled.solution.txt"));
    assert_eq!(read(&outbox, "tiled.svg"), read(local.path(), "tiled.svg"));
    assert!(fs::metadata(outbox.join("tiled.svg")).unwrap().len() > 65536);
    look.wait_empty(&d);
    d.signal("TERM");
    assert!(d.wait_exit().success(), "{}", d.log());
    assert!(!d.log().contains("max_payload"), "{}", d.log());
}

#[test]
fn a_worker_killed_while_it_solves_a_large_input_still_leads_to_one_answer() {
    let Some(binary) = server_binary("a worker killed on a large input") else { return };
    let dir = tempfile::tempdir().unwrap();
    let server = NatsServer::start(&binary, dir.path());
    let (batch, local) = big_batch(dir.path(), 3 << 20);

    let mut d = Daemon::new(&queue_config(&server.url(), ""));
    d.start(&[]);
    // The daemon's slot is busy while the first worker takes the batch.
    occupy_the_daemons_slot(&d, 30);
    let first = QueueWorker::start(&server.url(), 1, &[], dir.path().join("first.log"));
    let look = Look::new(&server.url());
    drop_file(&d.path("inbox"), "big.txt", batch.as_bytes());
    // The count on the daemon's slot, and the batch on the first worker's: it reads the
    // input from the bucket and solves it for a few seconds; it is killed meanwhile.
    wait_until("the batch taken by the first worker", LONG, Some(&d), || look.jobs_running() == 2);
    std::thread::sleep(Duration::from_millis(500));
    drop(first); // SIGKILL
    let second = QueueWorker::start(&server.url(), 1, &[], dir.path().join("second.log"));
    wait_until("the batch answered", LONG * 3, Some(&d), || d.path("done/big.txt").exists());
    // The answer line is logged just after the input is archived.
    wait_until("the answer line naming the worker", LONG, Some(&d), || {
        answered_by(&d, "big.txt", second.pid())
    });
    let outbox = d.path("outbox");
    assert_eq!(results(&outbox)["big.txt"].len(), 1);
    assert_eq!(read(&outbox, "big.solution.txt"), read(local.path(), "big.solution.txt"));
    look.wait_empty(&d);
    wait_until("the count answered", LONG, Some(&d), || d.path("done/long.json").exists());
    d.signal("TERM");
    assert!(d.wait_exit().success(), "{}", d.log());
    let outputs: Vec<String> =
        names(&outbox).into_iter().filter(|n| n.starts_with("big")).collect();
    assert_eq!(outputs, ["big.json", "big.solution.txt"], "one answer, once");
}

#[test]
fn an_input_lost_from_the_bucket_is_put_again_and_answered() {
    let Some(binary) = server_binary("an input lost from the bucket") else { return };
    let dir = tempfile::tempdir().unwrap();
    let server = NatsServer::start(&binary, dir.path());
    let (batch, local) = big_batch(dir.path(), 3 << 19);

    // A short duplicate window, so that the job sent again is not taken for the first.
    let extra = "reconcile_seconds = 2\nduplicate_window_seconds = 1\n";
    let mut d = Daemon::new(&queue_config(&server.url(), extra));
    d.start(&[]);
    occupy_the_daemons_slot(&d, 30);
    // The batch waits on the queue (the only slot is busy) while its input vanishes from
    // the bucket, as if a server lost it.
    let look = Look::new(&server.url());
    drop_file(&d.path("inbox"), "big.txt", batch.as_bytes());
    wait_until("the input stored", LONG, Some(&d), || look.bucket_messages() > 1);
    look.purge();
    let worker = QueueWorker::start(&server.url(), 1, &[], dir.path().join("worker.log"));
    wait_until("the batch answered", LONG * 3, Some(&d), || d.path("done/big.txt").exists());
    assert!(worker.log_text().contains("is not in the queue's bucket"), "{}", worker.log_text());
    assert!(d.log().contains("sent again"), "{}", d.log());
    let outbox = d.path("outbox");
    assert_eq!(results(&outbox)["big.txt"].len(), 1);
    assert_eq!(read(&outbox, "big.solution.txt"), read(local.path(), "big.solution.txt"));
    look.wait_empty(&d);
    d.signal("TERM");
    assert!(d.wait_exit().success(), "{}", d.log());
}
