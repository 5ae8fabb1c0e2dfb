//! Chaos on the real binary, shared by `tests/it/chaos.rs` (short, in the suite) and
//! `benches/soak.rs` (long): the daemon is SIGKILLed and started again every fraction of a
//! second while inputs keep arriving in its inbox, and beside it a client runs `kakurod
//! solve --out` into the same outbox on inputs of its own (named apart, `c-*` against the
//! daemon's `d-*`, so that the two never answer the same name), killed at random instants
//! and run again on what it has not answered yet. Then the daemon runs undisturbed until
//! its inbox and claim folder are empty, the client's last run ends, and the folders are
//! checked ([`check`]). Kill instants come from a seeded generator; the verdict does not
//! depend on where the kills land.

#![allow(dead_code, reason = "the test and the soak use different parts")]

pub mod ballast;
pub mod check;
pub mod client;
pub mod puzzles;

use crate::daemon_common::{Daemon, Tmpfs, claimed, drop_file, names};
use ballast::FullOutbox;
use client::{Client, ClientRuns};
use puzzles::Input;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::ops::Range;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// What to do.
#[derive(Clone, Debug)]
pub struct Scenario {
    /// Seeds every random choice (inputs, kill instants, fills).
    pub seed: u64,
    /// Inputs dropped into the daemon's inbox.
    pub daemon_inputs: usize,
    /// Inputs of the `solve --out` client.
    pub client_inputs: usize,
    /// Every this many inputs one is broken (answered by an error document); 0: none.
    pub broken_every: usize,
    /// The daemon is killed until at least this much time has passed.
    pub chaos: Duration,
    /// The inputs arrive over this long: the daemon's in small batches, one every 100 ms
    /// on average, the client's in `client_waves` larger ones (so that a run has enough to
    /// do to be killed in the middle of it).
    pub feed: Duration,
    pub client_waves: usize,
    /// How long each daemon run lives before its SIGKILL, in milliseconds.
    pub daemon_lives_ms: Range<u64>,
    /// How long each client run may live before its SIGKILL, in milliseconds.
    pub client_lives_ms: Range<u64>,
    /// Fill the outbox now and then (needs a tmpfs, so root).
    pub full_outbox: Option<FullOutbox>,
    /// How long the calm after the chaos may take before the run counts as stuck.
    pub limit: Duration,
}

/// What happened, and the verdict.
#[derive(Debug)]
pub struct Outcome {
    /// Daemon runs started, and killed.
    pub daemon_runs: usize,
    pub daemon_kills: usize,
    /// The client's runs.
    pub client: ClientRuns,
    /// Claims that daemon starts found left by a killed run, summed over the starts.
    pub requeued: usize,
    /// Inputs whose result a killed run had written before it could move them on.
    pub already_answered: usize,
    /// Times the outbox was filled; daemon runs that found they could not write a result
    /// (their warnings "cannot write the result; the input waits ..."), and client runs
    /// ("N files not written").
    pub fills: usize,
    pub write_failures: usize,
    pub client_write_failures: usize,
    /// Length of the chaos, and of the whole run.
    pub chaos: Duration,
    pub total: Duration,
    /// The verdict: everything wrong, one line each.
    pub problems: Vec<String>,
    /// The daemon's log, all runs, for a failure's message.
    pub log: String,
}

impl Outcome {
    /// What a failure's message shows of the daemon's log: its warnings and errors, and its
    /// last lines.
    pub fn log_excerpt(&self) -> String {
        let lines: Vec<&str> = self.log.lines().collect();
        let alarms = lines.iter().filter(|l| l.contains("WARN") || l.contains("ERROR"));
        let tail = &lines[lines.len().saturating_sub(100)..];
        let alarms: Vec<&str> = alarms.take(50).copied().collect();
        format!("warnings and errors:\n{}\nlast lines:\n{}", alarms.join("\n"), tail.join("\n"))
    }
}

/// Runs `scenario`; `None` when it needs what this machine lacks (said by the caller).
pub fn run(scenario: &Scenario) -> Option<Outcome> {
    let started = Instant::now();
    let mut d = Daemon::new("");
    let tmpfs = match &scenario.full_outbox {
        Some(full) => Some(Tmpfs::mount(&d.path("outbox"), &full.size, "a full outbox")?),
        None => None,
    };
    let seed = scenario.seed;
    let daemon = puzzles::inputs("d", scenario.daemon_inputs, scenario.broken_every, seed);
    let client = puzzles::inputs("c", scenario.client_inputs, scenario.broken_every, seed + 1);
    let client_dir = d.path("client");
    std::fs::create_dir_all(&client_dir).expect("the client's folder");
    let (chaos, fed) = (AtomicBool::new(true), AtomicBool::new(false));
    let client_calm = AtomicBool::new(false);
    let (inbox, outbox) = (d.path("inbox"), d.path("outbox"));
    let client_log = d.path("client.log");
    let client_side = Client {
        folder: &client_dir,
        outbox: &outbox,
        log: &client_log,
        lives_ms: scenario.client_lives_ms.clone(),
        chaos: &chaos,
        fed: &fed,
        calm: &client_calm,
        limit: scenario.chaos + scenario.limit,
    };
    let mut outcome = std::thread::scope(|s| {
        s.spawn(|| {
            feed(&inbox, &client_dir, &daemon, &client, scenario);
            fed.store(true, Ordering::SeqCst);
        });
        let client_runs = s.spawn(|| client_side.run(seed + 2));
        let fills = s.spawn(|| {
            scenario.full_outbox.as_ref().map_or(0, |full| full.run(&outbox, &chaos, seed + 3))
        });
        let daemon_kills = kill_repeatedly(&mut d, scenario, seed + 4);
        let chaos_took = started.elapsed();
        chaos.store(false, Ordering::SeqCst);
        let fills = fills.join().expect("the ballast thread");
        // The last start must come after the last kill of either writer: what a kill
        // leaves is removed by the next writer's start (and only by the next writer of the
        // same name before that).
        wait_for_flag(&client_calm, scenario.limit);
        settle(&mut d, daemon.len(), &fed, scenario.limit);
        Outcome {
            daemon_runs: d.runs(),
            daemon_kills,
            client: client_runs.join().expect("the client thread"),
            requeued: 0,
            already_answered: 0,
            fills,
            write_failures: 0,
            client_write_failures: 0,
            chaos: chaos_took,
            total: Duration::ZERO,
            problems: Vec::new(),
            log: String::new(),
        }
    });
    conclude(&mut d, &mut outcome, &daemon, &client);
    outcome.total = started.elapsed();
    drop(tmpfs);
    Some(outcome)
}

/// Stops the daemon (SIGTERM), checks the folders, and counts what the log tells.
fn conclude(d: &mut Daemon, outcome: &mut Outcome, daemon: &[Input], client: &[Input]) {
    d.signal("TERM");
    let status = d.wait_exit();
    let folders = check::Folders {
        inbox: &d.path("inbox"),
        outbox: &d.path("outbox"),
        claim: &d.path("claim"),
        done: &d.path("done"),
        failed: &d.path("failed"),
    };
    outcome.problems = check::problems(&folders, daemon, client);
    if !status.success() {
        outcome.problems.push(format!("the last daemon run ended with {status}"));
    }
    outcome.log = d.log();
    outcome.requeued = summed(&outcome.log, "requeued=");
    outcome.already_answered = outcome.log.matches("already answered by an earlier run").count();
    outcome.write_failures =
        outcome.log.matches("cannot write the result; the input waits").count();
    let client_log = std::fs::read_to_string(d.path("client.log")).unwrap_or_default();
    outcome.client_write_failures = client_log.matches("files not written)").count();
}

/// Drops the inputs as `scenario.feed` says: the daemon's into its inbox, the client's into
/// its folder, both by the rename protocol.
fn feed(inbox: &Path, client_dir: &Path, daemon: &[Input], client: &[Input], scenario: &Scenario) {
    let mut rng = ChaCha8Rng::seed_from_u64(scenario.seed + 5);
    let over = scenario.feed;
    let batches = (over.as_millis() / 100).max(1) as usize;
    let waves = scenario.client_waves.clamp(1, batches);
    let start = Instant::now();
    let part = |inputs: &[Input], b: usize, of: usize| {
        let (from, to) = (inputs.len() * b / of, inputs.len() * (b + 1) / of);
        inputs[from..to].to_vec()
    };
    for b in 0..batches {
        for input in part(daemon, b, batches) {
            drop_file(inbox, &input.name, input.text.as_bytes());
        }
        if b * waves % batches < waves {
            for input in part(client, b * waves / batches, waves) {
                drop_file(client_dir, &input.name, input.text.as_bytes());
            }
        }
        let jitter = Duration::from_millis(rng.random_range(0..50));
        let next = over * (b as u32 + 1) / batches as u32 + jitter;
        std::thread::sleep(next.saturating_sub(start.elapsed()));
    }
}

/// Starts the daemon and SIGKILLs it after a random life, again and again, until
/// `scenario.chaos` has passed. The lives are drawn before the first start, so the number
/// of kills depends on the seed only. Returns it.
fn kill_repeatedly(d: &mut Daemon, scenario: &Scenario, seed: u64) -> usize {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut lives = Vec::new();
    let mut total = Duration::ZERO;
    while total < scenario.chaos {
        let life = Duration::from_millis(rng.random_range(scenario.daemon_lives_ms.clone()));
        total += life;
        lives.push(life);
    }
    for life in &lives {
        d.launch(&[]);
        std::thread::sleep(*life);
        d.kill9();
    }
    lives.len()
}

/// Starts the daemon for good and waits, up to `limit`, until every input has arrived and
/// been moved on, and the inbox and the claim folder are empty. Whatever is still wrong
/// then is found by the check.
fn settle(d: &mut Daemon, inputs: usize, fed: &AtomicBool, limit: Duration) {
    d.start(&[]);
    let deadline = Instant::now() + limit;
    while Instant::now() < deadline {
        let moved = names(&d.path("done")).len() + names(&d.path("failed")).len();
        let quiet = names(&d.path("inbox")).is_empty() && claimed(&d.path("claim")).is_empty();
        if fed.load(Ordering::SeqCst) && quiet && moved >= inputs {
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Waits until `flag` is set, at most `limit`.
fn wait_for_flag(flag: &AtomicBool, limit: Duration) {
    let deadline = Instant::now() + limit;
    while !flag.load(Ordering::SeqCst) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// The sum of the numbers after `key` in `log` (e.g. `requeued=3` in start-up lines).
fn summed(log: &str, key: &str) -> usize {
    log.match_indices(key)
        .filter_map(|(at, _)| {
            let rest = &log[at + key.len()..];
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            digits.parse::<usize>().ok()
        })
        .sum()
}
