//! A pack of small inputs on a worker slot (see `daemon::remote::packer`): each input is
//! solved and its answer published on its own claim's subject, as soon as it is solved, and
//! the pack is acknowledged once every answer is confirmed. Cancelled, withdrawn and
//! answered inputs are so one by one; a pack handed back (the worker stopping, an answer
//! the server refused for longer than the worker's patience) comes again whole, and its inputs answered already are answered
//! again and dropped by the daemon. A pack that holds its slot longer than [`PATIENCE`]
//! sends the inputs it has not started on as jobs of their own, so that a slow one never
//! keeps the others from free slots.
//!
//! A pack delivered again after a crash is not solved: its inputs go on as jobs of their
//! own, each with its own crash count (from the pack's), so that an input that kills
//! workers is the only one answered as failed after `max_crashes`, and the others are
//! answered as usual.

use super::task::{Task, keep_alive};
use super::{Held, patience};
use crate::queue::Queue;
use crate::queue::wire::Job;
use async_nats::jetstream::{self, AckKind};
use std::sync::Arc;
use std::time::Duration;

/// How long a pack may hold its slot before the inputs it has not started go on as jobs
/// of their own: a small input is not always a quick one, and the others must not wait
/// behind it while slots are free.
const PATIENCE: Duration = Duration::from_millis(50);

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
        let mut jobs = jobs.into_iter();
        while let Some(job) = jobs.next() {
            let solve = self.solve(job);
            tokio::pin!(solve);
            let solved = loop {
                tokio::select! {
                    solved = &mut solve => break solved,
                    () = &mut patience, if !rest_sent => {
                        // The pack outlived its patience: the inputs not started go on as
                        // jobs of their own, for the other slots and workers.
                        rest_sent = true;
                        let rest: Vec<Job> = jobs.by_ref().collect();
                        if let Err(error) = self.unpack(&rest).await {
                            tracing::warn!(%error, claim = %claim,
                                "cannot send the rest of a slow pack on; it stays in the pack");
                            jobs = rest.into_iter();
                            // Not tried again: they are solved here, one after the other.
                        }
                    }
                }
            };
            let Some(solved) = solved else {
                // The pool is gone: the worker is stopping.
                progress.abort();
                held.release();
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
                self.hand_back(&message, &claim, count).await;
                return;
            }
            if let Err(error) = self.publish_patiently(&solved.answer).await {
                tracing::warn!(%error, file = %solved.answer.name,
                    "cannot publish the answer; the pack is handed back");
                progress.abort();
                held.release();
                self.hand_back_after(&message, &claim, count, Some(patience::RETRY)).await;
                return;
            }
            solved.answer.line.log_sent(&solved.answer.name);
            if let Ok(mut answered) = self.shared.answered.lock() {
                *answered.entry(solved.answer.line.result.clone()).or_default() += 1;
            }
        }
        progress.abort();
        held.release();
        let (_, acked) = tokio::join!(self.crashes.answered(&claim, count), message.ack());
        if let Err(error) = acked {
            tracing::debug!(%error, claim = %claim, "the pack's ack was not sent");
        }
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
