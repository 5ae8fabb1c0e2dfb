//! Telling the format of a file from its content alone (the name's extension is not
//! trusted: inbox files arrive under any name).
//!
//! The checks go from the most distinctive mark to the least, each looking only at the
//! start of the text or at single bytes, so detection costs one pass at most:
//! 1. ipuz, then f-puzzles, then JSON: the first non-blank character is `{` (or `ipuz(`),
//!    ipuz when the text names an `http://ipuz.org/` version or kind, f-puzzles when its
//!    `grid` holds rows of objects (kakurod's own JSON has numbers or strings there);
//!    f-puzzles also when the first content line is an f-puzzles or SudokuPad URL or a
//!    compressed f-puzzles string (`N4I…` with a character no Sudoku line holds);
//! 2. two matrices: the first content line is `rows=` / `columns=`;
//! 3. an `R C` header: a Kakuro grid when the body has `\` (backslash) or `,` (janko)
//!    tokens, otherwise a Killer grid when a square header is followed by `2R` lines, a
//!    Sudoku grid when square, and a janko grid (which will say what is wrong) when not;
//! 4. MiniZinc data: the text holds a 2-D array literal `[|` or names `initial_values`;
//! 5. two matrices again when a line reads `Horizontal` (the size lines missing);
//! 6. puzz.link URLs: the first line that is not a `#` comment is one, of a type read;
//!    then kanpen: two lines of one number, then a line of four;
//! 7. a Sudoku grid of rows as people keep it (`sdk`): a `[Puzzle]` section, a box
//!    separator, or a first row of a Sudoku's side in cells (see `sdk`);
//! 8. Sudoku lines: the first line that is not a `#` comment is a single token.

use super::Format;
use super::text::{self, Line};

/// The format of `text`, or `None` when no format fits.
pub fn detect(text: &str) -> Option<Format> {
    let trimmed = text.trim_start();
    if super::ipuz::looks_like(text) {
        return Some(Format::Ipuz);
    }
    if super::fpuzzles::looks_like(text) {
        return Some(Format::Fpuzzles);
    }
    if trimmed.starts_with('{') {
        return Some(Format::Json);
    }
    if trimmed.starts_with('<') {
        // An HTML or XML page: no format of puzzles starts with markup.
        return None;
    }
    let mut lines = text::lines(text).filter(|line| !line.is_blank());
    let first = lines.next()?;
    if is_matrices_key(first.text) {
        return Some(Format::Matrices);
    }
    if let Some((rows, cols)) = header(first) {
        return Some(grid_format(text, first, (rows, cols), lines));
    }
    if text.contains("[|") || text.contains("initial_values") {
        return Some(Format::Dzn);
    }
    if text::lines(text).any(|l| l.text.trim().eq_ignore_ascii_case("horizontal")) {
        return Some(Format::Matrices);
    }
    if super::puzzlink::looks_like(text) {
        return Some(Format::Puzzlink);
    }
    if super::kanpen::looks_like(text) {
        return Some(Format::Kanpen);
    }
    if super::sdk::looks_like(text) {
        return Some(Format::Sdk);
    }
    let first_puzzle = text::lines(text).find(Line::is_content)?;
    (first_puzzle.tokens().count() == 1).then_some(Format::Lines)
}

/// `rows=` or `columns=` (any case, spaces allowed before `=`).
fn is_matrices_key(line: &str) -> bool {
    let line = line.trim_start();
    ["rows", "columns"].iter().any(|key| {
        line.get(..key.len()).is_some_and(|head| head.eq_ignore_ascii_case(key))
            && line[key.len()..].trim_start().starts_with('=')
    })
}

/// Two numbers and nothing else (of any size: the reader refuses sizes it cannot take,
/// with a better message than "unknown format").
fn header(line: Line<'_>) -> Option<(usize, usize)> {
    let digits = |t: &str| {
        t.bytes().all(|b| b.is_ascii_digit()).then(|| {
            t.bytes()
                .fold(0usize, |n, b| n.saturating_mul(10).saturating_add(usize::from(b - b'0')))
        })
    };
    let mut tokens = line.tokens().map(|(_, t)| digits(t));
    match (tokens.next(), tokens.next(), tokens.next()) {
        (Some(Some(rows)), Some(Some(cols)), None) => Some((rows, cols)),
        _ => None,
    }
}

/// Which grid format follows an `R C` header; `body_lines` holds the non-blank lines after
/// it (counted only when the tokens alone do not decide).
fn grid_format<'a>(
    text: &str,
    header: Line<'_>,
    (rows, cols): (usize, usize),
    body_lines: impl Iterator<Item = Line<'a>>,
) -> Format {
    let mut body_lines = body_lines.peekable();
    let body = text.get(header.start + header.text.len()..).unwrap_or("").as_bytes();
    if body.contains(&b'\\') {
        Format::Backslash
    } else if body.contains(&b',') || rows != cols {
        Format::Janko
    } else if body_lines.peek().is_some_and(|l| super::sdk::rows_after_header(l.text, rows)) {
        Format::Sdk
    } else if body_lines.count() == rows.saturating_mul(2) {
        Format::Killer
    } else {
        Format::Sudoku
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_format_is_told_apart() {
        assert_eq!(detect("  {\"kind\": \"sudoku\"}"), Some(Format::Json));
        assert_eq!(detect("{\"kind\": \"sudoku\", \"grid\": [[1]]}"), Some(Format::Json));
        assert_eq!(detect("{\"size\": 4, \"grid\": [ [ {}]]}"), Some(Format::Fpuzzles));
        assert_eq!(detect("https://sudokupad.app/fpuzzlesN4Ig"), Some(Format::Fpuzzles));
        assert_eq!(detect("https://sudokupad.app/psxczr0jpr"), Some(Format::Fpuzzles));
        assert_eq!(detect("https://puzz.link/p?nurikabe/5/5/g5k"), Some(Format::Puzzlink));
        assert_eq!(detect("N4IgzglgXgpiBcBOAvkA\n"), Some(Format::Fpuzzles));
        assert_eq!(detect("3\n3\n0 0 0 0\n"), Some(Format::Kanpen));
        assert_eq!(detect("3\n3\n"), Some(Format::Lines));
        assert_eq!(detect("rows=2\ncolumns=2\n"), Some(Format::Matrices));
        assert_eq!(detect("Rows = 2\n"), Some(Format::Matrices));
        assert_eq!(detect("% c\ninitial_values = [| 0 |];"), Some(Format::Dzn));
        assert_eq!(detect("2 2\n- 3,\n,3 0\n"), Some(Format::Janko));
        assert_eq!(detect("2 2\n- 3\\\n\\3 0\n"), Some(Format::Backslash));
        assert_eq!(detect("4 4\n1 - - -\n- - - -\n- - - -\n- - - -\n"), Some(Format::Sudoku));
        let killer =
            "4 4\n3 - - -\n- - - -\n- - - -\n- - - -\n1 1 2 2\n1 1 2 2\n3 3 4 4\n3 3 4 4\n";
        assert_eq!(detect(killer), Some(Format::Killer));
        assert_eq!(detect("# c\n\n1...\n"), Some(Format::Sdk));
        assert_eq!(detect("...\n"), Some(Format::Lines));
        assert_eq!(detect(&format!("# c\n{}\n", ".".repeat(81))), Some(Format::Lines));
        assert_eq!(detect("53..7....\n6..195...\n"), Some(Format::Sdk));
        assert_eq!(detect("5 3 . . 7 . . . .\n"), Some(Format::Sdk));
        assert_eq!(detect("+---+---+\n|12|34|\n"), Some(Format::Sdk));
        assert_eq!(detect("[Puzzle]\n1234\n"), Some(Format::Sdk));
        // Rows of other characters are no grid: junk goes to the lines reader, which
        // rejects it whole.
        assert_eq!(detect("q0/+\nq1/+\n"), Some(Format::Lines));
        assert_eq!(detect("4 4\n1...\n.2..\n..3.\n...4\n"), Some(Format::Sdk));
        // 16 characters alone: a 4x4 Sudoku line, unless the grid has 16 such rows.
        assert_eq!(detect(&".".repeat(16)), Some(Format::Lines));
        assert_eq!(detect(&format!("{}\n", ".".repeat(16)).repeat(16)), Some(Format::Sdk));
    }

    #[test]
    fn nothing_fits_empty_or_prose() {
        assert_eq!(detect(""), None);
        assert_eq!(detect(" \n\n"), None);
        assert_eq!(detect("hello there world"), None);
        assert_eq!(detect("# only a comment\n"), None);
        assert_eq!(detect("this is not a puzzle\n1 2 3\n"), None, "prose is no 16x16 row");
        assert_eq!(detect("<!DOCTYPE html>\n<html>\n"), None);
    }
}
