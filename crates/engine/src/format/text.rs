//! Text scanning shared by the line-oriented readers: lines with their byte offsets,
//! whitespace-separated tokens, the `R C` header, whole grids of tokens, and turning a byte
//! offset into the 1-based line and character column of an [`InputError`].
//!
//! Positions travel as byte offsets into the original text and become line/column only
//! when an error is built, so the fast path never counts characters.

use super::InputError;

/// Largest number of rows or columns any grid may claim.
pub const MAX_SIDE: usize = 1000;

/// One line of the input.
#[derive(Clone, Copy, Debug)]
pub struct Line<'a> {
    /// 1-based line number.
    pub number: usize,
    /// Byte offset of the line's first character in the whole text.
    pub start: usize,
    /// The line without its `\n` / `\r\n` ending.
    pub text: &'a str,
}

impl<'a> Line<'a> {
    /// True when the line holds only whitespace.
    pub fn is_blank(&self) -> bool {
        self.text.trim().is_empty()
    }

    /// True when the line is neither blank nor a `#` comment (the line-per-entry formats
    /// skip both).
    pub fn is_content(&self) -> bool {
        !self.is_blank() && !self.text.trim_start().starts_with('#')
    }

    /// Whitespace-separated tokens with their byte offsets in the whole text.
    pub fn tokens(&self) -> impl Iterator<Item = (usize, &'a str)> + use<'a> {
        let (start, text) = (self.start, self.text);
        let bytes = text.as_bytes();
        let mut at = 0;
        std::iter::from_fn(move || {
            while at < bytes.len() && bytes[at].is_ascii_whitespace() {
                at += 1;
            }
            if at >= bytes.len() {
                return None;
            }
            let begin = at;
            while at < bytes.len() && !bytes[at].is_ascii_whitespace() {
                at += 1;
            }
            // Both ends sit next to ASCII whitespace or the line's ends: char boundaries.
            text.get(begin..at).map(|token| (start + begin, token))
        })
    }

    /// Byte offset just past the line's last non-blank character.
    pub fn end(&self) -> usize {
        self.start + self.text.trim_end().len()
    }

    /// An error at byte `offset` of the whole text, on this line (past its end: at its
    /// end): the same as [`error_at`] gives, in time of the line's length rather than the
    /// text's, so that a batch of many bad lines is read in linear time.
    pub fn error_at(
        &self,
        offset: usize,
        message: impl Into<String>,
        expected: impl Into<String>,
    ) -> InputError {
        let within = offset.saturating_sub(self.start).min(self.text.len());
        let column = column(self.text.as_bytes().get(..within).unwrap_or_default());
        InputError { line: self.number, column, message: message.into(), expected: expected.into() }
    }
}

/// The 1-based column just after `before`, the start of a line up to a point in it: its
/// characters, not bytes (UTF-8 continuation bytes are skipped).
fn column(before: &[u8]) -> usize {
    before.iter().filter(|&&b| b & 0xC0 != 0x80).count() + 1
}

/// The lines of `text`, numbered from 1, without their line endings.
pub fn lines(text: &str) -> impl Iterator<Item = Line<'_>> {
    let mut start = 0;
    let mut number = 0;
    text.split('\n').map(move |raw| {
        number += 1;
        let line = Line { number, start, text: raw.strip_suffix('\r').unwrap_or(raw) };
        start += raw.len() + 1;
        line
    })
}

/// An error at byte `offset` of `text`, with 1-based line and character column.
pub fn error_at(
    text: &str,
    offset: usize,
    message: impl Into<String>,
    expected: impl Into<String>,
) -> InputError {
    let bytes = text.as_bytes();
    let offset = offset.min(bytes.len());
    let before = &bytes[..offset];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let line_start = before.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
    let column = column(&before[line_start..]);
    InputError { line, column, message: message.into(), expected: expected.into() }
}

/// A non-negative decimal number of at most 9 digits (so it fits `u32` with room to add).
pub fn number(token: &str) -> Option<u32> {
    let bytes = token.as_bytes();
    if bytes.is_empty() || bytes.len() > 9 || !bytes.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(bytes.iter().fold(0, |n, &b| n * 10 + u32::from(b - b'0')))
}

/// The next non-blank line, if any.
pub fn next_content<'a>(lines: &mut impl Iterator<Item = Line<'a>>) -> Option<Line<'a>> {
    lines.find(|line| !line.is_blank())
}

/// Reads the `R C` header from the first non-blank line: two numbers in `1..=MAX_SIDE`.
pub fn header<'a>(
    text: &str,
    lines: &mut impl Iterator<Item = Line<'a>>,
) -> Result<(usize, usize, Line<'a>), InputError> {
    let expected = format!("a header `ROWS COLUMNS` with numbers 1..{MAX_SIDE}");
    let Some(line) = next_content(lines) else {
        return Err(error_at(text, text.len(), "the file holds no puzzle", expected));
    };
    let mut sides = [0usize; 2];
    let mut tokens = line.tokens();
    for (i, side) in sides.iter_mut().enumerate() {
        let what = if i == 0 { "row count" } else { "column count" };
        let Some((offset, token)) = tokens.next() else {
            return Err(error_at(text, line.end(), format!("the header has no {what}"), expected));
        };
        match number(token).map(|n| n as usize) {
            Some(n) if (1..=MAX_SIDE).contains(&n) => *side = n,
            _ => {
                let message = format!("`{token}` is not a valid {what}");
                return Err(error_at(text, offset, message, expected));
            }
        }
    }
    if let Some((offset, token)) = tokens.next() {
        let message = format!("unexpected `{token}` after the header");
        return Err(error_at(text, offset, message, expected));
    }
    Ok((sides[0], sides[1], line))
}

/// Reads `rows` non-blank lines of exactly `cols` tokens each, calling `cell(index, offset,
/// token)` for every token in row-major order. Blank lines are skipped. `what` names the
/// grid in messages ("grid", "cage ids", ...). Returns the last line read.
pub fn grid<'a>(
    text: &'a str,
    lines: &mut impl Iterator<Item = Line<'a>>,
    after: Line<'a>,
    (rows, cols): (usize, usize),
    what: &str,
    mut cell: impl FnMut(usize, usize, &'a str) -> Result<(), InputError>,
) -> Result<Line<'a>, InputError> {
    let mut last = after;
    for row in 0..rows {
        let Some(line) = next_content(lines) else {
            let message = format!("the {what} has {row} rows, the header says {rows}");
            return Err(error_at(
                text,
                text.len(),
                message,
                format!("{rows} rows of {cols} cells"),
            ));
        };
        let mut count = 0;
        for (offset, token) in line.tokens() {
            if count == cols {
                let message = format!("row {} of the {what} has more than {cols} cells", row + 1);
                return Err(error_at(text, offset, message, format!("{cols} cells per row")));
            }
            cell(row * cols + count, offset, token)?;
            count += 1;
        }
        if count < cols {
            let message = format!("row {} of the {what} has {count} cells", row + 1);
            return Err(error_at(text, line.end(), message, format!("{cols} cells per row")));
        }
        last = line;
    }
    Ok(last)
}

/// Fails on any non-blank line left in `lines`.
pub fn expect_end<'a>(
    text: &str,
    lines: &mut impl Iterator<Item = Line<'a>>,
    expected: &str,
) -> Result<(), InputError> {
    match next_content(lines).and_then(|line| line.tokens().next()) {
        Some((offset, token)) => {
            let message = format!("unexpected `{token}` after the end of the puzzle");
            Err(error_at(text, offset, message, expected))
        }
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_places_an_error_as_the_whole_text_does() {
        let text = "4 4\r\nab \u{e9}\u{e9} 5,\n\n,7 - 0\nlast";
        for line in lines(text) {
            for offset in line.start..=line.start + line.text.len() {
                let whole = error_at(text, offset, "m", "e");
                assert_eq!(line.error_at(offset, "m", "e"), whole, "offset {offset}");
            }
        }
    }

    #[test]
    fn lines_keep_offsets_and_drop_line_endings() {
        let text = "ab\r\ncd\n\nef";
        let all: Vec<_> = lines(text).map(|l| (l.number, l.start, l.text)).collect();
        assert_eq!(all, vec![(1, 0, "ab"), (2, 4, "cd"), (3, 7, ""), (4, 8, "ef")]);
    }

    #[test]
    fn tokens_carry_their_offsets() {
        let line = lines("x\n  1  2,3\t-").nth(1).unwrap();
        let tokens: Vec<_> = line.tokens().collect();
        assert_eq!(tokens, vec![(4, "1"), (7, "2,3"), (11, "-")]);
    }

    #[test]
    fn error_columns_count_characters() {
        let text = "ab\nxé y";
        let e = error_at(text, text.find('y').unwrap(), "m", "e");
        assert_eq!((e.line, e.column), (2, 4));
    }

    #[test]
    fn header_is_bounded() {
        let err = header("1000000000 5\n", &mut lines("1000000000 5\n")).unwrap_err();
        assert_eq!((err.line, err.column), (1, 1));
        let err = header("3 3 3", &mut lines("3 3 3")).unwrap_err();
        assert_eq!(err.column, 5);
        assert!(header("", &mut lines("")).is_err());
        let (r, c, _) = header("\n 2 7 \n", &mut lines("\n 2 7 \n")).unwrap();
        assert_eq!((r, c), (2, 7));
    }

    #[test]
    fn numbers_are_bounded() {
        assert_eq!(number("0"), Some(0));
        assert_eq!(number("123456789"), Some(123_456_789));
        assert_eq!(number("1234567890"), None);
        assert_eq!(number("-1"), None);
        assert_eq!(number(""), None);
    }
}
