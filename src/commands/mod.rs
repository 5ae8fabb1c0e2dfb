//! The one-shot commands of the binary: `solve`, `bench`, `generate`.

pub mod bench;
pub mod generate;
pub mod solve;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::{self, IsTerminal};

/// A progress bar over `len` files on standard error when it is a terminal, a hidden one
/// otherwise (logs and pipes get no bar).
pub(crate) fn progress_bar(len: usize) -> ProgressBar {
    if !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(len as u64), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} files, {elapsed}") {
        bar.set_style(style);
    }
    bar
}
