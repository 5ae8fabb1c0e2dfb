//! Readers for every input format, and detection of the format from the content.
//!
//! Every reader is pure: text in, [`Document`] or [`InputError`] out, never a panic and never
//! an allocation sized by an unchecked number from the input. Semantic checks of the puzzle
//! (clues that cannot be reached, runs without clues, ...) run here too, through
//! `puzzle::validate`, so an error always names a line and a column of the file.
//!
//! One file per format: `janko` (janko and backslash grids), `matrices`, `sudoku` (grid),
//! `lines`, `killer`, `dzn`, `json` (schema in its module doc), `puzzlink` (URLs, read and
//! written), `sdk` (Sudoku rows as people keep them), `ipuz` (Sudoku, read and written),
//! `kanpen` (pzprjs's Kakuro files, read and written), `fpuzzles` (f-puzzles / SudokuPad
//! Sudoku and Killer: JSON, compressed strings and URLs, read and written); `detect` tells
//! them apart,
//! `text` holds the shared line and token scanning, and `solution` reads `.sol` files.
//! [`generation`] reads the one JSON input that is not a puzzle: a generation job.
//!
//! Decisions worth knowing:
//! - grid sides are capped at 1000 rows and columns, and a header is checked against the
//!   rows actually present before anything of its size is allocated;
//! - a Sudoku side must be `k*k` from 4 to 25 (a 1x1 grid is refused); a Killer side may
//!   also have rectangular boxes (6x6 with 2x3 boxes, as in the janko data);
//! - blank lines inside and around grids are ignored; `\r\n` line endings are accepted;
//! - columns count characters, not bytes.

mod detect;
mod dzn;
pub mod fpuzzles;
pub mod generation;
pub mod ipuz;
mod janko;
pub mod json;
mod json_grid;
mod json_path;
pub mod kanpen;
mod killer;
pub mod lines;
mod matrices;
pub mod puzzlink;
mod sdk;
pub mod solution;
mod sudoku;
pub mod text;

pub use detect::detect;

use crate::puzzle::Puzzle;
use crate::solver::SolveOverrides;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The input formats kakurod reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// Kakuro grid: `R C`, then tokens `-`, `0`, `D,R`.
    Janko,
    /// Kakuro grid with `D\R` clue tokens.
    Backslash,
    /// Kakuro as two matrices (`rows=`, `columns=`, `Horizontal`, `Vertical`).
    Matrices,
    /// Sudoku grid: `R C`, then numbers and `-`.
    Sudoku,
    /// Sudoku lines: one puzzle per line, N*N characters.
    Lines,
    /// Killer Sudoku: sums grid, then cage-id grid.
    Killer,
    /// MiniZinc data: `initial_values = [| ... |];`.
    Dzn,
    /// kakurod's JSON schema.
    Json,
    /// puzz.link (pzprjs) URLs, one per line: `https://puzz.link/p?kakuro/…`, `…?sudoku/…`.
    Puzzlink,
    /// Sudoku rows as people keep them: `53..7....`, spaced, boxed, SadMan `[Puzzle]`.
    Sdk,
    /// ipuz (<http://ipuz.org>) Sudoku: JSON whose `kind` is `http://ipuz.org/sudoku`.
    Ipuz,
    /// Kanpen (pzprjs) Kakuro file: the grid's sides, then `ROW COL RIGHT DOWN` lines.
    Kanpen,
    /// f-puzzles / SudokuPad Sudoku and Killer: JSON, its lz-string form, or URLs.
    Fpuzzles,
}

impl Format {
    /// Every format, in the order `--help` lists them.
    pub const ALL: [Format; 13] = [
        Format::Janko,
        Format::Backslash,
        Format::Matrices,
        Format::Sudoku,
        Format::Lines,
        Format::Killer,
        Format::Dzn,
        Format::Json,
        Format::Puzzlink,
        Format::Sdk,
        Format::Ipuz,
        Format::Kanpen,
        Format::Fpuzzles,
    ];

    /// The format called `name`, in any letter case.
    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.name().eq_ignore_ascii_case(name))
    }

    /// The name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Format::Janko => "janko",
            Format::Backslash => "backslash",
            Format::Matrices => "matrices",
            Format::Sudoku => "sudoku",
            Format::Lines => "lines",
            Format::Killer => "killer",
            Format::Dzn => "dzn",
            Format::Json => "json",
            Format::Puzzlink => "puzzlink",
            Format::Sdk => "sdk",
            Format::Ipuz => "ipuz",
            Format::Kanpen => "kanpen",
            Format::Fpuzzles => "fpuzzles",
        }
    }
}

/// Why an input was rejected, and where.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
pub struct InputError {
    /// 1-based line of the offending text.
    pub line: usize,
    /// 1-based column (in characters) of the offending text.
    pub column: usize,
    /// What is wrong.
    pub message: String,
    /// What was expected instead.
    pub expected: String,
}

impl InputError {
    /// An error about the file as a whole (its name, size, kind or bytes), placed at its
    /// start.
    pub fn whole_file(message: impl Into<String>, expected: impl Into<String>) -> InputError {
        InputError { line: 1, column: 1, message: message.into(), expected: expected.into() }
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {}: {} (expected {})",
            self.line, self.column, self.message, self.expected
        )
    }
}

/// One puzzle read from a file.
#[derive(Clone, Debug, PartialEq)]
pub struct Parsed {
    /// The puzzle.
    pub puzzle: Puzzle,
    /// Solver settings the file asks for (JSON format only; empty otherwise). The pipeline
    /// applies them within the operator's options ([`SolveOverrides::within`]).
    pub overrides: SolveOverrides,
    /// 1-based line where this puzzle starts (meaningful for batches).
    pub line: usize,
}

/// A whole input file, read.
#[derive(Clone, Debug, PartialEq)]
pub struct Document {
    /// The format it was read as.
    pub format: Format,
    /// True for a batch format (many puzzles per file, answered line by line).
    pub batch: bool,
    /// The puzzles in file order; in a batch one bad entry does not spoil the others.
    pub entries: Vec<Result<Parsed, InputError>>,
}

/// `text` without its byte-order mark: not content, so columns on line 1 count from
/// after it.
pub fn without_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// Reads `text` as `forced`, or as the format detected from the content.
pub fn read(text: &str, forced: Option<Format>) -> Result<Document, InputError> {
    let text = without_bom(text);
    let format = match forced.or_else(|| detect(text)) {
        Some(format) => format,
        None => return Err(unknown_format(text)),
    };
    match format {
        Format::Janko => janko::read(text, ',', Format::Janko),
        Format::Backslash => janko::read(text, '\\', Format::Backslash),
        Format::Matrices => matrices::read(text),
        Format::Sudoku => sudoku::read(text),
        Format::Lines => lines::read(text),
        Format::Killer => killer::read(text),
        Format::Dzn => dzn::read(text),
        Format::Json => json::read(text),
        Format::Puzzlink => puzzlink::read(text),
        Format::Sdk => sdk::read(text),
        Format::Ipuz => ipuz::read(text),
        Format::Kanpen => kanpen::read(text),
        Format::Fpuzzles => fpuzzles::read(text),
    }
}

/// The error for content that fits no format, placed on its first non-blank character.
fn unknown_format(text: &str) -> InputError {
    let offset = text.len() - text.trim_start().len();
    let message = if text.trim().is_empty() {
        "the file is empty".to_string()
    } else if text.trim_start().starts_with('<') {
        "the file is markup (an HTML or XML page), not a puzzle".to_string()
    } else {
        "cannot tell the puzzle format from the content".to_string()
    };
    text::error_at(
        text,
        offset,
        message,
        "a janko, backslash or matrices Kakuro, a Sudoku grid or lines, a Killer grid, \
         MiniZinc data, JSON, ipuz, f-puzzles, puzz.link URLs, kanpen or Sudoku rows (or name \
         the format explicitly)",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const JANKO: &str = "3 3\n- 4, 3,\n,4 0 0\n,3 0 0\n";

    #[test]
    fn detected_format_is_reported() {
        assert_eq!(read(JANKO, None).unwrap().format, Format::Janko);
        let with_bom = format!("\u{feff}{JANKO}");
        assert_eq!(read(&with_bom, None).unwrap(), read(JANKO, None).unwrap());
    }

    #[test]
    fn a_forced_format_always_wins() {
        let e = read(JANKO, Some(Format::Sudoku)).unwrap_err();
        assert!(e.message.contains("square"), "{e}");
        let e = read(JANKO, Some(Format::Killer)).unwrap_err();
        assert!(e.message.contains("side 3 is outside"), "{e}");
        let doc = read(JANKO, Some(Format::Lines)).unwrap();
        assert_eq!((doc.format, doc.batch, doc.entries.len()), (Format::Lines, true, 4));
        assert!(doc.entries.iter().all(Result::is_err));
        let e = read(JANKO, Some(Format::Json)).unwrap_err();
        assert!(e.message.contains("invalid type: integer `3`"), "{e}");
    }

    #[test]
    fn unknown_or_empty_content_is_an_error_on_its_first_character() {
        let e = read("\n\n   hello world\n", None).unwrap_err();
        assert_eq!((e.line, e.column), (3, 4));
        assert!(e.message.contains("cannot tell"), "{e}");
        let e = read("", None).unwrap_err();
        assert_eq!((e.line, e.column, e.message.as_str()), (1, 1, "the file is empty"));
    }
}
