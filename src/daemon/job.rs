//! What a job is: one input file to handle ([`Job`], where it is), what every job needs
//! ([`Context`]), and how its life ended ([`Outcome`], or a [`Failure`] on I/O). The life
//! itself, step by step, is `lifecycle`. The shared queue is seen from here as a
//! [`SharedQueue`] only: its side of the daemon (`remote`) writes answers through the
//! lifecycle, so the lifecycle must not know it by name.

use super::beat::Beat;
use super::claim::{ClaimId, Claimed};
use super::error::JobError;
use super::metrics::Metrics;
use super::running::Running;
use crate::outbox::Outbox;
use crate::report::FileReport;
use crate::settings::Settings;
use crate::status::{Backlog, NodeState};
use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, AtomicUsize};
use std::sync::{Arc, Mutex};

/// Where a job's input is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Source {
    /// In the inbox; the job claims it first.
    Inbox,
    /// Already in the claim folder under this id (left there by an earlier run, or waiting
    /// for its result to be written).
    Claimed(ClaimId),
}

/// One input file to handle.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Job {
    /// The file's name (no folder).
    pub name: String,
    /// Where it is.
    pub source: Source,
}

impl Job {
    /// The job of an input in the claim folder.
    pub fn claimed(claimed: Claimed) -> Job {
        Job { name: claimed.name, source: Source::Claimed(claimed.id) }
    }
}

/// What became of a job.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A result was written (`rejected`: an error result, input moved to `failed/`).
    Answered {
        /// True for an error result.
        rejected: bool,
    },
    /// An earlier run had written the result already; only the input was moved on.
    AlreadyAnswered,
    /// The file was gone before it was claimed (taken or removed by someone else).
    Gone,
    /// The claimed input was removed while it was worked on: nothing is answered.
    Withdrawn,
    /// Shutdown cancelled the search; the input stays claimed for the next start.
    LeftClaimed,
    /// Sent to the shared queue; its answer is written when it comes.
    Published,
    /// The shared queue holds `max_in_flight` inputs: this one waits in the inbox.
    Deferred,
}

/// What every job needs.
#[derive(Debug)]
pub struct Context {
    /// The settings.
    pub settings: Settings,
    /// The outbox writer.
    pub outbox: Outbox,
    /// Set at the end of the drain: running searches stop and write nothing.
    pub cancel: AtomicBool,
    /// The jobs running now, each with its own stop flag and live search counters.
    pub running: Running,
    /// The shared queue, when jobs go to workers on other hosts.
    pub remote: Option<Arc<dyn SharedQueue>>,
    /// Jobs handed to the worker pool and not started yet: while some wait, a hard
    /// puzzle's search gives back the idle workers it borrowed.
    pub waiting: Arc<AtomicUsize>,
    /// The inputs of those jobs, by name, as the status counts them: an input an operator
    /// cancelled while queued leaves at once, though its job waits in the pool until a
    /// worker finds it gone.
    pub queued: Mutex<HashSet<String>>,
    /// Inputs whose result waits for the outbox to be writable (the retrier's backlog).
    pub retry_waiting: AtomicUsize,
    /// The Prometheus metrics.
    pub metrics: Metrics,
    /// Ticked by the intake thread as it goes round its loop.
    pub intake_beat: Arc<Beat>,
    /// Ticked whenever the daemon's state is published.
    pub published: Beat,
    /// Where the inputs an operator cancelled while queued go, to be answered at once.
    pub cancelled_lane: crossbeam_channel::Sender<Job>,
}

/// The shared queue as the lifecycle, the cancel requests and the status see it: where a
/// claimed input is sent instead of being solved here.
pub trait SharedQueue: std::fmt::Debug + Send + Sync {
    /// True when one more input may be claimed; otherwise `name` waits its turn.
    fn admit(&self, name: &str) -> bool;

    /// Sends a claimed input as a job. `Err` holds the answer to write at once instead.
    fn submit(
        &self,
        ctx: &Context,
        claimed: &Claimed,
        bytes: &[u8],
        checksum: String,
    ) -> Result<(), Box<FileReport>>;

    /// True when the claim `id` is on the queue (sent, not answered).
    fn holds(&self, id: ClaimId) -> bool;

    /// Takes the job of claim `id` back for an operator's cancel.
    fn cancel(&self, id: ClaimId);

    /// Forgets that `name` waits its turn (an operator took it).
    fn forget_deferred(&self, name: &str);

    /// Inputs held in the inbox until the queue has room for them.
    fn deferred(&self) -> usize;

    /// Inputs claimed and not answered.
    fn in_flight(&self) -> usize;

    /// Every worker's last state and the queue's backlog, as the status shows them (both
    /// empty when the server does not answer in time).
    fn presence(&self) -> (Vec<NodeState>, Option<Backlog>);
}

/// A job that failed on I/O, with its claim when it got that far.
#[derive(Debug)]
pub struct Failure {
    /// What failed.
    pub error: JobError,
    /// The claimed input (`None`: it could not be claimed and stays in the inbox).
    pub claimed: Option<Claimed>,
}
