//! `kakurod generate`: writes seeded Kakuro puzzles in the janko grid format (by default
//! with exactly one solution, proved), or Sudoku and Killer Sudoku with exactly one
//! solution in their own formats, to standard output or into files, with their solutions
//! as `.sol` on request. Many puzzles are made at once on every core.

use super::{convert, progress_bar};
use crate::cli::GenerateArgs;
use crate::explain;
use crate::format::{self, puzzlink};
use crate::generate::{self, GenError, GenOptions, GradeGoal, GridKind, GridOptions, Proof};
use crate::grade::Difficulty;
use crate::puzzle::{Kind, Puzzle};
use crate::solver::Budget;
use anyhow::{Context, bail};
use rayon::prelude::*;
use serde::Serialize;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

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
    kind: &'static str,
    rows: usize,
    cols: usize,
    seed: u64,
    /// `true` when uniqueness was proved.
    unique: bool,
    difficulty: Option<&'static str>,
    /// A Kakuro's share of black cells reached, in percent (the border included).
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "crate::report::pretty::percent"
    )]
    black_percent: Option<f64>,
    proof: Option<&'a Proof>,
    /// The puzzle's puzz.link URL (Kakuro and Sudoku): one click from being played.
    #[serde(skip_serializing_if = "Option::is_none")]
    play_url: Option<&'a str>,
    /// Whole generation time.
    #[serde(serialize_with = "crate::report::pretty::seconds")]
    seconds: f64,
}

/// One generated puzzle, of any kind, as the command writes it.
struct Output {
    kind: Kind,
    rows: usize,
    cols: usize,
    seed: u64,
    text: String,
    solution: String,
    proof: Option<Proof>,
    difficulty: Option<&'static str>,
    black_percent: Option<f64>,
    play_url: Option<String>,
    seconds: f64,
    /// The puzzle itself, for `--needs` to explain.
    puzzle: Puzzle,
}

/// How far, in percentage points, a Kakuro's black share may end from the one asked
/// before the command warns.
const BLACK_TOLERANCE: f64 = 5.0;

/// Runs `kakurod generate`. Exit status 0 when every puzzle was made, 1 when some ran
/// out of time, 2 for options that cannot give a puzzle.
pub fn run(args: GenerateArgs) -> anyhow::Result<ExitCode> {
    if args.count == 0 {
        bail!("--count must be at least 1");
    }
    if args.count > 1 && args.out.is_none() {
        bail!("--count above 1 needs --out DIR");
    }
    check_kind_options(&args)?;
    let args = with_needs(args)?;
    if let Some(why) = args.format.and_then(|to| convert::refusal(args.kind, to)) {
        bail!("--format {}: {why}", args.format.map_or("", |to| to.name()));
    }
    let seeds = (0..args.count)
        .map(|i| args.seed.checked_add(i))
        .collect::<Option<Vec<u64>>>()
        .context("--seed plus --count overflows")?;
    if let Some(out) = &args.out {
        prepare_out(&args, out)?;
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
                let made = make(&args, seed, per_puzzle).and_then(|output| emit(&args, &output));
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

/// How many seeds `--needs` tries for one puzzle.
const NEEDS_TRIES: u64 = 200;

/// The techniques a path of a `kind` puzzle can name, with their levels.
fn techniques_of(kind: Kind) -> &'static [(&'static str, Difficulty)] {
    match kind {
        Kind::Killer => explain::KILLER_TECHNIQUES,
        graded => explain::techniques(graded),
    }
}

/// Checks `--needs` against the kind and the grade asked, and sets the grade to the
/// technique's level, so that the generator aims at it (a Killer Sudoku is not graded:
/// its puzzles are only explained until one needs the technique).
fn with_needs(mut args: GenerateArgs) -> anyhow::Result<GenerateArgs> {
    let Some(name) = &args.needs else { return Ok(args) };
    let known = techniques_of(args.kind);
    if args.any_solution {
        bail!("--needs makes puzzles with one solution; drop --any-solution");
    }
    let Some(&(_, level)) = known.iter().find(|(known, _)| known == name) else {
        let names: Vec<&str> = known.iter().map(|(n, _)| *n).collect();
        bail!(
            "--needs {name}: a {} path has no such technique ({})",
            args.kind.name(),
            names.join(", ")
        );
    };
    match args.difficulty.exact() {
        _ if args.kind == Kind::Killer => {}
        Some(asked) if asked != level => bail!(
            "--needs {name} is a {} technique: --difficulty must be {} or left out",
            level.name(),
            level.name()
        ),
        _ => args.difficulty = GradeGoal::Exactly(level),
    }
    Ok(args)
}

/// Refuses, before any work, the options that do not fit the kind asked for.
fn check_kind_options(args: &GenerateArgs) -> anyhow::Result<()> {
    if args.kind == Kind::Kakuro {
        if args.size.is_some() {
            bail!(
                "--size is the side of a Sudoku or Killer Sudoku; a Kakuro takes --rows and --cols"
            );
        }
        if args.rows.is_none() || args.cols.is_none() {
            bail!("a Kakuro needs --rows and --cols");
        }
        return kakuro_options(args, args.seed).check().map_err(anyhow::Error::new);
    }
    let kind = args.kind.name();
    if args.rows.is_some() || args.cols.is_some() {
        bail!("a {kind} takes --size N, not --rows and --cols");
    }
    let Some(size) = args.size else { bail!("a {kind} needs --size N (4, 9, 16 or 25)") };
    if args.black.is_some() || args.any_solution {
        bail!("--black and --any-solution are for Kakuro only");
    }
    if args.kind == Kind::Killer && args.difficulty.exact().is_some() {
        bail!("--difficulty is for Kakuro and Sudoku: Killer Sudoku are not graded");
    }
    if !matches!(size, 4 | 9 | 16 | 25) {
        bail!("--size must be 4, 9, 16 or 25, not {size}");
    }
    Ok(())
}

/// The Kakuro generator's options for one seed.
fn kakuro_options(args: &GenerateArgs, seed: u64) -> GenOptions {
    let (rows, cols) = (args.rows.unwrap_or(0), args.cols.unwrap_or(0));
    let black = args.black.unwrap_or_else(|| generate::default_black(rows, cols));
    let base = if args.any_solution {
        // A difficulty is kept so that `check` refuses it: only a unique puzzle has one.
        GenOptions {
            difficulty: args.difficulty,
            ..GenOptions::any_solution(rows, cols, black, seed)
        }
    } else {
        GenOptions {
            symmetry: args.symmetry,
            difficulty: args.difficulty,
            ..GenOptions::unique(rows, cols, black, seed)
        }
    };
    GenOptions { threads: args.threads, ..base }
}

/// Makes the puzzle of `seed`.
fn make(args: &GenerateArgs, seed: u64, threads: usize) -> anyhow::Result<Output> {
    let Some(needs) = &args.needs else { return make_one(args, seed, threads) };
    for attempt in 0..NEEDS_TRIES {
        // The first try is the seed itself; the others are spread far from the seeds of
        // the other puzzles of a --count.
        let tried = seed.wrapping_add(attempt.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let output = match make_one(args, tried, threads) {
            Ok(output) => output,
            Err(e)
                if e.downcast_ref::<GenError>()
                    .is_some_and(|g| matches!(g, GenError::Options(_))) =>
            {
                return Err(e);
            }
            Err(_) => continue,
        };
        if path_needs(&output, needs) {
            return Ok(output);
        }
    }
    bail!(
        "seed {seed}: no puzzle whose path needs {needs} in {NEEDS_TRIES} tries (another seed or size may find one)"
    )
}

/// True when the solving path of `output`'s puzzle is logic's alone, uses the technique
/// `needs` and none of a harder level (a graded puzzle made at its level has none; a
/// Killer's path is looked at).
fn path_needs(output: &Output, needs: &str) -> bool {
    let Ok(solution) = format::solution::read_sol(&output.solution) else { return false };
    let path = explain::explain(&output.puzzle, &solution, None);
    let level = techniques_of(output.kind).iter().find(|(name, _)| *name == needs);
    let hardest = path.steps.iter().filter_map(|step| step.level).max();
    path.solved
        && path.steps.iter().any(|step| step.technique == needs)
        && level.is_some_and(|&(_, level)| hardest <= Some(level))
}

/// Makes one puzzle from `seed`.
fn make_one(args: &GenerateArgs, seed: u64, threads: usize) -> anyhow::Result<Output> {
    let context = || format!("seed {seed}");
    if args.kind == Kind::Kakuro {
        let options = GenOptions { threads, ..kakuro_options(args, seed) };
        let made = generate::generate(&options, budget(args))
            .map_err(anyhow::Error::new)
            .with_context(context)?;
        let black = made.black_percent();
        warn_of_black_share(&options, seed, black, args.black.is_some());
        return Ok(Output {
            kind: Kind::Kakuro,
            rows: options.rows,
            cols: options.cols,
            seed,
            text: text_of(
                args,
                &Puzzle::Kakuro(made.puzzle.clone()),
                generate::to_janko(&made.puzzle),
            )?,
            solution: made.filling.to_string(),
            proof: made.proof,
            difficulty: made.difficulty.map(|d| d.name()),
            black_percent: Some(black),
            play_url: puzzlink::play_url(&Puzzle::Kakuro(made.puzzle.clone())),
            seconds: made.seconds,
            puzzle: Puzzle::Kakuro(made.puzzle),
        });
    }
    let kind = if args.kind == Kind::Sudoku { GridKind::Sudoku } else { GridKind::Killer };
    let size = args.size.unwrap_or(9);
    let options = GridOptions {
        kind,
        size,
        seed,
        symmetry: args.symmetry,
        threads,
        difficulty: args.difficulty,
    };
    let made = generate::generate_grid(&options, budget(args))
        .map_err(anyhow::Error::new)
        .with_context(context)?;
    Ok(Output {
        kind: args.kind,
        rows: size,
        cols: size,
        seed,
        text: text_of(args, &made.puzzle, made.text.clone())?,
        solution: made.solution.to_string(),
        proof: Some(made.proof),
        difficulty: made.difficulty.map(|d| d.name()),
        black_percent: None,
        play_url: puzzlink::play_url(&made.puzzle),
        seconds: made.seconds,
        puzzle: made.puzzle,
    })
}

/// The puzzle as `--format` asks, or its `native` text.
fn text_of(args: &GenerateArgs, puzzle: &Puzzle, native: String) -> anyhow::Result<String> {
    match args.format {
        Some(to) => convert::write(puzzle, to).map_err(anyhow::Error::msg),
        None => Ok(native),
    }
}

/// Warns on standard error when a Kakuro's black share ended more than
/// [`BLACK_TOLERANCE`] points from the one asked with `--black` (or the default one, when
/// `asked_by_flag` is false), and says why it could not be kept.
fn warn_of_black_share(options: &GenOptions, seed: u64, reached: f64, asked_by_flag: bool) {
    let asked = options.black_percent;
    if (reached - asked).abs() <= BLACK_TOLERANCE {
        return;
    }
    let why = if reached > asked {
        let unique = if options.unique { " and one solution" } else { "" };
        format!("this grid needs more black cells for runs of 2 to 9 cells{unique}")
    } else {
        "no more cells can turn black with every run 2 to 9 cells long and the white cells \
         connected"
            .to_string()
    };
    let asked_how = if asked_by_flag { "asked" } else { "of the default (--black)" };
    eprintln!(
        "kakurod: warning: seed {seed}: {reached:.1}% of the cells are black, not the {asked}% \
         {asked_how}: {why}"
    );
}

/// Writes one puzzle (and its solution) where the options say; returns what to print on
/// standard output.
fn emit(args: &GenerateArgs, output: &Output) -> anyhow::Result<Option<String>> {
    let Some(out) = &args.out else {
        return Ok(Some(if args.json {
            json(output, Files::Text(&output.text))?
        } else {
            output.text.clone()
        }));
    };
    let path = if args.count > 1 { out.join(file_name(args, output)) } else { out.clone() };
    write(&path, &output.text, args.force)?;
    let solution = if args.solution {
        let sol = path.with_extension("sol");
        write(&sol, &output.solution, args.force)?;
        Some(sol)
    } else {
        None
    };
    let files = Files::Written { puzzle: &path, solution: solution.as_deref() };
    args.json.then(|| json(output, files)).transpose()
}

/// Where a puzzle went.
enum Files<'a> {
    /// Into files.
    Written { puzzle: &'a Path, solution: Option<&'a Path> },
    /// Nowhere yet: the JSON line carries its text.
    Text(&'a str),
}

/// The `--json` line of one puzzle.
fn json(output: &Output, files: Files<'_>) -> anyhow::Result<String> {
    let (puzzle, solution, text) = match files {
        Files::Written { puzzle, solution } => (Some(puzzle), solution, None),
        Files::Text(text) => (None, None, Some(text)),
    };
    let made = Made {
        puzzle: puzzle.map(|p| p.display().to_string()),
        solution: solution.map(|p| p.display().to_string()),
        text,
        kind: output.kind.name(),
        rows: output.rows,
        cols: output.cols,
        seed: output.seed,
        unique: output.proof.is_some(),
        difficulty: output.difficulty,
        black_percent: output.black_percent,
        proof: output.proof.as_ref(),
        play_url: output.play_url.as_deref(),
        seconds: output.seconds,
    };
    Ok(serde_json::to_string(&made)?)
}

/// `gen_<rows>x<cols>_b<black>_s<seed>.txt` for a Kakuro, `gen_<kind><size>_s<seed>.txt`
/// for the others (with the extension of the `--format`, if one is asked).
fn file_name(args: &GenerateArgs, output: &Output) -> PathBuf {
    let (rows, cols, seed) = (output.rows, output.cols, output.seed);
    let extension = args.format.map_or("txt", |to| to.extension());
    PathBuf::from(match output.kind {
        Kind::Kakuro => format!(
            "gen_{rows}x{cols}_b{}_s{seed}.{extension}",
            args.black.unwrap_or(generate::DEFAULT_BLACK)
        ),
        kind => format!("gen_{}{rows}_s{seed}.{extension}", kind.name()),
    })
}

/// Makes the folders `--out` needs, and refuses, before any work, to write over a file
/// unless `--force` says so: the folder itself with `--count` above 1, its parent folder
/// otherwise, where the puzzle (and its `.sol`) must not exist yet.
fn prepare_out(args: &GenerateArgs, out: &Path) -> anyhow::Result<()> {
    let folder = match args.count {
        1 => out.parent().filter(|p| !p.as_os_str().is_empty()),
        _ => Some(out),
    };
    if let Some(folder) = folder {
        std::fs::create_dir_all(folder)
            .with_context(|| format!("cannot create {}", folder.display()))?;
    }
    if args.count == 1 && !args.force {
        let sol = out.with_extension("sol");
        let taken = std::iter::once(out).chain(args.solution.then_some(sol.as_path()));
        if let Some(path) = taken.into_iter().find(|p| p.exists()) {
            bail!("{} exists: it is not replaced without --force", path.display());
        }
    }
    Ok(())
}

/// Writes `text` to `path`; without `--force`, never over a file that is there already
/// (one of `--count` puzzles may meet a name an earlier run left).
fn write(path: &Path, text: &str, force: bool) -> anyhow::Result<()> {
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .create_new(!force)
        .open(path)
        .with_context(|| match path.exists() && !force {
            true => format!("{} exists: it is not replaced without --force", path.display()),
            false => format!("cannot write {}", path.display()),
        })?;
    file.write_all(text.as_bytes()).with_context(|| format!("cannot write {}", path.display()))
}

/// The budget of one puzzle, from now: `--timeout`, where 0 means no limit as everywhere
/// else (solve, explain, config.toml).
fn budget(args: &GenerateArgs) -> Budget<'static> {
    Budget::new(Instant::now(), kakurod_engine::seconds::limit_of(args.timeout), None)
}
