//! `kakurod cancel NAME`: leaves a request for the daemon (`daemon::cancel`) and waits for
//! its reply.

use super::daemon_folders;
use crate::cli::CancelArgs;
use crate::daemon::{cancel, claim};
use crate::settings::Folders;
use anyhow::{Context, bail};
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// How often the reply is looked for.
const POLL: Duration = Duration::from_millis(50);
/// Exit status when no daemon answered in time.
const NO_ANSWER: u8 = 3;

/// Asks for the input to be cancelled; exit 0 when it was, 1 when it was not, 3 when no
/// daemon answered within `--wait`.
pub fn run(args: CancelArgs) -> anyhow::Result<ExitCode> {
    let folders = daemon_folders(args.config)?;
    let name = args.name.as_str();
    if name.is_empty() || name.starts_with('.') || name.contains('/') {
        bail!("{name:?} is not an input's name (a file name in the inbox, without folders)");
    }
    let name = input_named(&folders, name)?;
    let name = name.as_str();
    cancel::request(&folders.claim, name).with_context(|| {
        format!("cannot leave the request in {}", cancel::folder(&folders.claim).display())
    })?;
    let deadline = Instant::now() + args.wait;
    loop {
        let reply = cancel::take_reply(&folders.claim, name)
            .with_context(|| format!("cannot read the daemon's reply about {name}"))?;
        if let Some(reply) = reply {
            // Written with `?`, so that a reader that goes away ends it quietly.
            let mut out = std::io::stdout().lock();
            writeln!(out, "{name}: {}", reply.detail)?;
            out.flush()?;
            return Ok(if reply.cancelled { ExitCode::SUCCESS } else { ExitCode::from(1) });
        }
        if Instant::now() >= deadline {
            eprintln!(
                "kakurod: no daemon answered within {:.0} s; the request stays in {} and is acted on when a daemon serves {}",
                args.wait.as_secs_f64(),
                cancel::folder(&folders.claim).display(),
                folders.inbox.display()
            );
            return Ok(ExitCode::from(NO_ANSWER));
        }
        std::thread::sleep(POLL);
    }
}

/// The input `name` stands for: itself when an input has that name (in the inbox or
/// claimed), else the one input whose name is `name` with an extension (`garbage` for
/// `garbage.txt`). Several such inputs are refused, naming them; none leaves `name` as
/// given, for the daemon to say that nothing of that name waits.
fn input_named(folders: &Folders, name: &str) -> anyhow::Result<String> {
    let claimed = claim::claimed(&folders.claim).unwrap_or_default();
    let mut names: Vec<String> = claimed.into_iter().map(|c| c.name).collect();
    if let Ok(entries) = std::fs::read_dir(&folders.inbox) {
        names.extend(entries.filter_map(|e| e.ok()?.file_name().into_string().ok()));
    }
    if names.iter().any(|n| n == name) {
        return Ok(name.to_string());
    }
    let stem_is_name = |n: &&String| Path::new(n.as_str()).file_stem().is_some_and(|s| s == name);
    let mut matching: Vec<String> = names.iter().filter(stem_is_name).cloned().collect();
    matching.sort();
    matching.dedup();
    match matching.as_slice() {
        [] => Ok(name.to_string()),
        [one] => Ok(one.clone()),
        several => bail!("{name:?} could be any of {}: name one of them", several.join(", ")),
    }
}
