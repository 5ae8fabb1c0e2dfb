//! Inputs and answers larger than one NATS message. The server refuses messages over its
//! `max_payload` (1 MiB by default), while the daemon takes inputs up to
//! `[intake] max_file_bytes` (16 MiB by default) and a batch's answer can be larger still.
//! What does not fit goes into JetStream's object store, in the bucket `PREFIX_large` (the
//! stream `OBJ_PREFIX_large`, made with the queue's replicas by the daemon at start), cut
//! into chunks that do fit, and the message that travels on the queue points at it:
//!
//! - a job's input: the object `CLAIM.job`, put by the daemon before it publishes the job;
//!   sending a job again (after a restart, or when the queue lost it) finds the object
//!   whole and leaves it, or puts it again;
//! - an answer: the object `CLAIM.answer.TOKEN`, put by the worker before it publishes the
//!   answer; each attempt has its own token, so a second worker's answer to the same claim
//!   never overwrites the one the daemon may be reading.
//!
//! The daemon deletes the job's object once the answer is written to the outbox (or its
//! input withdrawn), and the answer's once it has written it. Crashes between the two leave
//! objects behind; [`sweep`] (at the daemon's start and with each reconcile pass) deletes
//! every object whose claim is no longer in the claim folder. A put cut off halfway leaves
//! chunks that no object names; the bucket's [`MAX_AGE`] removes those. An object lost or
//! cut short (a server that lost its disk, the age limit) is noticed by its reader: the
//! worker ends the job and the daemon sends it again; the daemon sends the job of a lost
//! answer again.

use super::{Names, Queue};
use async_nats::jetstream::object_store::{self, ObjectMetadata, ObjectStore};
use async_nats::jetstream::stream;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE;
use futures_util::{StreamExt, TryStreamExt};
use sha2::{Digest, Sha256};
use std::collections::HashSet;
use std::time::Duration;
use tokio::io::AsyncReadExt;

/// Room kept in a message for its subject, headers and a job's or answer's header line.
const MARGIN: usize = 1024;
/// The largest chunk an object is cut into (smaller when the server's messages are).
const MAX_CHUNK: usize = 1 << 20;
/// How long anything stays in the bucket: far longer than any job waits or runs; it only
/// bounds what crashes leave behind (an object whose claim is gone is deleted long before).
pub const MAX_AGE: Duration = Duration::from_secs(7 * 86400);
/// How long reading an object may take, plus [`READ_PER_MIB`] for each MiB of it.
const READ_BASE: Duration = Duration::from_secs(30);
const READ_PER_MIB: Duration = Duration::from_secs(2);
/// How long listing the bucket may take.
const LIST_TIMEOUT: Duration = Duration::from_secs(30);

/// Why an object could not be had.
#[derive(Debug, thiserror::Error)]
pub enum LargeError {
    /// It is not there, or not whole, or its bytes do not match its digest: it must be put
    /// again.
    #[error("the object {name} is gone or broken: {why}")]
    Gone {
        /// The object.
        name: String,
        /// What is wrong.
        why: String,
    },
    /// The server did not answer in time, or could not be reached: worth another try.
    #[error("the object {name}: {why}")]
    Failed {
        /// The object.
        name: String,
        /// The server's or the client's words.
        why: String,
    },
}

/// True when a message of `len` bytes fits the server's `max_payload`.
pub fn fits(len: usize, max_payload: usize) -> bool {
    len + MARGIN <= max_payload
}

/// The object of a claim's input.
pub fn job_object(claim: &str) -> String {
    format!("{claim}.job")
}

/// A new name for an object holding an answer to `claim`.
pub fn answer_object(claim: &str) -> String {
    format!("{claim}.answer.{:016x}", rand::random::<u64>())
}

/// The claim an object belongs to.
fn claim_of(object: &str) -> &str {
    object.split('.').next().unwrap_or(object)
}

/// The bucket's stream, as the client's `create_object_store` makes it, with the queue's
/// replicas and [`MAX_AGE`]. Direct gets stay off: they may be answered by a replica that
/// has not yet stored an object just put, and a worker would take the job's input for lost.
pub fn config(names: &Names, replicas: usize) -> stream::Config {
    let bucket = names.large_bucket();
    stream::Config {
        name: stream_name(&bucket),
        description: Some("kakurod: inputs and answers larger than one message".into()),
        subjects: vec![format!("$O.{bucket}.C.>"), format!("$O.{bucket}.M.>")],
        max_age: MAX_AGE,
        storage: stream::StorageType::File,
        num_replicas: replicas,
        discard: stream::DiscardPolicy::New,
        allow_rollup: true,
        allow_direct: false,
        ..Default::default()
    }
}

fn stream_name(bucket: &str) -> String {
    format!("OBJ_{bucket}")
}

/// The bucket, and its stream for the purges the client does not offer.
async fn open(queue: &Queue, name: &str) -> Result<(ObjectStore, stream::Stream), LargeError> {
    let failed = |e: &dyn std::fmt::Display| LargeError::Failed {
        name: name.to_string(),
        why: format!("cannot open the bucket {}: {e}", queue.names.large_bucket()),
    };
    let bucket = queue.names.large_bucket();
    let store = queue.js.get_object_store(&bucket).await.map_err(|e| failed(&e))?;
    let stream = queue.js.get_stream(stream_name(&bucket)).await.map_err(|e| failed(&e))?;
    Ok((store, stream))
}

/// The chunk size for the server's `max_payload`.
fn chunk_size(max_payload: usize) -> usize {
    max_payload.saturating_sub(8 * MARGIN).clamp(MARGIN, MAX_CHUNK)
}

/// The object store's digest of `bytes`, as it writes it in an object's info.
fn digest(bytes: &[u8]) -> String {
    format!("SHA-256={}", URL_SAFE.encode(Sha256::digest(bytes)))
}

/// Puts `bytes` as the object `name`, replacing one of that name.
pub async fn put(queue: &Queue, name: &str, bytes: &[u8]) -> Result<(), LargeError> {
    let (store, _) = open(queue, name).await?;
    let meta = ObjectMetadata {
        name: name.to_string(),
        chunk_size: Some(chunk_size(queue.max_payload())),
        ..Default::default()
    };
    let mut reader = bytes;
    store.put(meta, &mut reader).await.map(|_| ()).map_err(|e| LargeError::Failed {
        name: name.to_string(),
        why: format!("cannot store it: {e}"),
    })
}

/// Makes sure the object `name` holds `bytes`: an object that holds them whole already (a
/// job sent again) is left as it is, so that a worker reading it is not disturbed;
/// anything else is put again.
pub async fn ensure(queue: &Queue, name: &str, bytes: &[u8]) -> Result<(), LargeError> {
    match whole(queue, name).await {
        Ok(info) if info.size == bytes.len() && info.digest == Some(digest(bytes)) => Ok(()),
        Ok(_) | Err(LargeError::Gone { .. }) => put(queue, name, bytes).await,
        Err(failed) => Err(failed),
    }
}

/// The info of the object `name` when it is there with all its chunks.
async fn whole(queue: &Queue, name: &str) -> Result<object_store::ObjectInfo, LargeError> {
    let (store, stream) = open(queue, name).await?;
    let gone = |why: String| LargeError::Gone { name: name.to_string(), why };
    let failed = |why: String| LargeError::Failed { name: name.to_string(), why };
    let info = match store.info(name).await {
        Ok(info) if info.deleted => return Err(gone("deleted".into())),
        Ok(info) => info,
        Err(e) if e.kind() == object_store::InfoErrorKind::NotFound => {
            return Err(gone("not in the bucket".into()));
        }
        Err(e) => return Err(failed(format!("cannot look it up: {e}"))),
    };
    if info.chunks == 0 {
        return Ok(info);
    }
    let chunks = format!("$O.{}.C.{}", queue.names.large_bucket(), info.nuid);
    let counted = match stream.info_with_subjects(&chunks).await {
        Ok(subjects) => subjects.try_fold(0, |sum, (_, n)| async move { Ok(sum + n) }).await,
        Err(e) => return Err(failed(format!("cannot count its chunks: {e}"))),
    };
    match counted {
        Ok(n) if n == info.chunks => Ok(info),
        Ok(n) => Err(gone(format!("{n} of its {} chunks are left", info.chunks))),
        Err(e) => Err(failed(format!("cannot count its chunks: {e}"))),
    }
}

/// The bytes of the object `name`, checked against its size and digest.
pub async fn get(queue: &Queue, name: &str) -> Result<Vec<u8>, LargeError> {
    let info = whole(queue, name).await?;
    let (store, _) = open(queue, name).await?;
    let gone = |why: String| LargeError::Gone { name: name.to_string(), why };
    let failed = |why: String| LargeError::Failed { name: name.to_string(), why };
    let limit = READ_BASE + READ_PER_MIB * u32::try_from(info.size >> 20).unwrap_or(u32::MAX);
    let read = async {
        let mut object =
            store.get(name).await.map_err(|e| failed(format!("cannot read it: {e}")))?;
        let mut bytes = Vec::with_capacity(info.size);
        match object.read_to_end(&mut bytes).await {
            Ok(_) => Ok(bytes),
            Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
                Err(gone(format!("its bytes do not match its digest: {e}")))
            }
            Err(e) => Err(failed(format!("cannot read it: {e}"))),
        }
    };
    let bytes = match tokio::time::timeout(limit, read).await {
        Ok(read) => read?,
        Err(_) => return Err(failed(format!("not read within {limit:?}"))),
    };
    if bytes.len() != info.size {
        return Err(gone(format!("{} bytes read of {}", bytes.len(), info.size)));
    }
    Ok(bytes)
}

/// Deletes the object `name` and its chunks (chunks first: a crash in between leaves an
/// object that the next [`sweep`] deletes, never chunks that nothing names). True when
/// there was one.
pub async fn delete(queue: &Queue, name: &str) -> Result<bool, LargeError> {
    let (store, stream) = open(queue, name).await?;
    let failed = |why: String| LargeError::Failed { name: name.to_string(), why };
    let info = match store.info(name).await {
        Ok(info) => info,
        Err(e) if e.kind() == object_store::InfoErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(failed(format!("cannot look it up: {e}"))),
    };
    let bucket = queue.names.large_bucket();
    let subjects = [
        format!("$O.{bucket}.C.{}", info.nuid),
        format!("$O.{bucket}.M.{}", URL_SAFE.encode(name)),
    ];
    for subject in subjects {
        stream
            .purge()
            .filter(&subject)
            .await
            .map_err(|e| failed(format!("cannot delete it: {e}")))?;
    }
    Ok(true)
}

/// Deletes the object `name` in the background, logging a failure (the next [`sweep`]
/// tries again).
pub fn delete_later(queue: &std::sync::Arc<Queue>, name: String) {
    let queue = std::sync::Arc::clone(queue);
    queue.handle().clone().spawn(async move {
        if let Err(error) = delete(&queue, &name).await {
            tracing::warn!(%error, "cannot delete a large input's or answer's object; \
                the next sweep tries again");
        }
    });
}

/// Deletes every object whose claim is not among `held()`, the claims in the claim folder
/// (read after the bucket is listed, so that an object put meanwhile finds its claim
/// there). Returns how many were deleted; `held` returning `None` (the folder unreadable)
/// deletes nothing.
pub async fn sweep(
    queue: &Queue,
    held: impl FnOnce() -> Option<HashSet<String>>,
) -> Result<usize, LargeError> {
    let bucket = queue.names.large_bucket();
    let failed = |why: String| LargeError::Failed { name: bucket.clone(), why };
    let (store, _) = open(queue, &bucket).await?;
    let listed = async {
        let list = store.list().await.map_err(|e| failed(format!("cannot list it: {e}")))?;
        list.map(|info| info.map(|i| i.name))
            .try_collect::<Vec<String>>()
            .await
            .map_err(|e| failed(format!("cannot list it: {e}")))
    };
    let names = match tokio::time::timeout(LIST_TIMEOUT, listed).await {
        Ok(names) => names?,
        Err(_) => return Err(failed(format!("not listed within {LIST_TIMEOUT:?}"))),
    };
    if names.is_empty() {
        return Ok(0);
    }
    let Some(held) = held() else { return Ok(0) };
    let mut deleted = 0;
    for name in names.iter().filter(|n| !held.contains(claim_of(n))) {
        if delete(queue, name).await? {
            tracing::info!(object = %name, "deleted a large input's or answer's object left \
                behind by a claim that is no longer held");
            deleted += 1;
        }
    }
    Ok(deleted)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_chunks_and_fit() {
        assert_eq!(job_object("00ab"), "00ab.job");
        let a = answer_object("00ab");
        assert!(a.starts_with("00ab.answer.") && a != answer_object("00ab"));
        assert_eq!(claim_of(&a), "00ab");
        assert_eq!(claim_of(&job_object("00ab")), "00ab");
        assert_eq!(chunk_size(1 << 20), (1 << 20) - 8192);
        assert_eq!(chunk_size(64 << 20), MAX_CHUNK);
        assert_eq!(chunk_size(100), MARGIN);
        assert!(fits(1000, 2024) && !fits(1001, 2024));
        // The client's own digest format (async-nats writes SHA-256= and URL-safe base64).
        assert_eq!(digest(b""), "SHA-256=47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU=");
    }
}
