//! The commands of the binary besides `serve`: `solve`, `bench`, `generate`, `worker`,
//! and `status` and `cancel`, which talk to a running daemon through its folders.

pub mod bench;
pub mod cancel;
pub mod generate;
mod live;
pub mod solve;
pub mod status;
pub mod worker;

use anyhow::{Context, bail};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::fs;
use std::io::{self, IsTerminal};
use std::path::PathBuf;

/// The folders of the daemon configured by `config` (or `./config.toml`, or the
/// defaults), as `serve` would resolve them.
pub(crate) fn daemon_folders(
    config: Option<PathBuf>,
) -> anyhow::Result<crate::daemon::config::Folders> {
    let args = crate::cli::ServeArgs { config, ..Default::default() };
    let settings = crate::daemon::config::Settings::load(&args)?;
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
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if name.starts_with('.') || name.ends_with(".sol") || !entry.path().is_file() {
                continue;
            }
            found.push(entry.path());
        }
        found.sort();
        files.extend(found);
    }
    if files.is_empty() {
        bail!("no puzzle files found");
    }
    Ok(files)
}
