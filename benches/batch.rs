//! A `lines` file of many Sudoku through the real binary, whole process: what a person
//! solving a large batch sees. Three routes, each run `BATCH_ROUNDS` times (default 5) in
//! alternation, proving every puzzle unique (the shipped mode):
//!
//! - `solve`: `kakurod solve FILE`, the solutions to standard output (thrown away);
//! - `solve --out`: `kakurod solve --out DIR FILE`, the result files written;
//! - `daemon`: one `kakurod serve` on the repository's `config.toml` settings, the file
//!   renamed into its inbox, timed until its `NAME.json` appears in the outbox.
//!
//! It prints, per route, the median seconds, the puzzles per second and the peak resident
//! memory (polled for a command, the daemon's high-water mark for the daemon). The file is
//! `BATCH_FILE` (81-character lines), else top1465 from the data folder repeated to
//! 50,000 lines. `BATCH_THREADS` sets the threads of every route (default: every core);
//! `BATCH_BIN` runs another build of the binary (an earlier one, to compare).
#![allow(clippy::unwrap_used, reason = "a test or benchmark that cannot go on panics")]

mod common;
#[path = "common/proc_status.rs"]
mod proc_status;

use proc_status::status_kib;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Lines of the default file.
const DEFAULT_LINES: usize = 50_000;

/// The batch file to run, and how many puzzles it holds.
fn batch_file(scratch: &Path) -> Option<(PathBuf, usize)> {
    let (source, repeat_to) = match std::env::var_os("BATCH_FILE") {
        Some(file) => (PathBuf::from(file), None),
        None => (common::data_dir()?.join("sudoku/lines/top1465.txt"), Some(DEFAULT_LINES)),
    };
    let text = fs::read_to_string(&source).ok()?;
    let lines: Vec<&str> = text.lines().filter(|l| l.trim().len() >= 81).collect();
    let lines: Vec<&str> = match repeat_to {
        Some(n) => lines.iter().cycle().take(n).copied().collect(),
        None => lines,
    };
    let file = scratch.join("batch.txt");
    fs::write(&file, lines.join("\n") + "\n").ok()?;
    Some((file, lines.len()))
}

/// The binary to run: `BATCH_BIN`, else this build's.
fn binary() -> PathBuf {
    let path = std::env::var_os("BATCH_BIN")
        .map_or(PathBuf::from(env!("CARGO_BIN_EXE_kakurod")), PathBuf::from);
    // The daemon runs in its own folder.
    path.canonicalize().unwrap_or(path)
}

/// Runs `kakurod ARGS` to its end: seconds, and the highest memory seen while it ran.
fn command(args: &[&str], file: &Path) -> (f64, u64) {
    let started = Instant::now();
    let mut child = Command::new(binary())
        .args(args)
        .arg(file)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn kakurod");
    let mut peak = 0;
    loop {
        peak = peak.max(status_kib(child.id(), "VmHWM:"));
        if let Some(status) = child.try_wait().expect("wait") {
            assert!(status.success(), "kakurod {args:?} failed");
            return (started.elapsed().as_secs_f64(), peak);
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// A daemon on the repository's settings in `root`, its folders ready.
fn daemon(root: &Path, threads: Option<&str>) -> Child {
    let config = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("config.toml"))
        .expect("config.toml");
    fs::write(root.join("config.toml"), config).expect("config");
    let mut cmd = Command::new(binary());
    cmd.current_dir(root).args(["serve", "--config", "config.toml", "--log-level", "warn"]);
    if let Some(threads) = threads {
        cmd.args(["--threads", threads]);
    }
    let child = cmd.stdin(Stdio::null()).stderr(Stdio::null()).spawn().expect("spawn kakurod");
    let deadline = Instant::now() + Duration::from_secs(30);
    while !root.join("claim").exists() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    std::thread::sleep(Duration::from_millis(300));
    child
}

/// Renames a copy of `file` into the daemon's inbox as `NAME.txt` and waits for its result.
fn through_daemon(root: &Path, file: &Path, name: &str) -> f64 {
    let staged = root.join(format!("{name}.txt"));
    fs::copy(file, &staged).expect("stage");
    let result = root.join("outbox").join(format!("{name}.json"));
    let started = Instant::now();
    fs::rename(&staged, root.join("inbox").join(format!("{name}.txt"))).expect("drop");
    while !result.exists() {
        assert!(started.elapsed() < Duration::from_secs(600), "no result for {name}");
        std::thread::sleep(Duration::from_millis(2));
    }
    started.elapsed().as_secs_f64()
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn main() {
    // Not when cargo only checks that the benchmarks run (`cargo test --benches`).
    if std::env::args().any(|a| a == "--test" || a == "--list") {
        return;
    }
    let target = Path::new(env!("CARGO_MANIFEST_DIR")).join("target");
    let scratch = tempfile::Builder::new().prefix("batch").tempdir_in(&target).expect("tmp");
    let Some((file, puzzles)) = batch_file(scratch.path()) else {
        eprintln!("no batch file (BATCH_FILE, or top1465 in the data folder): skipped");
        return;
    };
    let rounds: usize =
        std::env::var("BATCH_ROUNDS").ok().and_then(|r| r.parse().ok()).unwrap_or(5).max(1);
    let threads = std::env::var("BATCH_THREADS").ok();
    let mut solve_args = vec!["solve"];
    if let Some(threads) = &threads {
        solve_args.extend(["--threads", threads]);
    }
    let out = scratch.path().join("out");
    let out_arg = out.to_string_lossy().into_owned();
    let mut out_args = solve_args.clone();
    out_args.extend(["--out", &out_arg]);
    let root = scratch.path().join("daemon");
    fs::create_dir_all(&root).expect("daemon folder");
    let mut serve = daemon(&root, threads.as_deref());

    let (mut plain, mut written, mut served) = (Vec::new(), Vec::new(), Vec::new());
    let (mut plain_peak, mut written_peak) = (0, 0);
    for round in 0..rounds {
        let (seconds, peak) = command(&solve_args, &file);
        plain.push(seconds);
        plain_peak = plain_peak.max(peak);
        let _ = fs::remove_dir_all(&out);
        fs::create_dir_all(&out).expect("out");
        let (seconds, peak) = command(&out_args, &file);
        written.push(seconds);
        written_peak = written_peak.max(peak);
        served.push(through_daemon(&root, &file, &format!("batch-{round}")));
    }
    let daemon_peak = status_kib(serve.id(), "VmHWM:");
    let _ = serve.kill();
    let _ = serve.wait();

    println!(
        "{} on {puzzles} puzzles, {rounds} rounds, threads {}",
        binary().display(),
        threads.as_deref().unwrap_or("all")
    );
    for (route, times, peak) in [
        ("solve", &mut plain, plain_peak),
        ("solve --out", &mut written, written_peak),
        ("daemon", &mut served, daemon_peak),
    ] {
        let seconds = median(times);
        println!(
            "{route:>12}: median {seconds:.3} s, {:.0} puzzles/s, peak memory {} MiB",
            puzzles as f64 / seconds,
            peak / 1024
        );
    }
}
