//! `kakurod bench`.

use std::process::ExitCode;

/// Runs `kakurod bench`.
pub fn run(args: crate::cli::BenchArgs) -> anyhow::Result<ExitCode> {
    let _ = args;
    anyhow::bail!("kakurod bench is not implemented yet")
}
