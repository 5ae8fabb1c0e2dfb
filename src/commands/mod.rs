//! The commands of the binary: [`run`] parses the command line and hands each command to
//! its module here (`solve`, `bench`, `generate`, `worker`, and `status` and `cancel`,
//! which talk to a running daemon through its folders), or `serve` to the daemon with
//! its flags turned into the daemon's own overrides.

mod bench;
mod cancel;
mod convert;
mod explain;
mod generate;
mod live;
mod manual;
mod print;
mod solve;
mod status;
mod worker;

use crate::cli::{Cli, Command};
use anyhow::{Context, bail};
use clap::Parser;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::fs;
use std::io::{self, IsTerminal, Read};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// True for `-`, which names standard input.
fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// The bytes of an input file, or of standard input for `-`.
fn read_input(path: &Path) -> io::Result<Vec<u8>> {
    if is_stdin(path) {
        let mut bytes = Vec::new();
        io::stdin().lock().read_to_end(&mut bytes)?;
        Ok(bytes)
    } else {
        fs::read(path)
    }
}

/// The text of an input file (`-`: standard input), which must be UTF-8.
fn read_text(path: &Path) -> anyhow::Result<String> {
    let bytes = read_input(path).context("cannot read the file")?;
    String::from_utf8(bytes).map_err(|_| anyhow::anyhow!("the file is not UTF-8 text"))
}

/// The name results of `path` are named after: its file name, `stdin` for `-`.
fn file_name(path: &Path) -> String {
    match path.file_name() {
        Some(name) if !is_stdin(path) => name.to_string_lossy().into_owned(),
        _ => "stdin".into(),
    }
}

/// Refuses to write over `path` unless `force` (the `--force` of the command writing it).
fn refuse_overwrite(path: &Path, force: bool) -> anyhow::Result<()> {
    if !force && path.exists() {
        bail!("{} exists: it is not replaced without --force", path.display());
    }
    Ok(())
}

/// Refuses `dir` for an option that wants a folder (`flag`) when it is something else.
fn want_folder(dir: &Path, flag: &str) -> anyhow::Result<()> {
    if dir.exists() && !dir.is_dir() {
        bail!("{flag} wants a folder, and {} is not one", dir.display());
    }
    Ok(())
}

/// An input error as `FILE:LINE:COLUMN: message (expected ...)`.
fn located(file: &str, e: &crate::format::InputError) -> String {
    format!("{file}:{}:{}: {} (expected {})", e.line, e.column, e.message, e.expected)
}

/// Parses the command line and runs the command it names; the exit status to end with.
pub(crate) fn run() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Serve(args) => crate::daemon::run(args.into()),
        Command::Solve(args) => solve::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Generate(args) => generate::run(args),
        Command::Worker(args) => worker::run(args),
        Command::Status(args) => status::run(args),
        Command::Cancel(args) => cancel::run(args),
        Command::Convert(args) => convert::run(args),
        Command::Print(args) => print::run(args),
        Command::Explain(args) => explain::run_explain(args),
        Command::Hint(args) => explain::run_hint(args),
        Command::Man(args) => manual::man(args),
        Command::Completions(args) => manual::completions(args),
    };
    match result {
        Ok(code) => code,
        // A reader that went away (`| head`) ends the output quietly, as Unix tools do.
        Err(error) if is_broken_pipe(&error) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("kakurod: {}", message(&error));
            ExitCode::from(2)
        }
    }
}

/// `error` and its causes, `: ` between them, leaving out a cause whose text the message
/// already holds (the daemon's errors name their cause in their own text).
fn message(error: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in error.chain().map(ToString::to_string) {
        if text.contains(&cause) {
            continue;
        }
        if !text.is_empty() {
            text.push_str(": ");
        }
        text.push_str(&cause);
    }
    text
}

/// Whether writing to a closed pipe caused `error`.
fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// The folders of the daemon configured by `config` (or `./config.toml`, or the
/// defaults), as `serve` would resolve them.
pub(crate) fn daemon_folders(config: Option<PathBuf>) -> anyhow::Result<crate::settings::Folders> {
    let overrides = crate::settings::ServeOverrides { config, ..Default::default() };
    let settings = crate::settings::Settings::load(&overrides)?;
    Ok(settings.folders)
}

/// A progress bar over `len` files on standard error when it is a terminal, a hidden one
/// otherwise (logs and pipes get no bar).
pub(crate) fn progress_bar(len: usize) -> ProgressBar {
    if !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(len as u64), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} files, {elapsed}") {
        bar.set_style(style);
    }
    bar
}

/// Every file named, and the files in every folder named (not recursively), skipping
/// `.sol` solutions and hidden files; folder contents in name order.
pub(crate) fn puzzle_files(paths: &[PathBuf]) -> anyhow::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    let mut skipped = Skipped::default();
    for path in paths {
        if path.as_os_str() == "-" || !path.is_dir() {
            files.push(path.clone());
            continue;
        }
        let mut found = Vec::new();
        for entry in
            fs::read_dir(path).with_context(|| format!("cannot list {}", path.display()))?
        {
            let entry = entry.with_context(|| format!("cannot list {}", path.display()))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') {
                skipped.hidden += 1;
            } else if name.ends_with(".sol") {
                skipped.solutions += 1;
            } else if !entry.path().is_file() {
                skipped.folders.push(entry.path());
            } else {
                found.push(entry.path());
            }
        }
        found.sort();
        files.extend(found);
    }
    if files.is_empty() {
        bail!("no puzzle files found{}", skipped.said());
    }
    Ok(files)
}

/// What the listing of folders passed over, to say so when it found nothing.
#[derive(Default)]
struct Skipped {
    /// Folders inside them (not read: the listing is not recursive).
    folders: Vec<PathBuf>,
    /// `.sol` solutions.
    solutions: usize,
    /// Hidden files.
    hidden: usize,
}

impl Skipped {
    /// `; skipped ...`, or nothing when nothing was skipped.
    fn said(mut self) -> String {
        let mut parts = Vec::new();
        if !self.folders.is_empty() {
            self.folders.sort();
            let shown: Vec<String> =
                self.folders.iter().take(5).map(|f| f.display().to_string()).collect();
            let more = self.folders.len().saturating_sub(shown.len());
            let more = if more > 0 { format!(" and {more} more") } else { String::new() };
            parts.push(format!(
                "{} not read, as folders are not searched recursively ({}{more})",
                crate::util::plural(self.folders.len(), "folder"),
                shown.join(", ")
            ));
        }
        if self.solutions > 0 {
            parts.push(format!("{} skipped", crate::util::plural(self.solutions, ".sol solution")));
        }
        if self.hidden > 0 {
            parts.push(format!("{} skipped", crate::util::plural(self.hidden, "hidden file")));
        }
        if parts.is_empty() { String::new() } else { format!(": {}", parts.join("; ")) }
    }
}

#[cfg(test)]
mod tests {
    use super::message;
    use anyhow::Context;

    #[test]
    fn a_cause_is_named_once() {
        let io = std::io::Error::from(std::io::ErrorKind::NotFound);
        let named = io.to_string();
        // A cause its error names in its own text, under a context.
        let error = Err::<(), _>(io)
            .with_context(|| format!("cannot read the configuration file /nope.toml: {named}"))
            .context("cannot start")
            .unwrap_err();
        assert_eq!(
            message(&error),
            format!("cannot start: cannot read the configuration file /nope.toml: {named}")
        );
        let plain = anyhow::anyhow!("outer").context("top");
        assert_eq!(message(&plain), "top: outer");
    }
}
