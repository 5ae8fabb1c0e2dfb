//! The janko Kakuro grid (`R C`, then `-` black, `0` white, `D,R` clue) and, with `\` as
//! the clue separator, the backslash grid: one reader for both, since they differ only in
//! that one character.
//!
//! This reader is on the hot path of batch benchmarks (hundreds of puzzles per run), so it
//! scans bytes and slices tokens in place: no per-token `String`, no regex.

use super::text::{self, Line};
use super::{Document, Format, InputError, Parsed};
use crate::puzzle::validate::{self, Aspect, Invalid};
use crate::puzzle::{Kakuro, KakuroCell, Puzzle};
use crate::solver::SolveOverrides;

/// Reads a janko grid (`separator` = `,`) or a backslash grid (`separator` = `\`).
pub fn read(text: &str, separator: char, format: Format) -> Result<Document, InputError> {
    let mut lines = text::lines(text);
    let (rows, cols, header) = text::header(text, &mut lines)?;
    let kakuro = read_body(text, &mut lines, header, (rows, cols), separator)?;
    Ok(Document {
        format,
        batch: false,
        entries: vec![Ok(Parsed {
            puzzle: Puzzle::Kakuro(kakuro),
            overrides: SolveOverrides::default(),
            line: header.number,
        })],
    })
}

/// Reads the grid after the header, checks nothing is left over, and validates it.
pub(crate) fn read_body<'a>(
    text: &'a str,
    lines: &mut impl Iterator<Item = Line<'a>>,
    header: Line<'a>,
    (rows, cols): (usize, usize),
    separator: char,
) -> Result<Kakuro, InputError> {
    // Bounded by the text, not by the header's claim.
    let mut cells = Vec::with_capacity((rows * cols).min(text.len() / 2 + 1));
    text::grid(text, lines, header, (rows, cols), "grid", |_, offset, token| {
        match parse_token(token, separator) {
            Ok(cell) => {
                cells.push(cell);
                Ok(())
            }
            Err(fault) => Err(token_error(text, offset, token, separator, fault)),
        }
    })?;
    text::expect_end(text, lines, "nothing after the grid's last row")?;
    let kakuro = Kakuro { rows, cols, cells };
    validate::kakuro(&kakuro).map_err(|e| locate(text, header, (rows, cols), e, separator))?;
    Ok(kakuro)
}

/// Why a token is not a cell. Kept small (no message) so the common, valid path moves
/// little data; [`TokenFault::describe`] builds the words when an error is reported.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TokenFault {
    /// Neither `-`, `0` nor a clue.
    Unknown,
    /// The part before the separator is not a number.
    Down,
    /// The part after the separator (starting at this byte) is not a number.
    Right(usize),
}

impl TokenFault {
    /// Byte offset in the token, message and expectation.
    pub(crate) fn describe(self, token: &str, separator: char) -> (usize, String, String) {
        let (down, right) = token.split_once(separator).unwrap_or((token, ""));
        match self {
            TokenFault::Unknown => (
                0,
                format!("unknown cell `{token}`"),
                format!("`-` (black), `0` (white) or a clue `D{separator}R`"),
            ),
            TokenFault::Down => (
                0,
                format!("`{down}` is not a down clue in `{token}`"),
                "a number, or nothing".into(),
            ),
            TokenFault::Right(at) => (
                at,
                format!("`{right}` is not a right clue in `{token}`"),
                "a number, or nothing".into(),
            ),
        }
    }
}

/// Parses one token: `-`, `0`, or `D<sep>R` with either side possibly empty. Works on
/// bytes in one pass; the separator is ASCII.
#[inline]
pub(crate) fn parse_token(token: &str, separator: char) -> Result<KakuroCell, TokenFault> {
    let bytes = token.as_bytes();
    match bytes {
        [b'-'] => return Ok(KakuroCell::Black { down: None, right: None }),
        [b'0'] => return Ok(KakuroCell::White),
        _ => {}
    }
    let sep = u8::try_from(separator).map_err(|_| TokenFault::Unknown)?;
    let (down, used) = digits(bytes);
    if bytes.get(used) != Some(&sep) {
        return Err(if bytes.contains(&sep) { TokenFault::Down } else { TokenFault::Unknown });
    }
    let (right, used_right) = digits(&bytes[used + 1..]);
    if used + 1 + used_right != bytes.len() {
        return Err(TokenFault::Right(used + 1));
    }
    Ok(KakuroCell::Black { down, right })
}

/// The number at the start of `bytes` (`None` when there is none, or when it is longer than
/// 9 digits, in which case no digit is taken) and how many bytes it took.
#[inline]
fn digits(bytes: &[u8]) -> (Option<u32>, usize) {
    let count = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
    if count == 0 || count > 9 {
        return (None, 0);
    }
    let value = bytes[..count].iter().fold(0, |n, &b| n * 10 + u32::from(b - b'0'));
    (Some(value), count)
}

/// The error for a token [`parse_token`] refused; out of the hot loop's way.
#[cold]
#[inline(never)]
fn token_error(
    text: &str,
    offset: usize,
    token: &str,
    separator: char,
    fault: TokenFault,
) -> InputError {
    let (at, message, expected) = fault.describe(token, separator);
    text::error_at(text, offset + at, message, expected)
}

/// Byte offset, within a token, of the part a rule speaks of: the text after the separator
/// for a right clue (when there is one), the token's start otherwise.
pub(crate) fn aspect_offset(token: &str, aspect: Aspect, separator: char) -> usize {
    match token.find(separator) {
        Some(at) if aspect == Aspect::RightClue && at + separator.len_utf8() < token.len() => {
            at + separator.len_utf8()
        }
        _ => 0,
    }
}

/// Places a rule violation on its token: a right clue at the text after the separator,
/// anything else at the token's start. The grid is scanned again to find the token (only
/// on this error path, so the reading pass keeps no table of offsets).
fn locate(
    text: &str,
    header: Line<'_>,
    size: (usize, usize),
    invalid: Invalid,
    separator: char,
) -> InputError {
    let mut lines = text::lines(text).skip(header.number);
    let mut found = (header.start, "");
    // The grid was read once already, so this pass cannot fail before the cell.
    let _ = text::grid(text, &mut lines, header, size, "grid", |index, offset, token| {
        if index == invalid.cell {
            found = (offset, token);
        }
        Ok(())
    });
    let (start, token) = found;
    let offset = start + aspect_offset(token, invalid.aspect, separator);
    text::error_at(text, offset, invalid.message, invalid.expected)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kakuro(text: &str) -> Result<Kakuro, InputError> {
        let doc = read(text, ',', Format::Janko)?;
        match doc.entries.into_iter().next() {
            Some(Ok(Parsed { puzzle: Puzzle::Kakuro(k), .. })) => Ok(k),
            other => panic!("unexpected {other:?}"),
        }
    }

    const SMALL: &str = "3 3\n- 4, 3,\n,4 0 0\n,3 0 0\n";

    #[test]
    fn reads_a_small_grid() {
        let k = kakuro(SMALL).unwrap();
        assert_eq!((k.rows, k.cols), (3, 3));
        assert_eq!(k.cell(0, 1), KakuroCell::Black { down: Some(4), right: None });
        assert_eq!(k.cell(1, 0), KakuroCell::Black { down: None, right: Some(4) });
        assert_eq!(k.cell(2, 2), KakuroCell::White);
    }

    #[test]
    fn tolerates_crlf_trailing_space_and_blank_lines() {
        let text = "\r\n3 3 \r\n- 4, 3,\r\n\r\n,4 0 0\r\n,3 0 0  \r\n\r\n";
        assert_eq!(kakuro(text).unwrap(), kakuro(SMALL).unwrap());
    }

    #[test]
    fn backslash_separator() {
        let doc = read("3 3\n- 4\\ 3\\\n\\4 0 0\n\\3 0 0\n", '\\', Format::Backslash).unwrap();
        assert_eq!(doc.format, Format::Backslash);
        let Ok(Parsed { puzzle: Puzzle::Kakuro(k), .. }) = &doc.entries[0] else { panic!() };
        assert_eq!(*k, kakuro(SMALL).unwrap());
    }

    fn error(text: &str) -> InputError {
        kakuro(text).unwrap_err()
    }

    #[test]
    fn unknown_token() {
        let e = error("3 3\n- 4, 3,\n,4 0 x\n,3 0 0\n");
        assert_eq!((e.line, e.column), (3, 6));
        assert!(e.message.contains("unknown cell `x`"), "{e}");
        let e = error("3 3\n- 4, 3,\n,4 0 0\n,3a 0 0\n");
        assert_eq!((e.line, e.column), (4, 2));
        assert!(e.message.contains("right clue"), "{e}");
    }

    #[test]
    fn ragged_rows() {
        let e = error("3 3\n- 4, 3,\n,4 0\n,3 0 0\n");
        assert_eq!((e.line, e.column), (3, 5));
        assert!(e.message.contains("row 2 of the grid has 2 cells"), "{e}");
        let e = error("3 3\n- 4, 3, -\n,4 0 0\n,3 0 0\n");
        assert_eq!((e.line, e.column), (2, 9));
        assert!(e.message.contains("more than 3 cells"), "{e}");
    }

    #[test]
    fn wrong_row_count() {
        let e = error("3 3\n- 4, 3,\n,4 0 0\n");
        assert_eq!(e.line, 4);
        assert!(e.message.contains("has 2 rows, the header says 3"), "{e}");
        let e = error("3 3\n- 4, 3,\n,4 0 0\n,3 0 0\n- - -\n");
        assert_eq!((e.line, e.column), (5, 1));
        assert!(e.message.contains("after the end"), "{e}");
    }

    #[test]
    fn huge_header_is_refused_before_allocating() {
        let e = error("1000000000 1000000000\n- 0\n");
        assert_eq!((e.line, e.column), (1, 1));
        let e = error("1000 2\n- 0\n");
        assert!(e.message.contains("the header says 1000"), "{e}");
    }

    #[test]
    fn unreachable_clue_points_at_its_part_of_the_token() {
        // 3 over three cells: the smallest sum of three distinct digits is 6.
        let e = error("2 4\n- 3, 3, 3,\n,3 0 0 0\n");
        assert_eq!((e.line, e.column), (3, 2));
        assert!(e.message.contains("clue 3 cannot be made of 3"), "{e}");
        assert_eq!(e.expected, "a sum from 6 to 24 for 3 cells");
        // A down clue of 46 is beyond any run.
        let e = error("3 2\n- 46,\n,4 0\n,3 0\n");
        assert_eq!((e.line, e.column), (2, 3));
        // A clue of 0.
        let e = error("2 2\n- 0,\n,1 0\n");
        assert_eq!((e.line, e.column), (2, 3));
        assert!(e.message.contains("clue 0"), "{e}");
    }

    #[test]
    fn run_without_clue() {
        let e = error("3 3\n- 4, 3,\n- 0 0\n,3 0 0\n");
        assert_eq!((e.line, e.column), (3, 1));
        assert!(e.message.contains("run of 2 white cells to the right has no clue"), "{e}");
    }

    #[test]
    fn clue_pointing_at_nothing() {
        let e = error("3 3\n- 4, 3,\n,4 0 0\n,3 0 ,5\n");
        assert_eq!((e.line, e.column), (4, 7));
        assert!(e.message.contains("clue 5 points at no white cell"), "{e}");
    }

    #[test]
    fn lone_white_cell_clue_fixes_its_digit() {
        assert!(kakuro("2 2\n- 5,\n,5 0\n").is_ok());
        assert!(kakuro("2 2\n- -\n- 0\n").is_ok());
        let e = error("2 2\n- 5,\n,12 0\n");
        assert_eq!((e.line, e.column), (3, 2));
        assert_eq!(e.expected, "a sum from 1 to 9 for 1 cells");
    }
}
