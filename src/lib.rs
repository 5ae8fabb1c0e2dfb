//! kakurod: a batch solving daemon for Kakuro, Sudoku and Killer Sudoku.
//!
//! The solving engine is the `kakurod-engine` crate of this workspace (`crates/engine`),
//! which a user of the library (and the tests and benchmarks) takes directly; this crate
//! uses its modules under the same names. The engine cannot use the modules above it: it
//! is another crate. Above it, private to this crate, the program: `commands` runs the command line that
//! `cli` parses (the only layers that know clap), hands `serve` to `daemon` (which watches
//! the inbox and runs the pipeline on worker threads, and takes resolved settings, never
//! command-line arguments) and `worker` to `queue` (the shared queue on NATS JetStream).
//! What every process mode shares lives beside them, not in the daemon: `settings` reads
//! and resolves config.toml (for `serve`, `worker`'s jobs, `status` and `cancel`), `work` answers
//! one input (the pipeline or a generation job, and the log line of its answer) on the
//! daemon's workers and on a queue worker alike, `status` is the state document a daemon
//! or a worker publishes and `kakurod status` reads, and `logging` and `signals` set up
//! the log and the termination signals of both. `outbox` is the one writer of result files
//! (named as `result_names` says, pictures by `render`), for the daemon and `solve --out`
//! alike. `util` holds the small helpers several layers share (host name, plurals, hex,
//! durable renames and syncs), below all of them.
//! A binary reaches the program only through [`run_cli`].

use kakurod_engine::render;
pub use kakurod_engine::{
    explain, format, generate, grade, model, pipeline, puzzle, report, solver, verify,
};

mod cli;
mod commands;
mod daemon;
mod logging;
mod outbox;
mod queue;
mod result_names;
mod settings;
mod signals;
mod status;
mod util;
mod work;

/// Runs the `kakurod` command line (the process's arguments) and returns the exit status:
/// the whole of the binary.
pub fn run_cli() -> std::process::ExitCode {
    commands::run()
}
