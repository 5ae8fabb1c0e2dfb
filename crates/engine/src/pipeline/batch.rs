//! A file's puzzles answered in file order: a batch's spread over the threads a chunk at
//! a time (or kept on the caller's thread while other work waits), a `lines` batch
//! streamed from its text, and a batch's body with the lines of its bad puzzles.

use super::{PipelineOptions, invalid, solve_one};
use crate::format::{self, InputError, Parsed};
use crate::report::{Body, PuzzleReport, Status, Summary};
use crate::solver::{self, Control};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Puzzles of a batch handed to the threads at a time: small enough that a batch notices
/// other work waiting within milliseconds, large enough to keep the threads busy.
const BATCH_CHUNK: usize = 64;

/// Answers every entry of a file, in file order ([`answer_entries`]), into one list. The
/// entries were read before, in `parse_time` each.
pub(super) fn solve_entries(
    entries: Vec<Result<Parsed, InputError>>,
    batch: bool,
    options: &PipelineOptions,
    control: Control<'_>,
    parse_time: Duration,
) -> Vec<PuzzleReport> {
    let mut reports = Vec::with_capacity(entries.len());
    let entries = entries.into_iter();
    answer_entries(entries, batch, options, control, Some(parse_time), &mut |r| reports.push(r));
    reports
}

/// Answers a `lines` batch from its text, handing each puzzle's report to `sink` in file
/// order as soon as its chunk is answered: the lines are read as they are reached, and
/// nothing of a puzzle is kept once `sink` has it, so a file of millions of puzzles is
/// answered in memory that does not grow with it. Each report's `parse_ms` is its own
/// share of its chunk's reading. No further line is read once `stop` is set (the reader of
/// the answers went away).
pub fn stream_lines(
    text: &str,
    options: &PipelineOptions,
    control: Control<'_>,
    stop: &AtomicBool,
    sink: &mut dyn FnMut(PuzzleReport),
) {
    let text = format::without_bom(text);
    let entries = format::lines::entries(text).take_while(|_| !stop.load(Ordering::Relaxed));
    answer_entries(entries, true, options, control, None, sink);
}

/// Answers one part of a `lines` batch that a daemon cut for its queue workers: `text` is
/// the part, from the batch's line `first_line` on; its puzzles are answered as
/// [`stream_lines`] answers the whole batch, and numbered with the batch's lines.
pub fn answer_part(
    text: &str,
    first_line: usize,
    options: &PipelineOptions,
    control: Control<'_>,
) -> Vec<PuzzleReport> {
    let shift = first_line.saturating_sub(1);
    let mut reports = Vec::new();
    let never = AtomicBool::new(false);
    stream_lines(text, options, control, &never, &mut |mut report| {
        report.line += shift;
        if let Some(error) = &mut report.error {
            error.line += shift;
        }
        reports.push(report);
    });
    reports
}

/// Answers every entry, in order, into `sink`. A batch's puzzles are spread over
/// `options.solve.threads` threads (0: every core of the rayon pool), a chunk at a time,
/// each puzzle's own search then on one thread: a batch holds many small puzzles, which
/// gain nothing from splitting one search. While other work waits for a thread (a
/// daemon's queue), the batch goes on on the caller's thread alone, a chunk at a time, as
/// a hard puzzle gives its helpers back. A single puzzle, a lone last line, or one thread
/// is answered on the caller's thread with every search thread. Every report keeps its
/// puzzle, which its JSON writes as its `play_url` (only a file of one puzzle is drawn).
/// `parse_time` is each
/// entry's share of reading them, or `None` when `entries` reads them as it goes (its
/// time is then measured here).
fn answer_entries(
    mut entries: impl Iterator<Item = Result<Parsed, InputError>>,
    batch: bool,
    options: &PipelineOptions,
    control: Control<'_>,
    parse_time: Option<Duration>,
    sink: &mut dyn FnMut(PuzzleReport),
) {
    let answer =
        |entry: Result<Parsed, InputError>, options: &PipelineOptions, parse_time| match entry {
            Ok(parsed) => solve_one(parsed, options, control, parse_time),
            Err(error) => invalid(error.line, error),
        };
    let threads = solver::effective_threads(options.solve.threads);
    let mut each = options.clone();
    each.solve.threads = 1;
    let others_wait = || control.waiting.is_some_and(|w| w.load(Ordering::Relaxed) > 0);
    // Built at the first chunk spread; a pool of its own only when the thread count
    // differs from the global pool's.
    let mut pool: Option<Result<Option<rayon::ThreadPool>, _>> = None;
    loop {
        let started = Instant::now();
        let size = if batch && threads > 1 { BATCH_CHUNK } else { 1 };
        let chunk: Vec<_> = entries.by_ref().take(size).collect();
        let Some(count) = std::num::NonZeroU32::new(chunk.len() as u32) else { return };
        let parse_time = parse_time.unwrap_or_else(|| started.elapsed() / count.get());
        if count.get() == 1 {
            chunk.into_iter().for_each(|entry| sink(answer(entry, options, parse_time)));
            continue;
        }
        if others_wait() {
            chunk.into_iter().for_each(|entry| sink(answer(entry, &each, parse_time)));
            continue;
        }
        let pool = pool.get_or_insert_with(|| {
            let own = threads != rayon::current_num_threads();
            own.then(|| rayon::ThreadPoolBuilder::new().num_threads(threads).build()).transpose()
        });
        let spread =
            || chunk.into_par_iter().map(|e| answer(e, &each, parse_time)).collect::<Vec<_>>();
        let answered = match pool {
            Ok(Some(pool)) => pool.install(spread),
            // The global pool, also when a pool of its own cannot be built.
            Ok(None) | Err(_) => spread(),
        };
        answered.into_iter().for_each(&mut *sink);
    }
}

/// The body of a batch file. A batch in which not one puzzle could be read is rejected as
/// a whole (the error), with the first puzzle's error and the lines of all of them.
pub(super) fn batch(puzzles: Vec<PuzzleReport>) -> Result<Body, InputError> {
    let mut summary = Summary::default();
    puzzles.iter().for_each(|r| summary.add(r.status, r.uniqueness));
    let invalid_lines: Vec<usize> =
        puzzles.iter().filter(|r| r.status == Status::Invalid).map(|r| r.line).collect();
    let first_error = puzzles.first().and_then(|r| r.error.clone());
    match first_error {
        Some(first) if invalid_lines.len() == puzzles.len() => {
            Err(none_readable(first, &invalid_lines))
        }
        _ => Ok(Body::Batch { puzzles, summary, invalid_lines }),
    }
}

/// The error of a batch none of whose puzzles could be read: its first puzzle's, naming
/// the lines of all of them.
pub fn none_readable(first: InputError, invalid_lines: &[usize]) -> InputError {
    let lines = line_list(invalid_lines);
    InputError {
        message: format!(
            "no puzzle of the batch can be read (invalid: {lines}); line {}: {}",
            first.line, first.message
        ),
        ..first
    }
}

/// `line 3` or `lines 3, 7, 9`; long lists end with how many more there are.
pub fn line_list(lines: &[usize]) -> String {
    const SHOWN: usize = 10;
    let mut text = lines.iter().take(SHOWN).map(usize::to_string).collect::<Vec<_>>().join(", ");
    if lines.len() > SHOWN {
        text.push_str(&format!(" and {} more", lines.len() - SHOWN));
    }
    if lines.len() == 1 { format!("line {text}") } else { format!("lines {text}") }
}
