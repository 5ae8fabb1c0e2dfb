//! The queue's streams and durable consumers, made or brought to the configured settings
//! when the daemon starts. A cluster that has just lost or regained a server answers
//! stream and consumer requests only once it has elected their leaders again; a request
//! that times out or is told "temporarily unavailable" meanwhile is tried again for a
//! while rather than stopping the daemon.

use super::{Queue, QueueError, crashes, large, presence, setup};
use crate::settings::QueueSettings;
use async_nats::jetstream::{self, consumer, context, stream};
use std::time::{Duration, Instant};

/// How long the start waits for a cluster whose requests time out, from its last progress.
pub const PATIENCE: Duration = Duration::from_secs(60);

/// A step that failed, and whether it only timed out or found the cluster without a
/// leader for the moment (worth another try).
struct Failed {
    error: QueueError,
    timed_out: bool,
}

/// The cluster's "temporarily unavailable" (no leader for the moment) or "no suitable
/// peers" (servers still joining: the 2.9 servers say this while a restarted one is
/// catching up).
fn unavailable(error: &jetstream::Error) -> bool {
    let code = error.error_code();
    code == jetstream::ErrorCode::CLUSTER_NOT_AVAILABLE
        || code == jetstream::ErrorCode::CLUSTER_NO_PEERS
}

/// See [`Queue::set_up`].
pub fn set_up(queue: &Queue) -> Result<(), QueueError> {
    let mut deadline = Instant::now() + PATIENCE;
    let mut warned = false;
    let mut last = String::new();
    loop {
        match queue.block_on(try_set_up(queue)) {
            Ok(()) => return Ok(()),
            Err(failed) if failed.timed_out && Instant::now() < deadline => {
                // Another step failing means the ones before it now pass: a cluster that
                // elects its leaders stream by stream (slowly, under load) is given its
                // time again for each, rather than PATIENCE for all counted from the start.
                let error = failed.error.to_string();
                if error != last {
                    deadline = Instant::now() + PATIENCE;
                    last = error;
                }
                if !warned {
                    tracing::warn!(error = %failed.error, "the queue's servers do not answer in \
                        time or have no leader yet; trying again");
                    warned = true;
                }
                std::thread::sleep(Duration::from_millis(500));
            }
            Err(failed) => return Err(failed.error),
        }
    }
}

async fn try_set_up(queue: &Queue) -> Result<(), Failed> {
    let s = &queue.settings;
    let n = &queue.names;
    let jobs = stream_config(n.jobs_stream(), n.job("*"), s);
    let answers = stream_config(n.answers_stream(), n.answer("*"), s);
    let crashes = crashes::Crashes::config(n, s.replicas);
    let states = presence::config(n, s.replicas);
    let large = large::config(n, s.replicas);
    for config in [jobs, answers, crashes, states, large] {
        ensure_stream(&queue.js, config).await?;
    }
    let workers = consumer_config(n.workers_consumer(), s);
    let daemon = consumer_config(n.daemon_consumer(), s);
    ensure_consumer(&queue.js, &n.jobs_stream(), workers).await?;
    ensure_consumer(&queue.js, &n.answers_stream(), daemon).await
}

fn stream_config(name: String, subject: String, s: &QueueSettings) -> stream::Config {
    stream::Config {
        name,
        subjects: vec![subject],
        retention: stream::RetentionPolicy::WorkQueue,
        max_messages_per_subject: 1,
        discard: stream::DiscardPolicy::New,
        discard_new_per_subject: true,
        duplicate_window: s.duplicate_window,
        num_replicas: s.replicas,
        storage: stream::StorageType::File,
        ..Default::default()
    }
}

fn consumer_config(name: String, s: &QueueSettings) -> consumer::pull::Config {
    consumer::pull::Config {
        durable_name: Some(name),
        ack_policy: consumer::AckPolicy::Explicit,
        ack_wait: s.ack_wait,
        // Crashes are counted by the workers; deliveries are not limited.
        max_deliver: -1,
        max_ack_pending: 100_000,
        ..Default::default()
    }
}

async fn ensure_stream(js: &jetstream::Context, config: stream::Config) -> Result<(), Failed> {
    let name = config.name.clone();
    let made = match js.get_stream(&name).await {
        Ok(_) => js.update_stream(config).await.map(|_| ()),
        Err(_) => js.create_stream(config).await.map(|_| ()),
    };
    made.map_err(|e| Failed {
        timed_out: match e.kind() {
            context::CreateStreamErrorKind::TimedOut => true,
            context::CreateStreamErrorKind::JetStream(e) => unavailable(&e),
            _ => false,
        },
        error: setup(&format!("stream {name}"), e),
    })
}

async fn ensure_consumer(
    js: &jetstream::Context,
    stream: &str,
    config: consumer::pull::Config,
) -> Result<(), Failed> {
    let name = config.durable_name.clone().unwrap_or_default();
    let stream = js
        .get_stream(stream)
        .await
        .map_err(|e| Failed { timed_out: false, error: setup(&format!("stream {stream}"), e) })?;
    stream
        .get_or_create_consumer::<consumer::pull::Config>(&name, config)
        .await
        .map(|_| ())
        .map_err(|e| Failed {
            timed_out: match e.kind() {
                stream::ConsumerErrorKind::TimedOut => true,
                stream::ConsumerErrorKind::JetStream(e) => unavailable(&e),
                _ => false,
            },
            error: setup(&format!("consumer {name}"), e),
        })
}
