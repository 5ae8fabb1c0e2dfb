//! A live line on a terminal while one puzzle's search runs long: elapsed time, solutions
//! so far and their rate, nodes. A count of millions of solutions takes minutes, and
//! without it the terminal says nothing until the end. Pipes and logs get nothing.

use crate::solver::Progress;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::{self, IsTerminal};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How long a search runs before the line appears (quick puzzles print nothing).
const SHOW_AFTER: Duration = Duration::from_secs(1);
/// How often the line is redrawn.
const REDRAW: Duration = Duration::from_millis(200);

/// Whether a live line can be shown: standard error is a terminal.
pub fn available() -> bool {
    io::stderr().is_terminal()
}

/// Shows `progress` for the puzzles of `name` until `done` is set, then clears the line.
pub fn show(name: &str, progress: &Progress, done: &AtomicBool) {
    let started = Instant::now();
    while started.elapsed() < SHOW_AFTER {
        if done.load(Ordering::Relaxed) {
            return;
        }
        std::thread::sleep(REDRAW / 4);
    }
    let line = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template("{spinner} {msg}") {
        line.set_style(style);
    }
    while !done.load(Ordering::Relaxed) {
        line.set_message(describe(name, progress, started.elapsed()));
        line.tick();
        std::thread::sleep(REDRAW);
    }
    line.finish_and_clear();
}

/// The line's text.
fn describe(name: &str, progress: &Progress, elapsed: Duration) -> String {
    let counts = progress.counts();
    let seconds = elapsed.as_secs_f64();
    let rate = counts.solutions as f64 / seconds.max(1e-3);
    format!(
        "{name}: {seconds:.1} s, {} solutions so far ({rate:.0}/s), {} nodes (Ctrl-C stops)",
        counts.solutions, counts.nodes
    )
}
