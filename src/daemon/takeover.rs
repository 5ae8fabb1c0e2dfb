//! The lease keeper thread: renews this node's lease every third of the lease time and, at
//! each renewal (the first one at start-up), takes over the work of every other node whose
//! lease has expired: the dead node's temporary files leave the outbox, its claimed inputs
//! move into this node's claim folder (see `cluster`) and are queued like the claims found
//! at a restart, so a result the dead node had completed only moves its input on.
//!
//! The thread does not depend on file events: on a filesystem without them (NFS) a dead
//! node's work is taken over within the lease time and one renewal period.

use super::cluster::Node;
use super::job::{Context, Job, Source};
use crossbeam_channel::{RecvTimeoutError, Sender};
use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;

/// The running keeper; [`Keeper::stop`] ends it.
#[derive(Debug)]
pub struct Keeper {
    stop: Sender<()>,
    /// Cleared at shutdown: a draining node renews its lease but takes over nothing.
    taking_over: Arc<AtomicBool>,
    thread: JoinHandle<()>,
}

impl Keeper {
    /// Starts the thread; taken-over inputs are sent on `jobs`.
    pub fn start(node: Arc<Node>, ctx: Arc<Context>, jobs: Sender<Job>) -> std::io::Result<Keeper> {
        let (stop, stopped) = crossbeam_channel::bounded::<()>(0);
        let period = node.lease / 3;
        let taking_over = Arc::new(AtomicBool::new(true));
        let taking = Arc::clone(&taking_over);
        let thread = std::thread::Builder::new().name("kakurod-lease".into()).spawn(move || {
            let mut cleaned = HashSet::new();
            loop {
                let take = taking.load(Ordering::SeqCst);
                tick(&node, &ctx, take.then_some(&jobs), &mut cleaned);
                match stopped.recv_timeout(period) {
                    Err(RecvTimeoutError::Timeout) => {}
                    Ok(()) | Err(RecvTimeoutError::Disconnected) => return,
                }
            }
        })?;
        Ok(Keeper { stop, taking_over, thread })
    }

    /// From now on the lease is only renewed (shutdown has begun).
    pub fn stop_taking_over(&self) {
        self.taking_over.store(false, Ordering::SeqCst);
    }

    /// Stops renewing (at the end of the shutdown, after the drain) and waits for the thread.
    pub fn stop(self) {
        drop(self.stop);
        let _ = self.thread.join();
    }
}

/// One renewal, and (with `jobs`) the takeover of every expired peer. `cleaned` holds the dead peers whose
/// temporary files are gone already, so that a node that stays dead costs one outbox scan,
/// not one per renewal.
fn tick(node: &Node, ctx: &Context, jobs: Option<&Sender<Job>>, cleaned: &mut HashSet<String>) {
    let now = match node.renew() {
        Ok(now) => now,
        Err(error) => {
            tracing::warn!(node = %node.id, %error, "cannot renew the lease");
            return;
        }
    };
    let Some(jobs) = jobs else { return };
    let dead = match node.expired_peers(now) {
        Ok(dead) => dead,
        Err(error) => {
            tracing::warn!(%error, "cannot read the other nodes' leases");
            return;
        }
    };
    cleaned.retain(|peer| dead.contains(peer));
    for peer in dead {
        let removed = if cleaned.contains(&peer) {
            0
        } else {
            match ctx.outbox.remove_temporaries_of(&peer) {
                Ok(removed) => {
                    cleaned.insert(peer.clone());
                    removed
                }
                Err(error) => {
                    tracing::warn!(node = %peer, %error, "cannot remove a dead node's temporary files");
                    0
                }
            }
        };
        let taken = match node.take_over(&peer) {
            Ok(taken) => taken,
            Err(error) => {
                tracing::warn!(node = %peer, %error, "cannot take over a dead node's inputs");
                Vec::new()
            }
        };
        if taken.is_empty() && removed == 0 {
            continue;
        }
        tracing::info!(node = %peer, inputs = taken.len(), temporaries = removed,
            "took over the work of a node whose lease expired");
        for name in taken {
            let _ = jobs.send(Job { name, source: Source::Requeued });
        }
    }
}
