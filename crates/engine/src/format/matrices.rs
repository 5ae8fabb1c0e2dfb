//! Kakuro as two matrices: `rows=R`, `columns=C`, a line `Horizontal` and R lines of C
//! comma-separated tokens, then a line `Vertical` and R more lines. In each matrix `#` is a
//! black cell without that direction's clue, `0` a white cell, and a number N a clue cell
//! whose run to the right (Horizontal) or downwards (Vertical) sums to N. A cell is white in
//! both matrices or in neither.
//!
//! A broken rule is placed on the matrix token that holds it: a right clue in the
//! Horizontal matrix, a down clue in the Vertical one.

use super::text::{self, Line, MAX_SIDE};
use super::{Document, Format, InputError, Parsed};
use crate::puzzle::validate::{self, Aspect};
use crate::puzzle::{Kakuro, KakuroCell, Puzzle};
use crate::solver::SolveOverrides;

/// One matrix token: black without a clue, white, or a clue.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Entry {
    Black,
    White,
    Clue(u32),
}

/// Reads the two-matrices format.
pub fn read(text: &str) -> Result<Document, InputError> {
    let mut lines = text::lines(text).filter(|l| !l.is_blank());
    let first = lines.next();
    let (mut rows, mut cols) = (None, None);
    for line in first.into_iter().chain(lines.by_ref().take(1)) {
        let (key, value) = size_line(text, line)?;
        let slot = if key == "rows" { &mut rows } else { &mut cols };
        if slot.replace(value).is_some() {
            return Err(text::error_at(
                text,
                line.start,
                format!("`{key}=` given twice"),
                "`rows=R` and `columns=C`",
            ));
        }
    }
    let (Some(rows), Some(cols)) = (rows, cols) else {
        let at = first.map_or(0, |l| l.start);
        return Err(text::error_at(
            text,
            at,
            "missing `rows=` or `columns=`",
            "`rows=R` and `columns=C` lines",
        ));
    };
    let line = first.map_or(1, |l| l.number);
    let horizontal = matrix(text, &mut lines, "Horizontal", (rows, cols))?;
    let vertical = matrix(text, &mut lines, "Vertical", (rows, cols))?;
    if let Some(extra) = lines.next() {
        let message = "unexpected text after the Vertical matrix";
        return Err(text::error_at(text, extra.start, message, "nothing after the last row"));
    }
    let mut cells = Vec::with_capacity(horizontal.len());
    for (&(h, h_at), &(v, v_at)) in horizontal.iter().zip(&vertical) {
        let clue = |e: Entry| if let Entry::Clue(n) = e { Some(n) } else { None };
        cells.push(match (h, v) {
            (Entry::White, Entry::White) => KakuroCell::White,
            (Entry::White, _) | (_, Entry::White) => {
                let at = if v == Entry::White { h_at } else { v_at };
                let message = "the cell is white in one matrix and black in the other";
                return Err(text::error_at(
                    text,
                    at,
                    message,
                    "`0` in both matrices or in neither",
                ));
            }
            _ => KakuroCell::Black { down: clue(v), right: clue(h) },
        });
    }
    let kakuro = Kakuro { rows, cols, cells };
    validate::kakuro(&kakuro).map_err(|e| {
        let matrix = if e.aspect == Aspect::DownClue { &vertical } else { &horizontal };
        let at = matrix.get(e.cell).map_or(0, |m| m.1);
        text::error_at(text, at, e.message, e.expected)
    })?;
    Ok(Document {
        format: Format::Matrices,
        batch: false,
        entries: vec![Ok(Parsed {
            puzzle: Puzzle::Kakuro(kakuro),
            overrides: SolveOverrides::default(),
            line,
        })],
    })
}

/// `rows=R` or `columns=C`, with R and C in `1..=MAX_SIDE`.
fn size_line<'a>(text: &str, line: Line<'a>) -> Result<(&'static str, usize), InputError> {
    let expected = format!("`rows=R` and `columns=C` with numbers 1..{MAX_SIDE}");
    let Some((key, value)) = line.text.split_once('=') else {
        return Err(text::error_at(text, line.start, "expected a size line", expected));
    };
    let key = match key.trim().to_ascii_lowercase().as_str() {
        "rows" => "rows",
        "columns" => "columns",
        _ => {
            return Err(text::error_at(
                text,
                line.start,
                format!("unknown key `{}`", key.trim()),
                expected,
            ));
        }
    };
    let value_at = line.start + line.text.len() - value.trim_start().len();
    match text::number(value.trim()).map(|n| n as usize) {
        Some(n) if (1..=MAX_SIDE).contains(&n) => Ok((key, n)),
        _ => Err(text::error_at(
            text,
            value_at,
            format!("`{}` is not a valid size", value.trim()),
            expected,
        )),
    }
}

/// The title line `name`, then `rows` lines of `cols` tokens. Returns each token's entry
/// and offset, row-major.
fn matrix<'a>(
    text: &'a str,
    lines: &mut impl Iterator<Item = Line<'a>>,
    name: &str,
    (rows, cols): (usize, usize),
) -> Result<Vec<(Entry, usize)>, InputError> {
    let expected = format!("a line `{name}` then {rows} rows of {cols} comma-separated cells");
    let Some(title) = lines.next() else {
        return Err(text::error_at(
            text,
            text.len(),
            format!("the `{name}` matrix is missing"),
            expected,
        ));
    };
    if !title.text.trim().eq_ignore_ascii_case(name) {
        let message = format!("`{}` where the `{name}` matrix should start", title.text.trim());
        return Err(text::error_at(text, title.start, message, expected));
    }
    let mut entries = Vec::with_capacity((rows * cols).min(text.len() / 2 + 1));
    for row in 0..rows {
        let Some(line) = lines.next() else {
            let message = format!("the {name} matrix has {row} rows, `rows=` says {rows}");
            return Err(text::error_at(text, text.len(), message, expected));
        };
        let mut count = 0;
        let mut at = line.start;
        for raw in line.text.split(',') {
            let token_at = at + (raw.len() - raw.trim_start().len());
            at += raw.len() + 1;
            if count == cols {
                let message =
                    format!("row {} of the {name} matrix has more than {cols} cells", row + 1);
                return Err(text::error_at(
                    text,
                    token_at,
                    message,
                    format!("{cols} cells per row"),
                ));
            }
            entries.push((entry(text, token_at, raw.trim())?, token_at));
            count += 1;
        }
        if count < cols {
            let message = format!("row {} of the {name} matrix has {count} cells", row + 1);
            return Err(text::error_at(text, line.end(), message, format!("{cols} cells per row")));
        }
    }
    Ok(entries)
}

fn entry(text: &str, offset: usize, token: &str) -> Result<Entry, InputError> {
    match token {
        "#" => Ok(Entry::Black),
        "0" => Ok(Entry::White),
        _ => text::number(token).map(Entry::Clue).ok_or_else(|| {
            let message = format!("unknown cell `{token}`");
            text::error_at(text, offset, message, "`#` (black), `0` (white) or a clue number")
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str =
        "rows=3\ncolumns=3\nHorizontal\n#,#,#\n4,0,0\n3,0,0\nVertical\n#,4,3\n#,0,0\n#,0,0\n";

    fn kakuro(text: &str) -> Result<Kakuro, InputError> {
        match read(text)?.entries.into_iter().next() {
            Some(Ok(Parsed { puzzle: Puzzle::Kakuro(k), .. })) => Ok(k),
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn reads_the_same_grid_as_janko() {
        let janko = super::super::janko::read("3 3\n- 4, 3,\n,4 0 0\n,3 0 0\n", ',', Format::Janko);
        let Ok(Parsed { puzzle: Puzzle::Kakuro(expected), .. }) = &janko.unwrap().entries[0] else {
            panic!()
        };
        assert_eq!(&kakuro(SMALL).unwrap(), expected);
        let spaced = SMALL.replace(',', " , ").replace("rows=3", "ROWS = 3");
        assert_eq!(&kakuro(&spaced).unwrap(), expected);
    }

    #[test]
    fn errors_point_at_the_matrix_holding_the_clue() {
        // Down clue 3 over two cells is fine; make it 2 (unreachable) in the Vertical matrix.
        let text = SMALL.replace("#,4,3", "#,4,2");
        let e = kakuro(&text).unwrap_err();
        assert_eq!((e.line, e.column), (8, 5));
        assert!(e.message.contains("clue 2"), "{e}");
        let text = SMALL.replace("4,0,0", "18,0,0");
        let e = kakuro(&text).unwrap_err();
        assert_eq!((e.line, e.column), (5, 1));
    }

    #[test]
    fn white_in_one_matrix_only() {
        let text = SMALL.replace("#,0,0\n#,0,0", "#,0,0\n#,#,0");
        let e = kakuro(&text).unwrap_err();
        assert_eq!((e.line, e.column), (10, 3));
    }

    #[test]
    fn malformed_matrices() {
        let e = kakuro(&SMALL.replace("4,0,0", "4,0,x")).unwrap_err();
        assert_eq!((e.line, e.column), (5, 5));
        let e = kakuro(&SMALL.replace("4,0,0", "4,0")).unwrap_err();
        assert!(e.message.contains("has 2 cells"), "{e}");
        let e = kakuro(&SMALL.replace("Vertical", "Vert")).unwrap_err();
        assert_eq!(e.line, 7);
        let e = kakuro(&SMALL.replace("rows=3", "rows=1000000")).unwrap_err();
        assert_eq!((e.line, e.column), (1, 6));
        let e = kakuro(&format!("{SMALL}#,#,#\n")).unwrap_err();
        assert_eq!(e.line, 11);
    }
}
