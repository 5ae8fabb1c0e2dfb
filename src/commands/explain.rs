//! `kakurod explain FILE` and `kakurod hint FILE [--progress PARTIAL]`: the human solving
//! path of one puzzle ([`crate::explain`]), or its next step. The puzzle is solved first
//! by the pipeline, so that the path ends at its verified solution and a player's progress
//! is checked against it.

use super::{located, read_text};
use crate::cli::{ExplainArgs, HintArgs};
use crate::explain::{self, Path, Step, picture, progress};
use crate::format::{self, Format};
use crate::pipeline::{self, PipelineOptions};
use crate::puzzle::{Grid, Puzzle};
use crate::report::{Status, Uniqueness};
use crate::solver::{Budget, Control, Mode};
use anyhow::{Context, bail};
use kakurod_engine::seconds::limit_of;
use serde::Serialize;
use std::path::Path as FilePath;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// The budget of a path whose command started at `started`, with `--timeout`.
fn budget(started: Instant, timeout: Option<Duration>) -> Budget<'static> {
    Budget::new(started, limit_of(timeout), None)
}

/// Runs `kakurod explain`.
pub fn run_explain(args: ExplainArgs) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    let Some((puzzle, solution)) = solved(&args.file, args.format, args.timeout)? else {
        return Ok(ExitCode::from(1));
    };
    let path = explain::explain_within(&puzzle, &solution, None, budget(started, args.timeout));
    if let Some(dir) = &args.svg {
        write_pictures(dir, args.steps.as_deref(), &puzzle, &path, args.force)?;
    }
    if args.json {
        print!("{}", json(&path)?);
    } else {
        print!("{}", text(&path));
    }
    Ok(if path.stopped_by.is_some() { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// `explain --svg DIR [--steps LIST]`: the grid after each chosen step, as
/// `DIR/step-001.svg` (the number as wide as the path's last, three digits at least).
fn write_pictures(
    dir: &FilePath,
    steps: Option<&str>,
    puzzle: &Puzzle,
    path: &Path,
    force: bool,
) -> anyhow::Result<()> {
    super::want_folder(dir, "--svg")?;
    let total = path.steps.len();
    let chosen = match steps {
        Some(list) => picture::parse_steps(list, total).map_err(anyhow::Error::msg)?,
        None => (1..=total).collect(),
    };
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let width = total.to_string().len().max(3);
    let file_of = |k: usize| dir.join(format!("step-{k:0width$}.svg"));
    for &k in &chosen {
        super::refuse_overwrite(&file_of(k), force)?;
    }
    for (k, svg) in picture::pictures(puzzle, path, |k| chosen.binary_search(&k).is_ok()) {
        let file = file_of(k);
        std::fs::write(&file, svg).with_context(|| format!("writing {}", file.display()))?;
    }
    Ok(())
}

/// Runs `kakurod hint`.
pub fn run_hint(args: HintArgs) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    let Some((puzzle, solution)) = solved(&args.file, args.format, args.timeout)? else {
        return Ok(ExitCode::from(1));
    };
    let progress = match &args.progress {
        Some(file) => {
            let shown = file.display().to_string();
            let Some(text) = read_named(file) else {
                return Ok(ExitCode::from(1));
            };
            match progress::read(&text, &puzzle, &solution) {
                Ok(grid) => Some(grid),
                Err(error) => {
                    eprintln!("{}", located(&shown, &error));
                    return Ok(ExitCode::from(1));
                }
            }
        }
        None => None,
    };
    let budget = budget(started, args.timeout);
    let path = explain::explain_within(&puzzle, &solution, progress.as_ref(), budget);
    // A digit already in the grid leaving its peers is what a player takes for granted.
    let implied = |s: &Step| s.technique == "naked_single" && s.place.is_empty();
    let next = path.steps.iter().position(|s| !implied(s));
    if next.is_none() && path.stopped_by.is_some() {
        eprintln!("{}: no step found within the time limit", args.file.display());
        return Ok(ExitCode::from(1));
    }
    let hint = Hint {
        step: next.map(|k| &path.steps[k]),
        steps_left: next.map_or(0, |k| path.steps.len() - k),
        stopped_by: path.stopped_by,
    };
    if args.json {
        println!("{}", serde_json::to_string(&hint)?);
    } else {
        match hint.step {
            Some(step) => println!("{}", line(1, step)),
            None => println!("every cell is filled: nothing is left to find"),
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `kakurod hint --json`: the next step (`null` when the grid is full) and how many steps
/// the path from here has (at least, when the path was cut short: `stopped_by`).
#[derive(Serialize)]
struct Hint<'a> {
    step: Option<&'a Step>,
    steps_left: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    stopped_by: Option<&'static str>,
}

/// The text of `file`, or `None` when it cannot be read, said on standard error with the
/// file's name and the reason.
fn read_named(file: &FilePath) -> Option<String> {
    read_text(file).map_err(|error| eprintln!("{}: {error:#}", file.display())).ok()
}

/// The one puzzle of `file` and its verified solution, searched for `timeout` at most;
/// `None` (said on standard error) when the file cannot be read or the puzzle has no
/// solution (or none was found in time).
fn solved(
    file: &FilePath,
    forced: Option<Format>,
    timeout: Option<Duration>,
) -> anyhow::Result<Option<(Puzzle, Grid)>> {
    let shown = file.display().to_string();
    let Some(text) = read_named(file) else {
        return Ok(None);
    };
    let mut document = match format::read(&text, forced) {
        Ok(document) => document,
        Err(error) => {
            eprintln!("{}", located(&shown, &error));
            return Ok(None);
        }
    };
    if document.entries.len() != 1 {
        bail!("{shown} holds {} puzzles: give a file of one puzzle", document.entries.len());
    }
    let parsed = match document.entries.remove(0) {
        Ok(parsed) => parsed,
        Err(error) => {
            eprintln!("{}", located(&shown, &error));
            return Ok(None);
        }
    };
    let puzzle = parsed.puzzle.clone();
    let mut options = PipelineOptions { format: forced, ..PipelineOptions::default() };
    options.solve.mode = Mode::Unique;
    options.solve.timeout = limit_of(timeout);
    let report = pipeline::solve_parsed(parsed, &options, Control::default());
    match (report.status, report.grid) {
        (Status::Solved, Some(grid)) => {
            if report.uniqueness == Uniqueness::Multiple {
                eprintln!(
                    "{shown}: the puzzle has more than one solution: logic cannot finish it, \
                     and the path ends with a search for one of them"
                );
            }
            Ok(Some((puzzle, grid)))
        }
        (Status::Timeout, _) => {
            eprintln!("{shown}: no path: no solution was found within the time limit");
            Ok(None)
        }
        (status, _) => {
            eprintln!("{shown}: no path: the puzzle is {}", status.name());
            Ok(None)
        }
    }
}

/// The path as JSON, one step a line; `stopped_by` only when it was cut short.
fn json(path: &Path) -> anyhow::Result<String> {
    let steps: Vec<String> =
        path.steps.iter().map(serde_json::to_string).collect::<Result<_, _>>()?;
    let stopped = match path.stopped_by {
        Some(why) => format!(", \"stopped_by\": {}", serde_json::to_string(why)?),
        None => String::new(),
    };
    Ok(format!(
        "{{\"steps\": [\n  {}\n], \"difficulty\": {}, \"solved\": {}{stopped}}}\n",
        steps.join(",\n  "),
        serde_json::to_string(&path.difficulty)?,
        path.solved
    ))
}

/// The path as numbered lines and a closing line.
fn text(path: &Path) -> String {
    let mut out: String =
        path.steps.iter().enumerate().map(|(k, step)| format!("{}\n", line(k + 1, step))).collect();
    if path.stopped_by.is_some() {
        let steps = path.steps.len();
        out.push_str(&format!("the time limit ran out after {steps} steps: the path goes on\n"));
        return out;
    }
    let difficulty = path.difficulty.map_or("none", |d| d.name());
    let how = if path.solved { "logic alone finishes the grid" } else { "logic needs a search" };
    out.push_str(&format!("difficulty: {difficulty}; {how}; {} steps\n", path.steps.len()));
    out
}

/// `  3. [medium] bounds: ...`.
fn line(number: usize, step: &Step) -> String {
    let level = step.level.map_or("search", |l| l.name());
    format!("{number:>4}. [{level}] {}: {}", step.technique, step.text)
}
