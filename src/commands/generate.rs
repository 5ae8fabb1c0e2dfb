//! `kakurod generate`.

use std::process::ExitCode;

/// Runs `kakurod generate`.
pub fn run(args: crate::cli::GenerateArgs) -> anyhow::Result<ExitCode> {
    let _ = args;
    anyhow::bail!("kakurod generate is not implemented yet")
}
