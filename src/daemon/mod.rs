//! The daemon: inbox watcher, work queue, workers and outbox writer.

use std::process::ExitCode;

/// Runs `kakurod serve` until SIGTERM or SIGINT.
pub fn run(args: crate::cli::ServeArgs) -> anyhow::Result<ExitCode> {
    let _ = args;
    anyhow::bail!("kakurod serve is not implemented yet")
}
