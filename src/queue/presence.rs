//! Where each `kakurod worker` tells what it does, so that `kakurod status` can show every
//! node serving an inbox, not only the daemon. Every second a worker publishes its state
//! (the daemon's document, [`NodeState`]) under its own subject `PREFIX.status.TOKEN`; the
//! stream keeps the last message of each subject for 10 s, so a worker that dies
//! without a word is gone from the stream soon after (and from `status` once its state is
//! older than [`crate::status::STALE`]). The daemon reads them every second into
//! its own state document, which `status` reads without any network, with the queue's
//! backlog ([`backlog`]).

use super::backlog::{self, Backlog};
use super::{Names, Queue};
use crate::status::NodeState;
use async_nats::jetstream::{self, stream};
use futures_util::TryStreamExt;
use std::time::Duration;

/// How long a worker's last state is kept.
const KEEP: Duration = Duration::from_secs(10);
/// How long the daemon waits for the states at one beat.
const READ_WAIT: Duration = Duration::from_millis(800);

/// The states' stream configuration (in memory: they are worth nothing after a restart).
pub fn config(names: &Names, replicas: usize) -> stream::Config {
    stream::Config {
        name: names.status_stream(),
        subjects: vec![names.status("*")],
        max_messages_per_subject: 1,
        max_age: KEEP,
        num_replicas: replicas,
        storage: stream::StorageType::Memory,
        ..Default::default()
    }
}

/// The subject token of a node id (`HOST/PID`): letters, digits, `-` and `_` only.
fn token(node_id: &str) -> String {
    node_id.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '_' }).collect()
}

/// Publishes `state`; a failure is only logged (the next beat tries again).
pub async fn publish(js: &jetstream::Context, names: &Names, state: &NodeState) {
    let Ok(payload) = serde_json::to_vec(state) else { return };
    let subject = names.status(&token(&state.node_id));
    let sent = match js.publish(subject, payload.into()).await {
        Ok(ack) => ack.await.map(|_| ()).map_err(|e| e.to_string()),
        Err(e) => Err(e.to_string()),
    };
    if let Err(error) = sent {
        tracing::debug!(%error, "cannot publish this worker's state");
    }
}

/// Removes the state of `node_id` (a worker that stops says so at once).
pub async fn forget(js: &jetstream::Context, names: &Names, node_id: &str) {
    if let Ok(stream) = js.get_stream(names.status_stream()).await {
        let _ = stream.purge().filter(names.status(&token(node_id))).await;
    }
}

/// What the daemon reads at a beat: every worker's last state, and the queue's backlog.
/// Both are empty when the server does not answer in time.
pub fn read(queue: &Queue) -> (Vec<NodeState>, Option<Backlog>) {
    let both = async { tokio::join!(states(queue), backlog::read(queue)) };
    let bounded = async { tokio::time::timeout(READ_WAIT, both).await.ok() };
    let (states, backlog) = queue.block_on(bounded).unwrap_or_default();
    let mut states = states.unwrap_or_default();
    states.sort_by(|a, b| a.node_id.cmp(&b.node_id));
    (states, backlog)
}

/// Every worker's last state.
async fn states(queue: &Queue) -> Option<Vec<NodeState>> {
    let stream = queue.js.get_stream(queue.names.status_stream()).await.ok()?;
    let subjects = stream.info_with_subjects(queue.names.status("*")).await.ok()?;
    let subjects: Vec<(String, usize)> = subjects.try_collect().await.ok()?;
    let mut states = Vec::new();
    for (subject, _) in subjects {
        if let Ok(message) = stream.get_last_raw_message_by_subject(&subject).await
            && let Ok(state) = serde_json::from_slice::<NodeState>(&message.payload)
        {
            states.push(state);
        }
    }
    Some(states)
}
