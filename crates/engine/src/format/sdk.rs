//! Sudoku grids as people keep them (`sdk`): N rows of N cells, one row a line, as the
//! `.sdk` files of SadMan Sudoku and HoDoKu, puzzle books and forums write them.
//!
//! - A cell is `1`-`9`, or a letter for 10 and up (`A` = 10 .. `P` = 25, either case), or a
//!   blank: `.`, `0`, `-`, `_` or `*`. Cells may stand side by side (`53..7....`) or apart
//!   (`5 3 . . 7`); where a row's cells are apart and one of them has several digits
//!   (`10 . 12 …`, a 16x16 written in numbers), each word is one cell.
//! - Box separators are ignored: `|` within rows, and lines of `-`, `+`, `=` and `|` alone
//!   (`------+-------+------`, `+---+---+---+`); a line of N `-` alone is a row of blanks.
//! - An optional `N N` header; `#` comment lines; a SadMan `[Puzzle]` section (the other
//!   sections, `[Solution]`, `[State]`, … are skipped).
//!
//! N is 4, 9, 16 or 25.

use super::text::{self, Line};
use super::{Document, Format, InputError, Parsed};
use crate::puzzle::validate;
use crate::puzzle::{Puzzle, Sudoku};
use crate::solver::SolveOverrides;

/// Reads a Sudoku grid of rows of cells.
pub fn read(text: &str) -> Result<Document, InputError> {
    let mut lines = puzzle_lines(text);
    let header = lines.first().copied().filter(is_header);
    if header.is_some() {
        lines.remove(0);
    }
    // The side, from the first line with a cell other than `-`: a line of `-` alone is a
    // row of blanks when it has that many, and a separator otherwise.
    let side = lines
        .iter()
        .find(|l| !is_separator(l.text))
        .map(|l| cells(*l).map(|c| c.len()))
        .transpose()?;
    let mut rows: Vec<(Line<'_>, Vec<Cell>)> = Vec::new();
    for line in &lines {
        if is_separator(line.text) && !is_blank_row(line.text, side) {
            continue;
        }
        rows.push((*line, cells(*line)?));
    }
    let Some((first, first_cells)) = rows.first() else {
        let message = "the file holds no grid";
        return Err(text::error_at(text, text.len(), message, "N rows of N cells"));
    };
    let n = first_cells.len();
    let box_size = validate::sudoku_box(n).map_err(|_| {
        let message = format!("a row of {n} cells is not the row of a Sudoku");
        first.error_at(first.start, message, "rows of 4, 9, 16 or 25 cells")
    })?;
    if let Some(header) = header
        && header.text.split_whitespace().any(|t| t != n.to_string())
    {
        let message =
            format!("the header `{}` does not match rows of {n} cells", header.text.trim());
        return Err(header.error_at(header.start, message, format!("`{n} {n}`")));
    }
    for (line, row) in &rows {
        if row.len() != n {
            let message = format!("a row of {} cells, where the first has {n}", row.len());
            return Err(line.error_at(line.start, message, format!("{n} cells")));
        }
    }
    if rows.len() != n {
        let (line, _) = rows.get(n).unwrap_or(&rows[rows.len() - 1]);
        let (message, at) = if rows.len() > n {
            (format!("more than {n} rows"), line.start)
        } else {
            (format!("only {} rows of {n}", rows.len()), line.start + line.text.len())
        };
        return Err(line.error_at(at, message, format!("{n} rows of {n} cells")));
    }
    let mut givens = Vec::with_capacity(n * n);
    let mut offsets = Vec::with_capacity(n * n);
    for (line, row) in &rows {
        for cell in row {
            if cell.value as usize > n {
                let message = format!("`{}` stands for {}, above {n}", cell.shown, cell.value);
                return Err(line.error_at(cell.offset, message, format!("a value from 1 to {n}")));
            }
            givens.push(cell.value);
            offsets.push((*line, cell.offset));
        }
    }
    let sudoku = Sudoku { n, box_size, givens };
    validate::sudoku(&sudoku).map_err(|e| {
        let (line, offset) = offsets[e.cell.min(offsets.len() - 1)];
        line.error_at(offset, e.message, e.expected)
    })?;
    Ok(Document {
        format: Format::Sdk,
        batch: false,
        entries: vec![Ok(Parsed {
            puzzle: Puzzle::Sudoku(sudoku),
            overrides: SolveOverrides::default(),
            line: header.unwrap_or(*first).number,
        })],
    })
}

/// True when `text` (with no `R C` header) looks like a grid of rows: a `[Puzzle]` section,
/// a box separator line, a first row of 4, 9 or 25 cells side by side (16 when the grid has
/// 16 rows: 16 characters alone are also a 4x4 Sudoku on one line), or a first row of
/// 4, 9, 16 or 25 cells apart or between `|`.
pub(crate) fn looks_like(text: &str) -> bool {
    let has_section = text::lines(text).any(|l| l.text.trim().eq_ignore_ascii_case("[puzzle]"));
    let lines = puzzle_lines(text);
    let Some(first) = lines.first() else { return false };
    if has_section || (is_separator(first.text) && first.text.contains(['+', '=', '|'])) {
        return true;
    }
    let words: Vec<&str> = first
        .text
        .split(|c: char| c.is_whitespace() || c == '|')
        .filter(|w| !w.is_empty())
        .collect();
    // Only cells: a line of other characters (junk, prose, another format) is no row.
    if !words.iter().all(|w| w.chars().all(|c| value(c).is_some())) {
        return false;
    }
    let sides = [4, 9, 16, 25];
    // Every cell a value of the side: prose of letters is no row of a 16x16 or 25x25.
    let cells = words.concat();
    let fits = |side: usize| cells.chars().all(|c| value(c).is_some_and(|v| v as usize <= side));
    match words.as_slice() {
        [one] if !first.text.contains('|') => {
            let rows = lines.iter().filter(|l| !is_separator(l.text)).count();
            let side = one.chars().count();
            (matches!(side, 4 | 9 | 25) || (side == 16 && rows == 16)) && fits(side)
        }
        _ => [words.len(), cells.chars().count()]
            .into_iter()
            .any(|side| sides.contains(&side) && fits(side)),
    }
}

/// True when the first line after an `N N` header is a row of N cells side by side (where
/// the `sudoku` grid has N words).
pub(crate) fn rows_after_header(first_row: &str, n: usize) -> bool {
    let words: Vec<&str> = first_row.split_whitespace().collect();
    n >= 4 && matches!(words.as_slice(), [one] if one.chars().count() == n)
        || first_row.contains(['|', '+'])
}

/// The lines that may hold the puzzle: not blank, not `#` comments, and within the
/// `[Puzzle]` section when the file has sections.
pub(crate) fn puzzle_lines(text: &str) -> Vec<Line<'_>> {
    let content = text::lines(text).filter(Line::is_content);
    let mut section: Option<bool> = None;
    let mut lines = Vec::new();
    for line in content {
        let trimmed = line.text.trim();
        if trimmed.starts_with('[') && trimmed.ends_with(']') {
            section = Some(trimmed.eq_ignore_ascii_case("[puzzle]"));
            continue;
        }
        if section != Some(false) {
            lines.push(line);
        }
    }
    lines
}

/// `N N`: two equal numbers and nothing else.
fn is_header(line: &Line<'_>) -> bool {
    let words: Vec<&str> = line.text.split_whitespace().collect();
    matches!(words.as_slice(), [a, b] if a == b && a.len() <= 2 && a.bytes().all(|c| c.is_ascii_digit()))
}

/// A line of `-`, `+`, `=`, `|` and spaces alone.
pub(crate) fn is_separator(line: &str) -> bool {
    let line = line.trim();
    !line.is_empty() && line.bytes().all(|b| matches!(b, b'-' | b'+' | b'=' | b'|' | b' ' | b'\t'))
}

/// A line of `-` alone (spaces aside) with `side` of them: a row of blanks.
fn is_blank_row(line: &str, side: Option<usize>) -> bool {
    let dashes = line.trim();
    dashes.bytes().all(|b| matches!(b, b'-' | b' ' | b'\t'))
        && side == Some(dashes.bytes().filter(|&b| b == b'-').count())
}

/// One cell of a row.
#[derive(Clone, Copy, Debug)]
struct Cell {
    value: u32,
    /// Byte offset in the whole text.
    offset: usize,
    shown: char,
}

/// The cells of a row line.
fn cells(line: Line<'_>) -> Result<Vec<Cell>, InputError> {
    let words: Vec<(usize, &str)> = line
        .text
        .split(|c: char| c.is_whitespace() || c == '|')
        .scan(0usize, |at, word| {
            let start = *at;
            *at += word.len() + 1;
            Some((start, word))
        })
        .filter(|(_, w)| !w.is_empty())
        .collect();
    let numbers = words.len() > 1
        && words.iter().all(|(_, w)| is_blank(w) || w.bytes().all(|b| b.is_ascii_digit()))
        && words.iter().any(|(_, w)| w.len() > 1 && w.bytes().all(|b| b.is_ascii_digit()));
    let mut row = Vec::new();
    for (at, word) in words {
        let offset = line.start + at;
        if numbers {
            let shown = word.chars().next().unwrap_or(' ');
            let value = if is_blank(word) { 0 } else { text::number(word).unwrap_or(u32::MAX) };
            row.push(Cell { value, offset, shown });
            continue;
        }
        for (i, c) in word.char_indices() {
            let Some(value) = value(c) else {
                let message = format!("unknown cell `{c}`");
                let expected =
                    "a digit, a letter A.. for 10 and up, or `.`, `0`, `-`, `_` or `*` for a blank";
                return Err(line.error_at(offset + i, message, expected));
            };
            row.push(Cell { value, offset: offset + i, shown: c });
        }
    }
    Ok(row)
}

/// A word of one blank character.
fn is_blank(word: &str) -> bool {
    let mut chars = word.chars();
    matches!((chars.next().and_then(value), chars.next()), (Some(0), None))
}

/// A cell character's value: 0 for a blank.
fn value(c: char) -> Option<u32> {
    match c {
        '.' | '0' | '-' | '_' | '*' => Some(0),
        '1'..='9' => c.to_digit(10),
        'A'..='Z' => Some(u32::from(c) - u32::from('A') + 10),
        'a'..='z' => Some(u32::from(c) - u32::from('a') + 10),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ROWS: [&str; 9] = [
        "53..7....",
        "6..195...",
        ".98....6.",
        "8...6...3",
        "4..8.3..1",
        "7...2...6",
        ".6....28.",
        "...419..5",
        "....8..79",
    ];

    fn givens(text: &str) -> Vec<u32> {
        let doc = read(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let Ok(Parsed { puzzle: Puzzle::Sudoku(s), .. }) = &doc.entries[0] else { panic!() };
        s.givens.clone()
    }

    #[test]
    fn every_spelling_of_the_same_grid_reads_the_same() {
        let plain = ROWS.join("\n");
        let expected = givens(&plain);
        assert_eq!(expected[..5], [5, 3, 0, 0, 7]);
        let spaced: Vec<String> = ROWS
            .iter()
            .map(|r| r.chars().map(String::from).collect::<Vec<_>>().join(" "))
            .collect();
        let boxed: Vec<String> =
            ROWS.iter().map(|r| format!("{} | {} | {}", &r[..3], &r[3..6], &r[6..])).collect();
        let mut with_lines = Vec::new();
        for (i, row) in boxed.iter().enumerate() {
            if i % 3 == 0 {
                with_lines.push("+-------+-------+-------+".to_string());
            }
            with_lines.push(format!("| {row} |"));
        }
        with_lines.push("+-------+-------+-------+".to_string());
        let sadman = format!(
            "[Puzzle]\n{}\n[Solution]\n534678912\n",
            ROWS.map(|r| r.replace('.', "0")).join("\n")
        );
        let spellings = [
            spaced.join("\n"),
            format!("9 9\n{plain}"),
            with_lines.join("\n"),
            format!("#A kakurod\n#B 2026-11-27\n{}", ROWS.map(|r| r.replace('.', "*")).join("\n")),
            sadman,
            boxed.join("\n------+-------+------\n"),
        ];
        for text in spellings {
            assert_eq!(givens(&text), expected, "{text}");
        }
    }

    #[test]
    fn a_row_of_dashes_is_a_row_of_blanks_and_a_longer_one_a_separator() {
        let grid = givens("----\n12..\n-----------\n..3.\n- - - -\n");
        assert_eq!(grid, [0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0]);
    }

    #[test]
    fn a_grid_in_numbers_reads_a_16x16() {
        let mut rows = vec![". . . . . . . . . . . . . . . .".to_string(); 16];
        rows[0] = "10 . . . . . . . . . . . . . . 16".to_string();
        let grid = givens(&rows.join("\n"));
        assert_eq!((grid[0], grid[15], grid.len()), (10, 16, 256));
    }

    #[test]
    fn bad_grids_are_placed_errors() {
        let mut short = ROWS.to_vec();
        short.pop();
        let cases = [
            (short.join("\n"), 8, 10, "only 8 rows of 9"),
            (ROWS.join("\n").replacen("53..7....", "53..7...", 1), 1, 1, "not the row of a Sudoku"),
            (ROWS.join("\n").replacen("6..195...", "6..195..", 1), 2, 1, "a row of 8 cells"),
            (ROWS.join("\n").replacen("6..195...", "6..1?5...", 1), 2, 5, "unknown cell `?`"),
            (ROWS.join("\n").replacen("6..195...", "6..1A5...", 1), 2, 5, "above 9"),
            (ROWS.join("\n").replacen("6..195...", "6..195..5", 1), 2, 9, "repeats"),
            (format!("4 4\n{}", ROWS.join("\n")), 1, 1, "does not match rows of 9"),
        ];
        for (text, line, column, words) in cases {
            let error = read(&text).unwrap_err();
            assert_eq!((error.line, error.column), (line, column), "{error}");
            assert!(error.message.contains(words), "{error}");
        }
    }
}
