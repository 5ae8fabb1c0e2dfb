//! Load and latency of `kakurod serve`, measured on the real binary (not a timed test):
//!
//! - throughput: N small puzzle files (default 2000) renamed into the inbox at once; files
//!   per second from the first rename to the last input moved on (after its result was
//!   committed);
//! - latency: one file at a time (default 50) on an idle daemon, from its rename into the
//!   inbox to the appearance of its `NAME.json`; median, 90th percentile and maximum;
//! - resident memory of the daemon: idle, and the peak under the throughput load;
//! - a hard puzzle (a generated 150x150 Kakuro that outlives the probe) dropped into the idle
//!   daemon, alone (time to its result), then again with `--hard-with N` small files
//!   (default 200) right behind it: when the small files are all answered, and when the
//!   hard one is. With `--threads 0` (the shipped default) the hard puzzle borrows the idle
//!   workers and gives them back to the small files; `--threads 1` compares.
//!
//! Run: `cargo bench --bench daemon_load -- [--files N] [--latency N] [--workers N]
//! [--threads N] [--hard-with N] [--no-hard] [--no-fsync] [--overhead-only]`
//! (`--overhead-only` refuses every file by size, so no
//! puzzle is solved: it measures the daemon's own path). The puzzles are the end-to-end test fixtures (small Kakuro, Sudoku and
//! Killer Sudoku with known solutions); the folders live in a temporary folder under
//! `target/`, on the same filesystem as a normal build.
//!
//! Figures vary with the machine's load and with the filesystem's state: on ext4, creating
//! files shortly after many were deleted (an earlier run's cleanup) sends the inode
//! allocator through its "recently deleted" checks, which can cost more kernel time than
//! the solving itself. Compare runs made under the same conditions.
#![allow(clippy::unwrap_used, reason = "a test or benchmark that cannot go on panics")]

#[path = "common/proc_status.rs"]
mod proc_status;

use proc_status::status_kib;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant, SystemTime};

struct Options {
    files: usize,
    latency: usize,
    workers: usize,
    threads: usize,
    hard_with: usize,
    hard: bool,
    fsync: bool,
    overhead_only: bool,
}

fn options() -> Options {
    let mut o = Options {
        files: 2000,
        latency: 50,
        workers: 0,
        threads: 0,
        hard_with: 200,
        hard: true,
        fsync: true,
        overhead_only: false,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let value = || args.get(i + 1).and_then(|v| v.parse().ok());
        match args[i].as_str() {
            "--files" => o.files = value().unwrap_or(o.files),
            "--latency" => o.latency = value().unwrap_or(o.latency),
            "--workers" => o.workers = value().unwrap_or(o.workers),
            "--threads" => o.threads = value().unwrap_or(o.threads),
            "--hard-with" => o.hard_with = value().unwrap_or(o.hard_with),
            "--no-hard" => o.hard = false,
            "--no-fsync" => o.fsync = false,
            "--overhead-only" => o.overhead_only = true,
            _ => {} // `cargo bench` passes `--bench`; ignore what is not ours.
        }
        i += 1;
    }
    o
}

fn puzzles() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/daemon");
    let mut out: Vec<(String, String)> = fs::read_dir(&dir)
        .expect("fixtures")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "sol"))
        .map(|p| {
            let text = fs::read_to_string(p.with_extension("txt")).expect("fixture");
            (p.file_stem().unwrap_or_default().to_string_lossy().into_owned(), text)
        })
        .collect();
    out.sort();
    out
}

fn count(dir: &Path) -> usize {
    fs::read_dir(dir).map_or(0, |d| d.count())
}

fn start(root: &Path, o: &Options) -> Child {
    let log = fs::File::create(root.join("daemon.log")).expect("log");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_kakurod"));
    cmd.args(["serve", "--config"]).arg(root.join("config.toml"));
    cmd.args(["--workers", &o.workers.to_string(), "--log-level", "warn"]);
    cmd.args(["--threads", &o.threads.to_string()]);
    if !o.fsync {
        cmd.arg("--no-fsync");
    }
    let child = cmd.stdin(Stdio::null()).stderr(log).spawn().expect("spawn kakurod");
    // Ready once the folders exist and the start-up scan has run; give it a moment.
    let deadline = Instant::now() + Duration::from_secs(30);
    while !root.join("claim").exists() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    std::thread::sleep(Duration::from_millis(300));
    child
}

fn main() {
    let o = options();
    let target = Path::new(env!("CARGO_MANIFEST_DIR")).join("target");
    let root_dir = tempfile::Builder::new().prefix("daemon-load").tempdir_in(&target).expect("tmp");
    let root = root_dir.path();
    // --overhead-only: a 1-byte size limit refuses every file before the pipeline, which
    // measures the daemon's own path (events, claim, outbox writes, fsyncs, moves).
    let limit = if o.overhead_only { "[intake]\nmax_file_bytes = 1\n" } else { "" };
    fs::write(root.join("config.toml"), limit).expect("config");
    let (inbox, outbox, done, staging) =
        (root.join("inbox"), root.join("outbox"), root.join("done"), root.join("staging"));
    fs::create_dir_all(&staging).expect("staging");
    let puzzles = puzzles();
    let mut child = start(root, &o);
    let pid = child.id();
    let idle_rss = status_kib(pid, "VmRSS:");

    // Latency, one file at a time on the idle daemon.
    let mut latencies = Vec::new();
    for i in 0..o.latency {
        let (name, text) = &puzzles[i % puzzles.len()];
        let file = format!("lat-{i:03}-{name}.txt");
        let staged = staging.join(&file);
        fs::write(&staged, text).expect("stage");
        let json = outbox.join(format!("lat-{i:03}-{name}.json"));
        let error = outbox.join(format!("lat-{i:03}-{name}.error.json"));
        let t0 = Instant::now();
        fs::rename(&staged, inbox.join(&file)).expect("rename");
        while !json.exists() && !error.exists() {
            if t0.elapsed() > Duration::from_secs(30) {
                panic!("no result for {file}");
            }
            std::thread::sleep(Duration::from_micros(200));
        }
        latencies.push(t0.elapsed());
        std::thread::sleep(Duration::from_millis(20));
    }
    latencies.sort();
    let idle_rss_after = status_kib(pid, "VmRSS:");

    // Throughput: every file renamed in at once.
    let base = count(&done) + count(&root.join("failed"));
    let paths: Vec<(PathBuf, PathBuf)> = (0..o.files)
        .map(|i| {
            let (name, text) = &puzzles[i % puzzles.len()];
            let file = format!("load-{i:05}-{name}.txt");
            fs::write(staging.join(&file), text).expect("stage");
            (staging.join(&file), inbox.join(&file))
        })
        .collect();
    let wall0 = SystemTime::now();
    let t0 = Instant::now();
    for (from, to) in &paths {
        fs::rename(from, to).expect("rename");
    }
    let dropped = t0.elapsed();
    let mut peak_rss = 0;
    while count(&done) + count(&root.join("failed")) < base + o.files {
        peak_rss = peak_rss.max(status_kib(pid, "VmRSS:"));
        if t0.elapsed() > Duration::from_secs(600) {
            panic!("throughput run did not finish");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let polled = t0.elapsed();
    // When the last input was moved on (after its result was committed): a rename sets the
    // file's ctime, which is free of the polling interval.
    let moved = |dir: &Path| -> Vec<SystemTime> {
        use std::os::unix::fs::MetadataExt;
        fs::read_dir(dir)
            .map(|d| {
                d.filter_map(|e| e.ok()?.metadata().ok())
                    .map(|m| {
                        SystemTime::UNIX_EPOCH
                            + Duration::new(m.ctime() as u64, m.ctime_nsec() as u32)
                    })
                    .collect()
            })
            .unwrap_or_default()
    };
    let last = moved(&done)
        .into_iter()
        .chain(moved(&root.join("failed")))
        .max()
        .and_then(|t| t.duration_since(wall0).ok())
        .unwrap_or(polled);
    let hwm = status_kib(pid, "VmHWM:");
    let errors = count(&root.join("failed"));
    let hard = (o.hard && !o.overhead_only).then(|| hard_runs(&o, &staging, &inbox, &outbox));
    let _ = Command::new("kill").arg("-TERM").arg(pid.to_string()).status();
    let _ = child.wait();

    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let pct = |p: f64| latencies[((latencies.len() as f64 - 1.0) * p).round() as usize];
    println!(
        "daemon_load: workers={} fsync={} cores={}",
        o.workers,
        o.fsync,
        std::thread::available_parallelism().map_or(1, usize::from)
    );
    println!(
        "throughput: {} files in {:.0} ms (renames took {:.0} ms): {:.0} files/s; {} rejected",
        o.files,
        ms(last),
        ms(dropped),
        o.files as f64 / last.as_secs_f64(),
        errors
    );
    if !latencies.is_empty() {
        println!(
            "latency over {} files: median {:.2} ms, p90 {:.2} ms, max {:.2} ms",
            latencies.len(),
            ms(pct(0.5)),
            ms(pct(0.9)),
            ms(latencies[latencies.len() - 1])
        );
    }
    println!(
        "resident memory: idle {} KiB at start, {} KiB after the latency run; \
         peak sampled under load {} KiB, high-water mark {} KiB",
        idle_rss, idle_rss_after, peak_rss, hwm
    );
    if let Some(hard) = hard {
        println!(
            "hard puzzle (threads={}): alone {:.0} ms; with {} small files behind it: \
             the small files all answered after {:.0} ms, the hard one after {:.0} ms",
            o.threads,
            ms(hard.alone),
            o.hard_with,
            ms(hard.small_done),
            ms(hard.hard_done)
        );
    }
}

/// Times of the hard-puzzle runs.
struct HardRuns {
    alone: Duration,
    small_done: Duration,
    hard_done: Duration,
}

/// Drops the hard puzzle alone, then with small files behind it (see the module docs).
fn hard_runs(o: &Options, staging: &Path, inbox: &Path, outbox: &Path) -> HardRuns {
    let generated = Command::new(env!("CARGO_BIN_EXE_kakurod"))
        .args([
            "generate",
            "--any-solution",
            "--rows",
            "150",
            "--cols",
            "150",
            "--black",
            "35",
            "--seed",
            "1",
        ])
        .output()
        .expect("kakurod generate");
    let hard = String::from_utf8(generated.stdout).expect("a generated puzzle");
    let wait_for = |json: &Path, t0: Instant| {
        while !json.exists() {
            assert!(t0.elapsed() < Duration::from_secs(300), "no result for {}", json.display());
            std::thread::sleep(Duration::from_millis(2));
        }
        t0.elapsed()
    };
    let drop_in = |file: &str, text: &str| {
        fs::write(staging.join(file), text).expect("stage");
        fs::rename(staging.join(file), inbox.join(file)).expect("rename");
    };
    let t0 = Instant::now();
    drop_in("hard-alone.txt", &hard);
    let alone = wait_for(&outbox.join("hard-alone.json"), t0);

    let small = puzzles();
    let t0 = Instant::now();
    drop_in("hard-busy.txt", &hard);
    // Behind it, once the probe is over and its search has spread over the idle workers.
    std::thread::sleep(Duration::from_millis(100));
    for i in 0..o.hard_with {
        let (name, text) = &small[i % small.len()];
        drop_in(&format!("behind-{i:04}-{name}.txt"), text);
    }
    let mut small_done = Duration::ZERO;
    for i in 0..o.hard_with {
        let (name, _) = &small[i % small.len()];
        small_done =
            small_done.max(wait_for(&outbox.join(format!("behind-{i:04}-{name}.json")), t0));
    }
    let hard_done = wait_for(&outbox.join("hard-busy.json"), t0);
    HardRuns { alone, small_done, hard_done }
}
