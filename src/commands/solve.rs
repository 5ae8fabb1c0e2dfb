//! `kakurod solve`.

use std::process::ExitCode;

/// Runs `kakurod solve`.
pub fn run(args: crate::cli::SolveArgs) -> anyhow::Result<ExitCode> {
    let _ = args;
    anyhow::bail!("kakurod solve is not implemented yet")
}
