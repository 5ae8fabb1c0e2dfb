//! Crash counts, by claim id: how many times a worker started a job and ended without an
//! answer or an orderly hand-back. A stream keeps the last count of each claim under its
//! own subject (`PREFIX.crash.CLAIM`); a key-value bucket would do the same, but the
//! client's bucket set-up does not read the account reply of the 2.9 servers, which the
//! queue supports.

use super::{Names, QueueError, setup};
use async_nats::jetstream::{self, stream};
use std::time::Duration;

/// How long a count is kept: far longer than any job.
const KEEP: Duration = Duration::from_secs(7 * 86400);

/// The crash counts of one queue.
#[derive(Clone, Debug)]
pub struct Crashes {
    js: jetstream::Context,
    names: Names,
    /// The counts' stream, looked up once: each job reads and writes its count, and a
    /// lookup is a round trip of its own.
    stream: stream::Stream,
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

    /// The count of `claim` (0 when none is kept).
    pub async fn get(&self, claim: &str) -> u32 {
        match self.stream.get_last_raw_message_by_subject(&self.names.crash(claim)).await {
            Ok(message) => {
                std::str::from_utf8(&message.payload).ok().and_then(|v| v.parse().ok()).unwrap_or(0)
            }
            Err(_) => 0,
        }
    }

    /// Sets the count of `claim` (0 forgets it).
    pub async fn set(&self, claim: &str, count: u32) -> Result<(), String> {
        let subject = self.names.crash(claim);
        if count == 0 {
            let purged = self.stream.purge().filter(subject).await;
            return purged.map(|_| ()).map_err(|e| e.to_string());
        }
        let sent = self.js.publish(subject, count.to_string().into()).await;
        sent.map_err(|e| e.to_string())?.await.map(|_| ()).map_err(|e| e.to_string())
    }
}
