//! One job on a worker slot, in the order that keeps every input answered once:
//! 1. read the job and its crash count (`crashes`: the server's count of its deliveries,
//!    less the hand-backs noted; an input on which workers died `max_crashes` times is
//!    answered as failed instead of tried again); read its input from the queue's bucket
//!    when it was too large for the message (`large`);
//! 2. solve it on the pool while in-progress acks tell the server, well inside `AckWait`,
//!    that the worker lives;
//! 3. publish the answer (put in the bucket first when too large for a message) and wait
//!    for the server to confirm it; only then acknowledge the job (a crash in between
//!    makes another worker answer it again, and the daemon writes only the first answer of
//!    a claim).
//!
//! A job cancelled by shutdown is handed back with a negative ack and the hand-back noted:
//! stopping a worker is not a crash.

use super::{Held, Shared, Slot, patience};
use crate::format::Format;
use crate::format::InputError;
use crate::outbox::rendered;
use crate::pipeline::{self, PipelineOptions};
use crate::queue::Queue;
use crate::queue::crashes::{Count, Crashes};
use crate::queue::large::{self, LargeError};
use crate::queue::wire::{self, Answer, Job, PartAnswer, PartOf, PartPuzzle};
use crate::report::{Body, FileReport, PuzzleReport, Status, Summary, streamed};
use crate::settings::GenerateSettings;
use crate::solver::Engine;
use crate::solver::{Control, Progress};
use crate::work;
use crate::work::log_line::LogLine;
use async_nats::jetstream::{self, AckKind};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How long a job whose input could not be read from the bucket waits before it comes
/// again.
const READ_RETRY: Duration = Duration::from_secs(2);

/// One fetched job and what handling it needs.
pub(super) struct Task {
    pub(super) shared: Arc<Shared>,
    pub(super) crashes: Crashes,
    pub(super) ack_wait: Duration,
}

/// A solved job, before it is published.
pub(super) struct Solved {
    pub(super) answer: Answer,
    pub(super) cancelled: bool,
    /// The daemon took the job back (an operator cancelled its input): it is dropped.
    pub(super) withdrawn: bool,
}

impl Task {
    /// Handles `message`, read as `job`, to its acknowledgement.
    pub(super) async fn handle(
        self,
        message: jetstream::Message,
        job: Result<Job, String>,
        mut held: Held,
    ) {
        let job = match job {
            Ok(job) => job,
            Err(error) => {
                tracing::error!(subject = %message.subject, %error,
                    "a job this worker cannot read; dropped (is the daemon a newer version?)");
                let _ = message.ack_with(AckKind::Term).await;
                return;
            }
        };
        if !job.header.pack.is_empty() {
            return self.handle_pack(message, job, held).await;
        }
        let mut job = job;
        let claim = job.header.claim.clone();
        let count = self.crashes.count(&message, &claim).await;
        let crashes = count.crashes + job.header.crashed;
        let message = Arc::new(message);
        let progress = tokio::spawn(keep_alive(Arc::clone(&message), self.ack_wait / 3));
        let poisoned = crashes >= job.header.max_crashes;
        if let Err(refusal) = self.read_stored(&mut job).await {
            progress.abort();
            if matches!(refusal, AckKind::Nak(_)) {
                let _ = self.crashes.handed_back(&claim, count).await;
            }
            let _ = message.ack_with(refusal).await;
            return;
        }
        let solved = if poisoned {
            let answer = crashed(&job, crashes, &self.shared.host);
            Some(Solved { answer, cancelled: false, withdrawn: false })
        } else {
            self.solve(job).await
        };
        held.release();
        let Some(solved) = solved else {
            // The pool is gone: the worker is stopping.
            progress.abort();
            self.hand_back(&message, &claim, count).await;
            return;
        };
        if solved.cancelled && solved.withdrawn {
            progress.abort();
            tracing::info!(file = %solved.answer.name, "the daemon cancelled the job; dropped");
            self.crashes.answered(&claim, count).await;
            let _ = message.ack_with(AckKind::Term).await;
            return;
        }
        if solved.cancelled {
            progress.abort();
            self.hand_back(&message, &claim, count).await;
            return;
        }
        // The job is kept alive while a refused answer is tried again.
        let published = self.publish_patiently(&solved.answer).await;
        progress.abort();
        match published {
            Ok(()) => {
                solved.answer.line.log_sent(&solved.answer.name);
                if let Ok(mut answered) = self.shared.answered.lock() {
                    *answered.entry(solved.answer.line.result.clone()).or_default() += 1;
                }
                // Both at once, the ack not waited for: an ack that gets lost only has
                // the job answered again, and the second answer is refused or dropped.
                let (_, acked) = tokio::join!(self.crashes.answered(&claim, count), message.ack());
                if let Err(error) = acked {
                    tracing::debug!(%error, claim = %claim, "the job's ack was not sent");
                }
            }
            Err(error) => {
                tracing::warn!(%error, file = %solved.answer.name,
                    "cannot publish the answer; the job is handed back");
                // After a moment: an immediate redelivery would only be refused again.
                self.hand_back_after(&message, &claim, count, Some(patience::RETRY)).await;
            }
        }
    }

    /// Reads the input of a job that carries it in the queue's bucket into `job.input`.
    /// `Err` is how to end the delivery instead: an object that is gone or broken ends the
    /// job (`Term`: the daemon finds the queue without it and sends it again, putting the
    /// object again); one that could not be read now comes back after a moment. Neither is
    /// a crash.
    async fn read_stored(&self, job: &mut Job) -> Result<(), AckKind> {
        let Some(object) = &job.header.object else { return Ok(()) };
        match large::get(&self.shared.queue, object).await {
            Ok(bytes) => {
                job.input = bytes;
                Ok(())
            }
            Err(error @ LargeError::Gone { .. }) => {
                tracing::warn!(%error, file = %job.header.name,
                    "the job's input is not in the queue's bucket; the job is ended and the \
                     daemon sends it again");
                // A broken object must go, or the daemon would find it and send it as is.
                let _ = large::delete(&self.shared.queue, object).await;
                Err(AckKind::Term)
            }
            Err(error) => {
                tracing::warn!(%error, file = %job.header.name,
                    "cannot read the job's input from the queue's bucket; it comes again");
                Err(AckKind::Nak(Some(READ_RETRY)))
            }
        }
    }

    /// Solves the job on the pool, its stop flag registered for shutdown.
    pub(super) async fn solve(&self, job: Job) -> Option<Solved> {
        let slot = Arc::new(Slot {
            name: job.header.name.clone(),
            started: Instant::now(),
            stop: Arc::new(AtomicBool::new(self.shared.stopping.load(Ordering::SeqCst))),
            withdrawn: AtomicBool::new(false),
            progress: Progress::default(),
        });
        let claim = job.header.claim.clone();
        if let Ok(mut running) = self.shared.running.lock() {
            running.insert(claim.clone(), Arc::clone(&slot));
        }
        let (sender, receiver) = tokio::sync::oneshot::channel();
        let for_slot = Arc::clone(&slot);
        let shared = Arc::clone(&self.shared);
        shared.waiting.fetch_add(1, Ordering::SeqCst);
        let for_pool = Arc::clone(&shared);
        shared.pool.spawn(move || {
            for_pool.waiting.fetch_sub(1, Ordering::SeqCst);
            let _ = sender.send(answer(&for_pool, &job, &for_slot));
        });
        let solved = receiver.await.ok();
        if let Ok(mut running) = self.shared.running.lock() {
            running.remove(&claim);
        }
        solved.map(|s| Solved { withdrawn: slot.withdrawn.load(Ordering::SeqCst), ..s })
    }

    /// [`Task::publish`], tried again while the server refuses it (see `patience`).
    pub(super) async fn publish_patiently(&self, answer: &Answer) -> Result<(), String> {
        let stopping = &self.shared.stopping;
        let attempt = || self.publish(answer);
        patience::patiently("the answer", &answer.name, self.ack_wait, stopping, attempt).await
    }

    /// Publishes the answer and waits for the server's confirmation. An answer over the
    /// server's `max_payload` is put in the queue's bucket and the message points at it
    /// (`large`); a second answer to one claim (another worker's, after a redelivery) is
    /// refused by the server and needs nothing more (its object is swept once the claim is
    /// answered).
    pub(super) async fn publish(&self, answer: &Answer) -> Result<(), String> {
        let queue = &self.shared.queue;
        let (mut payload, mut deflated) = answer.encode_compact();
        let max = queue.max_payload();
        if !large::fits(payload.len(), max) {
            let object = large::answer_object(&answer.claim);
            let plain = answer.encode();
            large::put(queue, &object, &plain).await.map_err(|e| e.to_string())?;
            (payload, deflated) = (answer.stored_at(object).encode(), false);
            if !large::fits(payload.len(), max) {
                payload = too_large(answer, plain.len(), max).encode();
            }
        }
        let mut headers = async_nats::HeaderMap::new();
        if deflated {
            headers.insert(wire::ENCODING, "deflate");
        }
        self.publish_raw(&answer.claim, headers, payload).await
    }

    /// Publishes `payload` on the answer subject of `id` and waits for the server's
    /// confirmation; a message the stream holds already (sent before) counts as sent.
    pub(super) async fn publish_raw(
        &self,
        id: &str,
        headers: async_nats::HeaderMap,
        payload: Vec<u8>,
    ) -> Result<(), String> {
        let subject = self.shared.queue.names.answer(id);
        let js = &self.shared.queue.js;
        let acked = match js.publish_with_headers(subject, headers, payload.into()).await {
            Ok(future) => future.await,
            Err(error) => Err(error),
        };
        match acked {
            Ok(_) => Ok(()),
            Err(error) if Queue::held_already(&error) => Ok(()),
            Err(error) => Err(error.to_string()),
        }
    }

    /// Gives the job back for another worker at once, noted as a hand-back, not a crash.
    pub(super) async fn hand_back(&self, message: &jetstream::Message, claim: &str, count: Count) {
        self.hand_back_after(message, claim, count, None).await;
    }

    /// Gives the job back, to be delivered again after `delay` (at once when `None`), noted
    /// as a hand-back, not a crash.
    pub(super) async fn hand_back_after(
        &self,
        message: &jetstream::Message,
        claim: &str,
        count: Count,
        delay: Option<Duration>,
    ) {
        let _ = self.crashes.handed_back(claim, count).await;
        let _ = message.ack_with(AckKind::Nak(delay)).await;
    }
}

impl Slot {
    /// What the search of this slot's job is told from outside: its stop flag, the jobs
    /// waiting for a thread, and where its live counters go.
    fn control<'a>(&'a self, shared: &'a Shared) -> Control<'a> {
        Control {
            cancel: Some(&self.stop),
            waiting: Some(&shared.waiting),
            progress: Some(&self.progress),
            ..Control::default()
        }
    }
}

/// Tells the server every `period` that the job is still being worked on.
pub(super) async fn keep_alive(message: Arc<jetstream::Message>, period: Duration) {
    let mut ticks = tokio::time::interval(period.max(Duration::from_millis(100)));
    ticks.tick().await;
    loop {
        ticks.tick().await;
        if let Err(error) = message.ack_with(AckKind::Progress).await {
            tracing::debug!(%error, "an in-progress ack failed");
        }
    }
}

/// Solves a job with the settings it carries, as the daemon would (runs on the pool).
fn answer(shared: &Shared, job: &Job, slot: &Slot) -> Solved {
    let started = Instant::now();
    let header = &job.header;
    let checksum = pipeline::checksum(&job.input);
    let settings = &header.settings;
    if let Some(part) = &header.part {
        return answer_part(shared, job, part, &settings.pipeline, slot, started);
    }
    let report = solve_with(&settings.pipeline, &settings.generate, job, checksum, slot, shared);
    let generation = matches!(report.body, Body::Generation(_));
    let answer = Answer {
        stem: generation.then(|| header.stem.clone()),
        files: rendered::render(&report, &header.stem, header.settings.svg),
        ..answer_of(shared, job, &report, started)
    };
    Solved { answer, cancelled: report.was_cancelled(), withdrawn: false }
}

/// The answer to `job` that `report` gives, its log line stamped with this host: no files
/// and no part, which the caller adds.
fn answer_of(shared: &Shared, job: &Job, report: &FileReport, started: Instant) -> Answer {
    let mut line = LogLine::new(job.input.len() as u64, report, started);
    line.host = Some(shared.host.clone());
    Answer {
        schema: wire::SCHEMA,
        claim: job.header.claim.clone(),
        name: job.header.name.clone(),
        stem: None,
        files: Vec::new(),
        rejected: report.is_rejected(),
        line,
        part: None,
        object: None,
    }
}

/// Answers a part of a cut batch: each puzzle's pieces of the result files, rendered here
/// as the daemon would render them, with the batch's line numbers.
fn answer_part(
    shared: &Shared,
    job: &Job,
    part: &PartOf,
    options: &PipelineOptions,
    slot: &Slot,
    started: Instant,
) -> Solved {
    let header = &job.header;
    let text = String::from_utf8_lossy(&job.input);
    let control = slot.control(shared);
    let reports = pipeline::answer_part(&text, part.first_line, options, control);
    let puzzles = reports.iter().map(part_puzzle).collect();
    let mut summary = Summary::default();
    reports.iter().for_each(|r| summary.add(r.status, r.uniqueness));
    let invalid_lines = reports.iter().filter(|r| r.status == Status::Invalid).map(|r| r.line);
    let invalid_lines = invalid_lines.collect();
    let report = FileReport {
        file: header.name.clone(),
        checksum: String::new(),
        format: Some(Format::Lines),
        body: Body::Batch { puzzles: reports, summary, invalid_lines },
    };
    let answer = Answer {
        part: Some(PartAnswer { index: part.index, first_line: part.first_line, puzzles }),
        ..answer_of(shared, job, &report, started)
    };
    Solved { answer, cancelled: report.was_cancelled(), withdrawn: false }
}

/// One puzzle of a part, rendered.
fn part_puzzle(report: &PuzzleReport) -> PartPuzzle {
    let json = streamed::puzzle_text(report).unwrap_or_else(|error| {
        serde_json::json!({"line": report.line, "status": "failed", "error": error.to_string()})
            .to_string()
    });
    PartPuzzle {
        json,
        solution: crate::report::solution_line(report),
        line: report.line,
        status: report.status,
        uniqueness: report.uniqueness,
        kind: report.kind.map(|k| k.name().to_string()),
        nodes: report.statistics.search.nodes,
        sat: report.statistics.engine == Engine::Sat,
        error: report.error.clone().filter(|_| report.status == Status::Invalid),
    }
}

fn solve_with(
    options: &PipelineOptions,
    generate: &GenerateSettings,
    job: &Job,
    checksum: String,
    slot: &Slot,
    shared: &Shared,
) -> FileReport {
    let control = slot.control(shared);
    work::answer(options, generate, &job.header.name, &job.input, checksum, control)
}

fn failed(name: &str, checksum: String, message: &str) -> FileReport {
    let error = InputError::whole_file(message, "an input a worker can answer");
    FileReport::rejected(name, checksum, None, Status::Failed, error)
}

/// The answer to an input on which workers died `crashes` times.
fn crashed(job: &Job, crashes: u32, host: &str) -> Answer {
    let message = format!(
        "failed after {crashes} crashes: workers died {crashes} times while answering this \
         input (killed, out of memory, or cut off from the queue for longer than its ack \
         wait); it is not tried again"
    );
    let report = failed(&job.header.name, pipeline::checksum(&job.input), &message);
    let mut line = LogLine::new(job.input.len() as u64, &report, Instant::now());
    line.host = Some(host.to_string());
    Answer {
        schema: wire::SCHEMA,
        claim: job.header.claim.clone(),
        name: job.header.name.clone(),
        stem: None,
        files: rendered::files(&report, false),
        rejected: true,
        line,
        part: None,
        object: None,
    }
}

/// An error answer in place of one over the server's `max_payload` even as a message that
/// points at the bucket (a server whose messages are too small for a log line).
fn too_large(answer: &Answer, size: usize, max: usize) -> Answer {
    let checksum = serde_json::from_str::<serde_json::Value>(
        answer.files.last().map_or("", |(_, json)| json.as_str()),
    )
    .ok()
    .and_then(|doc| doc["checksum"].as_str().map(str::to_string))
    .unwrap_or_default();
    let message = format!(
        "the answer has {size} bytes, over the NATS server's max_payload of {max} bytes; raise \
         max_payload in the server's configuration, or solve this input on one host"
    );
    let report = failed(&answer.name, checksum, &message);
    let files = rendered::files(&report, false);
    Answer { stem: None, files, rejected: true, part: None, ..answer.clone() }
}
