//! `kakurod generate`: writes seeded Kakuro puzzles in the janko grid format (by default
//! with exactly one solution, proved), to standard output or into files, with their
//! solutions as `.sol` on request. Many puzzles are made at once on every core.

use super::progress_bar;
use crate::cli::GenerateArgs;
use crate::generate::{self, GenError, GenOptions, Generated};
use anyhow::{Context, bail};
use rayon::prelude::*;
use serde::Serialize;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// What `--json` prints for one puzzle.
#[derive(Serialize)]
struct Made<'a> {
    /// The puzzle file, or `null` when it went to standard output.
    puzzle: Option<String>,
    /// The solution file, if written.
    solution: Option<String>,
    /// The puzzle's text, when it went to no file.
    #[serde(skip_serializing_if = "Option::is_none")]
    text: Option<&'a str>,
    rows: usize,
    cols: usize,
    seed: u64,
    /// `true` when uniqueness was proved.
    unique: bool,
    difficulty: Option<&'static str>,
    proof: Option<&'a generate::Proof>,
    /// Whole generation time.
    #[serde(serialize_with = "crate::report::pretty::seconds")]
    seconds: f64,
}

/// Runs `kakurod generate`. Exit status 0 when every puzzle was made, 1 when some ran
/// out of time, 2 for options that cannot give a puzzle.
pub fn run(args: GenerateArgs) -> anyhow::Result<ExitCode> {
    if args.count == 0 {
        bail!("--count must be at least 1");
    }
    if args.count > 1 && args.out.is_none() {
        bail!("--count above 1 needs --out DIR");
    }
    options(&args, args.seed).check()?;
    let seeds = (0..args.count)
        .map(|i| args.seed.checked_add(i))
        .collect::<Option<Vec<u64>>>()
        .context("--seed plus --count overflows")?;
    if let Some(out) = args.out.as_ref().filter(|_| args.count > 1) {
        std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    }
    // One puzzle gets every thread; many puzzles get one thread each, side by side.
    let per_puzzle = if args.count > 1 { 1 } else { args.threads };
    let pool = rayon::ThreadPoolBuilder::new().num_threads(args.threads).build()?;
    let bar =
        if args.count > 1 { progress_bar(seeds.len()) } else { indicatif::ProgressBar::hidden() };
    let results: Vec<anyhow::Result<Option<String>>> = pool.install(|| {
        seeds
            .par_iter()
            .map(|&seed| {
                let options = GenOptions { threads: per_puzzle, ..options(&args, seed) };
                let made = make(&args, &options);
                bar.inc(1);
                made
            })
            .collect()
    });
    bar.finish_and_clear();
    let mut failed = false;
    let mut stdout = io::stdout().lock();
    for result in results {
        match result {
            Ok(Some(line)) => {
                // A puzzle's text ends with its own newline; a JSON line does not.
                let line = line.strip_suffix('\n').unwrap_or(&line);
                writeln!(stdout, "{line}")?;
            }
            Ok(None) => {}
            Err(e)
                if e.downcast_ref::<GenError>()
                    .is_some_and(|g| matches!(g, GenError::Options(_))) =>
            {
                return Err(e);
            }
            Err(e) => {
                eprintln!("kakurod: {e:#}");
                failed = true;
            }
        }
    }
    Ok(if failed { ExitCode::FAILURE } else { ExitCode::SUCCESS })
}

/// The generator's options for one seed.
fn options(args: &GenerateArgs, seed: u64) -> GenOptions {
    let base = if args.any_solution {
        // A difficulty is kept so that `check` refuses it: only a unique puzzle has one.
        GenOptions {
            difficulty: args.difficulty,
            ..GenOptions::any_solution(args.rows, args.cols, args.black, seed)
        }
    } else {
        GenOptions {
            symmetry: args.symmetry,
            difficulty: args.difficulty,
            ..GenOptions::unique(args.rows, args.cols, args.black, seed)
        }
    };
    GenOptions { threads: args.threads, timeout: args.timeout, ..base }
}

/// Makes one puzzle and writes it; returns what to print on standard output.
fn make(args: &GenerateArgs, options: &GenOptions) -> anyhow::Result<Option<String>> {
    let generated = generate::generate(options, None)
        .map_err(anyhow::Error::new)
        .with_context(|| format!("seed {}", options.seed))?;
    let text = generate::to_janko(&generated.puzzle);
    let Some(out) = &args.out else {
        return Ok(Some(if args.json {
            json(options, &generated, Files::Text(&text))?
        } else {
            text
        }));
    };
    let path = if args.count > 1 { out.join(file_name(options)) } else { out.clone() };
    write(&path, &text)?;
    let solution = if args.solution {
        let sol = path.with_extension("sol");
        write(&sol, &generated.filling.to_string())?;
        Some(sol)
    } else {
        None
    };
    let files = Files::Written { puzzle: &path, solution: solution.as_deref() };
    args.json.then(|| json(options, &generated, files)).transpose()
}

/// Where a puzzle went.
enum Files<'a> {
    /// Into files.
    Written { puzzle: &'a Path, solution: Option<&'a Path> },
    /// Nowhere yet: the JSON line carries its text.
    Text(&'a str),
}

/// The `--json` line of one puzzle.
fn json(options: &GenOptions, generated: &Generated, files: Files<'_>) -> anyhow::Result<String> {
    let (puzzle, solution, text) = match files {
        Files::Written { puzzle, solution } => (Some(puzzle), solution, None),
        Files::Text(text) => (None, None, Some(text)),
    };
    let made = Made {
        puzzle: puzzle.map(|p| p.display().to_string()),
        solution: solution.map(|p| p.display().to_string()),
        text,
        rows: options.rows,
        cols: options.cols,
        seed: options.seed,
        unique: generated.proof.is_some(),
        difficulty: generated.difficulty.map(|d| d.name()),
        proof: generated.proof.as_ref(),
        seconds: generated.seconds,
    };
    Ok(serde_json::to_string(&made)?)
}

/// `gen_<rows>x<cols>_b<black>_s<seed>.txt`.
fn file_name(options: &GenOptions) -> PathBuf {
    PathBuf::from(format!(
        "gen_{}x{}_b{}_s{}.txt",
        options.rows, options.cols, options.black_percent, options.seed
    ))
}

fn write(path: &Path, text: &str) -> anyhow::Result<()> {
    std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))
}
