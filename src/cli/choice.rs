//! Choices taken by name on the command line: each value's name is its own type's (the
//! one its serde form and the configuration use), and its help line under "Possible values"
//! in `--help` is the command line's, so the types below carry no command-line text.

use crate::format::Format;
use crate::generate::{GradeGoal, Symmetry};
use crate::grade::Difficulty;
use crate::logging::{LogFormat, LogLevel};
use crate::puzzle::Kind;
use crate::solver::{Algorithm, GradeMode, Mode, ValOrder, VarOrder};
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};

/// A solver setting chosen by name. The names are the solver's own; the help lines are
/// the command line's, so the solver carries no command-line text.
pub(super) trait Choice: Copy + Send + Sync + 'static {
    /// Every value, in the order `--help` lists them.
    const ALL: &'static [Self];
    /// The value's name.
    fn name(self) -> &'static str;
    /// The value's line under "Possible values" in `--help`.
    fn help(self) -> &'static str;
}

/// Parses one of `T`'s names into `T`; `--help` lists every name with its help line.
pub(super) fn choice<T: Choice>() -> impl TypedValueParser<Value = T> {
    let values = T::ALL.iter().map(|&value| PossibleValue::new(value.name()).help(value.help()));
    // The possible values are checked first, so the lookup cannot miss.
    PossibleValuesParser::new(values).try_map(|name: String| {
        T::ALL.iter().copied().find(|value| value.name() == name).ok_or(name)
    })
}

impl Choice for Format {
    const ALL: &'static [Self] = &Format::ALL;

    fn name(self) -> &'static str {
        Format::name(self)
    }

    fn help(self) -> &'static str {
        match self {
            Format::Janko => "Kakuro grid: `R C`, then tokens `-`, `0`, `D,R`",
            Format::Backslash => "Kakuro grid with `D\\R` clue tokens",
            Format::Matrices => {
                "Kakuro as two matrices (`rows=`, `columns=`, `Horizontal`, `Vertical`)"
            }
            Format::Sudoku => "Sudoku grid: `R C`, then numbers and `-`",
            Format::Lines => "Sudoku lines: one puzzle per line, N*N characters",
            Format::Killer => "Killer Sudoku: sums grid, then cage-id grid",
            Format::Dzn => "MiniZinc data: `initial_values = [| ... |];`",
            Format::Json => "kakurod's JSON schema",
            Format::Puzzlink => "puzz.link URLs of Kakuro and Sudoku, one per line",
            Format::Sdk => "Sudoku rows as people keep them: `53..7....`, spaced, boxed, SadMan",
            Format::Ipuz => "ipuz Sudoku (JSON, `http://ipuz.org/sudoku`)",
            Format::Kanpen => {
                "Kanpen Kakuro file as pzprjs saves it: sides, then `ROW COL RIGHT DOWN`"
            }
            Format::Fpuzzles => {
                "f-puzzles / SudokuPad Sudoku and Killer: JSON, lz-string data or URLs, one per line"
            }
        }
    }
}

impl Choice for super::Target {
    const ALL: &'static [Self] = &super::Target::ALL;

    fn name(self) -> &'static str {
        super::Target::name(self)
    }

    fn help(self) -> &'static str {
        match self {
            super::Target::Janko => "a Kakuro as a janko grid (one per file)",
            super::Target::Sudoku => "a Sudoku as an `N N` grid (one per file)",
            super::Target::Killer => "a Killer Sudoku as its sums and cages grids (one per file)",
            super::Target::Lines => "Sudoku, one line of N*N characters each",
            super::Target::Sdk => "a Sudoku as N rows of N characters, `.` blank (one per file)",
            super::Target::Ipuz => "a Sudoku as an ipuz document (one per file)",
            super::Target::Puzzlink => "Kakuro and Sudoku as puzz.link URLs, one per line",
            super::Target::Kanpen => "a Kakuro as a kanpen file, as pzprjs saves it (one per file)",
            super::Target::Fpuzzles => "Sudoku and Killer Sudoku as f-puzzles URLs, one per line",
            super::Target::Json => "any puzzle as a kakurod JSON document (one per file)",
            super::Target::Svg => "any puzzle as a picture of its empty grid (one per file)",
        }
    }
}

impl Choice for crate::render::sheet::Paper {
    const ALL: &'static [Self] = &Self::ALL;

    fn name(self) -> &'static str {
        Self::name(self)
    }

    fn help(self) -> &'static str {
        match self {
            Self::A4 => "210 x 297 mm",
            Self::Letter => "8.5 x 11 in",
        }
    }
}

impl Choice for Algorithm {
    const ALL: &'static [Self] = &Algorithm::ALL;

    fn name(self) -> &'static str {
        Algorithm::name(self)
    }

    fn help(self) -> &'static str {
        match self {
            Algorithm::Bt => {
                "Generic backtracking: assign, then check the constraints of the assigned variable"
            }
            Algorithm::Fc => {
                "Forward checking: after each assignment, prune the other variables of its \
                 constraints once (no fixed point); a variable pruned to one value counts as \
                 assigned"
            }
            Algorithm::Mac => {
                "Maintaining arc consistency: propagate every constraint to a fixed point; in \
                 `first` and `unique` modes a CDCL SAT solver joins a search that outlives a \
                 short probe"
            }
            Algorithm::Sat => {
                "The CDCL SAT solver alone, on a CNF encoding of the propagated model"
            }
        }
    }
}

impl Choice for VarOrder {
    const ALL: &'static [Self] = &VarOrder::ALL;

    fn name(self) -> &'static str {
        VarOrder::name(self)
    }

    fn help(self) -> &'static str {
        match self {
            VarOrder::InputOrder => "The first unfixed variable in model order",
            VarOrder::FirstFail => {
                "Minimum remaining values: the unfixed variable with the smallest domain"
            }
            VarOrder::Smallest => "The unfixed variable with the smallest value in its domain",
        }
    }
}

impl Choice for ValOrder {
    const ALL: &'static [Self] = &ValOrder::ALL;

    fn name(self) -> &'static str {
        ValOrder::name(self)
    }

    fn help(self) -> &'static str {
        match self {
            ValOrder::Min => "Smallest value first",
            ValOrder::Max => "Largest value first",
        }
    }
}

impl Choice for Mode {
    const ALL: &'static [Self] = &Mode::ALL;

    fn name(self) -> &'static str {
        Mode::name(self)
    }

    fn help(self) -> &'static str {
        match self {
            Mode::First => "Stop at the first solution",
            Mode::Unique => "Look for a second solution, to prove the first one unique",
            Mode::Count => "Count all solutions (up to `--count-limit`)",
        }
    }
}

impl Choice for GradeMode {
    const ALL: &'static [Self] = &GradeMode::ALL;

    fn name(self) -> &'static str {
        GradeMode::name(self)
    }

    fn help(self) -> &'static str {
        match self {
            GradeMode::Off => "No grade",
            GradeMode::Auto => {
                "The grade the answer already tells, or one that costs at most a fifth of the search"
            }
            GradeMode::Full => {
                "The whole grade, trial included, whatever it costs (within --timeout)"
            }
        }
    }
}

impl Choice for Symmetry {
    const ALL: &'static [Self] = &Symmetry::ALL;

    fn name(self) -> &'static str {
        Symmetry::name(self)
    }

    fn help(self) -> &'static str {
        match self {
            Symmetry::None => "no symmetry",
            Symmetry::Rotational => {
                "a half turn maps a Kakuro's black cells (a Sudoku's givens) onto themselves"
            }
            Symmetry::Mirror => {
                "the left-right mirror maps a Kakuro's black cells (a Sudoku's givens) onto themselves"
            }
        }
    }
}

impl Choice for Kind {
    const ALL: &'static [Self] = &[Kind::Kakuro, Kind::Sudoku, Kind::Killer];

    fn name(self) -> &'static str {
        Kind::name(self)
    }

    fn help(self) -> &'static str {
        match self {
            Kind::Kakuro => "cross sums (--rows, --cols)",
            Kind::Sudoku => "givens in a symmetric pattern (--size)",
            Kind::Killer => "cages with sums, no givens (--size)",
        }
    }
}

impl Choice for GradeGoal {
    const ALL: &'static [Self] = &GradeGoal::ALL;

    fn name(self) -> &'static str {
        GradeGoal::name(self)
    }

    fn help(self) -> &'static str {
        match self {
            GradeGoal::Logic => "easy, medium or hard: solvable by logic alone, no trial",
            GradeGoal::Exactly(Difficulty::Easy) => {
                "Kakuro: unique combinations and crossing runs; Sudoku: singles"
            }
            GradeGoal::Exactly(Difficulty::Medium) => {
                "Kakuro: subsets and bounds inside runs; Sudoku: pointing, claiming, subsets"
            }
            GradeGoal::Exactly(Difficulty::Hard) => {
                "Kakuro: whole-run consistency; Sudoku: quads, fish, skyscraper, kites, wings, \
                 finned X-wings"
            }
            GradeGoal::Exactly(Difficulty::Unfair) => {
                "Sudoku only: finned and sashimi swordfish and jellyfish"
            }
            GradeGoal::Exactly(Difficulty::Expert) => {
                "Kakuro: needs trial, assume a digit and follow it to a contradiction \
                 (a Sudoku: extreme)"
            }
            GradeGoal::Exactly(Difficulty::Extreme) => {
                "Sudoku: needs trial or more, HoDoKu's extreme (a Kakuro: expert)"
            }
            GradeGoal::Any => "any grade, expert and extreme included",
        }
    }
}

impl Choice for LogFormat {
    const ALL: &'static [Self] = &LogFormat::ALL;

    fn name(self) -> &'static str {
        LogFormat::name(self)
    }

    fn help(self) -> &'static str {
        match self {
            LogFormat::Text => "Human-readable lines",
            LogFormat::Json => "One JSON object per line",
        }
    }
}

impl Choice for LogLevel {
    const ALL: &'static [Self] = &LogLevel::ALL;

    fn name(self) -> &'static str {
        LogLevel::name(self)
    }

    fn help(self) -> &'static str {
        match self {
            LogLevel::Error => "Errors only",
            LogLevel::Warn => "Errors and warnings",
            LogLevel::Info => "Start-up, shutdown and one line per puzzle",
            LogLevel::Debug => "Also file events and readiness decisions",
            LogLevel::Trace => "Everything",
        }
    }
}
