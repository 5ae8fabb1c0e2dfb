//! Seeded generator of Kakuro puzzles, by default with exactly one solution, proved; and of
//! Sudoku and Killer Sudoku with exactly one solution (`grids`).
//!
//! Everything is driven by one `ChaCha8Rng` seeded from the options' seed, so the same
//! options always give the same puzzle on every platform.

mod fill;
mod goal;
mod grids;
mod killer;
mod layout;
mod limits;
mod random;
mod sudoku;
mod unique;

#[cfg(test)]
pub(crate) use sudoku::full_grid as full_sudoku_grid;

pub use goal::GradeGoal;
pub use grids::{GridGenerated, GridKind, GridOptions, generate as generate_grid, to_text};

use crate::grade::Difficulty;
use crate::puzzle::{Grid, Kakuro, KakuroCell};
use crate::solver::Budget;
use layout::runs;
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use std::time::Duration;

/// The largest grid, in cells, the generator takes.
pub const MAX_CELLS: usize = 1_000_000;
/// The black share, in percent, must stay below this.
pub const MAX_BLACK: f64 = 90.0;

/// Which symmetry the black cells of a layout keep.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Symmetry {
    /// None.
    None,
    /// A half turn maps the layout onto itself (as most published Kakuro).
    #[default]
    Rotational,
    /// The left-right mirror maps the layout onto itself.
    Mirror,
}

impl Symmetry {
    /// Every symmetry.
    pub const ALL: [Symmetry; 3] = [Symmetry::None, Symmetry::Rotational, Symmetry::Mirror];

    /// The name, as on the command line and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Symmetry::None => "none",
            Symmetry::Rotational => "rotational",
            Symmetry::Mirror => "mirror",
        }
    }

    /// The symmetry called `name`, if any.
    pub fn from_name(name: &str) -> Option<Symmetry> {
        Symmetry::ALL.into_iter().find(|s| s.name() == name)
    }
}

/// What to generate.
#[derive(Clone, Debug, PartialEq)]
pub struct GenOptions {
    /// Rows, the black border row included.
    pub rows: usize,
    /// Columns, the black border column included.
    pub cols: usize,
    /// Target share of black cells in percent (0..=100; the border counts).
    pub black_percent: f64,
    /// Seed of the random generator.
    pub seed: u64,
    /// Exactly one solution (proved) when true; any solvable grid when false.
    pub unique: bool,
    /// The symmetry of the layout (unique puzzles only).
    pub symmetry: Symmetry,
    /// The grades the puzzle may have (unique puzzles only).
    pub difficulty: GradeGoal,
    /// Threads for the uniqueness checks (0 = all cores).
    pub threads: usize,
}

impl GenOptions {
    /// Options for a unique puzzle with the default symmetry, solvable by logic.
    pub fn unique(rows: usize, cols: usize, black_percent: f64, seed: u64) -> GenOptions {
        GenOptions {
            rows,
            cols,
            black_percent,
            seed,
            unique: true,
            symmetry: Symmetry::default(),
            difficulty: GradeGoal::default(),
            threads: 1,
        }
    }

    /// Options for a random solvable grid (usually with many solutions), as benchmarks use.
    pub fn any_solution(rows: usize, cols: usize, black_percent: f64, seed: u64) -> GenOptions {
        GenOptions {
            unique: false,
            symmetry: Symmetry::None,
            ..Self::unique(rows, cols, black_percent, seed)
        }
    }

    /// Refuses options that cannot give a puzzle, saying why.
    pub fn check(&self) -> Result<(), GenError> {
        let refuse = |why: String| Err(GenError::Options(why));
        let least = if self.unique { 3 } else { 2 };
        if self.rows < least || self.cols < least {
            let why = if self.unique {
                "the first row and column are black and every white cell needs runs of 2 cells"
            } else {
                "the first row and column are black"
            };
            return refuse(format!("rows and columns must be at least {least}: {why}"));
        }
        if self.rows.saturating_mul(self.cols) > MAX_CELLS {
            return refuse(format!("a grid has at most {MAX_CELLS} cells (rows x columns)"));
        }
        let border = border_percent(self.rows, self.cols);
        if !(0.0..MAX_BLACK).contains(&self.black_percent) || self.black_percent < border {
            return refuse(format!(
                "the black share of a {}x{} grid can be from {border:.1}% (its black first row \
                 and column) to below {MAX_BLACK}%, not {}%",
                self.rows, self.cols, self.black_percent
            ));
        }
        if !self.unique && self.difficulty.exact().is_some() {
            return refuse("a difficulty needs a puzzle with one solution".into());
        }
        if let Err(message) = self.difficulty.on(crate::grade::Scale::Kakuro) {
            return refuse(message);
        }
        Ok(())
    }
}

/// Why no puzzle was generated.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GenError {
    /// The options cannot give a puzzle (the message says why).
    #[error("{0}")]
    Options(String),
    /// The time limit passed first.
    #[error("no puzzle was found within the time limit")]
    Timeout,
    /// The caller cancelled.
    #[error("generation was cancelled")]
    Cancelled,
}

/// How a puzzle was proved to have one solution.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Proof {
    /// The engine of the final proof (`sat` or `search`).
    pub engine: &'static str,
    /// Uniqueness checks made while generating (the final proof included).
    pub checks: u32,
    /// Seconds spent in those checks, to the microsecond.
    pub seconds: f64,
}

impl Proof {
    /// The proof that the final `unique` solve `outcome` gives, after `checks` solver
    /// checks that took `time` in all; an error unless it found exactly one solution,
    /// completely.
    fn of(
        outcome: &crate::solver::Outcome,
        checks: u32,
        time: Duration,
    ) -> Result<Proof, GenError> {
        if !(outcome.complete && outcome.count == 1) {
            return Err(GenError::Options(format!(
                "internal error: the final proof found {} solutions",
                outcome.count
            )));
        }
        let seconds = crate::seconds::to_micros(time.as_secs_f64());
        Ok(Proof { engine: outcome.engine.name(), checks, seconds })
    }
}

/// The share of a `rows` x `cols` grid, in percent, that its black first row and column
/// take: the least black share a Kakuro of that size can have.
pub fn border_percent(rows: usize, cols: usize) -> f64 {
    let cells = rows.saturating_mul(cols).max(1) as f64;
    100.0 * (rows + cols).saturating_sub(1) as f64 / cells
}

/// The black share a Kakuro of `rows` x `cols` gets when none is asked for: 40%, or the
/// border's own share on a grid so small that its border takes more.
pub fn default_black(rows: usize, cols: usize) -> f64 {
    DEFAULT_BLACK.max(border_percent(rows, cols))
}

/// The black share asked for by default, in percent.
pub const DEFAULT_BLACK: f64 = 40.0;

/// A generated puzzle with the filling it was built from.
#[derive(Clone, Debug, PartialEq)]
pub struct Generated {
    /// The puzzle (clues only).
    pub puzzle: Kakuro,
    /// The planted filling: the puzzle's solution (its only one when `proof` is set).
    pub filling: Grid,
    /// How uniqueness was proved (unique puzzles only).
    pub proof: Option<Proof>,
    /// The puzzle's grade (unique puzzles only).
    pub difficulty: Option<Difficulty>,
    /// Seconds the whole generation took.
    pub seconds: f64,
}

impl Generated {
    /// The share of black cells reached, in percent (the border included).
    pub fn black_percent(&self) -> f64 {
        let cells = &self.puzzle.cells;
        let black = cells.iter().filter(|c| **c != KakuroCell::White).count();
        100.0 * black as f64 / cells.len().max(1) as f64
    }
}

/// A random solvable grid (usually with many solutions), as benchmarks and tests use.
pub fn any_solution(rows: usize, cols: usize, black_percent: f64, seed: u64) -> Kakuro {
    random::random_solvable(&GenOptions::any_solution(rows, cols, black_percent, seed)).puzzle
}

/// Generates a puzzle as `options` say, stopping early when `budget` is spent.
pub fn generate(options: &GenOptions, budget: Budget<'_>) -> Result<Generated, GenError> {
    options.check()?;
    let generated = if options.unique {
        unique::generate(options, budget)?
    } else {
        random::random_solvable(options)
    };
    // A grid too thin for its runs (3 x 200) keeps a handful of white cells at best: no
    // puzzle anyone asked for.
    let reached = generated.black_percent();
    if reached >= MAX_BLACK {
        let white = generated.puzzle.cells.iter().filter(|c| **c == KakuroCell::White).count();
        return Err(GenError::Options(format!(
            "a {}x{} grid keeps only {white} white cells ({reached:.1}% black, above the \
             {MAX_BLACK}% limit) once every run is 2 to 9 cells{}: make it wider in both \
             directions",
            options.rows,
            options.cols,
            if options.unique { " and the solution unique" } else { "" }
        )));
    }
    Ok(generated)
}

/// Builds the puzzle and the filling grid from a filled layout.
fn puzzle_of(white: &[bool], digits: &[u32], rows: usize, cols: usize) -> Generated {
    let mut cells: Vec<KakuroCell> =
        white.iter().map(|&w| if w { KakuroCell::White } else { black(None, None) }).collect();
    for (horizontal, run) in runs(white, rows, cols) {
        if run.len() < 2 {
            continue;
        }
        let total = run.iter().map(|&i| digits[i]).sum::<u32>();
        let clue_cell = if horizontal { run[0] - 1 } else { run[0] - cols };
        if let KakuroCell::Black { down, right } = &mut cells[clue_cell] {
            if horizontal {
                *right = Some(total);
            } else {
                *down = Some(total);
            }
        }
    }
    let filling = Grid {
        rows,
        cols,
        cells: white.iter().zip(digits).map(|(&w, &d)| w.then_some(d)).collect(),
    };
    Generated {
        puzzle: Kakuro { rows, cols, cells },
        filling,
        proof: None,
        difficulty: None,
        seconds: 0.0,
    }
}

fn black(down: Option<u32>, right: Option<u32>) -> KakuroCell {
    KakuroCell::Black { down, right }
}

/// Writes `puzzle` in the janko grid format that `kakurod solve` reads: `R C`, then one line
/// per row of space-separated tokens, `-` for a black cell without clues, `0` for a white
/// cell and `D,R` for a clue cell (either side empty when that clue is absent).
pub fn to_janko(puzzle: &Kakuro) -> String {
    let mut out = format!("{} {}\n", puzzle.rows, puzzle.cols);
    for row in puzzle.cells.chunks(puzzle.cols.max(1)) {
        let tokens: Vec<String> = row
            .iter()
            .map(|cell| match *cell {
                KakuroCell::White => "0".to_owned(),
                KakuroCell::Black { down: None, right: None } => "-".to_owned(),
                KakuroCell::Black { down, right } => {
                    let side = |v: Option<u32>| v.map(|v| v.to_string()).unwrap_or_default();
                    format!("{},{}", side(down), side(right))
                }
            })
            .collect();
        let _ = writeln!(out, "{}", tokens.join(" "));
    }
    out
}
