//! The `kakurod` binary: parses the command line and hands over to the library.

use clap::Parser;
use kakurod::cli::{Cli, Command};
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Serve(args) => kakurod::daemon::run(args),
        Command::Solve(args) => kakurod::commands::solve::run(args),
        Command::Bench(args) => kakurod::commands::bench::run(args),
        Command::Generate(args) => kakurod::commands::generate::run(args),
    };
    match result {
        Ok(code) => code,
        Err(error) => {
            eprintln!("kakurod: {error:#}");
            ExitCode::from(2)
        }
    }
}
