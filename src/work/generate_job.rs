//! A generation job in the daemon: an inbox file `{"kind": "generate", ...}` read by
//! [`crate::format::generation`] and answered with the puzzles it asks for, made one after
//! the other on the job's worker (each puzzle's uniqueness checks on `solver.threads`
//! threads). Everything else about the input (claim, checksum, outbox, moving it on) is
//! the same as for a puzzle file: this only turns the text into a [`FileReport`].
//!
//! Limits: a job larger than `[generate]` allows is rejected; one that runs past
//! `[generate] timeout_seconds` is answered with status `timeout` and keeps the puzzles it
//! made (each was proved unique, so each is as good as in a complete job). Shutdown
//! cancels a running job: its report says so, nothing is written and the input stays
//! claimed, to be made again (the same puzzles, from the same seeds) at the next start.

use crate::format::Format;
use crate::format::generation::{self, Job};
use crate::generate::{self, GenError, GenOptions, GridOptions};
use crate::pipeline::PipelineOptions;
use crate::report::{
    Body, FileReport, GeneratedPuzzle, GenerationReport, GenerationStatus, Status,
};
use crate::settings::GenerateSettings;
use crate::solver::{Budget, effective_threads};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// The text of a generation job, if `bytes` are one (as the pipeline tells them apart).
pub(crate) fn recognise<'a>(options: &PipelineOptions, bytes: &'a [u8]) -> Option<&'a str> {
    let forced = options.format;
    std::str::from_utf8(bytes).ok().filter(|text| generation::is_job(text, forced))
}

/// Reads the job, checks it against the operator's limits and makes its puzzles.
pub(crate) fn run(
    options: &PipelineOptions,
    settings: &GenerateSettings,
    name: &str,
    text: &str,
    checksum: String,
    cancel: &Arc<AtomicBool>,
) -> FileReport {
    let started = Instant::now();
    let report = |body| FileReport {
        file: name.to_string(),
        checksum: checksum.clone(),
        format: Some(Format::Json),
        body,
    };
    let rejection = |error| {
        FileReport::rejected(name, checksum.clone(), Some(Format::Json), Status::Invalid, error)
    };
    let job = match generation::read(text, &settings.limits) {
        Ok(job) => job,
        Err(error) => return rejection(error),
    };
    let threads = options.solve.threads;
    let budget = Budget::new(started, settings.timeout, Some(cancel));
    let (puzzles, stop) = make(&job, threads, budget);
    let (status, message) = match &stop {
        None => (GenerationStatus::Generated, None),
        Some(GenError::Timeout) => {
            let message = timeout_message(settings.timeout, puzzles.len(), job.count);
            (GenerationStatus::Timeout, Some(message))
        }
        // A cancelled job's report is never written; only its `cancelled` flag counts.
        Some(GenError::Cancelled) => (GenerationStatus::Timeout, None),
        // No layout or grade found for the options: the job asks for what cannot be made.
        Some(GenError::Options(message)) => {
            return rejection(generation::refused(text, message.clone()));
        }
    };
    let generation = GenerationReport {
        kind: "generate",
        status,
        message,
        made: puzzles.len(),
        job,
        puzzles,
        seconds: started.elapsed().as_secs_f64(),
        threads: effective_threads(threads),
        cancelled: matches!(stop, Some(GenError::Cancelled)),
    };
    report(Body::Generation(Box::new(generation)))
}

/// Makes the job's puzzles in seed order until all are made or one fails; returns those
/// made and what stopped the rest, if anything did.
fn make(job: &Job, threads: usize, budget: Budget<'_>) -> (Vec<GeneratedPuzzle>, Option<GenError>) {
    let mut puzzles = Vec::with_capacity(job.count);
    for seed in job.seeds() {
        if budget.deadline_passed() {
            return (puzzles, Some(GenError::Timeout));
        }
        let made = match job.grid_options(seed) {
            Some(options) => {
                let options = GridOptions { threads, ..options };
                generate::generate_grid(&options, budget)
                    .map(|made| GeneratedPuzzle::of_grid(seed, made))
            }
            None => {
                let options = GenOptions { threads, ..job.options(seed) };
                generate::generate(&options, budget).map(|made| GeneratedPuzzle::new(seed, made))
            }
        };
        match made {
            Ok(puzzle) => puzzles.push(puzzle),
            Err(stop) => return (puzzles, Some(stop)),
        }
    }
    (puzzles, None)
}

/// Why a job stopped short: its time limit, and that the puzzles made are kept.
fn timeout_message(timeout: Option<Duration>, made: usize, count: usize) -> String {
    format!(
        "the job's time limit ({} s, [generate] timeout_seconds) passed after {made} of \
         {count} puzzles; the puzzles made before it are kept and listed, each proved unique",
        timeout.map_or(0.0, |t| t.as_secs_f64()),
    )
}
