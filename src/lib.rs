//! kakurod: a batch solving daemon for Kakuro, Sudoku and Killer Sudoku.
//!
//! The library's public face is the solving engine, layer by layer, top to bottom:
//! - [`pipeline`] takes one file from bytes to a [`report::FileReport`]: it ties the
//!   steps below together, and applies the solver settings a puzzle file asks for;
//! - [`format`](mod@format) reads a file's text (format detected from content) into
//!   [`puzzle::Puzzle`]s;
//! - [`puzzle`] knows each kind's rules and compiles a puzzle to a [`model::Model`];
//! - [`solver`] searches the model (sequentially, split and raced on many threads, or with
//!   the SAT engine);
//! - [`verify`] checks every solution against the puzzle's own clues, independently;
//! - [`grade`] grades a Kakuro or a Sudoku by the human techniques its solution needs;
//! - [`report`] holds the result documents and the text of solution files;
//! - [`generate`] makes new puzzles with exactly one solution.
//!
//! These never use the modules above them. Above them, private to the crate, the program: `commands` runs the command line that
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

mod cli;
mod commands;
mod daemon;
pub mod explain;
pub mod format;
pub mod generate;
pub mod grade;
mod logging;
pub mod model;
mod outbox;
pub mod pipeline;
pub mod puzzle;
mod queue;
mod render;
pub mod report;
mod result_names;
mod settings;
mod signals;
pub mod solver;
mod status;
mod util;
pub mod verify;
mod work;

/// Runs the `kakurod` command line (the process's arguments) and returns the exit status:
/// the whole of the binary.
pub fn run_cli() -> std::process::ExitCode {
    commands::run()
}
