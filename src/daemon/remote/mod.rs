//! The daemon's side of the shared queue (`serve --queue`). A claimed input is sent as a
//! job ([`Remote::submit`]) instead of being solved here; the answers thread takes the
//! workers' answers, writes each through the same committer as a local result, moves the
//! input on, and only then acknowledges the answer. Exactly once on disk, although delivery
//! is at least once: an answer is written only for an input still in the claim folder and
//! not being written already, and the move out of the claim folder comes before the ack.
//!
//! Backpressure: at most `max_in_flight` inputs are claimed and unanswered; the rest wait
//! in the inbox and are taken as answers come. Losses: a job that could not be sent (the
//! queue unreachable: said once, and once when it is back) or that the queue no longer
//! holds with no answer either (acknowledged but not yet on the server's disk when it
//! crashed) is sent again by the reconciler.
//!
//! Here: [`Remote`], what the daemon knows of its jobs on the queue; `answers`, the thread
//! that writes the answers; `reconcile`, the periodic check of the claims in flight;
//! `parts`, the start and stop of it all.

pub(crate) mod answers;
pub(crate) mod batches;
mod packer;
pub(crate) mod parts;
pub(crate) mod reconcile;

use super::claim::{ClaimId, Claimed};
use super::job::{self, Context, Job, SharedQueue};
use crate::queue::wire::{self, JobHeader};
use crate::queue::{Queue, large};
use crate::report::{FileReport, Status};
use crate::result_names::stem_of;
use crate::status::{Backlog, NodeState};
use crate::work::generate_job;
use async_nats::jetstream::stream;
use crossbeam_channel::Sender;
use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// A claimed input sent (or to be sent) to the queue.
#[derive(Debug)]
pub(super) struct Flight {
    pub(super) claimed: Claimed,
    /// The queue confirmed the job.
    pub(super) sent: bool,
    /// When it was sent or last seen on the queue.
    pub(super) seen: Instant,
    /// The pack it was sent in, if it was.
    pub(super) pack: Option<String>,
}

/// The daemon's view of the shared queue.
#[derive(Debug)]
pub struct Remote {
    pub(super) queue: Arc<Queue>,
    pub(super) flights: Arc<Mutex<HashMap<ClaimId, Flight>>>,
    /// Claims whose answer is being written.
    pub(super) writing: Mutex<HashSet<ClaimId>>,
    /// Batches sent in parts, and their results so far.
    pub(super) batches: Mutex<batches::Batches>,
    /// Claims whose input was put in the queue's bucket: its object is deleted when the
    /// claim lands (after a restart, the sweep finds those of claims answered before their
    /// job was sent again).
    objects: Mutex<HashSet<ClaimId>>,
    /// Names waiting in the inbox for room in the queue, oldest first.
    deferred: Mutex<VecDeque<String>>,
    /// What publishes jobs.
    sender: packer::Sender,
    /// What gathers small inputs into packs.
    packer: packer::Packer,
    /// Where deferred inputs are submitted again.
    jobs: Sender<Job>,
    /// The streams the reconciler has looked up, by name.
    streams: Mutex<HashMap<String, stream::Stream>>,
}

impl Remote {
    /// The daemon's side of `queue`; deferred inputs go back to `jobs`.
    pub fn new(queue: Arc<Queue>, jobs: Sender<Job>) -> Remote {
        let flights = Arc::default();
        let sender = packer::Sender {
            queue: Arc::clone(&queue),
            flights: Arc::clone(&flights),
            // The queue could not be reached at the last try.
            outage: Arc::default(),
            confirming: Arc::new(tokio::sync::Semaphore::new(MOST_CONFIRMING)),
        };
        Remote {
            queue,
            flights,
            writing: Mutex::default(),
            batches: Mutex::default(),
            objects: Mutex::default(),
            deferred: Mutex::default(),
            packer: packer::Packer::new(sender.clone()),
            sender,
            jobs,
            streams: Mutex::default(),
        }
    }

    /// Notes that `claimed` is on the queue (`sent`: confirmed).
    fn fly(&self, claimed: &Claimed, sent: bool) {
        self.fly_in(claimed, sent, None);
    }

    /// Notes that `claimed` is on the queue, in `pack` if it was packed. Done before its
    /// job is published: its answer can be written, and its flight end, before the thread
    /// that published it goes on.
    fn fly_in(&self, claimed: &Claimed, sent: bool, pack: Option<String>) {
        if let Ok(mut flights) = self.flights.lock() {
            let flight = Flight { claimed: claimed.clone(), sent, seen: Instant::now(), pack };
            flights.insert(claimed.id, flight);
        }
    }

    /// Notes that the job of claim `id` could not be sent: the reconciler sends it again.
    fn unsent(&self, id: ClaimId) {
        if let Ok(mut flights) = self.flights.lock()
            && let Some(flight) = flights.get_mut(&id)
        {
            flight.sent = false;
        }
    }

    /// Forgets the flight of claim `id`, whose job was not sent after all.
    fn ground(&self, id: ClaimId) {
        if let Ok(mut flights) = self.flights.lock() {
            flights.remove(&id);
        }
    }

    /// Publishes the job `id` (a claim id, or a part's); false when it could not be sent
    /// (see [`packer::Sender::send`]).
    fn publish(&self, id: &str, payload: Vec<u8>) -> bool {
        self.queue.block_on(self.sender.send(id, payload, packer::claims_of(id)))
    }

    /// Whether the queue holds the job `id` (a claim's, or a part's), its `pack`'s job or
    /// its answer; `None` when a stream cannot be looked up.
    ///
    /// A message its stream still holds behind its consumer's ack floor is not held: no
    /// consumer delivers it again. A server failover can leave one so (the stream missed
    /// the removal of a message its consumer acknowledged); it is taken off, so that the
    /// job sent again is not refused as a second one.
    pub(super) fn holds_job_or_answer(&self, id: &str, pack: Option<&str>) -> Option<bool> {
        let queue = &self.queue;
        let names = &queue.names;
        let jobs = (names.jobs_stream(), names.workers_consumer());
        let mut places = vec![
            (jobs.0.clone(), names.job(id), jobs.1.clone()),
            (names.answers_stream(), names.answer(id), names.daemon_consumer()),
        ];
        // A packed input's job is the pack's (or, after a crash, its own).
        places.extend(pack.map(|pack| (jobs.0, names.job(pack), jobs.1)));
        queue.block_on(async {
            for (stream, subject, consumer) in places {
                let stream = self.stream(&stream).await?;
                let Ok(message) = stream.get_last_raw_message_by_subject(&subject).await else {
                    continue;
                };
                let floor = stream.consumer_info(consumer).await.ok()?.ack_floor.stream_sequence;
                if message.sequence > floor {
                    return Some(true);
                }
                tracing::warn!(subject = %subject, sequence = message.sequence, ack_floor = floor,
                    "a message no consumer delivers again (left behind by a failover); taken off");
                // By its sequence, not a purge of the subject (see `queue::take_off`).
                stream.delete_message(message.sequence).await.ok()?;
            }
            Some(false)
        })
    }

    /// The queue's stream `name`, looked up once: the reconciler asks about every claim
    /// in flight every pass, and a lookup of its own for each question doubled the
    /// requests of a pass, which runs on the answers thread. A lookup that fails is not
    /// kept.
    async fn stream(&self, name: &str) -> Option<stream::Stream> {
        let known = self.streams.lock().ok().and_then(|s| s.get(name).cloned());
        if known.is_some() {
            return known;
        }
        let found = self.queue.js.get_stream(name).await.ok()?;
        if let Ok(mut streams) = self.streams.lock() {
            streams.insert(name.to_string(), found.clone());
        }
        Some(found)
    }

    /// An answer was written (or is not wanted): its room in the queue goes to the input
    /// that waited longest, and its input's object in the bucket, if any, is deleted.
    pub(super) fn landed(&self, id: ClaimId) {
        if let Ok(mut flights) = self.flights.lock() {
            flights.remove(&id);
        }
        if self.objects.lock().is_ok_and(|mut objects| objects.remove(&id)) {
            large::delete_later(&self.queue, large::job_object(&id.to_string()));
        }
        let next = self.deferred.lock().ok().and_then(|mut d| d.pop_front());
        if let Some(name) = next {
            let _ = self.jobs.send(Job { name, source: job::Source::Inbox });
        }
    }
}

impl SharedQueue for Remote {
    /// Inputs claimed and not answered.
    fn in_flight(&self) -> usize {
        self.flights.lock().map_or(0, |f| f.len())
    }

    /// Inputs held in the inbox until the queue has room for them.
    fn deferred(&self) -> usize {
        self.deferred.lock().map_or(0, |d| d.len())
    }

    /// Forgets that `name` waits its turn (an operator took it).
    fn forget_deferred(&self, name: &str) {
        if let Ok(mut deferred) = self.deferred.lock() {
            deferred.retain(|n| n != name);
        }
    }

    /// True when one more input may be claimed; otherwise `name` waits its turn.
    fn admit(&self, name: &str) -> bool {
        if self.in_flight() < self.queue.settings.max_in_flight {
            return true;
        }
        if let Ok(mut deferred) = self.deferred.lock()
            && !deferred.iter().any(|n| n == name)
        {
            deferred.push_back(name.to_string());
        }
        false
    }

    /// Sends a claimed input as a job; one too large for a message goes into the queue's
    /// bucket first (`large`), found there whole when it is sent again. `Err` holds the
    /// answer to write at once instead: an input over `[intake] max_file_bytes` (refused
    /// before it gets here), or a server whose messages cannot hold even a job's header.
    fn submit(
        &self,
        ctx: &Context,
        claimed: &Claimed,
        bytes: &[u8],
        checksum: String,
    ) -> Result<(), Box<FileReport>> {
        let name = &claimed.name;
        let max = self.queue.max_payload();
        if let Some(parts) =
            batches::plan(&ctx.settings.job.pipeline, bytes, &self.queue.settings, max)
        {
            self.fly(claimed, true);
            match self.submit_parts(ctx, claimed, bytes, &checksum, parts) {
                Ok(()) => return Ok(()),
                Err(error) => {
                    self.ground(claimed.id);
                    tracing::warn!(file = %name, %error,
                        "cannot write the result of a batch in parts; it goes to one worker whole")
                }
            }
        }
        let generation = generate_job::recognise(&ctx.settings.job.pipeline, bytes).is_some();
        let stem = if generation { ctx.outbox.free_stem(name) } else { stem_of(name) };
        let header = JobHeader {
            schema: wire::SCHEMA,
            claim: claimed.id.to_string(),
            name: name.clone(),
            stem,
            settings: ctx.settings.job.clone(),
            max_crashes: self.queue.settings.max_crashes,
            large: is_large(bytes.len(), self.queue.settings.large_input_bytes),
            part: None,
            object: None,
            pack: Vec::new(),
            crashed: 0,
        };
        let limit = ctx.settings.max_file_bytes;
        if bytes.len() as u64 > limit {
            let size = bytes.len();
            let message =
                format!("the file has {size} bytes, more than [intake] max_file_bytes ({limit})");
            return Err(Box::new(too_large(name, checksum, message, limit)));
        }
        if !generation && !header.large && bytes.len() <= packer::PACK_INPUT_MOST {
            let board = |pack: &str| self.fly_in(claimed, true, Some(pack.to_string()));
            self.packer.add(header, bytes, board);
            return Ok(());
        }
        let max = self.queue.max_payload();
        let mut payload = wire::Job { header: header.clone(), input: bytes.to_vec() }.encode();
        let mut stored = true;
        if !large::fits(payload.len(), max) {
            let object = large::job_object(&header.claim);
            payload =
                wire::Job { header: header.stored_at(object.clone()), input: Vec::new() }.encode();
            if !large::fits(payload.len(), max) {
                let message = format!(
                    "the job of this file has {} bytes even with the file in the queue's \
                     bucket, too large for a message of the NATS server (max_payload {max} \
                     bytes); raise max_payload in the server's configuration",
                    payload.len()
                );
                return Err(Box::new(too_large(name, checksum, message, max as u64)));
            }
            if let Ok(mut objects) = self.objects.lock() {
                objects.insert(claimed.id);
            }
            stored = match self.queue.block_on(large::ensure(&self.queue, &object, bytes)) {
                Ok(()) => true,
                Err(error) => {
                    tracing::warn!(%error, file = %name, "cannot store a large input in the \
                        queue's bucket; it waits in the claim folder and is sent again");
                    false
                }
            };
        }
        self.fly(claimed, true);
        if !(stored && self.publish(&claimed.id.to_string(), payload)) {
            self.unsent(claimed.id);
        }
        Ok(())
    }

    /// True when the claim `id` is on the queue (sent, not answered).
    fn holds(&self, id: ClaimId) -> bool {
        self.flights.lock().is_ok_and(|f| f.contains_key(&id))
    }

    /// Takes the job of claim `id` back for an operator's cancel: off the jobs stream if no
    /// worker has it yet, and a word to the workers so that one running it stops and drops
    /// it (an answer that comes anyway finds no claim and is dropped).
    fn cancel(&self, id: ClaimId) {
        if self.cancel_parts(id) {
            self.landed(id);
            return;
        }
        let queue = &self.queue;
        let claim = id.to_string();
        queue.block_on(async {
            // A packed input has no job of its own: its subject holds nothing.
            if let Ok(stream) = queue.js.get_stream(queue.names.jobs_stream()).await {
                crate::queue::take_off(&stream, &queue.names.job(&claim)).await;
            }
            if let Err(error) = queue.client.publish(queue.names.cancel(), claim.into()).await {
                tracing::warn!(%error, "cannot tell the workers to stop a cancelled job");
            }
        });
        self.landed(id);
    }

    fn presence(&self) -> (Vec<NodeState>, Option<Backlog>) {
        crate::queue::presence::read(&self.queue)
    }
}

/// The most jobs whose confirmation from the server is awaited at once.
const MOST_CONFIRMING: usize = 256;

fn warn_outage(error: &str, urls: &str) {
    tracing::warn!(%error, %urls,
        "cannot send jobs to the queue; the inputs wait in the claim folder and are sent \
         when it is back");
}

/// The answer to an input that cannot go on the queue: over `[intake] max_file_bytes`, or
/// a server whose messages cannot hold even a job's header (`message` says which; `max`
/// is the limit).
fn too_large(name: &str, checksum: String, message: String, max: u64) -> FileReport {
    let error = crate::format::InputError::whole_file(message, format!("less than {max} bytes"));
    FileReport::rejected(name, checksum, None, Status::Invalid, error)
}

/// True when an input of `bytes` bytes is large under the threshold `large_input_bytes`
/// (0: none is).
fn is_large(bytes: usize, large_input_bytes: u64) -> bool {
    large_input_bytes > 0 && bytes as u64 >= large_input_bytes
}
