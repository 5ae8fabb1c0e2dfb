//! The reconciler of `serve --queue`: now and then, every claim sent to the queue is
//! checked. A claim whose input was removed has its job taken off the queue, and the
//! worker running it told to stop (an answer that comes anyway is dropped on arrival); a job the queue never confirmed
//! is sent again; and a job older than `[queue] reconcile_seconds` that the queue holds
//! neither as a job nor as an answer is sent again: a server acknowledges a message before
//! its disk has it, and one that crashes in between loses it. Each pass also sweeps the
//! queue's bucket of the objects of claims no longer held.

use super::Remote;
use crate::daemon::claim::{self, Claimed};
use crate::daemon::job::{Context, SharedQueue};
use crate::pipeline;
use crate::queue::large;
use std::time::{Duration, Instant};

/// The longest a pass looks up claims: it runs on the answers thread, and while a
/// cluster elects its leaders each lookup may wait for its request's timeout.
const PASS_MOST: Duration = Duration::from_millis(500);

/// One pass over the claims in flight, then the sweep of the queue's bucket.
pub(super) fn run(remote: &Remote, ctx: &Context) {
    check(remote, ctx);
    sweep(remote, ctx);
}

/// Deletes the objects in the queue's bucket whose claims are no longer in the claim
/// folder: left behind by a crash between an answer's write and their deletion, or by a
/// worker's answer that lost the race to another's (see `queue::large`).
pub(super) fn sweep(remote: &Remote, ctx: &Context) {
    let claim_dir = &ctx.settings.folders.claim;
    let held = || {
        let claims = claim::claimed(claim_dir).ok()?;
        Some(claims.into_iter().map(|c| c.id.to_string()).collect())
    };
    let queue = &remote.queue;
    if let Err(error) = queue.block_on(large::sweep(queue, held)) {
        // The next pass tries again.
        tracing::debug!(%error, "cannot sweep the queue's bucket");
    }
}

/// The claims in flight: withdrawn, unsent or lost jobs.
fn check(remote: &Remote, ctx: &Context) {
    let claim_dir = &ctx.settings.folders.claim;
    type Seen = (Claimed, bool, Instant, Option<String>);
    let mut flights: Vec<Seen> = match remote.flights.lock() {
        Ok(flights) => {
            let seen = |f: &super::Flight| (f.claimed.clone(), f.sent, f.seen, f.pack.clone());
            flights.values().map(seen).collect()
        }
        Err(_) => return,
    };
    // Those seen longest ago first: a pass that runs out of time leaves the newest.
    flights.sort_by_key(|&(_, _, seen, _)| seen);
    let reconcile = remote.queue.settings.reconcile;
    let until = Instant::now() + PASS_MOST;
    for (claimed, sent, seen, pack) in flights {
        if Instant::now() > until {
            // The answers wait on this thread; the next pass goes on from here.
            break;
        }
        if remote.writing.lock().is_ok_and(|w| w.contains(&claimed.id)) {
            continue;
        }
        if claimed.path(claim_dir).symlink_metadata().is_err() {
            withdraw(remote, &claimed);
        } else if remote.is_batch(claimed.id) {
            if seen.elapsed() >= reconcile || !sent {
                remote.reconcile_parts(claimed.id);
                remote.fly(&claimed, true);
            }
        } else if !sent {
            resend(remote, ctx, &claimed);
        } else if seen.elapsed() >= reconcile {
            if on_queue(remote, &claimed, pack.as_deref()) {
                if let Ok(mut flights) = remote.flights.lock()
                    && let Some(flight) = flights.get_mut(&claimed.id)
                {
                    flight.seen = Instant::now();
                }
            } else {
                tracing::info!(file = %claimed.name, claim = %claimed.id,
                    "the queue holds neither the job nor its answer (lost in a server crash?); \
                     sent again");
                resend(remote, ctx, &claimed);
            }
        }
    }
}

/// Sends the job of a claimed input again, read afresh from the claim folder.
pub(super) fn resend(remote: &Remote, ctx: &Context, claimed: &Claimed) {
    let path = claimed.path(&ctx.settings.folders.claim);
    match std::fs::read(&path) {
        Ok(bytes) => {
            let checksum = pipeline::checksum(&bytes);
            if remote.submit(ctx, claimed, &bytes, checksum).is_err() {
                tracing::warn!(file = %claimed.name, "the input no longer fits a queue message");
            }
        }
        Err(error) => tracing::debug!(file = %claimed.name, %error, "cannot read a claim again"),
    }
}

/// The input of a claim sent to the queue was removed: its job goes (off the stream, or
/// stopped on the worker running it), nothing is answered.
fn withdraw(remote: &Remote, claimed: &Claimed) {
    remote.cancel(claimed.id);
    tracing::info!(file = %claimed.name,
        "the input was removed from the claim folder while it was worked on; its job is \
         cancelled and nothing is answered");
}

/// True when the queue holds the claim's job (or the job of the pack it went in) or its
/// answer (or cannot say: nothing is sent again then).
fn on_queue(remote: &Remote, claimed: &Claimed, pack: Option<&str>) -> bool {
    remote.holds_job_or_answer(&claimed.id.to_string(), pack).unwrap_or(true)
}
