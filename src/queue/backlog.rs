//! The shared queue's backlog as its server counts it: jobs waiting for a worker, jobs a
//! worker holds, jobs handed out again after a worker went silent, and answers waiting for
//! the daemon. The daemon reads it at every beat into its state document and its metrics,
//! so an operator sees the queue itself, not only the nodes around it.

use super::Queue;
use async_nats::jetstream::consumer::{Info, pull};
use serde::{Deserialize, Serialize};

/// The counts of the queue's two consumers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Backlog {
    /// Jobs no worker has taken yet.
    pub pending: u64,
    /// Jobs taken by a worker and not acknowledged yet (running, or held by a worker that
    /// died and waiting out the ack wait).
    pub running: u64,
    /// Of the jobs taken, those delivered more than once (a worker died or went silent, or
    /// handed a large job back while its large slots were busy).
    pub redelivered: u64,
    /// Answers the workers published that the daemon has not written yet.
    pub answers_waiting: u64,
}

/// The backlog now; `None` when the server does not answer.
pub async fn read(queue: &Queue) -> Option<Backlog> {
    let names = &queue.names;
    // Looking a consumer up asks the server for its info: that answer is the count.
    let info = |consumer: String, stream: String| async move {
        let consumer =
            queue.js.get_consumer_from_stream::<pull::Config, _, _>(consumer, stream).await.ok()?;
        Some(consumer.cached_info().clone())
    };
    let jobs: Info = info(names.workers_consumer(), names.jobs_stream()).await?;
    let answers: Info = info(names.daemon_consumer(), names.answers_stream()).await?;
    Some(Backlog {
        pending: jobs.num_pending,
        running: jobs.num_ack_pending as u64,
        redelivered: jobs.num_redelivered as u64,
        answers_waiting: answers.num_pending + answers.num_ack_pending as u64,
    })
}
