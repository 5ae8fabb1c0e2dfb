//! Group commit of results. Workers hand prepared result sets to one committer thread, which
//! takes everything that has accumulated as one batch: the data syncs run in parallel on a
//! small I/O pool (the filesystem merges concurrent flushes into few journal commits), the
//! sets are renamed into place, and the outbox folder is synced once for the whole batch.
//! Then each job's continuation moves its input on, and the `done/`, `failed/` and claim
//! folders are synced once. When idle, a batch is a single file and nothing waits; under
//! load, batches grow and the cost of durability per file shrinks.

use super::job::Context;
use crate::outbox::{Outbox, Prepared, Written};
use crate::util::fs::sync_dir;
use crossbeam_channel::{Receiver, Sender};
use std::io;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Threads that issue data syncs concurrently.
const SYNC_THREADS: usize = 16;
/// The most result sets committed together.
const MAX_BATCH: usize = 1024;
/// How long a batch smaller than the outbox's one-flush size waits for more sets, counted
/// from its first. Results that come one at a time (the shared queue's answers, taken as
/// they arrive) were otherwise committed one by one, each with its own data and folder
/// syncs; an isolated result waits this long once.
const LINGER: Duration = Duration::from_millis(5);

/// What happens once a set is committed (or failed to be): move the input on, log, count.
pub type Continuation = Box<dyn FnOnce(io::Result<Written>) + Send>;

struct Item {
    prepared: Prepared,
    then: Continuation,
}

/// The committer thread's mailbox.
#[derive(Clone)]
pub struct Committer {
    sender: Sender<Item>,
}

impl Committer {
    /// Starts the committer thread; it ends when the last `Committer` clone is dropped.
    pub fn start(ctx: Arc<Context>) -> io::Result<Committer> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(SYNC_THREADS)
            .thread_name(|i| format!("kakurod-sync-{i}"))
            .build()
            .map_err(io::Error::other)?;
        let (sender, receiver) = crossbeam_channel::unbounded();
        std::thread::Builder::new()
            .name("kakurod-commit".into())
            .spawn(move || run(&ctx, &receiver, &pool))?;
        Ok(Committer { sender })
    }

    /// Queues a prepared set; `then` runs on the committer thread after the commit.
    pub fn submit(&self, prepared: Prepared, then: Continuation) {
        if let Err(crossbeam_channel::SendError(item)) = self.sender.send(Item { prepared, then }) {
            item.prepared.discard();
            (item.then)(Err(io::Error::other("the committer has stopped")));
        }
    }
}

fn run(ctx: &Context, receiver: &Receiver<Item>, pool: &rayon::ThreadPool) {
    while let Ok(first) = receiver.recv() {
        let mut batch = vec![first];
        batch.extend(receiver.try_iter().take(MAX_BATCH - 1));
        let until = Instant::now() + LINGER;
        while ctx.settings.fsync
            && batch.len() < Outbox::ONE_FLUSH
            && let Ok(next) = receiver.recv_deadline(until)
        {
            batch.push(next);
            batch.extend(receiver.try_iter().take(MAX_BATCH - batch.len()));
        }
        let (prepared, continuations): (Vec<_>, Vec<_>) =
            batch.into_iter().map(|item| (item.prepared, item.then)).unzip();
        let results = ctx.outbox.commit(prepared, Some(pool));
        for (then, result) in continuations.into_iter().zip(results) {
            then(result);
        }
        if ctx.settings.fsync {
            // The inputs' moves; not needed for safety (a result is found again by its
            // checksum), but it keeps a restart after power loss from redoing work.
            let folders = &ctx.settings.folders;
            for dir in [&folders.done, &folders.failed, &folders.claim] {
                if let Err(error) = sync_dir(dir) {
                    tracing::warn!(folder = %dir.display(), %error, "cannot sync");
                }
            }
        }
    }
}
