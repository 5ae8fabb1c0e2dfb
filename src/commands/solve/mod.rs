//! `kakurod solve`: runs the pipeline on files given on the command line and prints the
//! answers, or writes them into a folder the way the daemon writes its outbox.
//!
//! Printing: the solution (`.sol` layout, or one line per puzzle for a batch), the JSON
//! document (`--json`) or the picture (`--svg`) goes to standard output, a statistics line
//! per file and any input error (`FILE:LINE:COLUMN: message (expected ...)`) to standard
//! error. With `--out DIR`, every file gets `NAME.solution.txt` and `NAME.json` (or
//! `NAME.error.json`), and `NAME.svg` with `--svg`, written by the daemon's outbox writer
//! under the daemon's rules: atomically, the JSON last, and never over an earlier result
//! (a second input, or a second run, named `NAME` is answered as `NAME-2.*`). Files taken
//! one at a time write a `lines` batch as its puzzles are answered ([`stream`]).
//!
//! Threads: with at least as many files as threads, the files are solved in parallel on
//! the rayon pool, each puzzle's search on one thread; otherwise the files are solved one
//! after the other and each search gets every thread. `--threads` sets the search threads
//! in both cases.
//!
//! Exit status: 0 when every puzzle was solved, 1 when any was not (invalid, unreadable,
//! unsatisfiable, stopped by a limit) or an output could not be written, 2 on a usage error,
//! 130 after Ctrl-C (the searches then stop and report what they found so far).

use super::{is_stdin, live, read_input};
use crate::cli::SolveArgs;
use crate::format::{Format, InputError};
use crate::logging::{LogFormat, LogLevel};
use crate::pipeline::{self, PipelineOptions};
use crate::render;
use crate::report::{Body, FileReport, Status, Summary};
use crate::result_names;
use crate::solver::{Control, Progress};
use anyhow::{Context, bail};
use rayon::prelude::*;
use signal_hook::consts::SIGINT;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

mod figures;
mod folder;
mod stream;

use figures::{BatchTotals, batch_figures, diagnostics, error_line, totals_line};
use folder::to_folder;

/// One file named on the command line.
#[derive(Clone, Debug)]
struct Input {
    /// The path as given; `-` is standard input.
    path: PathBuf,
    /// What errors call it: the path, or `<stdin>`.
    shown: String,
}

impl Input {
    fn new(path: &Path) -> anyhow::Result<Input> {
        if is_stdin(path) {
            return Ok(Input { path: path.into(), shown: "<stdin>".into() });
        }
        if path.file_name().is_none() {
            bail!("'{}' does not name a file", path.display());
        }
        Ok(Input { path: path.into(), shown: path.display().to_string() })
    }

    /// The name echoed in the result document, whose stem names the result files: the
    /// file name (or `stdin`).
    fn file_name(&self) -> String {
        super::file_name(&self.path)
    }

    /// Reads and processes the file; an unreadable file becomes a rejected report. With
    /// `live`, a search that runs long shows its progress on the terminal.
    fn process(
        &self,
        options: &PipelineOptions,
        interrupted: &Arc<AtomicBool>,
        live: bool,
    ) -> FileReport {
        match read_input(&self.path) {
            Ok(bytes) => self.process_bytes(&bytes, options, interrupted, live),
            Err(error) => unreadable(&self.file_name(), &error),
        }
    }

    /// Processes the file's bytes ([`Input::process`]).
    fn process_bytes(
        &self,
        bytes: &[u8],
        options: &PipelineOptions,
        interrupted: &Arc<AtomicBool>,
        live: bool,
    ) -> FileReport {
        let name = self.file_name();
        if let Some(error) = result_names::solution_file(&name).filter(|_| !is_stdin(&self.path)) {
            let checksum = pipeline::checksum(bytes);
            return FileReport::rejected(&name, checksum, None, Status::Invalid, error);
        }
        self.controlled(interrupted, live, |control| {
            pipeline::process_with(&name, bytes, pipeline::checksum(bytes), options, control)
        })
    }

    /// Runs `work` with the control of a search of this file: stopped by Ctrl-C, and with
    /// `live`, its progress shown on the terminal when it runs long.
    fn controlled<T>(
        &self,
        interrupted: &Arc<AtomicBool>,
        live: bool,
        work: impl FnOnce(Control<'_>) -> T,
    ) -> T {
        let progress = Progress::default();
        let control =
            Control { cancel: Some(interrupted), progress: Some(&progress), ..Control::default() };
        let done = AtomicBool::new(false);
        std::thread::scope(|scope| {
            if live {
                scope.spawn(|| live::show(&self.shown, &progress, &done));
            }
            let result = work(control);
            done.store(true, Ordering::Relaxed);
            result
        })
    }
}

/// The report of a file that could not be read: rejected, at line 1, column 1.
fn unreadable(name: &str, error: &io::Error) -> FileReport {
    let error = InputError::whole_file(format!("cannot read the file: {error}"), "a readable file");
    FileReport::rejected(name, String::new(), None, Status::Invalid, error)
}

/// Runs `kakurod solve`.
pub fn run(args: SolveArgs) -> anyhow::Result<ExitCode> {
    // Warnings only, unless `RUST_LOG` asks for more: `RUST_LOG=kakurod_engine=debug` shows
    // where a large grid's search spends its time, phase by phase and task by task.
    crate::logging::init(LogFormat::Text, LogLevel::Warn);
    let files = super::puzzle_files(&args.files)?;
    let inputs = files.iter().map(|p| Input::new(p)).collect::<anyhow::Result<Vec<_>>>()?;
    if inputs.iter().filter(|i| is_stdin(&i.path)).count() > 1 {
        bail!("standard input ('-') can be read only once");
    }
    if args.out.is_none() && args.svg && (args.json || inputs.len() > 1) {
        bail!("without --out, --svg prints one picture: give one file and no --json");
    }
    if args.blank && args.out.is_some() {
        bail!(
            "--blank draws one picture on standard output; to draw files empty, use `kakurod convert --to svg`"
        );
    }
    let drawn = args.svg && args.out.is_none();
    if let Some(batch) = inputs.iter().find(|i| drawn && reads_as_batch(i, args.solver.format)) {
        bail!(
            "{}: a batch file has no picture; --svg draws a single puzzle (the batch's \
             solutions: without --svg, or with --out DIR)",
            batch.shown
        );
    }
    let parallel = inputs.len() > 1 && inputs.len() >= rayon::current_num_threads();
    let options = PipelineOptions {
        solve: args.solver.solve_options(if parallel { 1 } else { 0 })?,
        format: args.solver.format,
        ..PipelineOptions::default()
    };
    let interrupted = interrupt_flag()?;
    let plan = Plan { inputs: &inputs, options: &options, parallel, interrupted: &interrupted };
    let ok = match &args.out {
        Some(dir) => to_folder(&plan, dir, args.svg)?,
        None => to_stdout(&plan, Printed::from_flags(args.json, args.svg, args.blank))?,
    };
    Ok(if interrupted.load(Ordering::Relaxed) {
        ExitCode::from(130)
    } else if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// Whether `input` is a file of the `lines` format (one puzzle per line), checked before
/// any solving so that `--svg`, which draws one puzzle, refuses it at once.
fn reads_as_batch(input: &Input, forced: Option<Format>) -> bool {
    if is_stdin(&input.path) {
        return forced == Some(Format::Lines);
    }
    fs::read(&input.path).is_ok_and(|bytes| stream::lines_text(&bytes, forced).is_some())
}

/// A flag that the first Ctrl-C (SIGINT) sets: the searches stop and report what they
/// found so far (a count is then a lower bound), as a timeout does. A second Ctrl-C ends
/// the process at once.
fn interrupt_flag() -> anyhow::Result<Arc<AtomicBool>> {
    let flag = Arc::new(AtomicBool::new(false));
    signal_hook::flag::register_conditional_shutdown(SIGINT, 130, Arc::clone(&flag))
        .context("cannot handle SIGINT")?;
    signal_hook::flag::register(SIGINT, Arc::clone(&flag)).context("cannot handle SIGINT")?;
    Ok(flag)
}

/// What to solve and how.
struct Plan<'a> {
    inputs: &'a [Input],
    options: &'a PipelineOptions,
    /// Solve the files in parallel (one thread each) rather than one after the other.
    parallel: bool,
    /// Set by Ctrl-C.
    interrupted: &'a Arc<AtomicBool>,
}

impl Plan<'_> {
    /// Calls `each` on every input's report, in parallel or in order, and collects the
    /// results in input order.
    fn for_each<T: Send>(&self, each: impl Fn(&Input, FileReport) -> T + Sync) -> Vec<T> {
        // One file at a time may show its progress; files solved side by side do not.
        let live = !self.parallel && live::available();
        let work = |input: &Input| each(input, input.process(self.options, self.interrupted, live));
        if self.parallel {
            self.inputs.par_iter().map(work).collect()
        } else {
            self.inputs.iter().map(work).collect()
        }
    }
}

/// What goes to standard output without `--out`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Printed {
    Solution,
    Json,
    /// The picture, solved or (`blank`) empty.
    Svg {
        blank: bool,
    },
}

impl Printed {
    fn from_flags(json: bool, svg: bool, blank: bool) -> Printed {
        match (json, svg) {
            (true, _) => Printed::Json,
            (false, true) => Printed::Svg { blank },
            (false, false) => Printed::Solution,
        }
    }
}

/// Prints every file's answer (solutions or JSON documents) on standard output, one file
/// after the other, and each file's statistics on standard error. Files solved side by side
/// are all answered first; taken one at a time, each is printed as soon as it is answered,
/// a `lines` batch as its puzzles are ([`stream`]). Returns whether every puzzle was solved
/// (and, with `--svg`, drawn).
fn to_stdout(plan: &Plan, printed: Printed) -> anyhow::Result<bool> {
    if let Printed::Svg { blank } = printed {
        return picture_to_stdout(plan, blank);
    }
    let json = printed == Printed::Json;
    let several = plan.inputs.len() > 1;
    let (started, mut summary) = (Instant::now(), Summary::default());
    let live = live::available();
    let ahead = if plan.parallel { plan.for_each(|_, report| report) } else { Vec::new() };
    let mut ahead = ahead.into_iter();
    let mut stdout = io::BufWriter::new(io::stdout().lock());
    if json && several {
        stdout.write_all(b"[\n")?;
    }
    for (k, input) in plan.inputs.iter().enumerate() {
        match (json, several) {
            (true, true) if k > 0 => stdout.write_all(b",\n")?,
            (false, true) => writeln!(stdout, "# {}", input.shown)?,
            _ => {}
        }
        let report = match ahead.next() {
            Some(report) => report,
            None => match read_input(&input.path) {
                Ok(bytes) => {
                    let solution = result_names::solution_file(&input.file_name()).is_some();
                    let lines = stream::lines_text(&bytes, plan.options.format);
                    let streamed = match lines.filter(|_| !solution) {
                        Some(text) if json => stream::document_to_stdout(
                            input,
                            text,
                            &bytes,
                            plan,
                            live,
                            &mut stdout,
                        )?,
                        Some(text) => stream::to_stdout(input, text, plan, live, &mut stdout)?,
                        None => None,
                    };
                    if let Some((streamed, errors)) = streamed {
                        stdout.flush()?;
                        eprint!("{errors}");
                        summary.merge(&streamed);
                        continue;
                    }
                    input.process_bytes(&bytes, plan.options, plan.interrupted, live)
                }
                Err(error) => unreadable(&input.file_name(), &error),
            },
        };
        if json {
            stdout.write_all(report.to_json().trim_end().as_bytes())?;
            stdout.write_all(b"\n")?;
        } else if let Some(text) = report.solution_text() {
            stdout.write_all(text.as_bytes())?;
        }
        // Keep the answer and its statistics together when both go to a terminal.
        stdout.flush()?;
        eprint!("{}", diagnostics(input, &report, true));
        summary.merge(&report.summary());
    }
    if json && several {
        stdout.write_all(b"]\n")?;
    }
    stdout.flush()?;
    if several {
        eprintln!("{}", totals_line(plan.inputs.len(), &summary, started));
    }
    Ok(summary.all_solved())
}

/// Prints the picture of the file named (`--svg` without `--out` takes one) on standard
/// output (empty with `blank`) and its statistics on standard error. Returns whether it was
/// solved and drawn.
fn picture_to_stdout(plan: &Plan, blank: bool) -> anyhow::Result<bool> {
    let reports = plan.for_each(|_, report| report);
    let mut stdout = io::BufWriter::new(io::stdout().lock());
    let mut summary = Summary::default();
    let mut undrawn = false;
    for (input, report) in plan.inputs.iter().zip(&reports) {
        summary.merge(&report.summary());
        match single_picture(report, blank) {
            Some(svg) => stdout.write_all(svg.as_bytes())?,
            None => {
                undrawn = true;
                if matches!(report.body, Body::Batch { .. }) {
                    eprintln!(
                        "kakurod: {}: a batch file has no picture; --svg draws a single \
                         puzzle (the batch's solutions: without --svg, or with --out DIR)",
                        input.shown
                    );
                }
            }
        }
        stdout.flush()?;
        eprint!("{}", diagnostics(input, report, true));
    }
    Ok(summary.all_solved() && !undrawn)
}

/// The picture of a single-puzzle file (solved or not; empty with `blank`); `None` for a
/// batch or a rejected input.
fn single_picture(report: &FileReport, blank: bool) -> Option<String> {
    let grid = |r: &crate::report::PuzzleReport| r.grid.clone().filter(|_| !blank);
    match &report.body {
        Body::Single(r) => r.puzzle.as_ref().map(|p| render::svg(p, grid(r).as_ref())),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_are_named_after_the_file_name_without_its_last_extension() {
        let stem = |p: &str| result_names::stem_of(&Input::new(Path::new(p)).unwrap().file_name());
        assert_eq!(stem("data/960_31x46.txt"), "960_31x46");
        assert_eq!(stem("1_10x12.backslash.txt"), "1_10x12.backslash");
        assert_eq!(stem("noext"), "noext");
        assert_eq!(stem("-"), "stdin");
        assert!(Input::new(Path::new("..")).is_err());
    }

    #[test]
    fn an_unreadable_file_is_a_rejected_report_with_a_position() {
        let input = Input::new(Path::new("/nonexistent/kakurod/x.txt")).unwrap();
        let report =
            input.process(&PipelineOptions::default(), &Arc::new(AtomicBool::new(false)), false);
        assert!(report.is_rejected());
        assert_eq!(report.summary().invalid, 1);
        let text = diagnostics(&input, &report, true);
        assert!(text.starts_with("/nonexistent/kakurod/x.txt: cannot read the file"), "{text}");
    }
}
