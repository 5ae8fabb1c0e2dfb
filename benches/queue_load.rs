//! The shared queue's figures, measured on the real binary and real `nats-server`s on this
//! host (not a timed test; the figures of docs/queue.md come from here):
//!
//! - throughput: `--files N` small puzzles (default 1,000: the end-to-end fixtures of
//!   9x9 and 10x10) renamed into the inbox at once; inputs per second from the first
//!   rename until all are in `done/`. Three queues, each with two solving slots: the
//!   in-process one (`workers = 2`), NATS on one server, and NATS on a three-server
//!   cluster with streams of three replicas (`serve` with one slot plus one
//!   `kakurod worker --workers 1`);
//! - takeover: a `kakurod worker` is SIGKILLed while it runs an input (a count that stops
//!   at its `timeout_seconds` of 3 s), and the time until that input is answered by the
//!   other worker is taken, at `--ack-wait S` (default 5 s).
//!
//! Run: `cargo bench --bench queue_load -- [--files N] [--runs R] [--ack-wait S]`; it
//! needs `nats-server` on the PATH (or `KAKUROD_NATS_SERVER`). Medians over `--runs`
//! (default 3), with the range.
#![allow(clippy::unwrap_used, reason = "a test or benchmark that cannot go on panics")]

#[path = "../tests/it/daemon_common/mod.rs"]
mod daemon_common;

use daemon_common::nats::{NatsCluster, NatsServer, QueueWorker, server_binary};
use daemon_common::{Daemon, LONG, fixtures, names, wait_until};
use std::fs;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

struct Options {
    files: usize,
    runs: usize,
    ack_wait: u64,
}

fn options() -> Options {
    let mut o = Options { files: 1000, runs: 3, ack_wait: 5 };
    let args: Vec<String> = std::env::args().skip(1).collect();
    for (i, arg) in args.iter().enumerate() {
        let value = args.get(i + 1).map_or("", String::as_str);
        match arg.as_str() {
            "--files" => o.files = value.parse().unwrap_or(o.files),
            "--runs" => o.runs = value.parse().unwrap_or(o.runs),
            "--ack-wait" => o.ack_wait = value.parse().unwrap_or(o.ack_wait),
            _ => {} // `cargo bench` passes `--bench`; ignore what is not ours.
        }
    }
    o
}

/// Where the daemon's jobs go.
#[derive(Clone, Copy, Debug)]
enum Queue {
    InProcess,
    OneServer,
    ThreeServers,
}

/// The servers of one run, kept alive while it lasts.
enum Servers {
    None,
    One(NatsServer),
    Three(NatsCluster),
}

impl Servers {
    fn start(queue: Queue, binary: &Path, dir: &Path) -> Servers {
        match queue {
            Queue::InProcess => Servers::None,
            Queue::OneServer => Servers::One(NatsServer::start(binary, dir)),
            Queue::ThreeServers => Servers::Three(NatsCluster::start(binary, dir)),
        }
    }

    fn urls(&self) -> Option<String> {
        match self {
            Servers::None => None,
            Servers::One(server) => Some(server.url()),
            Servers::Three(cluster) => Some(cluster.urls()),
        }
    }
}

/// The daemon's configuration: two slots in all, no pictures, no fsync.
fn config(urls: Option<&str>, replicas: usize, ack_wait: u64) -> String {
    let common = "fsync = false\n[output]\nsvg = false\n";
    match urls {
        None => format!("[workers]\nworkers = 2\n{common}"),
        Some(urls) => format!(
            "[workers]\nworkers = 1\n{common}[queue]\nurl = \"{urls}\"\nreplicas = {replicas}\n\
             ack_wait_seconds = {ack_wait}\nmax_in_flight = 64\n"
        ),
    }
}

/// One throughput run: inputs per second.
fn throughput(queue: Queue, binary: &Path, o: &Options) -> f64 {
    let dir = tempfile::tempdir().expect("temporary folder");
    let servers = Servers::start(queue, binary, dir.path());
    let replicas = if matches!(queue, Queue::ThreeServers) { 3 } else { 1 };
    let mut d = Daemon::new(&config(servers.urls().as_deref(), replicas, o.ack_wait));
    d.start(&[]);
    let _worker =
        servers.urls().map(|urls| QueueWorker::start(&urls, 1, &[], dir.path().join("worker.log")));
    let staging = d.path("staging");
    fs::create_dir_all(&staging).expect("staging");
    let puzzles = fixtures();
    let small: Vec<_> = puzzles.iter().filter(|f| f.text.len() < 400).collect();
    for i in 0..o.files {
        let f = small[i % small.len()];
        fs::write(staging.join(format!("{}-{i:05}.txt", f.name)), &f.text).expect("staging");
    }
    let start = Instant::now();
    for entry in fs::read_dir(&staging).expect("staging").flatten() {
        fs::rename(entry.path(), d.path("inbox").join(entry.file_name())).expect("rename");
    }
    wait_until("every input answered", LONG * 10, Some(&d), || {
        names(&d.path("done")).len() + names(&d.path("failed")).len() >= o.files
    });
    let rate = o.files as f64 / start.elapsed().as_secs_f64();
    d.signal("TERM");
    d.wait_exit();
    rate
}

/// An empty 9x9 Sudoku counted for three seconds: an input that runs as long as asked.
const THREE_SECONDS: &str = r#"{"kind": "sudoku", "givens": [[0,0,0,0,0,0,0,0,0],
    [0,0,0,0,0,0,0,0,0],[0,0,0,0,0,0,0,0,0],[0,0,0,0,0,0,0,0,0],[0,0,0,0,0,0,0,0,0],
    [0,0,0,0,0,0,0,0,0],[0,0,0,0,0,0,0,0,0],[0,0,0,0,0,0,0,0,0],[0,0,0,0,0,0,0,0,0]],
    "settings": {"mode": "count", "timeout_seconds": 3}}"#;

/// The `kakurod status --json` document of the daemon of `d`.
fn status(d: &Daemon) -> serde_json::Value {
    let out = Command::new(daemon_common::BIN)
        .args(["status", "--json", "--config"])
        .arg(d.config())
        .output()
        .expect("kakurod status");
    serde_json::from_slice(&out.stdout).unwrap_or(serde_json::Value::Null)
}

/// The node id of the worker in `doc` running `input`, if one runs it.
fn runner(doc: &serde_json::Value, input: &str) -> Option<String> {
    let nodes = doc["nodes"].as_array()?;
    let running = |n: &&serde_json::Value| {
        n["running"].as_array().is_some_and(|r| r.iter().any(|j| j["input"] == input))
    };
    nodes.iter().find(running).and_then(|n| n["node_id"].as_str()).map(String::from)
}

/// One takeover run: seconds from the SIGKILL of the worker running an input to that
/// input's answer, written by the daemon after the other worker ran it.
fn takeover(binary: &Path, o: &Options) -> f64 {
    let dir = tempfile::tempdir().expect("temporary folder");
    let server = NatsServer::start(binary, dir.path());
    let mut d = Daemon::new(&config(Some(&server.url()), 1, o.ack_wait));
    d.start(&[]);
    // The daemon's own slot runs a long count (to the configured limit of 60 s), so the
    // input goes to a worker process.
    let blocker = THREE_SECONDS.replace("\"timeout_seconds\": 3", "\"timeout_seconds\": 600");
    daemon_common::drop_file(&d.path("inbox"), "blocker.json", blocker.as_bytes());
    wait_until("the blocker running", LONG, Some(&d), || {
        runner(&status(&d), "blocker.json").is_some()
    });
    let mut workers: Vec<QueueWorker> = (0..2)
        .map(|i| QueueWorker::start(&server.url(), 1, &[], dir.path().join(format!("w{i}.log"))))
        .collect();
    daemon_common::drop_file(&d.path("inbox"), "input.json", THREE_SECONDS.as_bytes());
    let mut holder = None;
    wait_until("the input running on a worker", LONG, Some(&d), || {
        holder = runner(&status(&d), "input.json");
        holder.is_some()
    });
    let holder = holder.unwrap_or_default();
    let index = workers.iter().position(|w| holder.ends_with(&format!("/{}", w.pid())));
    let killed = workers.remove(index.expect("the input runs on a worker process"));
    let killed_at = Instant::now();
    drop(killed); // SIGKILL
    wait_until("the input answered", LONG, Some(&d), || d.path("outbox/input.json").exists());
    let seconds = killed_at.elapsed().as_secs_f64();
    d.signal("TERM");
    d.wait_exit();
    seconds
}

/// Median and range of `values`.
fn summary(mut values: Vec<f64>, digits: usize) -> String {
    values.sort_by(f64::total_cmp);
    let median = values[values.len() / 2];
    let (low, high) = (values[0], values[values.len() - 1]);
    format!("{median:.digits$} ({low:.digits$} to {high:.digits$})")
}

fn main() {
    let o = options();
    let Some(binary) = server_binary("queue_load") else { return };
    let version = Command::new(&binary).arg("--version").output().expect("nats-server --version");
    println!(
        "{} small inputs, {} runs each, {}; {} cores",
        o.files,
        o.runs,
        String::from_utf8_lossy(&version.stdout).trim(),
        std::thread::available_parallelism().map_or(1, usize::from)
    );
    println!("| queue | slots | inputs per second, median (range) |\n|---|---|---|");
    for queue in [Queue::InProcess, Queue::OneServer, Queue::ThreeServers] {
        let rates: Vec<f64> = (0..o.runs).map(|_| throughput(queue, &binary, &o)).collect();
        println!("| {queue:?} | 2 | {} |", summary(rates, 0));
    }
    let times: Vec<f64> = (0..o.runs).map(|_| takeover(&binary, &o)).collect();
    println!(
        "SIGKILL of a worker to its input answered elsewhere (ack_wait {} s, a 3 s solve): \
         {} s",
        o.ack_wait,
        summary(times, 1)
    );
}
