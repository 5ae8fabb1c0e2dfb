//! Chaos on the shared queue, on a real three-server NATS JetStream cluster with streams
//! of three replicas: `kakurod serve --queue` with a worker slot of its own and two
//! `kakurod worker` processes answer a few hundred inputs that arrive meanwhile, while for
//! ten seconds or more a seeded schedule SIGKILLs a worker, the daemon or one NATS server,
//! one at a time, and starts it again after a short while (so the cluster's quorum comes
//! back). Then, everything up, the inbox and the claim folder empty out, the daemon stops,
//! and every input must be answered exactly once under its own name with the right answer
//! (the checker of `tests/it/chaos.rs`), nothing left behind, and both durable consumers
//! drained: nothing pending, nothing awaiting its ack. The short ack wait, duplicate window
//! and reconcile period make each of them act during the run. The kills are seeded; the
//! verdict does not depend on where they land.

use crate::chaos_common;
use crate::daemon_common;
use crate::queue_chaos_common;

use chaos_common::check;
use chaos_common::puzzles::{self, Input};
use daemon_common::nats::{NatsCluster, QueueWorker, server_binary};
use daemon_common::{Daemon, LONG, claimed, drop_file, names, wait_until};
use queue_chaos_common::probe::{Held, Probe};
use queue_chaos_common::{Kill, Target, counts, schedule};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Inputs, and how long they take to arrive.
const INPUTS: usize = 400;
/// Big batches among them, of this many lines each (parts of 500 lines).
const BATCHES: usize = 2;
const BATCH_LINES: usize = 4000;
const FEED: Duration = Duration::from_secs(8);
/// The kills' drawn times add up to at least this.
const CHAOS: Duration = Duration::from_secs(10);
/// How long the calm after the chaos may take before the run counts as stuck.
const SETTLE: Duration = Duration::from_secs(120);

#[test]
fn every_input_is_answered_once_while_workers_the_daemon_and_a_nats_server_are_killed() {
    let Some(binary) = server_binary("the chaos on a three-server cluster") else { return };
    let seed = seed();
    let dir = tempfile::tempdir().unwrap();
    let mut cluster = NatsCluster::start(&binary, dir.path());
    let probe = Probe::new(&cluster.urls());
    probe.wait_for_replicated_streams(LONG);
    let mut d = Daemon::new(&config(&cluster.urls()));
    d.start(&[]);
    assert!(d.log().contains("jobs go through NATS JetStream"), "{}", d.log());
    let mut workers = Workers { urls: cluster.urls(), dir: dir.path().into(), runs: 0, up: vec![] };
    workers.up = (0..2).map(|_| Some(workers.start())).collect();
    let inputs = puzzles::inputs("d", INPUTS, 50, seed);
    // Big batches among them, each answered in parts by every worker.
    let batches: Vec<(String, String, String)> = (0..BATCHES)
        .map(|b| {
            let (text, solution) = puzzles::lines_batch(BATCH_LINES, seed + 10 + b as u64);
            (format!("big-{b}.txt"), text, solution)
        })
        .collect();
    let kills = schedule(seed + 1, CHAOS, 2, 3);
    let started = Instant::now();
    let inbox = d.path("inbox");
    std::thread::scope(|s| {
        s.spawn(|| feed(&inbox, &inputs));
        s.spawn(|| {
            for (name, text, _) in &batches {
                std::thread::sleep(FEED / (BATCHES as u32 + 1));
                drop_file(&inbox, name, text.as_bytes());
            }
        });
        for kill in &kills {
            apply(kill, &mut d, &mut workers, &mut cluster, &probe);
        }
    });
    let chaos = started.elapsed();
    settle(&d, inputs.len() + batches.len());
    d.signal("TERM");
    let status = d.wait_exit();
    let held = drained(&probe);
    let is_batch =
        |p: &String| batches.iter().any(|(name, _, _)| p.contains(name.trim_end_matches(".txt")));
    // What is wrong with the run as a whole comes first, then the inputs' problems.
    let mut problems = batch_problems(&d, &batches);
    if !status.success() {
        problems.insert(0, format!("the last daemon run ended with {status}"));
    }
    let none = Held { pending: 0, ack_pending: 0 };
    if held != Some(vec![none, none]) {
        problems.insert(0, format!("the consumers (workers, daemon) still hold {held:?}"));
    }
    let unanswered = problems.len();
    problems.extend(problems_of(&d, &inputs).into_iter().filter(|p| !is_batch(p)));
    let unanswered = problems[unanswered..].iter().filter(|p| p.contains(".json")).count();
    if !problems.is_empty() {
        keep(&[d.root.path(), dir.path()]);
    }
    let (worker_kills, daemon_kills, server_kills) = counts(&kills);
    let log = d.log();
    eprintln!(
        "{} inputs; kills: {worker_kills} workers, {daemon_kills} daemon, {server_kills} NATS \
         servers; daemon starts that waited for the cluster: {}; chaos {:.1} s, total {:.1} s",
        inputs.len(),
        log.matches("do not answer in time").count(),
        chaos.as_secs_f64(),
        started.elapsed().as_secs_f64()
    );
    assert!(
        problems.is_empty(),
        "{} problems ({unanswered} of an input's result), the first: {:#?}\n\
         --- daemon log (warnings, errors) ---\n{}\n--- workers' logs (the same) ---\n{}",
        problems.len(),
        problems.iter().take(40).collect::<Vec<_>>(),
        warnings(&log),
        (1..=workers.runs)
            .map(|run| warnings(&read(&dir.path().join(format!("worker-{run}.log")))))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// The warnings and errors of a log.
fn warnings(log: &str) -> String {
    let lines = log.lines().filter(|l| l.contains("WARN") || l.contains("ERROR"));
    lines.collect::<Vec<_>>().join("\n")
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_default()
}

/// The daemon's configuration: one slot of its own, streams of three replicas, and short
/// times so that leases run out, the duplicate window closes and the reconciler passes
/// during the run. No input here kills a worker, yet with a kill about every second and an
/// ack wait of two, one job can be held by a killed process or cut off from the cluster
/// more than the default three times (four, in one run on a loaded machine, while a
/// server's restart kept the answers' stream away for seven seconds), and be answered as
/// failed; so the crash limit is out of the way here. It is tested on its own in
/// `daemon_queue.rs`.
fn config(urls: &str) -> String {
    format!(
        "[workers]\nworkers = 1\nfsync = false\n[queue]\nurl = \"{urls}\"\nreplicas = 3\n\
         ack_wait_seconds = 2\nduplicate_window_seconds = 2\nreconcile_seconds = 2\n\
         max_in_flight = 64\nbatch_chunk_puzzles = 500\nmax_crashes = 1000\n"
    )
}

/// The two worker processes, each started again after its kill with a log of its own.
struct Workers {
    urls: String,
    dir: PathBuf,
    runs: usize,
    up: Vec<Option<QueueWorker>>,
}

impl Workers {
    fn start(&mut self) -> QueueWorker {
        self.runs += 1;
        let log = self.dir.join(format!("worker-{}.log", self.runs));
        QueueWorker::start(&self.urls, 2, &[], log)
    }
}

/// Kills the target (SIGKILL), waits its time down, starts it again, and lets everything
/// run for the kill's calm. A server is back once every stream and consumer of the queue
/// answers again, so that the next kill never takes the quorum.
fn apply(
    kill: &Kill,
    d: &mut Daemon,
    workers: &mut Workers,
    cluster: &mut NatsCluster,
    probe: &Probe,
) {
    match kill.target {
        Target::Worker(i) => {
            drop(workers.up[i].take());
            std::thread::sleep(kill.down);
            workers.up[i] = Some(workers.start());
        }
        Target::Daemon => {
            d.kill9();
            std::thread::sleep(kill.down);
            d.start(&[]);
        }
        Target::Nats(i) => {
            cluster.servers[i].kill9();
            std::thread::sleep(kill.down);
            cluster.servers[i].restart();
            probe.wait_for_leaders(&streams(), &consumers(), LONG);
        }
    }
    std::thread::sleep(kill.calm);
}

/// The queue's streams, under the default prefix.
fn streams() -> Vec<String> {
    ["jobs", "answers", "crashes", "status"].map(|s| format!("kakurod_{s}")).to_vec()
}

/// The queue's durable consumers: the workers' on the jobs, the daemon's on the answers.
fn consumers() -> Vec<(String, String)> {
    vec![("kakurod_jobs".into(), "workers".into()), ("kakurod_answers".into(), "daemon".into())]
}

/// Drops the inputs into the inbox in batches, one every 100 ms, over [`FEED`].
fn feed(inbox: &Path, inputs: &[Input]) {
    let batches = (FEED.as_millis() / 100) as usize;
    let start = Instant::now();
    for b in 0..batches {
        let (from, to) = (inputs.len() * b / batches, inputs.len() * (b + 1) / batches);
        for input in &inputs[from..to] {
            drop_file(inbox, &input.name, input.text.as_bytes());
        }
        let next = FEED * (b as u32 + 1) / batches as u32;
        std::thread::sleep(next.saturating_sub(start.elapsed()));
    }
}

/// Waits, up to [`SETTLE`], until every input has been moved on and the inbox and the claim
/// folder are empty. Whatever is still wrong then is found by the check.
fn settle(d: &Daemon, inputs: usize) {
    let deadline = Instant::now() + SETTLE;
    while Instant::now() < deadline {
        let moved = names(&d.path("done")).len() + names(&d.path("failed")).len();
        let quiet = names(&d.path("inbox")).is_empty() && claimed(&d.path("claim")).is_empty();
        if quiet && moved >= inputs {
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// What the two consumers hold once both hold nothing, or what they hold after [`LONG`]
/// (acks settle asynchronously).
fn drained(probe: &Probe) -> Option<Vec<Held>> {
    let deadline = Instant::now() + LONG;
    loop {
        let held = probe.held(&consumers());
        let empty =
            held.as_ref().is_some_and(|h| h.iter().all(|h| h.pending == 0 && h.ack_pending == 0));
        if empty || Instant::now() > deadline {
            return held;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// Each big batch has one result whose solution file holds every line's solution once,
/// in order, and whose document counts them all; it is in `done/`, and nothing else of it
/// is left.
fn batch_problems(d: &Daemon, batches: &[(String, String, String)]) -> Vec<String> {
    let outbox = d.path("outbox");
    let mut problems = Vec::new();
    for (name, _, solution) in batches {
        let stem = name.trim_end_matches(".txt");
        let files: Vec<String> =
            names(&outbox).into_iter().filter(|n| n.starts_with(&format!("{stem}."))).collect();
        if files != [format!("{stem}.json"), format!("{stem}.solution.txt")] {
            problems.push(format!("{name}: result files {files:?}"));
            continue;
        }
        let written = std::fs::read_to_string(outbox.join(format!("{stem}.solution.txt")));
        if written.ok().as_ref() != Some(solution) {
            problems.push(format!("{name}: the solution file is not every line's, in order"));
        }
        let doc = std::fs::read_to_string(outbox.join(format!("{stem}.json"))).unwrap_or_default();
        let doc: serde_json::Value = serde_json::from_str(&doc).unwrap_or_default();
        if doc["summary"]["solved"] != BATCH_LINES {
            problems.push(format!("{name}: summary {}", doc["summary"]));
        }
        if !names(&d.path("done")).contains(name) {
            problems.push(format!("{name} is not in done/"));
        }
    }
    problems
}

/// The daemon's folders checked, and the problems found.
fn problems_of(d: &Daemon, inputs: &[Input]) -> Vec<String> {
    let paths = ["inbox", "outbox", "claim", "done", "failed"].map(|p| d.path(p));
    let [inbox, outbox, claim, done, failed] = &paths;
    check::problems(&check::Folders { inbox, outbox, claim, done, failed }, inputs, &[])
}

/// Copies `folders` (the logs, the folders, the servers' stores) under the folder
/// `KAKUROD_KEEP` names, if it names one, for a failed run to be read afterwards.
fn keep(folders: &[&Path]) {
    let Some(into) = std::env::var_os("KAKUROD_KEEP") else { return };
    for folder in folders {
        let copied = std::process::Command::new("cp").arg("-a").arg(folder).arg(&into).status();
        eprintln!("kept {} in {}: {copied:?}", folder.display(), into.to_string_lossy());
    }
}

/// The seed: 1, or `KAKUROD_CHAOS_SEED` to explore other kill instants.
fn seed() -> u64 {
    std::env::var("KAKUROD_CHAOS_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(1)
}

#[test]
fn a_daemon_started_while_the_cluster_has_no_quorum_waits_for_it_and_then_serves() {
    let Some(binary) = server_binary("a daemon started without quorum") else { return };
    let dir = tempfile::tempdir().unwrap();
    let mut cluster = NatsCluster::start(&binary, dir.path());
    let probe = Probe::new(&cluster.urls());
    probe.wait_for_replicated_streams(LONG);
    let mut d = Daemon::new(&config(&cluster.urls()));
    d.start(&[]);
    d.signal("TERM");
    assert!(d.wait_exit().success(), "{}", d.log());
    // Two of three servers down: the streams exist but nothing answers their requests.
    cluster.servers[1].kill9();
    cluster.servers[2].kill9();
    d.launch(&[]);
    wait_until("the daemon waiting for the cluster", LONG, Some(&d), || {
        d.log().contains("do not answer in time")
    });
    cluster.servers[1].restart();
    cluster.servers[2].restart();
    wait_until("the daemon's start", LONG, Some(&d), || {
        d.log().matches("kakurod started").count() == 2
    });
    let inputs = puzzles::inputs("q", 5, 0, 1);
    for input in &inputs {
        drop_file(&d.path("inbox"), &input.name, input.text.as_bytes());
    }
    wait_until("five answers", LONG, Some(&d), || names(&d.path("done")).len() == 5);
    d.signal("TERM");
    assert!(d.wait_exit().success(), "{}", d.log());
    assert_eq!(problems_of(&d, &inputs), Vec::<String>::new());
}
