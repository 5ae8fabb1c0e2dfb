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

use super::claim::{ClaimId, Claimed};
use super::commit::Committer;
use super::job::{self, Context, Job, Outcome};
use super::lifecycle::{self, Counters};
use crate::queue::wire::{self, Answer, JobHeader};
use crate::queue::{Queue, redacted};
use crate::report::{FileReport, Status};
use crate::result_names::stem_of;
use crate::work::generate_job;
use async_nats::jetstream::{self, AckKind};
use crossbeam_channel::Sender;
use futures_util::StreamExt;
use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long a failed write waits before the answer comes again.
const WRITE_RETRY: Duration = Duration::from_secs(2);

/// A claimed input sent (or to be sent) to the queue.
#[derive(Debug)]
pub(super) struct Flight {
    pub(super) claimed: Claimed,
    /// The queue confirmed the job.
    pub(super) sent: bool,
    /// When it was sent or last seen on the queue.
    pub(super) seen: Instant,
}

/// The daemon's view of the shared queue.
#[derive(Debug)]
pub struct Remote {
    pub(super) queue: Arc<Queue>,
    pub(super) flights: Mutex<HashMap<ClaimId, Flight>>,
    /// Claims whose answer is being written.
    pub(super) writing: Mutex<HashSet<ClaimId>>,
    /// Names waiting in the inbox for room in the queue, oldest first.
    deferred: Mutex<VecDeque<String>>,
    /// The queue could not be reached at the last try.
    outage: AtomicBool,
    /// Where deferred inputs are submitted again.
    jobs: Sender<Job>,
}

impl Remote {
    /// The daemon's side of `queue`; deferred inputs go back to `jobs`.
    pub fn new(queue: Arc<Queue>, jobs: Sender<Job>) -> Remote {
        Remote {
            queue,
            flights: Mutex::default(),
            writing: Mutex::default(),
            deferred: Mutex::default(),
            outage: AtomicBool::new(false),
            jobs,
        }
    }

    /// Inputs claimed and not answered.
    pub fn in_flight(&self) -> usize {
        self.flights.lock().map_or(0, |f| f.len())
    }

    /// Inputs held in the inbox until the queue has room for them.
    pub fn deferred(&self) -> usize {
        self.deferred.lock().map_or(0, |d| d.len())
    }

    /// Forgets that `name` waits its turn (an operator took it).
    pub fn forget_deferred(&self, name: &str) {
        if let Ok(mut deferred) = self.deferred.lock() {
            deferred.retain(|n| n != name);
        }
    }

    /// True when one more input may be claimed; otherwise `name` waits its turn.
    pub fn admit(&self, name: &str) -> bool {
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

    /// Sends a claimed input as a job. `Err` holds the answer to write at once instead:
    /// an input too large for the server's messages.
    pub fn submit(
        &self,
        ctx: &Context,
        claimed: &Claimed,
        bytes: &[u8],
        checksum: String,
    ) -> Result<(), Box<FileReport>> {
        let name = &claimed.name;
        let stem = match generate_job::recognise(&ctx.settings.pipeline, bytes) {
            Some(_) => ctx.outbox.free_stem(name),
            None => stem_of(name),
        };
        let header = JobHeader {
            schema: wire::SCHEMA,
            claim: claimed.id.to_string(),
            name: name.clone(),
            stem,
            settings: ctx.settings.job.clone(),
            max_crashes: self.queue.settings.max_crashes,
            large: is_large(bytes.len(), self.queue.settings.large_input_bytes),
        };
        let payload = wire::Job { header, input: bytes.to_vec() }.encode();
        let max = self.queue.max_payload();
        if payload.len() + 1024 > max {
            return Err(Box::new(too_large(name, checksum, bytes.len(), max)));
        }
        let sent = self.send(claimed, payload);
        if let Ok(mut flights) = self.flights.lock() {
            let flight = Flight { claimed: claimed.clone(), sent, seen: Instant::now() };
            flights.insert(claimed.id, flight);
        }
        Ok(())
    }

    /// Publishes a job and waits for the queue to confirm it. A job the queue holds already
    /// (sent before a restart) counts as sent.
    fn send(&self, claimed: &Claimed, payload: Vec<u8>) -> bool {
        let claim = claimed.id.to_string();
        let subject = self.queue.names.job(&claim);
        let mut headers = async_nats::HeaderMap::new();
        headers.insert("Nats-Msg-Id", claim.as_str());
        let js = &self.queue.js;
        let result = self.queue.block_on(async {
            js.publish_with_headers(subject, headers, payload.into()).await?.await
        });
        match result {
            Ok(_) => {}
            Err(error) if error.to_string().contains("maximum messages per subject") => {}
            Err(error) => {
                if !self.outage.swap(true, Ordering::SeqCst) {
                    tracing::warn!(%error, urls = %redacted(&self.queue.settings.urls),
                        "cannot send jobs to the queue; the inputs wait in the claim folder \
                         and are sent when it is back");
                }
                return false;
            }
        }
        if self.outage.swap(false, Ordering::SeqCst) {
            tracing::info!("the queue takes jobs again");
        }
        true
    }

    /// True when the claim `id` is on the queue (sent, not answered).
    pub(super) fn holds(&self, id: ClaimId) -> bool {
        self.flights.lock().is_ok_and(|f| f.contains_key(&id))
    }

    /// Takes the job of claim `id` back for an operator's cancel: off the jobs stream if no
    /// worker has it yet, and a word to the workers so that one running it stops and drops
    /// it (an answer that comes anyway finds no claim and is dropped).
    pub(super) fn cancel(&self, id: ClaimId) {
        let queue = &self.queue;
        let claim = id.to_string();
        queue.block_on(async {
            if let Ok(stream) = queue.js.get_stream(queue.names.jobs_stream()).await {
                let _ = stream.purge().filter(queue.names.job(&claim)).await;
            }
            if let Err(error) = queue.client.publish(queue.names.cancel(), claim.into()).await {
                tracing::warn!(%error, "cannot tell the workers to stop a cancelled job");
            }
        });
        self.landed(id);
    }

    /// An answer was written (or is not wanted): its room in the queue goes to the input
    /// that waited longest.
    pub(super) fn landed(&self, id: ClaimId) {
        if let Ok(mut flights) = self.flights.lock() {
            flights.remove(&id);
        }
        let next = self.deferred.lock().ok().and_then(|mut d| d.pop_front());
        if let Some(name) = next {
            let _ = self.jobs.send(Job { name, source: job::Source::Inbox });
        }
    }
}

/// The answers thread and what it needs.
pub struct Answers {
    pub(super) remote: Arc<Remote>,
    pub(super) ctx: Arc<Context>,
    pub(super) committer: Committer,
    pub(super) counters: Arc<Counters>,
    pub(super) stop: Arc<AtomicBool>,
}

impl Answers {
    /// Takes answers until stopped, and reconciles the claims now and then.
    pub fn run(self) {
        let queue = Arc::clone(&self.remote.queue);
        let names = &queue.names;
        let consumer = loop {
            let found = queue.block_on(
                queue.js.get_consumer_from_stream::<jetstream::consumer::pull::Config, _, _>(
                    names.daemon_consumer(),
                    names.answers_stream(),
                ),
            );
            match found {
                Ok(consumer) => break consumer,
                Err(error) => tracing::debug!(%error, "waiting for the answers' consumer"),
            }
            if self.stop.load(Ordering::SeqCst) {
                return;
            }
            std::thread::sleep(Duration::from_secs(1));
        };
        let period = queue.settings.reconcile / 2;
        let mut next_check = Instant::now() + period;
        loop {
            // After the stop, one more fetch takes the answers of the last jobs.
            let last = self.stop.load(Ordering::SeqCst);
            let batch = queue.block_on(async {
                let fetched =
                    consumer.fetch().max_messages(256).expires(Duration::from_millis(500));
                match fetched.messages().await {
                    Ok(batch) => batch.filter_map(|m| async { m.ok() }).collect::<Vec<_>>().await,
                    Err(_) => Vec::new(),
                }
            });
            for message in batch {
                self.take(message);
            }
            if last {
                return;
            }
            if Instant::now() >= next_check {
                super::reconcile::run(&self.remote, &self.ctx);
                next_check = Instant::now() + period;
            }
        }
    }

    /// One answer: written when its claim is still held and not being written.
    fn take(&self, message: jetstream::Message) {
        let handle = self.remote.queue.handle().clone();
        let (message, acker) = message.split();
        let answer = match Answer::decode(&message.payload) {
            Ok(answer) => answer,
            Err(error) => {
                tracing::error!(%error, "an answer this daemon cannot read; dropped");
                handle.spawn(async move { acker.ack_with(AckKind::Term).await });
                return;
            }
        };
        let Some(id) = ClaimId::parse(&answer.claim) else {
            handle.spawn(async move { acker.ack_with(AckKind::Term).await });
            return;
        };
        let claimed = Claimed { id, name: answer.name.clone() };
        let path = claimed.path(&self.ctx.settings.folders.claim);
        let fresh = self.remote.writing.lock().is_ok_and(|mut w| w.insert(id));
        if !fresh || path.symlink_metadata().is_err() {
            if fresh {
                self.done_writing(id);
                self.remote.landed(id);
            }
            tracing::debug!(file = %answer.name, claim = %answer.claim,
                "an answer to a claim no longer held (answered already, or withdrawn)");
            handle.spawn(async move { acker.ack().await });
            return;
        }
        let reserved = match &answer.stem {
            None => None,
            Some(stem) => match self.ctx.outbox.reserve_exact(stem) {
                Ok(Some(reservation)) => Some((stem.clone(), reservation)),
                outcome => {
                    // Taken meanwhile: the job is made again for a free name.
                    tracing::info!(file = %answer.name, stem = %stem, ?outcome,
                        "the result name of a generation job was taken meanwhile; made again");
                    self.done_writing(id);
                    handle.spawn(async move { acker.ack().await });
                    super::reconcile::resend(&self.remote, &self.ctx, &claimed);
                    return;
                }
            },
        };
        let prepared = self.ctx.outbox.prepare_rendered(&answer.name, answer.files, reserved);
        let prepared = match prepared {
            Ok(prepared) => prepared,
            Err(error) => {
                tracing::warn!(file = %answer.name, %error, "cannot write the answer; it comes again");
                self.done_writing(id);
                handle.spawn(async move { acker.ack_with(AckKind::Nak(Some(WRITE_RETRY))).await });
                return;
            }
        };
        let done = lifecycle::Answer::new(claimed, path, answer.rejected, answer.line);
        let (remote, ctx, counters) =
            (Arc::clone(&self.remote), Arc::clone(&self.ctx), Arc::clone(&self.counters));
        self.committer.submit(
            prepared,
            Box::new(move |written| {
                match lifecycle::committed(&ctx, done, written) {
                    Ok(outcome) => {
                        count(&counters, outcome);
                        handle.spawn(async move { acker.ack().await });
                        remote.landed(id);
                    }
                    Err(error) => {
                        tracing::warn!(%error, "cannot write the answer; it comes again");
                        handle.spawn(async move {
                            acker.ack_with(AckKind::Nak(Some(WRITE_RETRY))).await
                        });
                    }
                }
                if let Ok(mut writing) = remote.writing.lock() {
                    writing.remove(&id);
                }
            }),
        );
    }

    fn done_writing(&self, id: ClaimId) {
        if let Ok(mut writing) = self.remote.writing.lock() {
            writing.remove(&id);
        }
    }
}

fn count(counters: &Counters, outcome: Outcome) {
    if let Outcome::Answered { rejected } = outcome {
        counters.count_answer(rejected);
    }
}

/// The answer to an input over the server's `max_payload`.
fn too_large(name: &str, checksum: String, size: usize, max: usize) -> FileReport {
    let error = crate::format::InputError::whole_file(
        format!(
            "the file has {size} bytes, too large for a message of the NATS server \
             (max_payload {max} bytes); raise max_payload in the server's configuration"
        ),
        format!("less than {max} bytes"),
    );
    FileReport::rejected(name, checksum, None, Status::Invalid, error)
}

/// True when an input of `bytes` bytes is large under the threshold `large_input_bytes`
/// (0: none is).
fn is_large(bytes: usize, large_input_bytes: u64) -> bool {
    large_input_bytes > 0 && bytes as u64 >= large_input_bytes
}
