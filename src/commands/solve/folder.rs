//! `kakurod solve --out DIR`: each file's result set written into the folder as soon as
//! it is answered, with the outbox's writer that the daemon uses too.

use super::figures::{diagnostics, totals_line};
use super::{Input, Plan, live, read_input, stream, unreadable};
use crate::commands::progress_bar;
use crate::outbox::{Outbox, Written};
use crate::report::{FileReport, Status, Summary};
use crate::result_names;
use crate::util::plural;
use anyhow::Context;
use std::fs;
use std::io;
use std::path::Path;
use std::time::Instant;

/// Writes every file's outputs into `dir`, then a summary line on standard error.
/// Returns whether every puzzle was solved and every output written.
pub(super) fn to_folder(plan: &Plan, dir: &Path, svg: bool) -> anyhow::Result<bool> {
    super::super::want_folder(dir, "--out")?;
    fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let outbox = open_outbox(dir, svg);
    let started = Instant::now();
    let progress = progress_bar(plan.inputs.len());
    let tell = |input: &Input, mut text: String, written: &io::Result<Written>| {
        if let Err(error) = written {
            text.push_str(&format!("kakurod: {}: {error:#}\n", input.shown));
        }
        if !text.is_empty() {
            progress.suspend(|| eprint!("{text}"));
        }
        progress.inc(1);
        written.is_ok()
    };
    let whole = |input: &Input, report: FileReport| {
        let report = refuse_reserved_name(input, report);
        let written = write_result(&outbox, &input.file_name(), &report);
        (report.summary(), tell(input, diagnostics(input, &report, false), &written))
    };
    let results = if plan.parallel {
        plan.for_each(whole)
    } else {
        // One file at a time: a `lines` batch is written as its puzzles are answered.
        let live = live::available();
        let one = |input: &Input| {
            let bytes = match read_input(&input.path) {
                Ok(bytes) => bytes,
                Err(error) => return whole(input, unreadable(&input.file_name(), &error)),
            };
            let streamable = result_names::reserved(&input.file_name()).is_none();
            let streamed =
                match stream::lines_text(&bytes, plan.options.format).filter(|_| streamable) {
                    Some(text) => stream::to_folder(input, text, &bytes, plan, live, &outbox),
                    None => None,
                };
            match streamed {
                Some((summary, errors, written)) => (summary, tell(input, errors, &written)),
                None => {
                    whole(input, input.process_bytes(&bytes, plan.options, plan.interrupted, live))
                }
            }
        };
        plan.inputs.iter().map(one).collect()
    };
    progress.finish_and_clear();
    let mut summary = Summary::default();
    results.iter().for_each(|(s, _)| summary.merge(s));
    let unwritten = results.iter().filter(|(_, ok)| !ok).count();
    let not_written = match unwritten {
        0 => String::new(),
        n => format!(" ({} not written)", plural(n, "file")),
    };
    eprintln!("{}{not_written}", totals_line(plan.inputs.len(), &summary, started));
    Ok(summary.all_solved() && unwritten == 0)
}

/// The writer for `dir`, as a writer of this host: its temporary files carry the host name
/// (a daemon's default node id), so the leftovers of this host's crashed runs are told from
/// those of other hosts sharing the folder, and are swept here first. Results are not
/// fsynced: a one-shot run that dies is simply run again, unlike the daemon, which must
/// survive a crash without losing an input.
pub(super) fn open_outbox(dir: &Path, svg: bool) -> Outbox {
    let outbox = Outbox::new(dir.to_path_buf(), false, svg, &crate::util::host_name());
    if let Err(error) = outbox.remove_stale_temporaries() {
        // Only housekeeping: the results are written all the same.
        eprintln!("kakurod: cannot remove leftover temporary files in {}: {error}", dir.display());
    }
    outbox
}

/// The report itself, or the rejection of an input whose name would make its result read
/// as another input's error document (see `result_names`).
pub(super) fn refuse_reserved_name(input: &Input, report: FileReport) -> FileReport {
    match result_names::reserved(&input.file_name()) {
        Some(error) => FileReport::rejected(
            &report.file,
            report.checksum,
            report.format,
            Status::Invalid,
            error,
        ),
        None => report,
    }
}

/// Writes one file's result set, committed at once: each result is complete in the folder
/// as soon as its file is solved, so a run cut short keeps what it finished.
pub(super) fn write_result(
    outbox: &Outbox,
    name: &str,
    report: &FileReport,
) -> io::Result<Written> {
    let prepared = outbox.prepare(name, report)?;
    let committed = outbox.commit(vec![prepared], None).pop();
    committed.unwrap_or_else(|| Err(io::Error::other("the result set was not committed")))
}
