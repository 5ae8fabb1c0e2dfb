//! The answers thread of `serve --queue`: takes the workers' answers in batches, writes
//! each through the same committer as a local result, moves the input on, and only then
//! acknowledges the answer (see the parent module for why that makes it exactly once).

use super::{Remote, batches};
use crate::daemon::answered::{self, Counters};
use crate::daemon::claim::{ClaimId, Claimed};
use crate::daemon::commit::Committer;
use crate::daemon::job::Context;
use crate::queue::large::{self, LargeError};
use crate::queue::wire::{self, Answer};
use async_nats::jetstream::message::Acker;
use async_nats::jetstream::{self, AckKind};
use futures_util::{FutureExt, StreamExt};
use rayon::prelude::*;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How long a failed write waits before the answer comes again.
const WRITE_RETRY: Duration = Duration::from_secs(2);

/// The answers thread and what it needs.
pub struct Answers {
    pub(crate) remote: Arc<Remote>,
    pub(crate) ctx: Arc<Context>,
    pub(crate) committer: Committer,
    pub(crate) counters: Arc<Counters>,
    pub(crate) stop: Arc<AtomicBool>,
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
        // Objects that the last run left in the queue's bucket go at once.
        super::reconcile::sweep(&self.remote, &self.ctx);
        let period = queue.settings.reconcile / 2;
        let mut next_check = Instant::now() + period;
        // The answers held for batches in parts renew their ack wait three times in it.
        let keep_period = queue.settings.ack_wait / 3;
        let mut next_keep = Instant::now() + keep_period;
        let mut answers = None;
        loop {
            // After the stop, one more take gets the answers of the last jobs.
            let last = self.stop.load(Ordering::SeqCst);
            let batch = queue.block_on(take_some(&consumer, &mut answers));
            // The answers to whole inputs are written side by side: creating a result's files
            // is most of the daemon's work for a small input, and on one thread it held the
            // queue to a fraction of the local pace. A batch's parts keep their order.
            let (parts, wholes): (Vec<_>, Vec<_>) =
                batch.into_iter().partition(|message| is_part(&message.subject));
            wholes.into_par_iter().for_each(|message| self.take(message));
            for message in parts {
                self.take(message);
            }
            if last {
                return;
            }
            if Instant::now() >= next_check {
                super::reconcile::run(&self.remote, &self.ctx);
                next_check = Instant::now() + period;
            }
            if Instant::now() >= next_keep {
                self.remote.keep_answers();
                next_keep = Instant::now() + keep_period;
            }
        }
    }

    /// One message: an answer, or the answers of several inputs of a pack.
    fn take(&self, message: jetstream::Message) {
        let handle = self.remote.queue.handle().clone();
        let (message, acker) = message.split();
        let headers = message.headers.as_ref();
        let deflated =
            headers.and_then(|h| h.get(wire::ENCODING)).is_some_and(|v| v.as_str() == "deflate");
        if headers.and_then(|h| h.get(wire::ANSWERS)).is_some() {
            match Answer::decode_all(&message.payload, deflated) {
                Ok(answers) => {
                    let reply = Arc::new(PackReply::new(acker, handle));
                    answers.into_par_iter().for_each(|answer| {
                        self.take_whole(answer, Reply::Pack(Arc::clone(&reply)));
                    });
                }
                Err(error) => {
                    tracing::error!(%error, "answers this daemon cannot read; dropped");
                    handle.spawn(async move { acker.ack_with(AckKind::Term).await });
                }
            }
            return;
        }
        let answer = match Answer::decode_with(&message.payload, deflated) {
            Ok(answer) => answer,
            Err(error) => {
                tracing::error!(%error, "an answer this daemon cannot read; dropped");
                handle.spawn(async move { acker.ack_with(AckKind::Term).await });
                return;
            }
        };
        if let Some((id, index)) = batches::parse_part_id(&answer.claim) {
            // A part's answer too large for its message even deflated is in the bucket; it
            // is read once, and a part whose answer is lost is sent again by the batch's
            // reconcile.
            let object = answer.object.clone();
            let answer = match object.is_some().then(|| self.stored(answer.clone())) {
                None => answer,
                Some(Ok(answer)) => answer,
                Some(Err(again)) => {
                    let kind = match again {
                        Again::Later => AckKind::Nak(Some(WRITE_RETRY)),
                        Again::Resend => AckKind::Term,
                    };
                    handle.spawn(async move { acker.ack_with(kind).await });
                    return;
                }
            };
            if let Some(object) = object {
                large::delete_later(&self.remote.queue, object);
            }
            let writer = batches::Writer {
                remote: &self.remote,
                ctx: &self.ctx,
                committer: &self.committer,
                counters: &self.counters,
            };
            writer.take(id, index, answer, acker);
            return;
        }
        self.take_whole(answer, Reply::Own(Box::new(acker)));
    }

    /// The answer to a whole input: written when its claim is still held and not being
    /// written; `reply` hears how it ended.
    fn take_whole(&self, answer: Answer, reply: Reply) {
        let handle = self.remote.queue.handle().clone();
        let Some(id) = ClaimId::parse(&answer.claim) else {
            reply.send(&handle, AckKind::Term);
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
            if let Some(object) = answer.object {
                large::delete_later(&self.remote.queue, object);
            }
            reply.send(&handle, AckKind::Ack);
            return;
        }
        // An answer too large for its message is in the queue's bucket.
        let object = answer.object.clone();
        let answer = match self.stored(answer) {
            Ok(answer) => answer,
            Err(again) => {
                self.done_writing(id);
                let kind = match again {
                    Again::Later => AckKind::Nak(Some(WRITE_RETRY)),
                    Again::Resend => AckKind::Term,
                };
                reply.send(&handle, kind);
                if matches!(again, Again::Resend) {
                    super::reconcile::resend(&self.remote, &self.ctx, &claimed);
                }
                return;
            }
        };
        let reserved = match &answer.stem {
            None => None,
            Some(stem) => match self.ctx.outbox.reserve_exact(stem) {
                Ok(Some(reservation)) => Some((stem.clone(), reservation)),
                outcome => {
                    // Taken meanwhile: the job is made again for a free name.
                    tracing::info!(file = %answer.name, stem = %stem, ?outcome,
                        "the result name of a generation job was taken meanwhile; made again");
                    if let Some(object) = object {
                        large::delete_later(&self.remote.queue, object);
                    }
                    self.done_writing(id);
                    reply.send(&handle, AckKind::Ack);
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
                reply.send(&handle, AckKind::Nak(Some(WRITE_RETRY)));
                return;
            }
        };
        let done = answered::Answer::new(claimed, path, answer.rejected, answer.line);
        let (remote, ctx, counters) =
            (Arc::clone(&self.remote), Arc::clone(&self.ctx), Arc::clone(&self.counters));
        self.committer.submit(
            prepared,
            Box::new(move |written| {
                match answered::committed(&ctx, done, written) {
                    Ok(outcome) => {
                        counters.count(outcome);
                        reply.send(&handle, AckKind::Ack);
                        // Written: the answer's object and the input's go.
                        if let Some(object) = object {
                            large::delete_later(&remote.queue, object);
                        }
                        remote.landed(id);
                    }
                    Err(error) => {
                        tracing::warn!(%error, "cannot write the answer; it comes again");
                        reply.send(&handle, AckKind::Nak(Some(WRITE_RETRY)));
                    }
                }
                if let Ok(mut writing) = remote.writing.lock() {
                    writing.remove(&id);
                }
            }),
        );
    }

    /// The whole answer of a message that points at an object in the queue's bucket (other
    /// answers as they are). An object that is gone or broken, or holds another claim's
    /// answer, cannot be had again: the input is sent again. One that could not be read now
    /// is tried again later.
    fn stored(&self, answer: Answer) -> Result<Answer, Again> {
        let Some(object) = &answer.object else { return Ok(answer) };
        let queue = &self.remote.queue;
        let read = queue.block_on(large::get(queue, object));
        let whole = match read {
            Ok(bytes) => Answer::decode(&bytes).map_err(|why| LargeError::Gone {
                name: object.clone(),
                why: format!("it holds no answer this daemon can read: {why}"),
            }),
            Err(error) => Err(error),
        };
        match whole {
            Ok(whole) if whole.claim == answer.claim && whole.object.is_none() => Ok(whole),
            Ok(_) => {
                tracing::warn!(file = %answer.name, object = %object, "the answer's object \
                    holds another answer; the input is sent again");
                large::delete_later(queue, object.clone());
                Err(Again::Resend)
            }
            Err(error @ LargeError::Gone { .. }) => {
                tracing::warn!(file = %answer.name, %error, "the answer's object is gone from \
                    the queue's bucket; the input is sent again");
                large::delete_later(queue, object.clone());
                Err(Again::Resend)
            }
            Err(error) => {
                tracing::warn!(file = %answer.name, %error, "cannot read the answer's object \
                    from the queue's bucket; it comes again");
                Err(Again::Later)
            }
        }
    }

    fn done_writing(&self, id: ClaimId) {
        if let Ok(mut writing) = self.remote.writing.lock() {
            writing.remove(&id);
        }
    }
}

/// The most answer messages taken at once.
const TAKE_MOST: usize = 256;
/// How long a take waits for the first answer, so that the thread's other duties (the
/// reconciler, the batches' ack waits) come round.
const TAKE_WAIT: Duration = Duration::from_millis(500);

/// The answers that have come, up to [`TAKE_MOST`], waiting up to [`TAKE_WAIT`] for the
/// first. They come from one long-lived pull stream (`answers`, made again when it ends)
/// rather than a fetch each time: a fetch's request can expire at the server while a
/// message is on its way to it, and that message, dropped with the finished fetch's
/// subscription, came again only after the ack wait (30 s by default), late with every
/// answer in it. The stream's requests all share one subscription, so a message sent to
/// an expired one is still taken.
async fn take_some(
    consumer: &jetstream::consumer::PullConsumer,
    answers: &mut Option<jetstream::consumer::pull::Stream>,
) -> Vec<jetstream::Message> {
    if answers.is_none() {
        match consumer.stream().max_messages_per_batch(TAKE_MOST).messages().await {
            Ok(stream) => *answers = Some(stream),
            Err(error) => {
                tracing::debug!(%error, "cannot pull the answers; trying again");
                tokio::time::sleep(TAKE_WAIT).await;
                return Vec::new();
            }
        }
    }
    let Some(stream) = answers.as_mut() else { return Vec::new() };
    let mut taken = Vec::new();
    let mut next = match tokio::time::timeout(TAKE_WAIT, stream.next()).await {
        Ok(next) => next,
        Err(_) => return taken,
    };
    loop {
        match next {
            Some(Ok(message)) => taken.push(message),
            Some(Err(error)) => tracing::debug!(%error, "a pull of the answers failed"),
            None => {
                // The stream ended: the next take makes a new one.
                *answers = None;
                break;
            }
        }
        if taken.len() >= TAKE_MOST {
            break;
        }
        match stream.next().now_or_never() {
            Some(more) => next = more,
            None => break,
        }
    }
    taken
}

/// Whether an answer's `subject` (`PREFIX.answer.ID`) is that of a part of a batch.
fn is_part(subject: &str) -> bool {
    subject.rsplit('.').next().and_then(batches::parse_part_id).is_some()
}

/// Who hears how the writing of an answer ended: its own message, or the message of
/// answers it came in with others of its pack.
enum Reply {
    Own(Box<Acker>),
    Pack(Arc<PackReply>),
}

impl Reply {
    /// Acknowledges the answer's message with `kind`, or tells the pack's message.
    fn send(self, handle: &tokio::runtime::Handle, kind: AckKind) {
        match self {
            Reply::Own(acker) => {
                handle.spawn(async move { acker.ack_with(kind).await });
            }
            Reply::Pack(pack) => pack.heard(kind),
        }
    }
}

/// The message of a pack's answers, acknowledged once each of its answers is written or
/// not wanted (when the last [`Reply::Pack`] is dropped): the server delivers it again,
/// after a moment, when one of them could not be written, and the daemon then drops those
/// written already, as any second answer.
struct PackReply {
    acker: Option<Acker>,
    handle: tokio::runtime::Handle,
    again: AtomicBool,
}

impl PackReply {
    fn new(acker: Acker, handle: tokio::runtime::Handle) -> PackReply {
        PackReply { acker: Some(acker), handle, again: AtomicBool::new(false) }
    }

    /// One answer ended with `kind`; `Term` (an answer not wanted, or sent again as a
    /// job) needs nothing of the message.
    fn heard(&self, kind: AckKind) {
        if matches!(kind, AckKind::Nak(_)) {
            self.again.store(true, Ordering::SeqCst);
        }
    }
}

impl Drop for PackReply {
    fn drop(&mut self) {
        let Some(acker) = self.acker.take() else { return };
        let kind =
            if *self.again.get_mut() { AckKind::Nak(Some(WRITE_RETRY)) } else { AckKind::Ack };
        self.handle.spawn(async move { acker.ack_with(kind).await });
    }
}

/// What to do with an answer whose object could not be had.
enum Again {
    /// It comes again in a moment.
    Later,
    /// It is dropped and the input sent again.
    Resend,
}
