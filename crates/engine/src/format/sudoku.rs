//! The Sudoku grid: `N N`, then N lines of N tokens, a number for a given and `-`, `.` or
//! `0` for a blank (the `sudoku/janko` files). N must be `k*k` with `4 <= N <= 25`; a 1x1
//! grid is refused as it has no boxes to speak of.

use super::text::{self, Line};
use super::{Document, Format, InputError, Parsed};
use crate::puzzle::validate;
use crate::puzzle::{Puzzle, Sudoku};
use crate::solver::SolveOverrides;

/// Reads a Sudoku grid.
pub fn read(text: &str) -> Result<Document, InputError> {
    let mut lines = text::lines(text);
    let (rows, cols, header) = text::header(text, &mut lines)?;
    let n = square_side(text, header, rows, cols)?;
    let box_size = validate::sudoku_box(n).map_err(|m| no_boxes(text, header, n, m))?;
    let capacity = (n * n).min(text.len() / 2 + 1);
    let mut givens = Vec::with_capacity(capacity);
    let mut offsets = Vec::with_capacity(capacity);
    text::grid(text, &mut lines, header, (n, n), "grid", |_, offset, token| {
        givens.push(given(text, offset, token)?);
        offsets.push(offset);
        Ok(())
    })?;
    text::expect_end(text, &mut lines, "nothing after the grid's last row")?;
    let sudoku = Sudoku { n, box_size, givens };
    validate::sudoku(&sudoku).map_err(|e| {
        let offset = offsets.get(e.cell).copied().unwrap_or(0);
        text::error_at(text, offset, e.message, e.expected)
    })?;
    Ok(Document {
        format: Format::Sudoku,
        batch: false,
        entries: vec![Ok(Parsed {
            puzzle: Puzzle::Sudoku(sudoku),
            overrides: SolveOverrides::default(),
            line: header.number,
        })],
    })
}

/// The error for a square header whose side has no Sudoku boxes. Such a header is read as a
/// Sudoku only because nothing after it looks like Kakuro clues, so the message names the
/// kinds the file may have been meant as.
fn no_boxes(text: &str, header: Line<'_>, n: usize, message: String) -> InputError {
    let kinds = "a Kakuro grid (`-` black, `0` white, clues such as `16,`, `,23` or `16\\23`), \
                 or a Sudoku or Killer Sudoku grid of side 4, 9, 16 or 25";
    let body = text.get(header.start + header.text.len()..).unwrap_or("");
    let (message, expected) = if body.trim().is_empty() {
        (
            format!("the header `{n} {n}` is followed by no grid"),
            format!("{n} rows after it: {kinds}"),
        )
    } else {
        (format!("{message}, and a grid without clues is no Kakuro"), kinds.to_string())
    };
    text::error_at(text, header.start, message, expected)
}

/// The side of a square header, or an error on the header.
pub(crate) fn square_side(
    text: &str,
    header: Line<'_>,
    rows: usize,
    cols: usize,
) -> Result<usize, InputError> {
    if rows == cols {
        return Ok(rows);
    }
    let message = format!("a Sudoku grid must be square, the header says {rows}x{cols}");
    Err(text::error_at(text, header.start, message, "a header `N N`"))
}

/// A given (`1..`), or 0 for a blank (`-`, `.`, `0`).
fn given(text: &str, offset: usize, token: &str) -> Result<u32, InputError> {
    match token {
        "-" | "." => Ok(0),
        _ => text::number(token).ok_or_else(|| {
            let message = format!("unknown cell `{token}`");
            text::error_at(text, offset, message, "a number, or `-`, `.` or `0` for a blank")
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sudoku(text: &str) -> Result<Sudoku, InputError> {
        match read(text)?.entries.into_iter().next() {
            Some(Ok(Parsed { puzzle: Puzzle::Sudoku(s), .. })) => Ok(s),
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn reads_blanks_in_all_spellings() {
        let s = sudoku("4 4\n1 - . 0\n- - - -\n- - - -\n- - - 4\n").unwrap();
        assert_eq!((s.n, s.box_size), (4, 2));
        assert_eq!(&s.givens[..4], &[1, 0, 0, 0]);
        assert_eq!(s.givens[15], 4);
    }

    #[test]
    fn non_square_sizes_are_refused() {
        let e = sudoku("4 5\n").unwrap_err();
        assert_eq!((e.line, e.column), (1, 1));
        assert!(e.message.contains("square"), "{e}");
        let e = sudoku("6 6\n- - - - - -\n").unwrap_err();
        assert!(e.message.contains("side 6"), "{e}");
        let e = sudoku("1 1\n1\n").unwrap_err();
        assert!(e.message.contains("side 1"), "{e}");
    }

    #[test]
    fn a_lone_header_names_the_kinds_it_may_have_been_meant_as() {
        let e = sudoku("5 5\n").unwrap_err();
        assert_eq!((e.line, e.column), (1, 1));
        assert!(e.message.contains("the header `5 5` is followed by no grid"), "{e}");
        assert!(e.expected.contains("5 rows") && e.expected.contains("Kakuro"), "{e}");
        assert!(e.expected.contains("Sudoku") && e.expected.contains("4, 9, 16 or 25"), "{e}");
    }

    #[test]
    fn givens_out_of_range_or_clashing_are_placed() {
        let e = sudoku("4 4\n1 - - -\n- - 5 -\n- - - -\n- - - -\n").unwrap_err();
        assert_eq!((e.line, e.column), (3, 5));
        assert!(e.message.contains("given 5 is out of range"), "{e}");
        let e = sudoku("4 4\n1 - - -\n- - - -\n- - - -\n1 - - -\n").unwrap_err();
        assert_eq!((e.line, e.column), (5, 1));
        assert!(e.message.contains("repeats in its column"), "{e}");
    }

    #[test]
    fn unknown_tokens_and_ragged_rows() {
        let e = sudoku("4 4\n1 - - -\n- x - -\n- - - -\n- - - -\n").unwrap_err();
        assert_eq!((e.line, e.column), (3, 3));
        let e = sudoku("4 4\n1 - - -\n- - -\n- - - -\n- - - -\n").unwrap_err();
        assert_eq!((e.line, e.column), (3, 6));
        let e = sudoku("4 4\n1 - - -\n- - - -\n- - - -\n").unwrap_err();
        assert!(e.message.contains("has 3 rows"), "{e}");
    }
}
