//! puzz.link (pzprjs) URLs, read and written: `https://puzz.link/p?kakuro/COLS/ROWS/BODY`
//! and `…?sudoku/N/N/BODY`, also under `pzv.jp/p.html?` or any other host, or bare
//! (`kakuro/…`). A file holds one URL, or one per line (a batch); blank lines and lines
//! starting with `#` are skipped.
//!
//! The encodings are pzprjs's own (`Encode.decodeKakuro` of its Kakuro variety and the
//! common `decodeNumber16` of its Sudoku):
//! - **Kakuro**: pzprjs's board is the grid without its black first row and column, whose
//!   clues are the board's outside cells. The body lists the board's cells row by row: a
//!   black cell is `.` (no clue) or two clue characters (down, then right); `k`..`z` stand
//!   for 1..16 white cells. Then one clue character for each column whose top cell is
//!   white (its down clue) and one for each row whose first cell is white (its right
//!   clue). Clue characters: `1`-`9` and `a`-`j` for 1..19, `A`-`Z` for 20..45, `0` none.
//! - **Sudoku**: the cells row by row: a hex digit for 1..15, `-` and two hex digits for
//!   16..255, `g`..`z` for 1..20 blank cells.
//!
//! pzprjs reads a short body leniently (the missing cells stay empty); here a body must
//! hold the whole grid and nothing after it, so a truncated URL is an error, not a
//! different puzzle.

use super::text::{self, Line};
use super::{Document, Format, InputError, Parsed};
use crate::puzzle::validate::{self, Invalid};
use crate::puzzle::{Kakuro, KakuroCell, Puzzle, Sudoku};
use crate::solver::SolveOverrides;

mod write;
pub use write::play_url;

/// The address a written URL starts with.
pub const PLAY_PREFIX: &str = "https://puzz.link/p?";

/// The largest board side read: the grid (with the Kakuro's border) stays within
/// [`text::MAX_SIDE`].
const MAX_BOARD: usize = text::MAX_SIDE - 1;

/// Reads a file of puzz.link URLs.
pub fn read(text: &str) -> Result<Document, InputError> {
    let lines: Vec<Line<'_>> = text::lines(text).filter(Line::is_content).collect();
    match lines.as_slice() {
        [] => Err(text::error_at(text, text.len(), "the file holds no URL", expected_url())),
        [one] => {
            let parsed = url(*one)?;
            Ok(Document { format: Format::Puzzlink, batch: false, entries: vec![Ok(parsed)] })
        }
        many => {
            let entries = many.iter().map(|line| url(*line)).collect();
            Ok(Document { format: Format::Puzzlink, batch: true, entries })
        }
    }
}

/// True when `text`'s first content line is a puzz.link URL of a type kakurod reads, or a
/// URL of puzz.link of any type.
pub(crate) fn looks_like(text: &str) -> bool {
    let first = text::lines(text).find(Line::is_content).map(|line| line.text.trim());
    first.is_some_and(|line| {
        let query = line.split_once('?').map_or(line, |(_, query)| query);
        let read = ["kakuro/", "sudoku/"].iter().any(|kind| query.starts_with(kind))
            && (line.contains("://") || !line.contains(' '));
        // A puzz.link URL of another type is taken too, for the reader to name the type.
        read || is_puzzlink_url(line)
    })
}

/// A URL of puzz.link or one of its mirrors, whatever the puzzle type.
fn is_puzzlink_url(line: &str) -> bool {
    line.contains("://")
        && !line.contains(' ')
        && ["puzz.link/", "pzv.jp/", "pzprxs.vercel.app/"].iter().any(|host| line.contains(host))
}

fn expected_url() -> &'static str {
    "a URL such as https://puzz.link/p?kakuro/COLS/ROWS/DATA or …?sudoku/9/9/DATA"
}

/// One URL line.
fn url(line: Line<'_>) -> Result<Parsed, InputError> {
    let trimmed = line.text.trim();
    let start = line.start + (line.text.len() - line.text.trim_start().len());
    let query_at = trimmed.find('?').map_or(0, |q| q + 1);
    let query = &trimmed[query_at..];
    let mut parts = Fields { line, text: query, at: start + query_at };
    let kind = parts.next_field();
    let puzzle = match kind.text {
        "kakuro" => kakuro(&mut parts)?,
        "sudoku" => sudoku(&mut parts)?,
        other => {
            let message = if other.is_empty() {
                "no puzzle type in the URL".to_string()
            } else {
                let killer = match other {
                    "killersudoku" => {
                        " (a Killer Sudoku is read as f-puzzles, a killer grid or JSON)"
                    }
                    _ => "",
                };
                format!("puzz.link type `{other}` is not one kakurod solves{killer}")
            };
            return Err(line.error_at(kind.at, message, "kakuro or sudoku"));
        }
    };
    Ok(Parsed { puzzle, overrides: SolveOverrides::default(), line: line.number })
}

/// The `/`-separated fields of a URL's query, with their offsets.
struct Fields<'a> {
    line: Line<'a>,
    text: &'a str,
    /// Byte offset of `text` in the whole file.
    at: usize,
}

/// One field and where it starts.
struct Field<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Fields<'a> {
    fn next_field(&mut self) -> Field<'a> {
        let (field, rest, skip) = match self.text.split_once('/') {
            Some((field, rest)) => (field, rest, field.len() + 1),
            None => (self.text, "", self.text.len()),
        };
        let at = self.at;
        self.text = rest;
        self.at += skip;
        Field { text: field, at }
    }

    /// The next field as a board side from 1 to [`MAX_BOARD`].
    fn side(&mut self, what: &str) -> Result<usize, InputError> {
        let field = self.next_field();
        match text::number(field.text).map(|n| n as usize) {
            Some(n @ 1..=MAX_BOARD) => Ok(n),
            _ => Err(self.line.error_at(
                field.at,
                format!("`{}` is no number of {what}", field.text),
                format!("a number of {what} from 1 to {MAX_BOARD}"),
            )),
        }
    }

    /// Everything left: the body, which may itself hold no `/`.
    fn body(&mut self) -> Field<'a> {
        let field = Field { text: self.text, at: self.at };
        self.text = "";
        field
    }
}

/// A Kakuro URL after `kakuro/`.
fn kakuro(fields: &mut Fields<'_>) -> Result<Puzzle, InputError> {
    let line = fields.line;
    let board_cols = fields.side("columns")?;
    let board_rows = fields.side("rows")?;
    let body = fields.body();
    let bytes = body.text.as_bytes();
    let (rows, cols) = (board_rows + 1, board_cols + 1);
    let black = KakuroCell::Black { down: None, right: None };
    let mut cells = vec![black; rows * cols];
    // Where each cell was written, for errors about it.
    let mut offsets = vec![body.at; rows * cols];
    let board_cells = board_rows * board_cols;
    let grid_index = |i: usize| (i / board_cols + 1) * cols + i % board_cols + 1;
    let (mut cell, mut pos) = (0, 0);
    while cell < board_cells {
        let Some(&byte) = bytes.get(pos) else {
            let message = format!("the data ends after {cell} of the board's {board_cells} cells");
            return Err(line.error_at(body.at + pos, message, "the rest of the board"));
        };
        match byte {
            b'k'..=b'z' => {
                let whites = usize::from(byte - b'k') + 1;
                if cell + whites > board_cells {
                    let message = format!("{whites} white cells run past the board's end");
                    return Err(line.error_at(body.at + pos, message, "the board's cells"));
                }
                for i in cell..cell + whites {
                    cells[grid_index(i)] = KakuroCell::White;
                    offsets[grid_index(i)] = body.at + pos;
                }
                cell += whites;
                pos += 1;
            }
            b'.' => {
                offsets[grid_index(cell)] = body.at + pos;
                cell += 1;
                pos += 1;
            }
            _ => {
                let down = clue(line, bytes, body.at, pos)?;
                let right = clue(line, bytes, body.at, pos + 1)?;
                cells[grid_index(cell)] = KakuroCell::Black { down, right };
                offsets[grid_index(cell)] = body.at + pos;
                cell += 1;
                pos += 2;
            }
        }
    }
    for col in 1..cols {
        if cells[cols + col] == KakuroCell::White {
            let down = clue(line, bytes, body.at, pos)?;
            cells[col] = KakuroCell::Black { down, right: None };
            offsets[col] = body.at + pos;
            pos += 1;
        }
    }
    for row in 1..rows {
        if cells[row * cols + 1] == KakuroCell::White {
            let right = clue(line, bytes, body.at, pos)?;
            cells[row * cols] = KakuroCell::Black { down: None, right };
            offsets[row * cols] = body.at + pos;
            pos += 1;
        }
    }
    if pos < bytes.len() {
        let message = "more data after the board and its outside clues";
        return Err(line.error_at(body.at + pos, message, "the end of the URL"));
    }
    let kakuro = Kakuro { rows, cols, cells };
    validate::kakuro(&kakuro).map_err(|e| invalid_at(line, &offsets, e))?;
    Ok(Puzzle::Kakuro(kakuro))
}

/// The clue character at `pos` of the body (`None` for `0`, no clue).
fn clue(line: Line<'_>, bytes: &[u8], at: usize, pos: usize) -> Result<Option<u32>, InputError> {
    let value = match bytes.get(pos) {
        Some(&byte @ b'0'..=b'9') => u32::from(byte - b'0'),
        Some(&byte @ b'a'..=b'j') => u32::from(byte - b'a') + 10,
        Some(&byte @ b'A'..=b'Z') => u32::from(byte - b'A') + 20,
        found => {
            let message = match found {
                None => "the data ends where a clue was due".to_string(),
                Some(_) => "unknown clue character".to_string(),
            };
            let expected = "a clue: 1-9 and a-j for 1 to 19, A-Z for 20 to 45, 0 for none";
            return Err(line.error_at(at + pos, message, expected));
        }
    };
    Ok((value > 0).then_some(value))
}

/// A rule broken by the puzzle, placed where its cell was written.
fn invalid_at(line: Line<'_>, offsets: &[usize], e: Invalid) -> InputError {
    let offset = offsets.get(e.cell).copied().unwrap_or(line.start);
    line.error_at(offset, e.message, e.expected)
}

/// A Sudoku URL after `sudoku/`.
fn sudoku(fields: &mut Fields<'_>) -> Result<Puzzle, InputError> {
    let line = fields.line;
    let side_at = fields.at;
    let cols = fields.side("columns")?;
    let rows = fields.side("rows")?;
    let box_size = match validate::sudoku_box(cols) {
        Ok(box_size) if rows == cols => box_size,
        _ => {
            let message = format!("a {cols}x{rows} board is not a Sudoku kakurod solves");
            return Err(line.error_at(side_at, message, "4/4, 9/9, 16/16 or 25/25"));
        }
    };
    let n = cols;
    let body = fields.body();
    let bytes = body.text.as_bytes();
    let mut givens = vec![0; n * n];
    let mut offsets = vec![body.at; n * n];
    let (mut cell, mut pos) = (0, 0);
    while cell < n * n {
        let Some(&byte) = bytes.get(pos) else {
            let message = format!("the data ends after {cell} of the grid's {} cells", n * n);
            return Err(line.error_at(body.at + pos, message, "the rest of the grid"));
        };
        offsets[cell] = body.at + pos;
        let (value, width) = match byte {
            b'g'..=b'z' => {
                let blanks = usize::from(byte - b'g') + 1;
                if cell + blanks > n * n {
                    let message = format!("{blanks} blank cells run past the grid's end");
                    return Err(line.error_at(body.at + pos, message, "the grid's cells"));
                }
                cell += blanks;
                pos += 1;
                continue;
            }
            b'-' => (hex(bytes.get(pos + 1..pos + 3)), 3),
            _ => (hex(bytes.get(pos..pos + 1)), 1),
        };
        match value {
            Some(v @ 1..) if v as usize <= n => givens[cell] = v,
            _ => {
                let message = "not a digit of this Sudoku";
                let expected = format!(
                    "1-9 or a-f, `-` and two hex digits for 16 and up (to {n}), g-z for blanks"
                );
                return Err(line.error_at(body.at + pos, message, expected));
            }
        }
        cell += 1;
        pos += width;
    }
    if pos < bytes.len() {
        let message = "more data after the grid";
        return Err(line.error_at(body.at + pos, message, "the end of the URL"));
    }
    let sudoku = Sudoku { n, box_size, givens };
    validate::sudoku(&sudoku).map_err(|e| invalid_at(line, &offsets, e))?;
    Ok(Puzzle::Sudoku(sudoku))
}

/// Lower- or upper-case hex digits as a number.
fn hex(digits: Option<&[u8]>) -> Option<u32> {
    let digits = std::str::from_utf8(digits?).ok()?;
    u32::from_str_radix(digits, 16).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    const JANKO: &str = include_str!("../../../../../tests/fixtures/kakuro/1_10x12.txt");

    fn first(text: &str) -> Puzzle {
        let doc = read(text).unwrap();
        doc.entries.into_iter().next().unwrap().unwrap().puzzle
    }

    #[test]
    fn a_kakuro_goes_to_a_url_and_back() {
        let doc = super::super::read(JANKO, None).unwrap();
        let puzzle = doc.entries[0].as_ref().unwrap().puzzle.clone();
        let url = play_url(&puzzle).unwrap();
        assert!(url.starts_with("https://puzz.link/p?kakuro/11/9/"), "{url}");
        assert_eq!(first(&url), puzzle);
        assert_eq!(super::super::detect(&url), Some(Format::Puzzlink));
    }

    #[test]
    fn a_small_kakuro_reads_with_its_outside_clues() {
        let Puzzle::Kakuro(k) = first("http://pzv.jp/p.html?kakuro/2/2/n3746") else { panic!() };
        assert_eq!((k.rows, k.cols), (3, 3));
        assert_eq!(k.cell(0, 2), KakuroCell::Black { down: Some(7), right: None });
        assert_eq!(k.cell(2, 0), KakuroCell::Black { down: None, right: Some(6) });
        assert_eq!(k.cell(1, 1), KakuroCell::White);
        // pzprjs's own example board leaves a run without a clue: said where its clue is.
        let error = read("http://pzv.jp/p.html?kakuro/3/3/.l.m..034").unwrap_err();
        assert_eq!(error.column, 39, "{error}");
        assert!(error.message.contains("has no clue"), "{error}");
    }

    #[test]
    fn a_sudoku_goes_to_a_url_and_back_at_every_side() {
        for n in [4usize, 9, 16, 25] {
            let box_size = (n as f64).sqrt() as usize;
            // A few givens, distinct by row, column and box: the diagonal of a shifted grid.
            let mut givens = vec![0; n * n];
            for r in 0..n {
                givens[r * n + (r * box_size) % n] = (r % n) as u32 + 1;
            }
            givens[0] = 1;
            let sudoku = Sudoku { n, box_size, givens };
            let puzzle = Puzzle::Sudoku(sudoku);
            let url = play_url(&puzzle).unwrap();
            let back = read(&url).map(|d| d.entries.into_iter().next());
            assert!(matches!(back, Ok(Some(Ok(ref p))) if p.puzzle == puzzle), "{url}: {back:?}");
        }
        assert_eq!(
            play_url(&first("sudoku/4/4/1g2h3i4l")).unwrap(),
            "https://puzz.link/p?sudoku/4/4/1g2h3i4l"
        );
    }

    #[test]
    fn a_file_of_urls_is_a_batch_and_a_bad_line_spoils_only_itself() {
        let text = "# two\nsudoku/4/4/1g2h3i4l\nhttps://puzz.link/p?sudoku/4/4/1g2h\n";
        let doc = read(text).unwrap();
        assert!(doc.batch);
        assert!(doc.entries[0].is_ok());
        let error = doc.entries[1].as_ref().unwrap_err();
        assert_eq!((error.line, error.column), (3, 36));
        assert!(error.message.contains("ends after 5 of the grid's 16 cells"), "{error}");
    }

    #[test]
    fn malformed_urls_are_placed_errors() {
        let cases = [
            ("https://puzz.link/p?nurikabe/5/5/g5k", 21, "not one kakurod solves"),
            ("https://puzz.link/p?kakuro/x/3/.", 28, "no number of columns"),
            ("kakuro/3/3/.l.m..03", 20, "the data ends where a clue was due"),
            ("kakuro/3/3/.l.m..0345", 21, "more data after the board"),
            ("kakuro/3/3/.l.m.*034", 17, "unknown clue character"),
            ("kakuro/2/2/zz", 12, "16 white cells run past the board's end"),
            ("sudoku/6/6/g", 8, "not a Sudoku kakurod solves"),
            ("sudoku/4/4/5o", 12, "not a digit of this Sudoku"),
            ("sudoku/4/4/11t", 13, "repeats in its row"),
        ];
        for (url, column, message) in cases {
            let error = read(url).unwrap_err();
            assert_eq!(error.column, column, "{url}: {error}");
            assert!(error.message.contains(message), "{url}: {error}");
        }
    }

    #[test]
    fn a_killer_has_no_play_url() {
        let killer = include_str!("../../../../../tests/fixtures/killer/101_4x4.txt");
        let doc = super::super::read(killer, None).unwrap();
        assert_eq!(play_url(&doc.entries[0].as_ref().unwrap().puzzle), None);
    }
}
