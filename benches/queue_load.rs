//! The shared queue's figures, measured on the real binary and real `nats-server`s on this
//! host (not a timed test; the figures of docs/queue.md come from here):
//!
//! - throughput: `--files N` small puzzles (default 2,000: the end-to-end fixtures of
//!   9x9 and 10x10) renamed into the inbox at once; inputs per second from the first
//!   rename until all are in `done/`, as an operator runs it: the repository's own
//!   `config.toml` (fsync on, pictures on; `--fast` turns both off) with `workers = 2`,
//!   through the in-process queue and `--queue` on one NATS server, run in alternation,
//!   each pair's ratio reported; then NATS on a three-server cluster with streams of three
//!   replicas;
//! - takeover: a `kakurod worker` is SIGKILLed while it runs an input (a count that stops
//!   at its `timeout_seconds` of 3 s), and the time until that input is answered by the
//!   other worker is taken, at `--ack-wait S` (default 5 s).
//!
//! - batches: `lines` batches of `--batches N,M,...` Sudoku lines (default 49,158 and
//!   1,000,000: the fixtures' 9x9 Sudoku with its digits renamed, about 82 bytes a line)
//!   dropped into the inbox, through the same three queues; puzzles per second from the
//!   drop to the result, and the daemon's peak resident memory (`VmHWM`);
//! - raw: what the server carries for this client alone, the ceiling of the queue's
//!   rate: `--raw N` messages of 200 bytes published to a work-queue stream with up to
//!   256 confirmations awaited at once, then fetched 256 at a time and acknowledged,
//!   messages per second each way.
//!
//! Run: `cargo bench --bench queue_load -- [--files N] [--runs R] [--ack-wait S]
//! [--batches N,M] [--raw N] [--fast] [--only throughput|takeover|batches|raw]`; it needs
//! `nats-server` on the PATH (or `KAKUROD_NATS_SERVER`). Medians over `--runs` (default
//! 3), with the range; a batch of a million lines runs once.
#![allow(clippy::unwrap_used, reason = "a test or benchmark that cannot go on panics")]

#[path = "../tests/it/daemon_common/mod.rs"]
mod daemon_common;

use daemon_common::nats::{NatsCluster, NatsServer, QueueWorker, server_binary};
use daemon_common::{Daemon, LONG, fixtures, names, runner, wait_until};
use std::fs;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

struct Options {
    files: usize,
    runs: usize,
    ack_wait: u64,
    batches: Vec<usize>,
    raw: usize,
    only: Option<String>,
    /// fsync and pictures off, as throwaway data would run.
    fast: bool,
}

impl Options {
    fn runs(&self, what: &str) -> bool {
        self.only.as_deref().is_none_or(|only| only == what)
    }
}

fn options() -> Options {
    let mut o = Options {
        files: 2000,
        runs: 3,
        ack_wait: 5,
        batches: vec![49_158, 1_000_000],
        raw: 100_000,
        only: None,
        fast: false,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    for (i, arg) in args.iter().enumerate() {
        let value = args.get(i + 1).map_or("", String::as_str);
        match arg.as_str() {
            "--files" => o.files = value.parse().unwrap_or(o.files),
            "--runs" => o.runs = value.parse().unwrap_or(o.runs),
            "--ack-wait" => o.ack_wait = value.parse().unwrap_or(o.ack_wait),
            "--batches" => o.batches = value.split(',').filter_map(|n| n.parse().ok()).collect(),
            "--raw" => o.raw = value.parse().unwrap_or(o.raw),
            "--only" => o.only = Some(value.to_string()),
            "--fast" => o.fast = true,
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

/// The daemon's configuration for the batches and the takeover: two slots in all (the
/// daemon's one and a worker's one), no pictures, no fsync.
fn config(urls: Option<&str>, replicas: usize, ack_wait: u64) -> String {
    let common = "fsync = false\n[intake]\nmax_file_bytes = 100000000\n[output]\nsvg = false\n";
    match urls {
        None => format!("[workers]\nworkers = 2\n{common}"),
        Some(urls) => format!(
            "[workers]\nworkers = 1\n{common}[queue]\nurl = \"{urls}\"\nreplicas = {replicas}\n\
             ack_wait_seconds = {ack_wait}\nmax_in_flight = 64\n"
        ),
    }
}

/// The repository's own `config.toml`, as an operator runs it, with two worker slots and
/// the queue at `urls` (none: the in-process queue); `fast` turns fsync and pictures off.
fn shipped_config(urls: Option<&str>, replicas: usize, fast: bool) -> String {
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("config.toml");
    let mut text = fs::read_to_string(shipped).expect("config.toml");
    let mut set = |key: &str, value: &str| {
        let line = text.lines().find(|l| l.starts_with(&format!("{key} ="))).expect(key);
        text = text.replacen(line, &format!("{key} = {value}"), 1);
    };
    set("workers", "2");
    if let Some(urls) = urls {
        set("url", &format!("\"{urls}\""));
        set("replicas", &replicas.to_string());
    }
    if fast {
        set("fsync", "false");
        set("svg", "false");
    }
    text
}

/// A started daemon on `queue`, with its servers and a worker beside it when it has a
/// queue: what every run starts from. Dropped, it stops them all.
struct Run {
    daemon: Daemon,
    _worker: Option<QueueWorker>,
    _servers: Servers,
    _dir: tempfile::TempDir,
}

impl Run {
    fn start(queue: Queue, binary: &Path, o: &Options) -> Run {
        let dir = tempfile::tempdir().expect("temporary folder");
        let servers = Servers::start(queue, binary, dir.path());
        let replicas = if matches!(queue, Queue::ThreeServers) { 3 } else { 1 };
        let mut daemon = Daemon::new(&config(servers.urls().as_deref(), replicas, o.ack_wait));
        daemon.start(&[]);
        let log = dir.path().join("worker.log");
        let worker = servers.urls().map(|urls| QueueWorker::start(&urls, 1, &[], log));
        Run { daemon, _worker: worker, _servers: servers, _dir: dir }
    }

    /// A daemon on the shipped configuration with two slots of its own, on `queue`.
    fn shipped(queue: Queue, binary: &Path, o: &Options) -> Run {
        let dir = tempfile::tempdir().expect("temporary folder");
        let servers = Servers::start(queue, binary, dir.path());
        let replicas = if matches!(queue, Queue::ThreeServers) { 3 } else { 1 };
        let mut daemon = Daemon::new(&shipped_config(servers.urls().as_deref(), replicas, o.fast));
        daemon.start(&[]);
        Run { daemon, _worker: None, _servers: servers, _dir: dir }
    }
}

/// One throughput run: inputs per second.
fn throughput(queue: Queue, binary: &Path, o: &Options) -> f64 {
    let mut run = Run::shipped(queue, binary, o);
    let d = &mut run.daemon;
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
    wait_until("every input answered", LONG * 10, Some(d), || {
        names(&d.path("done")).len() + names(&d.path("failed")).len() >= o.files
    });
    let rate = o.files as f64 / start.elapsed().as_secs_f64();
    d.signal("TERM");
    d.wait_exit();
    rate
}

/// A 9x9 Sudoku of the fixtures, one line.
const SUDOKU: &str =
    "21.4...368.......5..53.98..6.49.71......3......75.46.2..62.35..5.......993...5.27";

/// `count` lines: the fixture's Sudoku with its digits renamed.
fn batch_text(count: usize) -> String {
    let mut text = String::with_capacity(count * 82);
    let mut seed: u64 = 7;
    for _ in 0..count {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let mut digits: Vec<u8> = (b'1'..=b'9').collect();
        for k in (1..9).rev() {
            digits.swap(k, ((seed >> (k * 4)) % (k as u64 + 1)) as usize);
        }
        text.extend(SUDOKU.bytes().map(|b| match b {
            b'.' => '.',
            b => char::from(digits[usize::from(b - b'1')]),
        }));
        text.push('\n');
    }
    text
}

/// The peak resident memory of process `pid`, in MiB.
fn peak_mib(pid: u32) -> f64 {
    let status = fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let kib = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok());
    kib.unwrap_or(0.0) / 1024.0
}

/// One batch run: puzzles per second, and the daemon's peak memory in MiB.
fn batch_run(queue: Queue, binary: &Path, o: &Options, text: &str, lines: usize) -> (f64, f64) {
    let mut run = Run::start(queue, binary, o);
    let d = &mut run.daemon;
    let staged = d.path("batch.txt");
    fs::write(&staged, text).expect("staging");
    let start = Instant::now();
    fs::rename(&staged, d.path("inbox").join("batch.txt")).expect("rename");
    wait_until("the batch answered", LONG * 30, Some(d), || {
        names(&d.path("done")).len() + names(&d.path("failed")).len() >= 1
    });
    let rate = lines as f64 / start.elapsed().as_secs_f64();
    let peak = peak_mib(d.pid());
    d.signal("TERM");
    d.wait_exit();
    (rate, peak)
}

/// Messages per second this client gets through `url`'s JetStream alone: published with
/// up to 256 confirmations awaited at once, then fetched 256 at a time and acknowledged.
fn raw_rate(url: &str, count: usize) -> (f64, f64) {
    use async_nats::jetstream::{self, stream};
    use futures_util::StreamExt;
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    runtime.block_on(async {
        let client = async_nats::connect(url).await.expect("connect");
        let js = jetstream::new(client);
        let config = stream::Config {
            name: "raw".into(),
            subjects: vec!["raw.*".into()],
            retention: stream::RetentionPolicy::WorkQueue,
            ..Default::default()
        };
        let stream = js.get_or_create_stream(config).await.expect("stream");
        let start = Instant::now();
        let mut pending = std::collections::VecDeque::new();
        for i in 0..count {
            let ack = js.publish(format!("raw.{}", i % 1000), vec![b'x'; 200].into()).await;
            pending.push_back(ack.expect("publish"));
            if pending.len() >= 256 {
                pending.pop_front().expect("pending").await.expect("confirmed");
            }
        }
        for ack in pending {
            ack.await.expect("confirmed");
        }
        let published = count as f64 / start.elapsed().as_secs_f64();
        let consumer = stream
            .create_consumer(jetstream::consumer::pull::Config {
                durable_name: Some("raw".into()),
                ..Default::default()
            })
            .await
            .expect("consumer");
        let start = Instant::now();
        let mut taken = 0;
        while taken < count {
            let mut batch = consumer.fetch().max_messages(256).messages().await.expect("fetch");
            while let Some(Ok(message)) = batch.next().await {
                message.ack().await.expect("ack");
                taken += 1;
            }
        }
        (published, count as f64 / start.elapsed().as_secs_f64())
    })
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
    let queues = [Queue::InProcess, Queue::OneServer, Queue::ThreeServers];
    if o.runs("throughput") {
        let how = if o.fast { "fsync and pictures off" } else { "the shipped config.toml" };
        println!("small inputs, {how}, 2 slots; local and one NATS server in alternation");
        println!(
            "| run | in-process, inputs/s | one NATS server, inputs/s | ratio |\n|---|---|---|---|"
        );
        let (mut local, mut nats, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
        for run in 1..=o.runs {
            let here = throughput(Queue::InProcess, &binary, &o);
            let there = throughput(Queue::OneServer, &binary, &o);
            println!("| {run} | {here:.0} | {there:.0} | {:.2} |", there / here);
            local.push(here);
            nats.push(there);
            ratios.push(there / here);
        }
        println!(
            "| median (range) | {} | {} | {} |",
            summary(local, 0),
            summary(nats, 0),
            summary(ratios, 2)
        );
        let three: Vec<f64> =
            (0..o.runs).map(|_| throughput(Queue::ThreeServers, &binary, &o)).collect();
        println!("three NATS servers, replicas 3: {} inputs/s", summary(three, 0));
    }
    if o.runs("batches") {
        println!(
            "| batch lines | queue | puzzles per second | daemon peak MiB |\n|---|---|---|---|"
        );
        for &lines in &o.batches {
            let text = batch_text(lines);
            let runs = if lines > 200_000 { 1 } else { o.runs };
            for queue in queues {
                let measured: Vec<(f64, f64)> =
                    (0..runs).map(|_| batch_run(queue, &binary, &o, &text, lines)).collect();
                let rates = measured.iter().map(|m| m.0).collect();
                let peaks = measured.iter().map(|m| m.1).collect();
                println!("| {lines} | {queue:?} | {} | {} |", summary(rates, 0), summary(peaks, 0));
            }
        }
    }
    if o.runs("raw") {
        let dir = tempfile::tempdir().expect("temporary folder");
        let server = NatsServer::start(&binary, dir.path());
        let (published, taken) = raw_rate(&server.url(), o.raw);
        println!(
            "raw JetStream, one client, {} messages of 200 bytes: {published:.0} published and \
             confirmed per second, {taken:.0} fetched and acked per second",
            o.raw
        );
    }
    if o.runs("takeover") {
        let times: Vec<f64> = (0..o.runs).map(|_| takeover(&binary, &o)).collect();
        println!(
            "SIGKILL of a worker to its input answered elsewhere (ack_wait {} s, a 3 s \
             solve): {} s",
            o.ack_wait,
            summary(times, 1)
        );
    }
}
