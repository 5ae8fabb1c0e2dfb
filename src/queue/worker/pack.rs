//! A pack of small inputs on a worker slot (see `daemon::remote::packer`): its inputs are
//! solved one after the other, and their answers go back together in one message (each
//! still the answer of its own claim, written alone by the daemon), so that a pack costs
//! the queue one answer message and one acknowledgement, not one of each per input. The
//! pack is acknowledged once the answers are confirmed. Cancelled and withdrawn inputs are
//! so one by one; a pack handed back (the worker stopping, answers the server refused for
//! longer than the worker's patience) comes again whole, and its inputs answered already
//! are answered again and dropped by the daemon. A pack that holds its slot longer than
//! [`PATIENCE`] sends the inputs it has not started on as jobs of their own, so that a slow
//! one never keeps the others from free slots, and sends the answers it has at once.
//!
//! A pack delivered again after a crash is not solved: its inputs go on as jobs of their
//! own, each with its own crash count (from the pack's), so that an input that kills
//! workers is the only one answered as failed after `max_crashes`, and the others are
//! answered as usual.

use super::task::{Task, keep_alive};
use super::{Held, patience};
use crate::queue::wire::{self, Answer, Job};
use crate::queue::{Queue, large};
use async_nats::jetstream::{self, AckKind};
use std::sync::Arc;
use std::time::Duration;

/// How long a pack may hold its slot before the inputs it has not started go on as jobs
/// of their own: a small input is not always a quick one, and the others must not wait
/// behind it while slots are free.
const PATIENCE: Duration = Duration::from_millis(50);

/// The answers of a pack's inputs solved on this delivery and not yet sent, and what
/// names the messages they go in.
struct Answers {
    /// The pack's id.
    pack: String,
    /// Which delivery of the pack this is.
    delivered: i64,
    /// How many messages of answers this delivery sent.
    flushes: u32,
    /// Solved, not yet sent.
    solved: Vec<Answer>,
}

impl Answers {
    fn new(message: &jetstream::Message, pack: &str) -> Answers {
        let pack = pack.to_string();
        let delivered = message.info().map_or(0, |info| info.delivered);
        Answers { pack, delivered, flushes: 0, solved: Vec::new() }
    }
}

impl Task {
    /// Handles the pack `job`, delivered by `message`, to its acknowledgement.
    pub(super) async fn handle_pack(self, message: jetstream::Message, job: Job, mut held: Held) {
        let claim = job.header.claim.clone();
        let count = self.crashes.count(&message, &claim).await;
        let jobs = match job.unpacked(count.crashes) {
            Ok(jobs) => jobs,
            Err(error) => {
                tracing::error!(%error, claim = %claim, "a pack this worker cannot read; dropped");
                let _ = message.ack_with(AckKind::Term).await;
                return;
            }
        };
        let message = Arc::new(message);
        let progress = tokio::spawn(keep_alive(Arc::clone(&message), self.ack_wait / 3));
        if count.crashes > 0 {
            held.release();
            let stopping = &self.shared.stopping;
            let attempt = || self.unpack(&jobs);
            let what = "a pack's inputs as jobs of their own";
            let unpacked =
                patience::patiently(what, &claim, self.ack_wait, stopping, attempt).await;
            progress.abort();
            match unpacked {
                Ok(()) => {
                    tracing::info!(claim = %claim, inputs = jobs.len(), crashes = count.crashes,
                        "a worker died on this pack; its inputs go on as jobs of their own");
                    self.crashes.answered(&claim, count).await;
                    let _ = message.ack().await;
                }
                Err(error) => {
                    tracing::warn!(%error, claim = %claim,
                        "cannot send the inputs of a pack as jobs of their own; it comes again");
                    self.hand_back_after(&message, &claim, count, Some(patience::RETRY)).await;
                }
            }
            return;
        }
        let patience = tokio::time::sleep(PATIENCE);
        tokio::pin!(patience);
        let mut rest_sent = false;
        let mut answers = Answers::new(&message, &claim);
        let mut jobs = jobs.into_iter();
        while let Some(job) = jobs.next() {
            let solve = self.solve(job);
            tokio::pin!(solve);
            let solved = loop {
                tokio::select! {
                    solved = &mut solve => break solved,
                    () = &mut patience, if !rest_sent => {
                        // The pack outlived its patience: the inputs not started go on as
                        // jobs of their own, for the other slots and workers, and the
                        // answers solved so far go back without waiting for the slow one.
                        rest_sent = true;
                        let rest: Vec<Job> = jobs.by_ref().collect();
                        tracing::debug!(claim = %claim, inputs = rest.len(),
                            "a pack outlived its patience; the inputs not started go on alone");
                        if let Err(error) = self.unpack(&rest).await {
                            tracing::warn!(%error, claim = %claim,
                                "cannot send the rest of a slow pack on; it stays in the pack");
                            jobs = rest.into_iter();
                            // Not tried again: they are solved here, one after the other.
                        }
                        if let Err(error) = self.send(&mut answers).await {
                            tracing::warn!(%error, claim = %claim,
                                "cannot publish the answers; the pack is handed back");
                            progress.abort();
                            held.release();
                            self.hand_back_after(&message, &claim, count, Some(patience::RETRY))
                                .await;
                            return;
                        }
                    }
                }
            };
            let Some(solved) = solved else {
                // The pool is gone: the worker is stopping. What is answered goes back.
                progress.abort();
                held.release();
                let _ = self.send(&mut answers).await;
                self.hand_back(&message, &claim, count).await;
                return;
            };
            if solved.cancelled && solved.withdrawn {
                tracing::info!(file = %solved.answer.name,
                    "the daemon cancelled an input of a pack; dropped");
                continue;
            }
            if solved.cancelled {
                progress.abort();
                held.release();
                let _ = self.send(&mut answers).await;
                self.hand_back(&message, &claim, count).await;
                return;
            }
            answers.solved.push(solved.answer);
        }
        held.release();
        let sent = self.send(&mut answers).await;
        progress.abort();
        if let Err(error) = sent {
            tracing::warn!(%error, claim = %claim,
                "cannot publish the answers; the pack is handed back");
            self.hand_back_after(&message, &claim, count, Some(patience::RETRY)).await;
            return;
        }
        let (_, acked) = tokio::join!(self.crashes.answered(&claim, count), message.ack());
        if let Err(error) = acked {
            tracing::debug!(%error, claim = %claim, "the pack's ack was not sent");
        }
    }

    /// Publishes the answers solved and not yet sent, and waits for the server to confirm
    /// them: several in one message (on a subject of their own, [`wire::pack_answers_id`]),
    /// so that a pack of small inputs costs the queue one answer message, not one per
    /// input; one alone, or answers too large together for a message, each on its own
    /// claim's subject, as a job of its own is answered. Tried again while the server
    /// refuses them (see `patience`).
    async fn send(&self, answers: &mut Answers) -> Result<(), String> {
        let queue = &self.shared.queue;
        let encoded = (answers.solved.len() > 1).then(|| Answer::encode_all(&answers.solved));
        match encoded {
            Some((payload, deflated)) if large::fits(payload.len(), queue.max_payload()) => {
                let id = wire::pack_answers_id(&answers.pack, answers.delivered, answers.flushes);
                let mut headers = async_nats::HeaderMap::new();
                headers.insert(wire::ANSWERS, answers.solved.len().to_string().as_str());
                if deflated {
                    headers.insert(wire::ENCODING, "deflate");
                }
                let stopping = &self.shared.stopping;
                let attempt = || self.publish_raw(&id, headers.clone(), payload.clone());
                patience::patiently("the answers", &id, self.ack_wait, stopping, attempt).await?;
                answers.flushes += 1;
                tracing::debug!(pack = %answers.pack, answers = answers.solved.len(),
                    "answers sent in one message");
            }
            _ => {
                for answer in &answers.solved {
                    self.publish_patiently(answer).await?;
                }
            }
        }
        for answer in answers.solved.drain(..) {
            answer.line.log_sent(&answer.name);
            if let Ok(mut answered) = self.shared.answered.lock() {
                *answered.entry(answer.line.result.clone()).or_default() += 1;
            }
        }
        Ok(())
    }

    /// Sends each of `jobs` as a job of its own, as the daemon would have sent it alone,
    /// and waits for the server to confirm them all. One the queue holds already (sent
    /// before) counts as sent.
    async fn unpack(&self, jobs: &[Job]) -> Result<(), String> {
        let queue = &self.shared.queue;
        let mut confirmations = Vec::with_capacity(jobs.len());
        for job in jobs {
            let sent = queue.publish_job(&job.header.claim, job.encode()).await;
            confirmations.push(sent.map_err(|e| e.to_string())?);
        }
        for confirmation in confirmations {
            match confirmation.await {
                Ok(_) => {}
                Err(error) if Queue::held_already(&error) => {}
                Err(error) => return Err(error.to_string()),
            }
        }
        Ok(())
    }
}
