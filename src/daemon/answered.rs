//! The last steps of an answered input, once its result set is durable, whoever wrote it:
//! the local pipeline (`lifecycle`) or a worker of the shared queue
//! (`remote`). The input is archived, its line logged and counted, and an operator's
//! cancel request answered. Both sides call these steps; neither calls the other.

use super::cancel::{self, Reply};
use super::claim::{self, Claimed};
use super::error::JobError;
use super::job::{Context, Outcome};
use crate::outbox::Written;
use crate::settings::AfterSuccess;
use crate::util::fs::sync_dir;
use crate::work::log_line::LogLine;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Counts of ended lives, for the shutdown line.
#[derive(Debug, Default)]
pub struct Counters {
    /// Inputs answered with a result.
    pub answered: AtomicU64,
    /// Of those, answered with an error result.
    pub rejected: AtomicU64,
    /// Jobs that failed on I/O (input left in the inbox, or in the claim folder to be
    /// tried again).
    pub errors: AtomicU64,
}

impl Counters {
    /// One more input answered (`rejected`: with an error result).
    pub fn count_answer(&self, rejected: bool) {
        self.answered.fetch_add(1, Ordering::Relaxed);
        if rejected {
            self.rejected.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Counts `outcome` when it wrote an answer.
    pub fn count(&self, outcome: Outcome) {
        if let Outcome::Answered { rejected } = outcome {
            self.count_answer(rejected);
        }
    }
}

/// The first half of an input's result: what its last steps need once the set is durable.
#[derive(Debug)]
pub struct Answer {
    /// The claimed input.
    pub claimed: Claimed,
    /// Where the input is now.
    pub(super) path: PathBuf,
    /// True for an error result.
    pub(super) rejected: bool,
    /// The fields of the log line.
    pub(super) line: LogLine,
    /// True when an operator cancelled it: the request is answered once it is written.
    pub(super) by_operator: bool,
}

impl Answer {
    /// The answer to `claimed` (at `path`) that a queue worker sent.
    pub(crate) fn new(claimed: Claimed, path: PathBuf, rejected: bool, line: LogLine) -> Answer {
        Answer { claimed, path, rejected, line, by_operator: false }
    }
}

/// After *committed*, local or from the shared queue: once the result set is durable
/// (`written`; an error leaves the input waiting to retry), archive the input and log the
/// result. The folder syncs of the move are left to the committer's batch.
pub(crate) fn committed(
    ctx: &Context,
    answer: Answer,
    written: io::Result<Written>,
) -> Result<Outcome, JobError> {
    let written =
        written.map_err(|e| JobError::io("cannot write the result of", &answer.path, e))?;
    let name = &answer.claimed.name;
    archive(ctx, &answer.path, name, answer.rejected, false)?;
    answer.line.log(name, &written.stem);
    ctx.metrics.answered(&answer.line);
    let claim = &ctx.settings.folders.claim;
    if answer.by_operator {
        let json = ctx.settings.folders.outbox.join(format!("{}.json", written.stem));
        let detail = format!("answered `cancelled` in {}", json.display());
        cancel::reply(claim, name, &Reply { cancelled: true, detail });
    } else if cancel::is_requested(claim, name) {
        // Answered before the request could stop it (read, or solved, first): the answer
        // stands, and the operator is told where it is.
        let detail = format!("answered before it could be stopped, in {}", written.json.display());
        cancel::reply(claim, name, &Reply { cancelled: false, detail });
    }
    Ok(Outcome::Answered { rejected: answer.rejected })
}

/// *archived*: moves the claimed input on once its result is durable.
pub(super) fn archive(
    ctx: &Context,
    claimed: &Path,
    name: &str,
    rejected: bool,
    sync: bool,
) -> Result<(), JobError> {
    let folders = &ctx.settings.folders;
    let target: Option<&PathBuf> = match (rejected, ctx.settings.after_success) {
        (true, _) => Some(&folders.failed),
        (false, AfterSuccess::Move) => Some(&folders.done),
        (false, AfterSuccess::Delete) => None,
    };
    match target {
        Some(dir) => {
            match claim::move_unique(claimed, dir, name) {
                Ok(_) => {}
                Err(e) if e.kind() == io::ErrorKind::NotFound => {
                    vanished_after(name);
                    return Ok(());
                }
                Err(e) => return Err(JobError::io("cannot move on", claimed, e)),
            }
            if sync {
                sync_dir(dir).map_err(|e| JobError::io("cannot sync", dir, e))?;
            }
        }
        None => match std::fs::remove_file(claimed) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                vanished_after(name);
                return Ok(());
            }
            Err(e) => return Err(JobError::io("cannot delete", claimed, e)),
        },
    }
    if sync {
        sync_dir(&folders.claim).map_err(|e| JobError::io("cannot sync", &folders.claim, e))?;
    }
    Ok(())
}

/// The claimed input was removed after its result was written: nothing left to move on.
fn vanished_after(name: &str) {
    tracing::info!(file = %name, "the input was removed from the claim folder after it was \
        answered; there is nothing to move on");
}
