//! The arguments of the commands that take puzzle files and write other files from them:
//! `convert` (and the formats it writes), `print`, `explain` and `hint`.

use super::{choice::choice, parse_seconds};
use crate::format::Format;
use crate::render::sheet::Paper;
use clap::Args;
use std::path::PathBuf;
use std::time::Duration;

/// `kakurod convert`.
#[derive(Debug, Args)]
pub struct ConvertArgs {
    /// Puzzle files, or folders (their files, not recursively, without `.sol` solutions and
    /// hidden files); `-` reads standard input.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// The format to write.
    #[arg(long, value_parser = choice::<Target>(), value_name = "FORMAT")]
    pub to: Target,
    /// Read every file as this format instead of detecting it.
    #[arg(long, value_parser = choice::<Format>(), value_name = "NAME")]
    pub format: Option<Format>,
    /// Write here instead of standard output; an existing folder gets one file per puzzle,
    /// named after its input (`NAME.EXT`, or `NAME-LINE.EXT` for a batch's puzzles).
    #[arg(long, value_name = "FILE_OR_DIR")]
    pub out: Option<PathBuf>,
    /// Replace files that --out would write over (refused without it).
    #[arg(long, requires = "out")]
    pub force: bool,
}

/// `kakurod print`.
#[derive(Debug, Args)]
pub struct PrintArgs {
    /// Puzzle files, or folders (their files, not recursively, without `.sol` solutions and
    /// hidden files); `-` reads standard input.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// The PDF file to write (with --svg, the SVG file, numbered when there are more pages).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Replace files that --out would write over (refused without it).
    #[arg(long)]
    pub force: bool,
    /// The paper size.
    #[arg(long, value_parser = choice::<Paper>(), default_value = Paper::A4.name())]
    pub paper: Paper,
    /// Write the pages as SVG instead of PDF.
    #[arg(long)]
    pub svg: bool,
    /// Read every file as this format instead of detecting it.
    #[arg(long, value_parser = choice::<Format>(), value_name = "NAME")]
    pub format: Option<Format>,
    /// Stop the search for one puzzle's solution after this many seconds (it is then
    /// printed without one).
    #[arg(long, alias = "timeout-seconds", value_name = "SECONDS", value_parser = parse_seconds, allow_negative_numbers = true)]
    pub timeout: Option<Duration>,
}

/// `kakurod explain`.
#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// A file of one Kakuro, Sudoku or Killer Sudoku; `-` reads standard input.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Print the path as JSON: {"steps": [...], "difficulty": ..., "solved": ...}.
    #[arg(long)]
    pub json: bool,
    /// Also draw the grid after each step into DIR, as `step-001.svg`, ...: candidates
    /// left as pencil marks, the step's eliminations red, its placements green, the cells
    /// it reasons from shaded.
    #[arg(long, value_name = "DIR")]
    pub svg: Option<PathBuf>,
    /// With --svg, draw only these steps: numbers and ranges from 1, as `1,5,10-12`.
    #[arg(long, value_name = "LIST", requires = "svg")]
    pub steps: Option<String>,
    /// Replace pictures that --svg would write over (refused without it).
    #[arg(long, requires = "svg")]
    pub force: bool,
    /// Read the file as this format instead of detecting it.
    #[arg(long, value_parser = choice::<Format>(), value_name = "NAME")]
    pub format: Option<Format>,
    /// Give up after this many seconds (0: no limit), on the search for the solution and on
    /// the path: a path cut short is printed as far as it got, says so, and the exit status
    /// is 1.
    #[arg(long, alias = "timeout-seconds", value_name = "SECONDS", value_parser = parse_seconds, allow_negative_numbers = true)]
    pub timeout: Option<Duration>,
}

/// `kakurod hint`.
#[derive(Debug, Args)]
pub struct HintArgs {
    /// A file of one Kakuro, Sudoku or Killer Sudoku; `-` reads standard input.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The player's grid so far: `R C`, then rows of digits and `-` (a solution's layout).
    #[arg(long, value_name = "PARTIAL")]
    pub progress: Option<PathBuf>,
    /// Print the step as JSON: {"step": {...}, "steps_left": N}.
    #[arg(long)]
    pub json: bool,
    /// Read the file as this format instead of detecting it.
    #[arg(long, value_parser = choice::<Format>(), value_name = "NAME")]
    pub format: Option<Format>,
    /// Give up after this many seconds (0: no limit), on the search for the solution and on
    /// the path (exit status 1 when no step was found in time).
    #[arg(long, alias = "timeout-seconds", value_name = "SECONDS", value_parser = parse_seconds, allow_negative_numbers = true)]
    pub timeout: Option<Duration>,
}

/// The formats `convert` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// A Kakuro as a janko grid.
    Janko,
    /// A Sudoku as an `N N` grid.
    Sudoku,
    /// A Killer Sudoku as its sums grid and cage grid.
    Killer,
    /// Sudoku, one line of N*N characters each.
    Lines,
    /// A Sudoku as N rows of N characters (the `.sdk` layout).
    Sdk,
    /// A Sudoku as an ipuz document.
    Ipuz,
    /// Kakuro and Sudoku as puzz.link URLs, one per line.
    Puzzlink,
    /// A Kakuro as a kanpen file, as pzprjs saves one.
    Kanpen,
    /// Sudoku and Killer Sudoku as f-puzzles URLs, one per line.
    Fpuzzles,
    /// Any puzzle as a kakurod JSON document.
    Json,
    /// Any puzzle as an SVG picture of its empty grid.
    Svg,
}

impl Target {
    /// Every target, in the order `--help` lists them.
    pub const ALL: [Target; 11] = [
        Target::Janko,
        Target::Sudoku,
        Target::Killer,
        Target::Lines,
        Target::Sdk,
        Target::Ipuz,
        Target::Puzzlink,
        Target::Kanpen,
        Target::Fpuzzles,
        Target::Json,
        Target::Svg,
    ];

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Target::Janko => "janko",
            Target::Sudoku => "sudoku",
            Target::Killer => "killer",
            Target::Lines => "lines",
            Target::Sdk => "sdk",
            Target::Ipuz => "ipuz",
            Target::Puzzlink => "puzzlink",
            Target::Kanpen => "kanpen",
            Target::Fpuzzles => "fpuzzles",
            Target::Json => "json",
            Target::Svg => "svg",
        }
    }

    /// The file extension of this format.
    pub fn extension(self) -> &'static str {
        match self {
            Target::Sdk => "sdk",
            Target::Ipuz => "ipuz",
            Target::Json => "json",
            Target::Svg => "svg",
            _ => "txt",
        }
    }

    /// True when a file of this format holds many puzzles, one per line.
    pub fn many_per_file(self) -> bool {
        matches!(self, Target::Lines | Target::Puzzlink | Target::Fpuzzles)
    }
}
