//! Start and stop of `serve --queue`: the connection and the queue's streams, the daemon's
//! own worker slots on the queue, and the answers thread (see `remote`).

use super::Remote;
use super::answers::Answers;
use crate::daemon::dispatch::Dispatcher;
use crate::daemon::error::DaemonError;
use crate::daemon::job::Context;
use crate::queue::worker::Worker;
use crate::queue::{Queue, redacted};
use crate::settings::QueueSettings;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

/// The parts that run while the daemon serves a shared queue.
pub struct QueueParts {
    worker: Worker,
    stop_answers: Arc<AtomicBool>,
    answers: JoinHandle<()>,
}

/// Connects and creates (or checks) the queue's streams, consumers and bucket.
pub fn connect(settings: &QueueSettings) -> Result<Arc<Queue>, DaemonError> {
    let queue = Queue::connect(settings, "serve")?;
    queue.set_up()?;
    tracing::info!(urls = %redacted(&settings.urls), server = %queue.client.server_info().version,
        prefix = %settings.prefix, max_in_flight = settings.max_in_flight,
        ack_wait_s = settings.ack_wait.as_secs_f64(), "jobs go through NATS JetStream");
    Ok(Arc::new(queue))
}

/// Starts the daemon's worker slots and the answers thread.
pub fn start(
    ctx: &Arc<Context>,
    dispatcher: &Dispatcher,
    remote: Arc<Remote>,
) -> Result<QueueParts, DaemonError> {
    let io = |about| move |source| DaemonError::Io { about, source };
    let worker = Worker::start(Arc::clone(&remote.queue), ctx.settings.workers)
        .map_err(io("cannot start the queue's workers"))?;
    let stop_answers = Arc::new(AtomicBool::new(false));
    let answers = Answers {
        remote,
        ctx: Arc::clone(ctx),
        committer: dispatcher.committer(),
        counters: Arc::clone(dispatcher.counters()),
        stop: Arc::clone(&stop_answers),
    };
    let answers = std::thread::Builder::new()
        .name("kakurod-answers".into())
        .spawn(move || answers.run())
        .map_err(io("cannot start the answers thread"))?;
    Ok(QueueParts { worker, stop_answers, answers })
}

impl QueueParts {
    /// Lets this host's jobs finish within `drain` (or hands them back), takes the answers
    /// already there, and stops. True when every job finished in time.
    pub fn stop(self, drain: Duration) -> bool {
        let drained = self.worker.stop(drain);
        self.stop_answers.store(true, Ordering::SeqCst);
        let _ = self.answers.join();
        drained
    }
}
