//! Kanpen (pencil box) Kakuro files, read and written, as pzprjs opens and saves them
//! (`FILE_PBOX`: `decodeCellQnum51_kanpen` and `decodeQans_kanpen` of its Kakuro variety,
//! the sizes in `parseFileData` of its parser):
//!
//! ```text
//! 3          grid rows, the black first row included
//! 3          grid columns, the black first column included
//! 0 0 0 0    one line per black cell: ROW COL RIGHT DOWN, counted from 0;
//! 0 1 0 4    a missing clue is 0 or -1
//! 0 2 0 3
//! 1 0 4 0
//! 2 0 3 0
//!            a blank line ends the clues
//! . . .      then, optionally, the answer grid: `.` on black cells, a digit (0: none)
//! . 0 0      on white cells; kakurod reads puzzles, so the digits are ignored
//! . 0 0
//! ```
//!
//! Cells without a line are white. The first row and column are the board's outside
//! cells: black, a column's down clue above it, a row's right clue left of it; a clue
//! they cannot hold (a right clue in the first row) is an error rather than dropped.

use super::text::{self, Line};
use super::{Document, Format, InputError, Parsed};
use crate::puzzle::validate::{self, Aspect, Invalid};
use crate::puzzle::{Kakuro, KakuroCell, Puzzle};
use crate::solver::SolveOverrides;

/// What a clue line looks like.
const CLUE_LINE: &str = "`ROW COL RIGHT DOWN`: four numbers, clues 1..45 or 0 / -1 for none";

/// True when `text` starts as a kanpen Kakuro: two lines of one number (the sides), then a
/// clue line of four numbers. No other format kakurod reads opens with a lone number
/// followed by a line of four.
pub(crate) fn looks_like(text: &str) -> bool {
    let mut lines = text::lines(text).filter(|line| !line.is_blank());
    let mut single = || lines.next().is_some_and(|l| side_token(l).is_some());
    if !(single() && single()) {
        return false;
    }
    let third = text::lines(text).filter(|line| !line.is_blank()).nth(2);
    third.is_some_and(|line| {
        let tokens: Vec<&str> = line.tokens().map(|(_, t)| t).collect();
        tokens.len() == 4 && tokens.iter().all(|t| signed(t).is_some())
    })
}

/// The one token of a side line, when the line holds a single number.
fn side_token(line: Line<'_>) -> Option<u32> {
    let mut tokens = line.tokens();
    match (tokens.next(), tokens.next()) {
        (Some((_, token)), None) => text::number(token),
        _ => None,
    }
}

/// A number that may be `-1` (pzprjs's "no clue").
fn signed(token: &str) -> Option<i64> {
    match token.strip_prefix('-') {
        Some(rest) => text::number(rest).map(|n| -i64::from(n)),
        None => text::number(token).map(i64::from),
    }
}

/// Reads a kanpen Kakuro file.
pub fn read(text: &str) -> Result<Document, InputError> {
    let mut lines = text::lines(text).peekable();
    let (rows, first) = side(text, &mut lines, "row")?;
    let (cols, _) = side(text, &mut lines, "column")?;
    let black = KakuroCell::Black { down: None, right: None };
    let mut cells = vec![None; rows * cols];
    // Where each black cell's line (and its two clues) sit, for errors about them.
    let mut places: Vec<Option<[usize; 3]>> = vec![None; rows * cols];
    let mut first_clue_line = text.len();
    while let Some(line) = lines.next_if(|line| !line.is_blank()) {
        first_clue_line = first_clue_line.min(line.start);
        let (index, cell, at) = clue_line(line, rows, cols)?;
        if cells[index].is_some() {
            return Err(line.error_at(at[0], "this cell has a line already", "one line per cell"));
        }
        cells[index] = Some(cell);
        places[index] = Some(at);
    }
    let cells: Vec<KakuroCell> =
        cells.into_iter().enumerate().map(|(i, c)| c.unwrap_or(border(i, cols, black))).collect();
    answers(text, lines, (rows, cols), &cells)?;
    let kakuro = Kakuro { rows, cols, cells };
    validate::kakuro(&kakuro).map_err(|e| invalid_at(text, &places, first_clue_line, e))?;
    let parsed = Parsed {
        puzzle: Puzzle::Kakuro(kakuro),
        overrides: SolveOverrides::default(),
        line: first,
    };
    Ok(Document { format: Format::Kanpen, batch: false, entries: vec![Ok(parsed)] })
}

/// A cell without a line: black on the border, white inside.
fn border(index: usize, cols: usize, black: KakuroCell) -> KakuroCell {
    if index < cols || index.is_multiple_of(cols) { black } else { KakuroCell::White }
}

/// One side line and its number: a grid side from 2 (the border and one row of cells) to
/// [`text::MAX_SIDE`].
fn side<'a>(
    text: &str,
    lines: &mut impl Iterator<Item = Line<'a>>,
    what: &str,
) -> Result<(usize, usize), InputError> {
    let expected =
        format!("the number of grid {what}s, 2 to {}, alone on its line", text::MAX_SIDE);
    let Some(line) = text::next_content(lines) else {
        return Err(text::error_at(text, text.len(), format!("no {what} count"), expected));
    };
    match side_token(line).map(|n| n as usize) {
        Some(n @ 2..=text::MAX_SIDE) => Ok((n, line.number)),
        _ => {
            let message = format!("`{}` is no {what} count", line.text.trim());
            Err(line.error_at(
                line.start + line.text.len() - line.text.trim_start().len(),
                message,
                expected,
            ))
        }
    }
}

/// One clue line: the cell's index, the cell, and the offsets of its line, right clue and
/// down clue.
fn clue_line(
    line: Line<'_>,
    rows: usize,
    cols: usize,
) -> Result<(usize, KakuroCell, [usize; 3]), InputError> {
    let tokens: Vec<(usize, &str)> = line.tokens().collect();
    let [(row_at, row), (col_at, col), (right_at, right), (down_at, down)] = tokens[..] else {
        let at = tokens.get(4).map_or(line.end(), |&(at, _)| at);
        let message = format!("a clue line of {} numbers", tokens.len());
        return Err(line.error_at(at, message, CLUE_LINE));
    };
    let place = |token: &str, at: usize, limit: usize, what: &str| {
        text::number(token).map(|n| n as usize).filter(|&n| n < limit).ok_or_else(|| {
            let message = format!("`{token}` is no {what} of this grid");
            line.error_at(at, message, format!("a {what} from 0 to {}", limit - 1))
        })
    };
    let (r, c) = (place(row, row_at, rows, "row")?, place(col, col_at, cols, "column")?);
    let right_clue = clue(line, right, right_at)?;
    let down_clue = clue(line, down, down_at)?;
    let outside = if r == 0 && c == 0 {
        [
            right_clue.map(|_| (right_at, "the corner holds no clue")),
            down_clue.map(|_| (down_at, "the corner holds no clue")),
        ]
    } else if r == 0 {
        [right_clue.map(|_| (right_at, "the first row holds down clues only")), None]
    } else if c == 0 {
        [None, down_clue.map(|_| (down_at, "the first column holds right clues only"))]
    } else {
        [None, None]
    };
    if let Some((at, message)) = outside.into_iter().flatten().next() {
        return Err(line.error_at(at, message, "0 or -1 there"));
    }
    let cell = KakuroCell::Black { down: down_clue, right: right_clue };
    Ok((r * cols + c, cell, [line.start, right_at, down_at]))
}

/// A clue token: `None` for 0 or -1.
fn clue(line: Line<'_>, token: &str, at: usize) -> Result<Option<u32>, InputError> {
    match signed(token) {
        Some(-1 | 0) => Ok(None),
        Some(n @ 1..=45) => Ok(u32::try_from(n).ok()),
        _ => Err(line.error_at(
            at,
            format!("`{token}` is no clue"),
            "a clue from 1 to 45, or 0 / -1 for none",
        )),
    }
}

/// The optional answer grid after the blank line: `.` on black cells, a digit on white
/// ones; then nothing more.
fn answers<'a>(
    text: &'a str,
    lines: impl Iterator<Item = Line<'a>>,
    (rows, cols): (usize, usize),
    cells: &[KakuroCell],
) -> Result<(), InputError> {
    let rest: Vec<Line<'a>> = lines.collect();
    let Some(&first) = rest.iter().find(|line| !line.is_blank()) else { return Ok(()) };
    let mut rest = rest.into_iter();
    text::grid(text, &mut rest, first, (rows, cols), "answer grid", |index, at, token| {
        let (fits, expected) = match cells[index] {
            KakuroCell::Black { .. } => (token == ".", "`.` on a black cell"),
            KakuroCell::White => (
                token.len() == 1 && token.bytes().all(|b| b.is_ascii_digit()),
                "a digit 0..9 on a white cell (0: none)",
            ),
        };
        if fits {
            return Ok(());
        }
        Err(text::error_at(text, at, format!("`{token}` does not fit this cell"), expected))
    })?;
    text::expect_end(text, &mut rest, "the end of the file after the answer grid")
}

/// A broken rule, placed on the clue it is about, or on the first clue line for a cell
/// that has no line of its own.
fn invalid_at(
    text: &str,
    places: &[Option<[usize; 3]>],
    fallback: usize,
    e: Invalid,
) -> InputError {
    let offset = match (places.get(e.cell).copied().flatten(), e.aspect) {
        (Some(at), Aspect::RightClue) => at[1],
        (Some(at), Aspect::DownClue) => at[2],
        (Some(at), _) => at[0],
        (None, _) => fallback,
    };
    text::error_at(text, offset, e.message, e.expected)
}

/// A Kakuro as a kanpen file, laid out as pzprjs saves one: every outside cell's line, a
/// line per black cell inside, a blank line, and the empty answer grid. A black cell
/// without clues inside the board gets `-1 -1` (pzprjs's "no number", which its URL
/// writes as `.`), a missing clue of a clue cell 0, so that pzprjs opens the file to the
/// board of kakurod's `play_url`. `None` when the first row or column is not what a
/// kanpen border holds: black, with down clues only in the first row and right clues only
/// in the first column.
pub fn write(k: &Kakuro) -> Option<String> {
    let (rows, cols) = (k.rows, k.cols);
    if rows < 2 || cols < 2 || k.cells.len() != rows * cols {
        return None;
    }
    let mut out = format!("{rows}\n{cols}\n");
    for row in 0..rows {
        for col in 0..cols {
            let (down, right) = match k.cell(row, col) {
                KakuroCell::Black { down, right } => (down, right),
                KakuroCell::White if row == 0 || col == 0 => return None,
                KakuroCell::White => continue,
            };
            let holds = match (row, col) {
                (0, 0) => down.is_none() && right.is_none(),
                (0, _) => right.is_none(),
                (_, 0) => down.is_none(),
                _ => true,
            };
            if !holds {
                return None;
            }
            let none = if row > 0 && col > 0 && down.is_none() && right.is_none() { -1 } else { 0 };
            let value = |clue: Option<u32>| clue.map_or(none, i64::from);
            out.push_str(&format!("{row} {col} {} {}\n", value(right), value(down)));
        }
    }
    out.push('\n');
    for row in 0..rows {
        for col in 0..cols {
            out.push_str(if k.cell(row, col) == KakuroCell::White { "0 " } else { ". " });
        }
        out.push('\n');
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str =
        "3\n3\n0 0 0 0\n0 1 0 4\n0 2 0 3\n1 0 4 0\n2 0 3 0\n\n. . . \n. 0 0 \n. 0 0 \n";

    fn kakuro(text: &str) -> Kakuro {
        match read(text).unwrap().entries.remove(0).unwrap().puzzle {
            Puzzle::Kakuro(k) => k,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_small_file_reads_with_its_border_clues() {
        let k = kakuro(SMALL);
        assert_eq!((k.rows, k.cols), (3, 3));
        assert_eq!(k.cell(0, 1), KakuroCell::Black { down: Some(4), right: None });
        assert_eq!(k.cell(2, 0), KakuroCell::Black { down: None, right: Some(3) });
        assert_eq!(k.cell(1, 1), KakuroCell::White);
        assert_eq!(write(&k).as_deref(), Some(SMALL));
        assert_eq!(super::super::detect(SMALL), Some(Format::Kanpen));
        // Without the answer grid, with pzprjs's -1 for "no clue" and any line order.
        let bare = "3\n3\n2 0 3 -1\n0 1 -1 4\n0 2 0 3\n1 0 4 0\n";
        assert_eq!(kakuro(bare), k);
    }

    #[test]
    fn every_janko_fixture_goes_to_kanpen_and_back() {
        for text in [
            include_str!("../../../../tests/fixtures/kakuro/1_10x12.txt"),
            include_str!("../../../../tests/fixtures/kakuro/960_31x46.txt"),
        ] {
            let doc = super::super::read(text, None).unwrap();
            let Ok(Parsed { puzzle: Puzzle::Kakuro(k), .. }) = &doc.entries[0] else { panic!() };
            let written = write(k).unwrap();
            assert_eq!(super::super::detect(&written), Some(Format::Kanpen));
            assert_eq!(&kakuro(&written), k);
        }
    }

    #[test]
    fn a_border_kanpen_cannot_hold_is_not_written() {
        let mut k = kakuro(SMALL);
        k.cells[1] = KakuroCell::Black { down: Some(4), right: Some(3) };
        assert_eq!(write(&k), None);
    }

    #[test]
    fn what_is_not_a_kanpen_kakuro_is_a_placed_error() {
        let cases = [
            ("x\n3\n", 1, 1, "no row count"),
            ("3\n1\n", 2, 1, "no column count"),
            ("3\n3\n0 1 0\n", 3, 6, "of 3 numbers"),
            ("3\n3\n0 1 0 4 5\n", 3, 9, "of 5 numbers"),
            ("3\n3\n3 1 0 4\n", 3, 1, "no row"),
            ("3\n3\n0 1 0 46\n", 3, 7, "no clue"),
            ("3\n3\n0 1 2 4\n", 3, 5, "down clues only"),
            ("3\n3\n1 0 4 4\n", 3, 7, "right clues only"),
            ("3\n3\n0 1 0 4\n0 1 0 4\n", 4, 1, "has a line already"),
            ("3\n3\n0 1 0 4\n0 2 0 3\n1 0 4 0\n2 0 2 0\n", 6, 5, "cannot be made"),
            ("3\n3\n0 1 0 4\n0 2 0 3\n1 0 4 0\n", 3, 1, "has no clue"),
            (&SMALL.replace(". 0 0 \n. 0 0", ". 0 . \n. 0 0"), 10, 5, "does not fit"),
            (&SMALL.replace(". 0 0 \n. 0 0", ". 0 0 \n. 0 10"), 11, 5, "does not fit"),
            (&format!("{SMALL}x\n"), 12, 1, "after the end"),
        ];
        for (text, line, column, words) in cases {
            let error = read(text).unwrap_err();
            assert_eq!((error.line, error.column), (line, column), "{text:?}: {error}");
            assert!(error.message.contains(words), "{error}");
        }
    }
}
