//! `kakurod man DIR` and `kakurod completions SHELL`: the manual pages and the shell
//! completions, made from the command line's own definitions (`clap_mangen`,
//! `clap_complete`), so they can never tell of an option the binary does not take.

use crate::cli::{Cli, CompletionsArgs, ManArgs};
use anyhow::Context;
use clap::CommandFactory;
use std::io::Write;
use std::process::ExitCode;

/// Writes `kakurod.1` and one `kakurod-COMMAND.1` per command into the folder.
pub fn man(args: ManArgs) -> anyhow::Result<ExitCode> {
    let out = &args.out;
    std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    // Given the command unbuilt: `generate_to` leaves out the `help` pseudo-command.
    clap_mangen::generate_to(Cli::command(), out)
        .with_context(|| format!("cannot write the manual pages into {}", out.display()))?;
    Ok(ExitCode::SUCCESS)
}

/// Prints the completion script of the shell on standard output.
pub fn completions(args: CompletionsArgs) -> anyhow::Result<ExitCode> {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut Cli::command(), "kakurod", &mut script);
    // Written with `?`, so that a reader that goes away ends it quietly.
    let mut out = std::io::stdout().lock();
    out.write_all(&script)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
