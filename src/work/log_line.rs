//! The one log line per answered input, with the fields taken from the report before it is
//! dropped. A queue worker on another host sends these fields with its answer, so the
//! daemon that writes the outbox logs the same line whoever solved the input.

use crate::pipeline;
use crate::report::{Body, FileReport, PuzzleReport, Summary, Uniqueness};
use crate::solver::Engine;
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// The fields of the one log line per input, taken from the report before it is dropped.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct LogLine {
    bytes: u64,
    kind: String,
    grid: String,
    status: String,
    nodes: u64,
    ms: f64,
    /// The input's result in one word ([`FileReport::result`]), for the metrics.
    #[serde(default)]
    pub(crate) result: String,
    /// Whether the SAT engine gave any of its answers, for the metrics.
    #[serde(default)]
    pub(crate) sat: bool,
    /// The worker that solved it on the queue (`HOST/PID`).
    #[serde(default)]
    pub(crate) host: Option<String>,
}

impl LogLine {
    pub(crate) fn new(bytes: u64, report: &FileReport, started: Instant) -> LogLine {
        let ms = started.elapsed().as_secs_f64() * 1e3;
        let (kind, grid, status, nodes) = match &report.body {
            Body::Single(r) => (
                r.kind.map_or("-", |k| k.name()).to_string(),
                format!("{}x{}", r.rows, r.cols),
                match r.uniqueness {
                    Uniqueness::NotChecked => r.status.name().to_string(),
                    u => format!("{} ({})", r.status.name(), u.name()),
                },
                r.statistics.search.nodes,
            ),
            Body::Batch { puzzles, summary, invalid_lines } => (
                puzzles.iter().find_map(|p| p.kind).map_or("-", |k| k.name()).to_string(),
                format!("batch of {}", puzzles.len()),
                batch_status(summary, invalid_lines),
                puzzles.iter().map(|p| p.statistics.search.nodes).sum(),
            ),
            Body::Generation(g) => (
                "generate".into(),
                g.job.shape(),
                format!("{} ({} of {} puzzles)", g.status.name(), g.made, g.job.count),
                0,
            ),
            Body::Cancelled { status, kind, rows, cols, cancelled } => (
                kind.map_or("-", |k| k.name()).to_string(),
                match (rows, cols) {
                    (Some(rows), Some(cols)) => format!("{rows}x{cols}"),
                    _ => "-".into(),
                },
                format!("{} after {:.1} s", status.name(), cancelled.after_seconds),
                cancelled.nodes,
            ),
            Body::Rejected { status, error } => {
                ("-".into(), "-".into(), format!("{} ({error})", status.name()), 0)
            }
        };
        let result = report.result().name().to_string();
        LogLine { bytes, kind, grid, status, nodes, ms, result, sat: used_sat(report), host: None }
    }

    /// The line of a batch answered in parts by queue workers and put together by the
    /// daemon: `kind` is its first puzzle's kind, `nodes` and `sat` its puzzles' together.
    pub(crate) fn batch(
        bytes: u64,
        kind: Option<&str>,
        summary: &Summary,
        invalid_lines: &[usize],
        (nodes, sat): (u64, bool),
        started: Instant,
    ) -> LogLine {
        LogLine {
            bytes,
            kind: kind.unwrap_or("-").to_string(),
            grid: format!("batch of {}", summary.puzzles()),
            status: batch_status(summary, invalid_lines),
            nodes,
            ms: started.elapsed().as_secs_f64() * 1e3,
            result: summary.result().name().to_string(),
            sat,
            host: None,
        }
    }

    /// The puzzle kind (`generate` for a generation job, `-` when unknown).
    pub(crate) fn kind(&self) -> &str {
        &self.kind
    }

    /// Seconds from the job's start to its answer.
    pub(crate) fn seconds(&self) -> f64 {
        self.ms / 1e3
    }

    /// A queue worker's line for a job it answered and sent back to the daemon, which
    /// writes the result (and logs its own line, naming the worker).
    pub(crate) fn log_sent(&self, name: &str) {
        let ms = (self.ms * 100.0).round() / 100.0;
        tracing::info!(file = %name, kind = %self.kind, grid = %self.grid, bytes = self.bytes,
            status = %self.status, ms, nodes = self.nodes, "answered; sent to the daemon");
    }

    pub(crate) fn log(&self, name: &str, stem: &str) {
        let ms = (self.ms * 100.0).round() / 100.0;
        match &self.host {
            None => tracing::info!(file = %name, kind = %self.kind, grid = %self.grid,
                bytes = self.bytes, status = %self.status, ms, nodes = self.nodes,
                result = %stem, "answered"),
            Some(host) => tracing::info!(file = %name, kind = %self.kind, grid = %self.grid,
                bytes = self.bytes, status = %self.status, ms, nodes = self.nodes,
                result = %stem, worker = %host, "answered"),
        }
    }
}

/// Whether the SAT engine answered any puzzle of the report.
/// A batch's status field: its counts, and the lines that could not be read.
fn batch_status(summary: &Summary, invalid_lines: &[usize]) -> String {
    format!(
        "solved={} multiple={} unsatisfiable={} timeout={} invalid={} failed={}{}",
        summary.solved,
        summary.multiple,
        summary.unsatisfiable,
        summary.timeout,
        summary.invalid,
        summary.failed,
        if invalid_lines.is_empty() {
            String::new()
        } else {
            format!(" (invalid {})", pipeline::line_list(invalid_lines))
        }
    )
}

fn used_sat(report: &FileReport) -> bool {
    let sat = |r: &PuzzleReport| r.statistics.engine == Engine::Sat;
    match &report.body {
        Body::Single(r) => sat(r),
        Body::Batch { puzzles, .. } => puzzles.iter().any(sat),
        Body::Generation(_) | Body::Cancelled { .. } | Body::Rejected { .. } => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_read_back_from_the_queue_is_the_line_written_to_the_last_bit() {
        // 0.00017 ms written as JSON once read back one bit off without `float_roundtrip`.
        let mut line =
            LogLine::batch(4, None, &Summary::default(), &[], (0, false), Instant::now());
        for ms in [0.000_169_999_999_999_999_99, 1.0 / 3.0, 12_345.678_901_234_5, 5e-324] {
            line.ms = ms;
            let read: LogLine =
                serde_json::from_str(&serde_json::to_string(&line).unwrap()).unwrap();
            assert_eq!(read.ms.to_bits(), ms.to_bits(), "{ms}");
        }
    }
}
