//! An input's bytes to its [`FileReport`], the same on the daemon's workers and on a
//! queue worker on another host: a generation job makes puzzles (`generate_job`), anything
//! else runs the pipeline. A panic (a bug) becomes a `failed` error result, not a dead
//! worker, so one bad file cannot stop a worker or come back at every start.

pub(crate) mod generate_job;
pub(crate) mod log_line;

use crate::format::InputError;
use crate::pipeline::{self, PipelineOptions};
use crate::report::{FileReport, Status};
use crate::settings::GenerateSettings;
use crate::solver::Control;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// Solves (or makes the puzzles of) one input. `control.cancel` stops it.
pub(crate) fn answer(
    options: &PipelineOptions,
    generate: &GenerateSettings,
    name: &str,
    bytes: &[u8],
    checksum: String,
    control: Control<'_>,
) -> FileReport {
    let never = Arc::new(AtomicBool::new(false));
    let cancel = control.cancel.unwrap_or(&never);
    let run = || match generate_job::recognise(options, bytes) {
        Some(text) => generate_job::run(options, generate, name, text, checksum.clone(), cancel),
        None => pipeline::process_with(name, bytes, checksum.clone(), options, control),
    };
    catch_unwind(AssertUnwindSafe(run)).unwrap_or_else(|panic| {
        let what = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".into());
        tracing::error!(file = %name, panic = %what, "internal error while processing");
        let error = InputError::whole_file(
            format!("internal error while processing the file: {what}"),
            "a file kakurod can process",
        );
        FileReport::rejected(name, checksum, None, Status::Failed, error)
    })
}
