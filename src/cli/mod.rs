//! Command-line arguments (clap derive). This module only records what the user typed;
//! turning it into settings is the job of each command.

use crate::format::Format;
use crate::generate::{GradeGoal, Symmetry};
use crate::logging::{LogFormat, LogLevel};
use crate::puzzle::Kind;
use crate::solver::{Algorithm, GradeMode, Mode, SolveOptions, SolveOverrides, ValOrder, VarOrder};
use choice::choice;
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;
use std::time::Duration;

mod choice;
mod daemon;
mod files;
pub use daemon::{CancelArgs, ServeArgs, StatusArgs};
pub use files::{ConvertArgs, ExplainArgs, HintArgs, PrintArgs, Target};

/// kakurod: parallel batch solver for Kakuro, Sudoku and Killer Sudoku.
#[derive(Debug, Parser)]
#[command(name = "kakurod", version, about, propagate_version = true)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the daemon: watch the inbox, solve what arrives, write results to the outbox.
    ///
    /// SIGTERM or SIGINT stops taking inputs in and lets the running ones finish within
    /// --drain-timeout; the rest stay claimed for the next start. Exit status: 0 after such
    /// a stop; 2 when it cannot start (a bad configuration, folders that overlap or are
    /// not on the inbox's filesystem, another daemon on the inbox, a queue that cannot be
    /// reached) or stops on a fatal error, said in its log.
    Serve(ServeArgs),
    /// Solve puzzle files and print or write the results.
    ///
    /// With one file, the solution goes to standard output (the `.sol` layout; one line per
    /// puzzle for a batch file) and a line of statistics to standard error; an input error
    /// is reported as FILE:LINE:COLUMN. With several files, each answer is preceded by a
    /// `# FILE` line (or, with --json, the documents form a JSON array). With --out DIR,
    /// every file gets DIR/NAME.solution.txt and DIR/NAME.json (or DIR/NAME.error.json),
    /// written atomically, and a summary line goes to standard error. Many files are solved
    /// in parallel, one thread each; fewer files than cores are solved one after the other
    /// with every thread.
    ///
    /// Exit status: 0 when every puzzle was solved; 1 when any was not (invalid or
    /// unreadable input, unsatisfiable, stopped by a limit) or an output could not be
    /// written; 2 on a usage error; 130 after Ctrl-C, which stops the searches and reports
    /// what they found so far (a second Ctrl-C ends at once).
    Solve(SolveArgs),
    /// Time the solver on puzzle files (single thread unless --threads is given).
    Bench(BenchArgs),
    /// Generate Kakuro, Sudoku or Killer Sudoku with exactly one solution (proved),
    /// graded, from a seed.
    ///
    /// Exit status: 0 when every puzzle asked for was made and written; 1 when one was not
    /// (none found within --timeout, or none with the technique --needs asks for); 2 on a
    /// usage error or a file that cannot be written.
    Generate(GenerateArgs),
    /// Answer jobs from a daemon's shared queue (NATS JetStream), on any host, with no
    /// folders: the daemon (`serve --queue`) claims the inputs and writes the answers.
    ///
    /// Each job carries the daemon's settings. SIGTERM or SIGINT stops taking jobs, lets
    /// the running ones finish within --drain-timeout and hands the rest back; exit 0.
    /// Exit 2 when the queue cannot be reached at start.
    Worker(WorkerArgs),
    /// Show what the daemon serving an inbox is doing: its queue, the inputs it solves
    /// with their live search counters, and what it answered since it started.
    ///
    /// It reads the state the daemon rewrites every second in its claim folder, so it
    /// works from any host that sees the folders. Exit status: 0 when a daemon serves the
    /// inbox; 3 when none does (none started, or its state is over 5 s old); 2 on an error.
    Status(StatusArgs),
    /// Cancel one input, queued or running: its search stops within a second and it is
    /// answered `status: "cancelled"` in the outbox, its input archived like any other.
    ///
    /// An input on the shared queue is taken back from the workers, and one running it
    /// stops. Exit status: 0 when it was cancelled; 1 when it was not (no input of that
    /// name: it was answered first); 3 when no daemon answered within --wait seconds (the
    /// request stays and is acted on when one runs); 2 on an error.
    Cancel(CancelArgs),
    /// Convert puzzle files to another format: every puzzle of every input (a batch gives
    /// many), read as `solve` reads them, written in the format --to names.
    ///
    /// `puzzlink`, `fpuzzles` and `lines` take many puzzles, one per line; `janko`,
    /// `sudoku`, `sdk`, `ipuz`, `killer`, `kanpen`, `json` and `svg` (the empty grid, to
    /// print or show) hold one puzzle each: many puzzles go to them with --out DIR, one
    /// file each. A puzzle the target cannot hold (a Killer Sudoku as a puzz.link URL, a Kakuro
    /// as Sudoku lines) is refused with the reason. Exit status: 0 when every
    /// puzzle was converted; 1 when an input or puzzle could not be (each said on standard
    /// error as FILE:LINE:COLUMN); 2 on a usage error.
    Convert(ConvertArgs),
    /// Print puzzles on paper: a PDF with each puzzle empty on a page of its own, under its
    /// title and grade, then the solutions.
    ///
    /// Every puzzle of every input (a batch gives many) is solved first, so that its
    /// solution can be printed and only verified solutions are. Grids are scaled to the
    /// page (landscape where that gives larger cells); one whose cells would come out
    /// under 4.5 mm (on A4, more than about 40 columns by 54 rows) is refused. With
    /// --svg, the same pages are written as SVG files, NAME-1.svg, NAME-2.svg, ...
    /// (NAME.svg for one page). Exit status: 0 when every puzzle was printed with its
    /// solution; 1 when an input or puzzle could not be read, or a puzzle has no solution
    /// (it is printed, marked so); 2 on a usage error or a puzzle too large to print.
    Print(PrintArgs),
    /// Show the path a person takes through a Kakuro, Sudoku or Killer Sudoku: one
    /// numbered step per deduction, from the givens to the solution, each with its
    /// technique, what it places and eliminates, and why.
    ///
    /// The puzzle is solved first, so the path ends at its verified solution; its hardest
    /// technique is the puzzle's grade (a Killer Sudoku has none). Where logic gets stuck, a
    /// last `search` step says so and places the rest. The text counts rows, columns and
    /// boxes from 1 (r1c1), the JSON from 0.
    /// --svg DIR also draws the grid after each step. Exit status: 0 with a path; 1 when
    /// the file cannot be read or the puzzle has no solution; 2 on a usage error (a batch,
    /// a step of --steps outside the path).
    Explain(ExplainArgs),
    /// Show the next step of a puzzle's path, from its givens or from a player's progress.
    ///
    /// --progress takes a partly filled grid in the layout of a solution (`R C`, then rows
    /// of digits and `-`); a wrong digit in it is named with its line, column and cell.
    /// Exit status as for explain.
    Hint(HintArgs),
    /// Write kakurod's manual pages into a folder: kakurod.1 and one page per command
    /// (kakurod-serve.1, kakurod-solve.1, ...), made from these very definitions.
    ///
    /// For `cargo install` users: `kakurod man ~/.local/share/man/man1`.
    Man(ManArgs),
    /// Print the completion script of a shell on standard output.
    ///
    /// For example `kakurod completions bash > ~/.local/share/bash-completion/completions/kakurod`,
    /// `kakurod completions zsh > ~/.zfunc/_kakurod`, or
    /// `kakurod completions fish > ~/.config/fish/completions/kakurod.fish`.
    Completions(CompletionsArgs),
}

/// `kakurod man`.
#[derive(Debug, Args)]
pub struct ManArgs {
    /// The folder to write the pages into (made when missing; pages there are replaced).
    #[arg(value_name = "DIR")]
    pub out: PathBuf,
}

/// `kakurod completions`.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// `kakurod worker`.
#[derive(Debug, Args)]
pub struct WorkerArgs {
    /// The queue's servers: `nats://` or `tls://` URLs, comma-separated (the daemon's
    /// `[queue] url`). A user and password in a URL are not logged, but `ps` shows them:
    /// prefer --creds-file, or KAKUROD_QUEUE in the environment.
    #[arg(long, value_name = "URLS", env = "KAKUROD_QUEUE", hide_env_values = true)]
    pub queue: String,
    /// Job slots, each solving one input at a time (0 = one per core).
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = thread_count(),
          allow_negative_numbers = true)]
    pub workers: usize,
    /// The daemon's `[queue] subject_prefix`.
    #[arg(long, value_name = "PREFIX", default_value = crate::settings::DEFAULT_SUBJECT_PREFIX)]
    pub subject_prefix: String,
    /// A NATS `.creds` file (user JWT and seed).
    #[arg(long, value_name = "PATH")]
    pub creds_file: Option<PathBuf>,
    /// A PEM file of the certificate authorities that sign the servers' certificates.
    #[arg(long, value_name = "PATH")]
    pub ca_file: Option<PathBuf>,
    /// On SIGTERM or SIGINT, how long running jobs may take before they are handed back.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds, allow_negative_numbers = true, default_value = "10")]
    pub drain_timeout: Duration,
    /// Log format.
    #[arg(long, value_parser = choice::<LogFormat>(), value_name = "FORMAT",
          default_value = LogFormat::Text.name())]
    pub log_format: LogFormat,
    /// Log level (`RUST_LOG`, when set, wins).
    #[arg(long, value_parser = choice::<LogLevel>(), value_name = "LEVEL",
          default_value = LogLevel::Info.name())]
    pub log_level: LogLevel,
}

/// Solver settings shared by `solve` and `bench`.
#[derive(Debug, Clone, Args)]
pub struct SolverArgs {
    /// Technique: bt (backtracking), fc (forward checking), mac (arc consistency, with SAT
    /// joining hard searches), sat (the CDCL SAT solver alone).
    #[arg(long, value_parser = choice::<Algorithm>(), default_value = SolveOptions::DEFAULT.algorithm.name())]
    pub algorithm: Algorithm,
    /// Variable order.
    #[arg(long, value_parser = choice::<VarOrder>(), default_value = SolveOptions::DEFAULT.var_order.name())]
    pub var_order: VarOrder,
    /// Value order.
    #[arg(long, value_parser = choice::<ValOrder>(), default_value = SolveOptions::DEFAULT.val_order.name())]
    pub val_order: ValOrder,
    /// first: any solution; unique: prove uniqueness; count: count solutions.
    #[arg(long, value_parser = choice::<Mode>(), default_value = SolveOptions::DEFAULT.mode.name())]
    pub mode: Mode,
    /// In count mode, stop after this many solutions (refused in the other modes); the
    /// `count_limit` of config.toml and puzzle files. `--limit` is its older name.
    #[arg(long = "count-limit", alias = "limit", value_name = "N")]
    pub count_limit: Option<u64>,
    /// Threads per puzzle's search (0 = all cores); a batch file's puzzles are spread over
    /// them instead, one thread each. Default: all cores for `solve` on fewer files than
    /// cores, one per puzzle otherwise; always 1 for `bench`.
    #[arg(long, value_name = "N", value_parser = thread_count(), allow_negative_numbers = true)]
    pub threads: Option<usize>,
    /// Give up on a puzzle's search after this many seconds (0: no limit, as leaving it out);
    /// the `timeout_seconds` of config.toml and puzzle files, which `--timeout-seconds`
    /// also names.
    #[arg(long, alias = "timeout-seconds", value_name = "SECONDS", value_parser = parse_seconds, allow_negative_numbers = true)]
    pub timeout: Option<Duration>,
    /// Give up on a puzzle's search after this many search nodes (at least 1).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub node_limit: Option<u64>,
    /// Read every file as this format instead of detecting it.
    #[arg(long, value_parser = choice::<Format>(), value_name = "NAME")]
    pub format: Option<Format>,
    /// How a solved Kakuro is graded by human techniques.
    #[arg(long, value_parser = choice::<GradeMode>(), default_value = SolveOptions::DEFAULT.grade.name())]
    pub grade: GradeMode,
}

impl SolverArgs {
    /// The solver settings given on the command line, as every source of them gives them.
    pub fn overrides(&self) -> SolveOverrides {
        SolveOverrides {
            algorithm: Some(self.algorithm),
            var_order: Some(self.var_order),
            val_order: Some(self.val_order),
            mode: Some(self.mode),
            count_limit: self.count_limit,
            threads: self.threads,
            timeout: kakurod_engine::seconds::limit_of(self.timeout),
            node_limit: self.node_limit,
            grade: Some(self.grade),
            explain: None,
        }
    }

    /// The solver options these arguments describe; `default_threads` stands in for
    /// `--threads` when it was not given. Refuses a `--count-limit` that would be ignored.
    pub fn solve_options(&self, default_threads: usize) -> anyhow::Result<SolveOptions> {
        if self.count_limit.is_some() && self.mode != Mode::Count {
            anyhow::bail!(
                "--count-limit stops a count of solutions: it applies to --mode count, not --mode {}",
                self.mode.name()
            );
        }
        let base = SolveOptions { threads: default_threads, ..SolveOptions::default() };
        Ok(self.overrides().over(&base))
    }
}

/// Parses a non-negative number of seconds (fractions allowed).
pub fn parse_seconds(text: &str) -> Result<Duration, String> {
    let secs: f64 = text.parse().map_err(|_| format!("'{text}' is not a number of seconds"))?;
    if !secs.is_finite() || !(0.0..=1e9).contains(&secs) {
        return Err(format!("'{text}' is not a number of seconds between 0 and 1e9"));
    }
    Ok(Duration::from_secs_f64(secs))
}

/// The most threads or workers a command takes, as config.toml's `workers` and `threads`.
pub const MAX_THREADS: i64 = 1024;

/// The parser of a count of threads or workers: 0 (one per core) to [`MAX_THREADS`], a
/// negative number refused by name rather than as "an invalid digit".
pub fn thread_count() -> clap::builder::RangedI64ValueParser<usize> {
    clap::builder::RangedI64ValueParser::new().range(0..=MAX_THREADS)
}

/// `kakurod solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// Puzzle files, or folders (their files, not recursively, without `.sol` solutions and
    /// hidden files); `-` reads standard input.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Solver settings.
    #[command(flatten)]
    pub solver: SolverArgs,
    /// Write NAME.solution.txt and NAME.json (or NAME.error.json) into this folder.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Print the JSON result document instead of the solution.
    #[arg(long)]
    pub json: bool,
    /// Draw the grid as SVG: with --out, also write NAME.svg; without --out, print the
    /// picture on standard output instead of the solution (one file, no --json). Batch
    /// files have no picture.
    #[arg(long)]
    pub svg: bool,
    /// Draw the puzzle empty, as it is given, not solved (with --svg).
    #[arg(long, requires = "svg")]
    pub blank: bool,
}

/// `kakurod bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Puzzle files or folders of them.
    #[arg(required = true, value_name = "DIR_OR_FILE")]
    pub paths: Vec<PathBuf>,
    /// Solver settings (threads default to 1 here unless given).
    #[command(flatten)]
    pub solver: SolverArgs,
    /// Runs per puzzle; the median is reported.
    #[arg(long, default_value_t = 5)]
    pub runs: usize,
    /// How many of the slowest puzzles to list.
    #[arg(long, default_value_t = 10)]
    pub top: usize,
    /// Print machine-readable JSON.
    #[arg(long)]
    pub json: bool,
}

/// `kakurod generate`.
#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// The kind of puzzle.
    #[arg(long, value_parser = choice::<Kind>(), default_value = Kind::Kakuro.name())]
    pub kind: Kind,
    /// Rows of a Kakuro (the black border row included).
    #[arg(long)]
    pub rows: Option<usize>,
    /// Columns of a Kakuro (the black border column included).
    #[arg(long)]
    pub cols: Option<usize>,
    /// The side of a Sudoku or Killer Sudoku: 4, 9, 16 or 25.
    #[arg(long, value_name = "N")]
    pub size: Option<usize>,
    /// Share of black cells of a Kakuro, in percent (the border included) [default: 40].
    #[arg(long)]
    pub black: Option<f64>,
    /// Seed of the random generator: the same options and seed give the same puzzle.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Make puzzles with exactly one solution, proved (the default).
    #[arg(long, conflicts_with = "any_solution")]
    pub unique: bool,
    /// Make random solvable grids instead (usually with many solutions; for benchmarks).
    #[arg(long)]
    pub any_solution: bool,
    /// The symmetry of a Kakuro's black cells, or of a Sudoku's givens (Killer cages keep
    /// none).
    #[arg(long, value_parser = choice::<Symmetry>(), default_value = Symmetry::Rotational.name())]
    pub symmetry: Symmetry,
    /// The grades a Kakuro or Sudoku may have, by the techniques a person needs (Killer
    /// Sudoku are not graded).
    #[arg(long, value_parser = choice::<GradeGoal>(), value_name = "LEVEL",
          default_value = GradeGoal::Logic.name())]
    pub difficulty: GradeGoal,
    /// Threads for one puzzle's uniqueness checks, or puzzles made at once with --count
    /// (0 = one per core).
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = thread_count(),
          allow_negative_numbers = true)]
    pub threads: usize,
    /// Give up on a puzzle after this many seconds (0: no limit, as leaving it out).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds, allow_negative_numbers = true)]
    pub timeout: Option<Duration>,
    /// Write the puzzle here instead of standard output (a folder when --count is above 1).
    #[arg(long, value_name = "PATH")]
    pub out: Option<PathBuf>,
    /// Generate this many puzzles, with seeds SEED, SEED+1, ...; needs --out DIR when above 1.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub count: u64,
    /// Also write each puzzle's solution beside it, as `.sol`.
    #[arg(long, requires = "out")]
    pub solution: bool,
    /// Replace files that --out would write over (refused without it).
    #[arg(long, requires = "out")]
    pub force: bool,
    /// Print one JSON line per puzzle (files, seed, grade, how uniqueness was proved);
    /// without --out the line carries the puzzle's text.
    #[arg(long)]
    pub json: bool,
    /// Make a puzzle whose solving path (`kakurod explain`) uses this technique and none of
    /// a harder level: seeds derived from --seed are tried until one does (at most 200),
    /// and the JSON's `seed` is the one that made it. The names are those of
    /// docs/explain.md (`bounds`, `run_consistency`, `x_wing`, `innies`, ...).
    #[arg(long, value_name = "TECHNIQUE")]
    pub needs: Option<String>,
    /// Write the puzzle in this format (the names `convert --to` takes) instead of its
    /// kind's own grid.
    #[arg(long, value_parser = choice::<Target>(), value_name = "FORMAT")]
    pub format: Option<Target>,
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use clap::FromArgMatches;

    /// The arguments `T` parsed from the flags `extra`.
    pub(crate) fn parse_as<T: Args + FromArgMatches>(extra: &[&str]) -> T {
        let command = T::augment_args(clap::Command::new("kakurod"));
        let matches =
            command.get_matches_from(std::iter::once("kakurod").chain(extra.iter().copied()));
        T::from_arg_matches(&matches).unwrap()
    }

    fn solver_args(extra: &[&str]) -> SolverArgs {
        parse_as(extra)
    }

    #[test]
    fn every_solver_choice_parses_by_its_name() {
        for a in Algorithm::ALL {
            assert_eq!(solver_args(&["--algorithm", a.name()]).algorithm, a);
        }
        for v in VarOrder::ALL {
            assert_eq!(solver_args(&["--var-order", v.name()]).var_order, v);
        }
        for v in ValOrder::ALL {
            assert_eq!(solver_args(&["--val-order", v.name()]).val_order, v);
        }
        for m in Mode::ALL {
            assert_eq!(solver_args(&["--mode", m.name()]).mode, m);
        }
        for g in GradeMode::ALL {
            assert_eq!(solver_args(&["--grade", g.name()]).grade, g);
        }
    }

    #[test]
    fn the_defaults_are_the_solvers() {
        assert_eq!(solver_args(&[]).solve_options(1).unwrap(), SolveOptions::default());
        assert!(solver_args(&["--limit", "3"]).solve_options(1).is_err());
        assert!(solver_args(&["--count-limit", "3"]).solve_options(1).is_err());
        let count = solver_args(&["--limit", "3", "--mode", "count"]).solve_options(1).unwrap();
        assert_eq!(count.count_limit, Some(3));
    }
}
