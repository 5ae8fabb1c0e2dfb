//! `kakurod solve` on a `lines` batch as it is answered ([`pipeline::stream_lines`]): each
//! puzzle's solution line, or with `--json` its part of the result document, or with
//! `--out` both, is written as its chunk is answered, and nothing of it is kept but its
//! counts. A file of millions of puzzles then needs the memory of its text and little
//! more, and starts answering at once.

use super::{BatchTotals, Input, Plan, batch_figures, error_line};
use crate::format::{self, Format};
use crate::outbox::{Outbox, Written};
use crate::pipeline;
use crate::report::streamed::BatchDocument;
use crate::report::{PuzzleReport, Status, Summary, grid_line};
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How often the lines printed are pushed to the reader: soon enough to watch, and few
/// writes for a file of easy puzzles.
const FLUSH_EVERY: Duration = Duration::from_millis(100);

/// The text of `bytes` when it reads as a `lines` batch (as `forced` by `--format`, or
/// as detected) that is not rejected whole from its first lines (that rejection is the
/// pipeline's).
pub(super) fn lines_text(bytes: &[u8], forced: Option<Format>) -> Option<&str> {
    let text = std::str::from_utf8(bytes).ok()?;
    let format = forced.or_else(|| format::detect(format::without_bom(text)));
    let hopeless = || format::lines::hopeless(format::without_bom(text)).is_some();
    (format == Some(Format::Lines) && !hopeless()).then_some(text)
}

/// Pushes `out` to its reader when [`FLUSH_EVERY`] has passed since `flushed` (or at the
/// first line).
fn flush_now_and_then(out: &mut impl Write, flushed: &mut Option<Instant>) -> io::Result<()> {
    if flushed.is_none_or(|at| at.elapsed() >= FLUSH_EVERY) {
        out.flush()?;
        *flushed = Some(Instant::now());
    }
    Ok(())
}

/// Prints the batch's result document on `out` as its puzzles are answered, the same
/// bytes as [`FileReport::to_json`](crate::report::FileReport::to_json). Returns as
/// [`to_stdout`] does; nothing is printed when no puzzle of it can be read.
pub(super) fn document_to_stdout(
    input: &Input,
    text: &str,
    bytes: &[u8],
    plan: &Plan,
    live: bool,
    out: &mut impl Write,
) -> io::Result<Option<(Summary, String)>> {
    let (name, checksum) = (input.file_name(), pipeline::checksum(bytes));
    let mut flushed: Option<Instant> = None;
    // Nothing is written before the first puzzle: a batch of none is answered whole.
    let mut document = BatchDocument::new(out, &name, &checksum, Format::Lines)?;
    let mut write = |report: &PuzzleReport| {
        document.puzzle(report)?;
        flush_now_and_then(document.writer(), &mut flushed)
    };
    let answered = answer(input, text, plan, live, &mut write)?;
    let Some(batch) = answered else { return Ok(None) };
    document.finish()?;
    Ok(Some(batch.told(input)))
}

/// Prints the batch's solution lines on `out` as its puzzles are answered, the way
/// [`FileReport::solution_text`](crate::report::FileReport::solution_text) writes them.
/// Returns its summary and its lines for standard error (input errors, then figures), or
/// `None` when no puzzle of it can be read (answered whole: the file is then rejected).
pub(super) fn to_stdout(
    input: &Input,
    text: &str,
    plan: &Plan,
    live: bool,
    out: &mut impl Write,
) -> io::Result<Option<(Summary, String)>> {
    let mut flushed: Option<Instant> = None;
    let mut write = |report: &PuzzleReport| {
        solution_line(out, report)?;
        flush_now_and_then(out, &mut flushed)
    };
    let answered = answer(input, text, plan, live, &mut write)?;
    Ok(answered.map(|batch| batch.told(input)))
}

/// Writes the batch's `NAME.solution.txt` and `NAME.json` into `outbox` as its puzzles
/// are answered, each to a temporary file that is committed at the end like any result.
/// Returns its summary, its input errors and how the writing went, or `None` when no
/// puzzle of it can be read (answered whole, rejected) or no temporary file can be made
/// (the whole answer then tries, and tells why it cannot write).
pub(super) fn to_folder(
    input: &Input,
    text: &str,
    bytes: &[u8],
    plan: &Plan,
    live: bool,
    outbox: &Outbox,
) -> Option<(Summary, String, io::Result<Written>)> {
    let name = input.file_name();
    let (temps, solution, json) = Temps::new(outbox)?;
    let mut solution = BufWriter::new(solution);
    let checksum = pipeline::checksum(bytes);
    let json = BufWriter::new(json);
    let mut document = BatchDocument::new(json, &name, &checksum, Format::Lines).ok()?;
    let mut write = |report: &PuzzleReport| {
        solution_line(&mut solution, report)?;
        document.puzzle(report)
    };
    let answered = answer(input, text, plan, live, &mut write);
    let batch = match answered {
        Ok(Some(batch)) => batch,
        Ok(None) => return None,
        Err(error) => return Some((Summary::default(), String::new(), Err(error))),
    };
    let ended = solution.flush().and_then(|()| document.finish()?.flush());
    let written = ended.and_then(|()| {
        let prepared = outbox.prepared_from(&name, temps.take());
        let committed = outbox.commit(vec![prepared], None).pop();
        committed.unwrap_or_else(|| Err(io::Error::other("the result set was not committed")))
    });
    Some((batch.summary, batch.errors, written))
}

/// The two temporary files of a streamed result, removed unless taken for the commit.
struct Temps {
    paths: Option<(PathBuf, PathBuf)>,
}

impl Temps {
    /// The temporary files, and the solution text's and the document's to write to.
    fn new(outbox: &Outbox) -> Option<(Temps, File, File)> {
        let (solution_path, solution) = outbox.create_temp().ok()?;
        let Ok((json_path, json)) = outbox.create_temp() else {
            let _ = std::fs::remove_file(&solution_path);
            return None;
        };
        Some((Temps { paths: Some((solution_path, json_path)) }, solution, json))
    }

    /// The files as a result set's `(suffix, temporary file)`, the JSON last.
    fn take(mut self) -> Vec<(String, PathBuf)> {
        let paths = self.paths.take().into_iter();
        paths
            .flat_map(|(solution, json)| {
                [(".solution.txt".into(), solution), (".json".into(), json)]
            })
            .collect()
    }
}

impl Drop for Temps {
    fn drop(&mut self) {
        if let Some((solution, json)) = &self.paths {
            let _ = std::fs::remove_file(solution);
            let _ = std::fs::remove_file(json);
        }
    }
}

/// A puzzle's line of `NAME.solution.txt`: its solution, or what became of it.
fn solution_line(out: &mut impl Write, report: &PuzzleReport) -> io::Result<()> {
    match &report.grid {
        Some(grid) => writeln!(out, "{}", grid_line(grid)),
        None => writeln!(out, "# line {}: {}", report.line, report.status.name()),
    }
}

/// Answers the batch, handing each puzzle's report to `write` in file order once the batch
/// is known to hold a puzzle that can be read. `None` when it holds none. A failed write
/// stops the reading of further lines and is returned.
fn answer(
    input: &Input,
    text: &str,
    plan: &Plan,
    live: bool,
    write: &mut dyn FnMut(&PuzzleReport) -> io::Result<()>,
) -> io::Result<Option<Streamed>> {
    let mut batch = Streamed::default();
    let mut written = Ok(());
    let broken = AtomicBool::new(false);
    input.controlled(plan.interrupted, live, |control| {
        pipeline::stream_lines(text, plan.options, control, &broken, &mut |report| {
            if written.is_ok() {
                written = batch.take(input, report, write);
                broken.store(written.is_err(), Ordering::Relaxed);
            }
        });
    });
    written?;
    Ok(batch.readable.then_some(batch))
}

/// What a streamed batch keeps: counts and sums, its input errors, and the rejected lines
/// before its first puzzle that can be read (a batch of none is rejected whole).
#[derive(Default)]
struct Streamed {
    summary: Summary,
    totals: BatchTotals,
    errors: String,
    held: Vec<PuzzleReport>,
    /// Whether a puzzle could be read.
    readable: bool,
}

impl Streamed {
    /// Takes the next puzzle's report: counted, and written once the batch is known to
    /// hold a puzzle that can be read.
    fn take(
        &mut self,
        input: &Input,
        report: PuzzleReport,
        write: &mut dyn FnMut(&PuzzleReport) -> io::Result<()>,
    ) -> io::Result<()> {
        if !self.readable && report.status == Status::Invalid {
            self.held.push(report);
            return Ok(());
        }
        self.readable = true;
        for held in std::mem::take(&mut self.held) {
            self.count(input, &held);
            write(&held)?;
        }
        self.count(input, &report);
        write(&report)
    }

    /// Its summary, and its lines for standard error: input errors, then figures.
    fn told(mut self, input: &Input) -> (Summary, String) {
        let figures = batch_figures(&self.totals, &self.summary);
        self.errors.push_str(&format!("{}: {figures}\n", input.shown));
        (self.summary, self.errors)
    }

    fn count(&mut self, input: &Input, report: &PuzzleReport) {
        self.summary.add(report.status, report.uniqueness);
        self.totals.add(report);
        if let Some(error) = &report.error {
            self.errors.push_str(&error_line(input, error));
        }
    }
}
