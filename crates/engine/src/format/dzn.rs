//! MiniZinc data (`.dzn`) for the classic Sudoku model: `initial_values = [| 0, 0, ... |
//! ... |];`, 0 (or `_`) for a blank. `%` line comments, `/* */` block comments and other
//! assignments (`n = 3;`, `S = 3;`) are tolerated and ignored. When no `initial_values` is
//! present, the one 2-D array literal of the file is taken, whatever its name.

use super::text;
use super::{Document, Format, InputError, Parsed};
use crate::puzzle::validate;
use crate::puzzle::{Puzzle, Sudoku};
use crate::solver::SolveOverrides;

/// A lexical token with its byte offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Token<'a> {
    /// A name, a number or `_`.
    Word(&'a str),
    /// `[|`
    Open,
    /// `|]`
    Close,
    /// Any other single character: `|`, `,`, `=`, `;`, `[`, ...
    Punct(char),
}

/// Splits the text into tokens, skipping whitespace and comments.
fn tokens(text: &str) -> Vec<(Token<'_>, usize)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b.is_ascii_whitespace() {
            i += 1;
        } else if b == b'%' {
            i = bytes[i..].iter().position(|&c| c == b'\n').map_or(bytes.len(), |p| i + p);
        } else if bytes[i..].starts_with(b"/*") {
            i = text[i + 2..].find("*/").map_or(bytes.len(), |p| i + 2 + p + 2);
        } else if bytes[i..].starts_with(b"[|") {
            out.push((Token::Open, i));
            i += 2;
        } else if bytes[i..].starts_with(b"|]") {
            out.push((Token::Close, i));
            i += 2;
        } else if b.is_ascii_alphanumeric() || b == b'_' {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            out.push((Token::Word(&text[start..i]), start));
        } else {
            let c = text[i..].chars().next().unwrap_or('?');
            out.push((Token::Punct(c), i));
            i += c.len_utf8();
        }
    }
    out
}

/// Reads MiniZinc Sudoku data.
pub fn read(text: &str) -> Result<Document, InputError> {
    let tokens = tokens(text);
    let open = find_array(&tokens).ok_or_else(|| {
        let message = "no `initial_values = [| ... |];` in the data";
        text::error_at(text, 0, message, "a 2-D array literal `[| ... |]` of the givens")
    })?;
    let (rows, close) = array(text, &tokens, open)?;
    let n = rows.len();
    let width_error = rows.iter().find(|row| row.len() != n);
    if let Some(row) = width_error {
        let at = row.first().map_or(tokens[open].1, |c| c.1);
        let message = format!("a row of {} values in a grid of {n} rows", row.len());
        return Err(text::error_at(text, at, message, "a square grid of givens"));
    }
    let box_size = validate::sudoku_box(n)
        .map_err(|m| text::error_at(text, tokens[open].1, m, "a side of 4, 9, 16 or 25"))?;
    if let Some(&(token, at)) = tokens.get(close + 1)
        && token != Token::Punct(';')
    {
        return Err(text::error_at(text, at, "the array is not followed by `;`", "`;`"));
    }
    let offsets: Vec<usize> = rows.iter().flatten().map(|c| c.1).collect();
    let givens: Vec<u32> = rows.iter().flatten().map(|c| c.0).collect();
    let sudoku = Sudoku { n, box_size, givens };
    validate::sudoku(&sudoku).map_err(|e| {
        text::error_at(text, offsets.get(e.cell).copied().unwrap_or(0), e.message, e.expected)
    })?;
    let line = text::error_at(text, tokens[open].1, "", "").line;
    Ok(Document {
        format: Format::Dzn,
        batch: false,
        entries: vec![Ok(Parsed {
            puzzle: Puzzle::Sudoku(sudoku),
            overrides: SolveOverrides::default(),
            line,
        })],
    })
}

/// Index of the `[|` of `initial_values = [|`, or of the first `[|` when that name is absent.
fn find_array(tokens: &[(Token<'_>, usize)]) -> Option<usize> {
    let named = tokens.windows(3).position(|w| {
        w[0].0 == Token::Word("initial_values")
            && w[1].0 == Token::Punct('=')
            && w[2].0 == Token::Open
    });
    named.map(|p| p + 2).or_else(|| tokens.iter().position(|t| t.0 == Token::Open))
}

/// A value of the array with its offset.
type Value = (u32, usize);

/// Parses `[| v, v, ... | v, ... |]` from `open`; returns the rows and the index of `|]`.
fn array(
    text: &str,
    tokens: &[(Token<'_>, usize)],
    open: usize,
) -> Result<(Vec<Vec<Value>>, usize), InputError> {
    let expected = "numbers separated by `,`, rows separated by `|`, closed by `|]`";
    let mut rows: Vec<Vec<Value>> = vec![Vec::new()];
    let mut want_value = true;
    for (index, &(token, at)) in tokens.iter().enumerate().skip(open + 1) {
        let current = rows.len() - 1;
        match token {
            Token::Word(word) if want_value => {
                let value = if word == "_" { Some(0) } else { text::number(word) };
                let Some(value) = value else {
                    return Err(text::error_at(
                        text,
                        at,
                        format!("`{word}` is not a given"),
                        expected,
                    ));
                };
                // Row count and length are bounded by the text itself.
                rows[current].push((value, at));
                want_value = false;
            }
            Token::Punct(',') if !want_value => want_value = true,
            Token::Punct('|') if !rows[current].is_empty() => {
                rows.push(Vec::new());
                want_value = true;
            }
            Token::Close => {
                if rows[current].is_empty() && rows.len() > 1 {
                    rows.pop();
                }
                return Ok((rows, index));
            }
            _ => {
                let message = format!("unexpected `{}` in the array", shown(token));
                return Err(text::error_at(text, at, message, expected));
            }
        }
    }
    Err(text::error_at(text, text.len(), "the array is not closed", "`|]`"))
}

fn shown(token: Token<'_>) -> String {
    match token {
        Token::Word(w) => w.to_string(),
        Token::Open => "[|".into(),
        Token::Close => "|]".into(),
        Token::Punct(c) => c.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FOUR: &str = "% a 4x4 Sudoku\nn = 2;\ninitial_values = [|\n  1, 0, 0, 0 |\n  0, 0, 0, 0 |\n  0, 0, _, 0 |\n  0, 0, 0, 4 |];\n";

    fn sudoku(text: &str) -> Result<Sudoku, InputError> {
        match read(text)?.entries.into_iter().next() {
            Some(Ok(Parsed { puzzle: Puzzle::Sudoku(s), .. })) => Ok(s),
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn reads_givens_and_ignores_other_assignments() {
        let s = sudoku(FOUR).unwrap();
        assert_eq!((s.n, s.box_size), (4, 2));
        assert_eq!((s.givens[0], s.givens[10], s.givens[15]), (1, 0, 4));
        let doc = read(FOUR).unwrap();
        assert_eq!(doc.entries[0].as_ref().unwrap().line, 3);
    }

    #[test]
    fn comments_in_every_place() {
        let text = FOUR.replace("0, 0, 0, 0 |", "0, /* gap */ 0, 0, 0 | % row 2");
        assert_eq!(sudoku(&text).unwrap(), sudoku(FOUR).unwrap());
    }

    #[test]
    fn malformed_arrays_are_placed() {
        let e = sudoku(&FOUR.replace("0, 0, 0, 4", "0, 0, 0, x")).unwrap_err();
        assert_eq!((e.line, e.column), (7, 12));
        let e = sudoku(&FOUR.replace("0, 0, 0, 4", "0, 0, 0")).unwrap_err();
        assert!(e.message.contains("a row of 3 values"), "{e}");
        let e = sudoku(&FOUR.replace("|];", "|")).unwrap_err();
        assert!(e.message.contains("not closed"), "{e}");
        let e = sudoku("n = 3;\n").unwrap_err();
        assert!(e.message.contains("initial_values"), "{e}");
        let e = sudoku(&FOUR.replace("0, 0, 0, 4", "0, 0, 0, 7")).unwrap_err();
        assert_eq!((e.line, e.column), (7, 12));
        assert!(e.message.contains("out of range"), "{e}");
        let e = sudoku(&FOUR.replace("0, 0, 0, 4", "1, 0, 0, 4")).unwrap_err();
        assert!(e.message.contains("repeats in its column"), "{e}");
    }
}
