//! Crash counts, by claim id: how many times a worker started a job and ended without an
//! answer or an orderly hand-back. The server counts every delivery of a job; what it
//! cannot tell from a crash is a delivery that ended in a hand-back (a worker stopping, an
//! input not readable yet, an answer the server refused, a large job bounced to a free
//! slot), so the workers note those, and only those: the crashes before a delivery are the
//! deliveries before it less its job's hand-backs. A job delivered for the first time,
//! nearly every job, costs nothing here, neither a round trip nor a write (the server
//! rewrote and deleted a file of the counts' stream for about every second input when
//! each start was noted and each answer cleared it).
//!
//! A stream keeps the hand-backs of each claim's job under its own subject
//! (`PREFIX.crash.CLAIM`), with the job message's stream sequence, so that a job the
//! daemon sent again (a new message) starts afresh; a key-value bucket would do the same,
//! but the client's bucket set-up does not read the account reply of the 2.9 servers,
//! which the queue supports.

use super::{Names, QueueError, setup};
use async_nats::jetstream::{self, Message, stream};
use std::time::Duration;

/// How long a count is kept: far longer than any job.
const KEEP: Duration = Duration::from_secs(7 * 86400);

/// The hand-backs of one queue's jobs.
#[derive(Clone, Debug)]
pub struct Crashes {
    js: jetstream::Context,
    names: Names,
    /// The counts' stream, looked up once: a lookup is a round trip of its own.
    stream: stream::Stream,
}

/// What a delivery of a job knows of the job's earlier deliveries.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Count {
    /// Earlier deliveries that ended in no answer and no hand-back.
    pub crashes: u32,
    /// Earlier deliveries handed back.
    pub hand_backs: u32,
    /// The job message's stream sequence.
    sequence: u64,
}

impl Crashes {
    /// The counts' stream configuration.
    pub fn config(names: &Names, replicas: usize) -> stream::Config {
        stream::Config {
            name: names.crashes_stream(),
            subjects: vec![names.crash("*")],
            max_messages_per_subject: 1,
            max_age: KEEP,
            num_replicas: replicas,
            storage: stream::StorageType::File,
            ..Default::default()
        }
    }

    /// The counts, once the daemon has made their stream.
    pub async fn open(js: &jetstream::Context, names: &Names) -> Result<Crashes, QueueError> {
        let stream =
            js.get_stream(names.crashes_stream()).await.map_err(|e| setup("crash counts", e))?;
        Ok(Crashes { js: js.clone(), names: names.clone(), stream })
    }

    /// The count of the job `message` delivers, for claim `claim`: no round trip on a
    /// first delivery.
    pub async fn count(&self, message: &Message, claim: &str) -> Count {
        let Ok(info) = message.info() else { return Count::default() };
        let sequence = info.stream_sequence;
        let before = u32::try_from(info.delivered.max(1) - 1).unwrap_or(u32::MAX);
        if before == 0 {
            return Count { crashes: 0, hand_backs: 0, sequence };
        }
        let hand_backs = self.hand_backs(claim, sequence).await;
        Count { crashes: before.saturating_sub(hand_backs), hand_backs, sequence }
    }

    /// The hand-backs noted for the job at `sequence` of `claim` (0 when none are, or when
    /// they were noted for an earlier copy of the job).
    async fn hand_backs(&self, claim: &str, sequence: u64) -> u32 {
        let Ok(message) =
            self.stream.get_last_raw_message_by_subject(&self.names.crash(claim)).await
        else {
            return 0;
        };
        let text = std::str::from_utf8(&message.payload).unwrap_or_default();
        match text.split_once(' ') {
            Some((noted, count)) if noted.parse() == Ok(sequence) => count.parse().unwrap_or(0),
            _ => 0,
        }
    }

    /// Notes one more hand-back of the job `count` was read for.
    pub async fn handed_back(&self, claim: &str, count: Count) -> Result<(), String> {
        let text = format!("{} {}", count.sequence, count.hand_backs + 1);
        let sent = self.js.publish(self.names.crash(claim), text.into()).await;
        sent.map_err(|e| e.to_string())?.await.map(|_| ()).map_err(|e| e.to_string())
    }

    /// Forgets the hand-backs of `claim`, once its job is answered, if any were noted.
    pub async fn answered(&self, claim: &str, count: Count) {
        if count.hand_backs > 0 {
            let _ = self.stream.purge().filter(self.names.crash(claim)).await;
        }
    }
}
