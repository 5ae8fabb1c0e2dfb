//! What `kakurod solve` tells on standard error: each file's statistics line (or its
//! input errors), a batch's figures, and the totals of a run over several files.

use super::Input;
use crate::format::InputError;
use crate::report::{Body, FileReport, PuzzleReport, Status, Summary};
use crate::util::plural;
use std::time::Instant;

/// The lines for standard error about one file: its input errors as
/// `FILE:LINE:COLUMN: message (expected ...)`, and with `statistics` a line of figures.
pub(super) fn diagnostics(input: &Input, report: &FileReport, statistics: bool) -> String {
    let mut text = String::new();
    let mut error_line = |e: &InputError| text.push_str(&error_line(input, e));
    match &report.body {
        // A file that could not be read has no checksum, and no position applies.
        Body::Rejected { error, .. } if report.checksum.is_empty() => {
            text.push_str(&format!("{}: {}\n", input.shown, error.message));
        }
        Body::Rejected { error, .. } => error_line(error),
        Body::Single(r) => r.error.iter().for_each(&mut error_line),
        Body::Batch { puzzles, .. } => {
            puzzles.iter().flat_map(|r| &r.error).for_each(&mut error_line);
        }
        // Never made here: the pipeline refuses a generation job, and only the daemon
        // cancels an input.
        Body::Generation(_) | Body::Cancelled { .. } => {}
    }
    if statistics {
        match &report.body {
            Body::Single(r) if r.status != Status::Invalid => {
                text.push_str(&format!("{}: {}\n", input.shown, puzzle_figures(r)));
            }
            Body::Batch { puzzles, summary, .. } => {
                let mut totals = BatchTotals::default();
                puzzles.iter().for_each(|r| totals.add(r));
                text.push_str(&format!("{}: {}\n", input.shown, batch_figures(&totals, summary)));
            }
            _ => {}
        }
    }
    text
}

/// An input error as `FILE:LINE:COLUMN: message (expected ...)`, on its own line.
pub(super) fn error_line(input: &Input, e: &InputError) -> String {
    format!("{}\n", super::super::located(&input.shown, e))
}

/// Status, uniqueness, kind, size and search figures of one puzzle, and a Kakuro's grade,
/// on one line.
pub(super) fn puzzle_figures(r: &PuzzleReport) -> String {
    let s = &r.statistics;
    let kind = r.kind.map_or("?", |k| k.name());
    let stopped = r.stopped_by.map(|s| format!(" stopped_by={s}")).unwrap_or_default();
    let sat = s.sat().map_or(String::new(), |sat| {
        format!(
            " sat_solvers={} sat_conflicts={} sat_decisions={} sat_propagations={} \
             sat_learned={}",
            sat.solvers, sat.conflicts, sat.decisions, sat.propagations, sat.learned_clauses
        )
    });
    let regions = match s.search.regions {
        0 => String::new(),
        n => format!(" regions={n}"),
    };
    // Only where work ran side by side: elsewhere the span is the solve time.
    let span = if s.search.parallel_slack.is_zero() {
        String::new()
    } else {
        format!(" span_ms={:.3}", s.search.span().as_secs_f64() * 1e3)
    };
    let difficulty = r.difficulty.map(|d| format!(" difficulty={}", d.name())).unwrap_or_default();
    let grade = r
        .graded_by
        .map_or(String::new(), |by| format!(" graded_by={} grade_ms={:.3}", by.name(), s.grade_ms));
    format!(
        "{} {} {kind} {}x{} nodes={} failures={} max_depth={} propagations={} solutions={} \
         parse_ms={:.3} solve_ms={:.3} threads={} engine={}{regions}{span}{sat}{stopped}{difficulty}{grade}",
        r.status.name(),
        r.uniqueness.name(),
        r.rows,
        r.cols,
        s.search.nodes,
        s.search.failures,
        s.search.max_depth,
        s.search.propagations,
        s.search.solutions,
        s.parse_ms,
        s.search.solve_time.as_secs_f64() * 1e3,
        s.threads,
        s.engine.name(),
    )
}

/// The summed figures of a batch's puzzles.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct BatchTotals {
    puzzles: usize,
    nodes: u64,
    parse_ms: f64,
    solve_ms: f64,
}

impl BatchTotals {
    pub(super) fn add(&mut self, r: &PuzzleReport) {
        self.puzzles += 1;
        self.nodes += r.statistics.search.nodes;
        self.parse_ms += r.statistics.parse_ms;
        self.solve_ms += r.statistics.search.solve_time.as_secs_f64() * 1e3;
    }
}

/// Counts and summed figures of a batch, on one line.
pub(super) fn batch_figures(totals: &BatchTotals, summary: &Summary) -> String {
    format!(
        "batch of {} puzzles: {} nodes={} parse_ms={:.3} solve_ms={:.3}",
        totals.puzzles,
        summary_counts(summary),
        totals.nodes,
        totals.parse_ms,
        totals.solve_ms,
    )
}

pub(super) fn summary_counts(s: &Summary) -> String {
    let multiple = if s.multiple > 0 {
        format!(" ({} with more than one solution)", s.multiple)
    } else {
        String::new()
    };
    let mut text = format!(
        "{} solved{multiple}, {} unsatisfiable, {} invalid, {} timeout",
        s.solved, s.unsatisfiable, s.invalid, s.timeout
    );
    if s.failed > 0 {
        text.push_str(&format!(", {} failed verification", s.failed));
    }
    if s.cancelled > 0 {
        text.push_str(&format!(", {} cancelled", s.cancelled));
    }
    text
}

/// The last line of a run over several files: `kakurod: 3 files, 3 puzzles: 2 solved, ...
/// in 0.012 s`.
pub(super) fn totals_line(files: usize, summary: &Summary, started: Instant) -> String {
    format!(
        "kakurod: {}, {}: {} in {:.3} s",
        plural(files, "file"),
        plural(summary.puzzles(), "puzzle"),
        summary_counts(summary),
        started.elapsed().as_secs_f64()
    )
}
