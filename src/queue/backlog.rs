//! The shared queue's backlog as its server counts it: jobs waiting for a worker, jobs a
//! worker holds, jobs handed out again after a worker went silent, and answers waiting for
//! the daemon. The daemon reads it at every beat into its state document and its metrics,
//! so an operator sees the queue itself, not only the nodes around it.

use super::Queue;
pub use crate::status::Backlog;
use async_nats::jetstream::consumer::{Info, pull};

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
