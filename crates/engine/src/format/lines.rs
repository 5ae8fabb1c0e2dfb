//! Sudoku lines: one puzzle per line, N*N characters read row by row (the common
//! 81-character form, as in `top1465.txt`). `.` or `0` is a blank, `1`-`9` a digit, and
//! values above 9 are letters, `A` (or `a`) = 10 up to `P` = 25, the same mapping as
//! `puzzle::value_char`. Lines starting with `#` are comments and blank lines are ignored.
//!
//! A lines file is always a batch: every puzzle line becomes one entry, and a bad line is an
//! `Err` entry that leaves the other lines alone. A file whose first [`PROBE`] puzzle lines
//! are all unreadable is no batch of Sudoku but something else (junk, a log, another
//! format's text): it is rejected whole at once ([`hopeless`]) instead of answered line by
//! line to its end.

use super::text::{self, Line};
use super::{Document, Format, InputError, Parsed};
use crate::puzzle::validate;
use crate::puzzle::{Puzzle, Sudoku};
use crate::solver::SolveOverrides;

/// Reads a file of Sudoku lines.
pub fn read(text: &str) -> Result<Document, InputError> {
    if let Some(error) = hopeless(text) {
        return Err(error);
    }
    let entries: Vec<Result<Parsed, InputError>> = entries(text).collect();
    if entries.is_empty() {
        let message = "the file holds no puzzle line";
        return Err(text::error_at(text, text.len(), message, "one Sudoku per line"));
    }
    Ok(Document { format: Format::Lines, batch: true, entries })
}

/// The puzzle lines of a file, each read when it is reached.
pub(crate) fn entries(text: &str) -> impl Iterator<Item = Result<Parsed, InputError>> + '_ {
    text::lines(text).filter(Line::is_content).map(puzzle)
}

/// How many puzzle lines are read before a file none of whose lines can be read is
/// rejected whole.
pub const PROBE: usize = 100;

/// The error that rejects `text` whole when its first [`PROBE`] puzzle lines are all
/// unreadable, placed on the first of them; `None` when one of them reads, or when the file
/// holds fewer (such a file is read to its end, and rejected whole if none of its lines
/// reads, with every bad line named).
pub fn hopeless(text: &str) -> Option<InputError> {
    let (mut first, mut probed) = (None, 0);
    for entry in entries(text).take(PROBE) {
        first.get_or_insert(entry.err()?);
        probed += 1;
    }
    let first = first?;
    (probed == PROBE).then(|| InputError {
        message: format!(
            "none of the first {PROBE} puzzle lines can be read, so the rest is not read; \
             line {}: {}",
            first.line, first.message
        ),
        ..first
    })
}

/// The value of one character, or `None` for a character that is no cell.
fn value(byte: u8) -> Option<u32> {
    match byte {
        b'.' | b'0' => Some(0),
        b'1'..=b'9' => Some(u32::from(byte - b'0')),
        b'A'..=b'Z' => Some(u32::from(byte - b'A') + 10),
        b'a'..=b'z' => Some(u32::from(byte - b'a') + 10),
        _ => None,
    }
}

/// What the cells of a line may be for a Sudoku of side `n`.
fn cells_expected(n: usize) -> String {
    match n {
        ..=9 => format!("a digit 1..{n}, or `.` / `0` for a blank"),
        _ => {
            let last = char::from(b'A' + (n - 10) as u8);
            format!("a digit 1..9 or a letter A..{last}, or `.` / `0` for a blank")
        }
    }
}

/// Reads one puzzle line; its errors are placed by the line alone (see [`Line::error_at`]).
fn puzzle(line: Line<'_>) -> Result<Parsed, InputError> {
    let body = line.text.trim();
    let start = line.start + (line.text.len() - line.text.trim_start().len());
    let mut givens = Vec::with_capacity(body.len());
    for (i, byte) in body.bytes().enumerate() {
        let Some(v) = value(byte) else {
            let shown = body[i..].chars().next().unwrap_or(' ');
            let message = format!("unknown cell `{shown}`");
            let expected = "a digit, a letter A.. for 10 and up, or `.` / `0` for a blank";
            return Err(line.error_at(start + i, message, expected));
        };
        givens.push(v);
    }
    let n = (1..=25).find(|n| n * n >= givens.len()).unwrap_or(26);
    let box_size = match validate::sudoku_box(n) {
        Ok(k) if n * n == givens.len() => k,
        _ => {
            let message = format!("a line of {} cells is not a Sudoku", givens.len());
            let expected = "16, 81, 256 or 625 cells (N*N for N = 4, 9, 16, 25)";
            return Err(line.error_at(start, message, expected));
        }
    };
    if let Some(i) = givens.iter().position(|&v| v as usize > n) {
        let shown = char::from(body.as_bytes()[i]);
        let message = format!(
            "`{shown}` stands for {}, above the largest value {n} of a {n}x{n} Sudoku",
            givens[i]
        );
        return Err(line.error_at(start + i, message, cells_expected(n)));
    }
    let sudoku = Sudoku { n, box_size, givens };
    validate::sudoku(&sudoku).map_err(|e| line.error_at(start + e.cell, e.message, e.expected))?;
    Ok(Parsed {
        puzzle: Puzzle::Sudoku(sudoku),
        overrides: SolveOverrides::default(),
        line: line.number,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOP: &str =
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";

    #[test]
    fn comments_and_blank_lines_are_skipped() {
        let text = format!("# header\n\n{TOP}\n  # indented comment\n{TOP}\r\n");
        let doc = read(&text).unwrap();
        assert!(doc.batch);
        assert_eq!(doc.entries.len(), 2);
        let Ok(first) = &doc.entries[0] else { panic!() };
        assert_eq!(first.line, 3);
        let Puzzle::Sudoku(s) = &first.puzzle else { panic!() };
        assert_eq!((s.n, s.givens[0], s.givens[1], s.givens[4]), (9, 4, 0, 3));
        assert_eq!(doc.entries[1].as_ref().unwrap().line, 5);
    }

    #[test]
    fn a_bad_line_spoils_only_itself() {
        let bad = TOP.replacen('.', "?", 1);
        let short = &TOP[..80];
        let text = format!("{TOP}\n{bad}\n{short}\n{TOP}\n");
        let doc = read(&text).unwrap();
        assert_eq!(doc.entries.len(), 4);
        assert!(doc.entries[0].is_ok() && doc.entries[3].is_ok());
        let e = doc.entries[1].as_ref().unwrap_err();
        assert_eq!((e.line, e.column), (2, 2));
        assert!(e.message.contains("unknown cell `?`"), "{e}");
        let e = doc.entries[2].as_ref().unwrap_err();
        assert_eq!((e.line, e.column), (3, 1));
        assert!(e.message.contains("80 cells"), "{e}");
    }

    #[test]
    fn letters_are_values_above_nine() {
        let mut line = vec!['.'; 256];
        line[0] = 'G';
        line[17] = 'a';
        let line: String = line.into_iter().collect();
        let doc = read(&line).unwrap();
        let Ok(Parsed { puzzle: Puzzle::Sudoku(s), .. }) = &doc.entries[0] else { panic!() };
        assert_eq!((s.n, s.givens[0], s.givens[17]), (16, 16, 10));
        let over: String = std::iter::once('H').chain(std::iter::repeat_n('.', 255)).collect();
        let e = read(&over).unwrap().entries[0].clone().unwrap_err();
        assert!(e.message.contains("`H` stands for 17, above the largest value 16"), "{e}");
        assert!(e.expected.contains("A..G"), "{e}");
    }

    #[test]
    fn a_letter_in_a_nine_by_nine_line_is_named_with_what_was_expected() {
        let line = format!("{}Z{}", ".".repeat(4), ".".repeat(76));
        let e = read(&line).unwrap().entries[0].clone().unwrap_err();
        assert_eq!((e.line, e.column), (1, 5));
        assert!(e.message.contains("`Z` stands for 35, above the largest value 9"), "{e}");
        assert_eq!(e.expected, "a digit 1..9, or `.` / `0` for a blank");
    }

    #[test]
    fn clashing_givens_point_at_the_second() {
        let line = format!("11{}", &TOP[2..]);
        let e = read(&line).unwrap().entries[0].clone().unwrap_err();
        assert_eq!((e.line, e.column), (1, 2));
        assert!(e.message.contains("repeats in its row"), "{e}");
    }

    #[test]
    fn a_file_whose_first_lines_all_fail_is_rejected_whole_at_once() {
        let junk: String = (0..PROBE).map(|i| format!("junk{i}\n")).collect();
        let e = read(&format!("# header\n{junk}{TOP}\n")).unwrap_err();
        assert_eq!((e.line, e.column), (2, 1));
        assert!(e.message.starts_with("none of the first 100 puzzle lines can be read"), "{e}");
        assert!(e.message.contains("line 2: a line of 5 cells is not a Sudoku"), "{e}");
        // One line fewer, or one good line among them, and the file is a batch.
        let fewer: String = junk.lines().skip(1).map(|l| format!("{l}\n")).collect();
        assert_eq!(read(&format!("{fewer}{TOP}\n")).unwrap().entries.len(), PROBE);
        let doc = read(&format!("{TOP}\n{junk}")).unwrap();
        assert_eq!(doc.entries.len(), PROBE + 1);
    }

    #[test]
    fn only_comments_is_an_error() {
        assert!(read("# nothing\n\n").is_err());
    }
}
