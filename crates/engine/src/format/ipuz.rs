//! ipuz (<http://ipuz.org>) Sudoku, read and written: a JSON object (or `ipuz({…})`) whose
//! `kind` names `http://ipuz.org/sudoku`, with `puzzle`, N rows of N givens. A given is a
//! number, a character of `charset` (default `123456789`), or `{"given": …}`; `null`, `0`,
//! `""` and the file's `empty` value are blanks. Other fields (`solution`, `saved`, styles,
//! metadata) are ignored; `cages` (a Killer's) are refused, since kakurod reads Killer
//! Sudoku in its own formats.

use super::json_path::{self, Step};
use super::{Document, Format, InputError, Parsed, json, text};
use crate::puzzle::validate;
use crate::puzzle::value_char;
use crate::puzzle::{Puzzle, Sudoku};
use crate::solver::SolveOverrides;
use serde_json::Value;

/// The kind a written file names.
const KIND: &str = "http://ipuz.org/sudoku#1";

/// True when `text` is JSON that names an ipuz version.
pub(crate) fn looks_like(text: &str) -> bool {
    let body = text.trim_start();
    (body.starts_with('{') || body.starts_with("ipuz(")) && text.contains("\"http://ipuz.org/")
}

/// Reads an ipuz Sudoku.
pub fn read(text: &str) -> Result<Document, InputError> {
    // JSONP (`ipuz({…})`), as the ipuz site serves it: the object inside, at its offsets.
    let (body, shift) = match text.trim_end().strip_suffix(')') {
        Some(inner) if text.trim_start().starts_with("ipuz(") => {
            let open = text.find("ipuz(").map_or(0, |at| at + 5);
            (&inner[open..], open)
        }
        _ => (text, 0),
    };
    let value: Value =
        serde_json::from_str(body).map_err(|e| json::syntax(text, &e, "an ipuz Sudoku"))?;
    let at = |path: &[Step<'_>]| shift + json_path::locate(body, path);
    let error = |path: &[Step<'_>], message: String, expected: &str| {
        text::error_at(text, at(path), message, expected)
    };
    let kinds: Vec<&str> =
        value["kind"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
    if !kinds.iter().any(|k| k.starts_with("http://ipuz.org/sudoku")) {
        let message = format!("the ipuz kind {kinds:?} is not a Sudoku");
        return Err(error(&[Step::Key("kind")], message, "[\"http://ipuz.org/sudoku#1\"]"));
    }
    if value.get("cages").is_some() {
        let message = "an ipuz Killer Sudoku (`cages`) is not read".to_string();
        return Err(error(
            &[Step::Key("cages")],
            message,
            "a Killer Sudoku in the killer or JSON format",
        ));
    }
    let Some(rows) = value["puzzle"].as_array() else {
        let message = "no `puzzle` array of rows".to_string();
        return Err(error(&[Step::Key("puzzle")], message, "\"puzzle\": N rows of N givens"));
    };
    let n = rows.len();
    let box_size = validate::sudoku_box(n).map_err(|_| {
        let message = format!("a puzzle of {n} rows is not a Sudoku kakurod solves");
        error(&[Step::Key("puzzle")], message, "4, 9, 16 or 25 rows")
    })?;
    let charset: Vec<char> = value["charset"].as_str().unwrap_or("123456789").chars().collect();
    let empty = value.get("empty").cloned().unwrap_or(Value::from(0));
    let mut givens = Vec::with_capacity(n * n);
    let mut places = Vec::with_capacity(n * n);
    for (r, row) in rows.iter().enumerate() {
        let cells = row.as_array().filter(|cells| cells.len() == n).ok_or_else(|| {
            let message = format!("row {} is not an array of {n} givens", r + 1);
            error(&[Step::Key("puzzle"), Step::Index(r)], message, "a row of N givens")
        })?;
        for (c, cell) in cells.iter().enumerate() {
            let path = [Step::Key("puzzle"), Step::Index(r), Step::Index(c)];
            let value =
                given(cell, &empty, &charset).filter(|&v| v as usize <= n).ok_or_else(|| {
                    let expected =
                        format!("a given from 1 to {n}, a character of the charset, or a blank");
                    error(&path, format!("`{cell}` is no given of this Sudoku"), &expected)
                })?;
            givens.push(value);
            places.push(at(&path));
        }
    }
    let sudoku = Sudoku { n, box_size, givens };
    validate::sudoku(&sudoku).map_err(|e| {
        let offset = places.get(e.cell).copied().unwrap_or(0);
        text::error_at(text, offset, e.message, e.expected)
    })?;
    let line = text::error_at(text, at(&[]), "", "").line;
    Ok(Document {
        format: Format::Ipuz,
        batch: false,
        entries: vec![Ok(Parsed {
            puzzle: Puzzle::Sudoku(sudoku),
            overrides: SolveOverrides::default(),
            line,
        })],
    })
}

/// A given's value (0 for a blank); `None` when it is none.
fn given(cell: &Value, empty: &Value, charset: &[char]) -> Option<u32> {
    if cell == empty || cell.is_null() {
        return Some(0);
    }
    match cell {
        Value::Number(number) => number.as_u64().and_then(|v| u32::try_from(v).ok()),
        Value::String(s) if s.is_empty() || s == "0" => Some(0),
        Value::String(s) => {
            let mut chars = s.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) => match charset.iter().position(|&x| x == c) {
                    Some(i) => u32::try_from(i + 1).ok(),
                    None => c.to_digit(10),
                },
                _ => s.parse().ok(),
            }
        }
        Value::Object(object) => given(object.get("given").unwrap_or(&Value::Null), empty, charset),
        _ => None,
    }
}

/// A Sudoku as an ipuz document: numbers for givens up to 9, characters of the charset
/// (`1`-`9`, then `A` for 10 and up) beyond; 0 for a blank.
pub fn write(sudoku: &Sudoku) -> String {
    let n = sudoku.n;
    let charset: String = (1..=n as u32).map(value_char).collect();
    let cell = |v: u32| match v {
        0 => Value::from(0),
        v if n <= 9 => Value::from(v),
        v => Value::from(value_char(v).to_string()),
    };
    let puzzle: Vec<Vec<Value>> =
        sudoku.givens.chunks(n.max(1)).map(|row| row.iter().map(|&v| cell(v)).collect()).collect();
    let document = serde_json::json!({
        "version": "http://ipuz.org/v2",
        "kind": [KIND],
        "origin": "kakurod",
        "charset": charset,
        "displaycharset": true,
        "boxes": true,
        "empty": 0,
        "puzzle": puzzle,
    });
    let mut text = serde_json::to_string_pretty(&document).unwrap_or_default();
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sudoku_goes_to_ipuz_and_back_at_every_side() {
        for text in [
            include_str!("../../../../tests/fixtures/sudoku/generated_4x4.txt"),
            include_str!("../../../../tests/fixtures/sudoku/1_9x9.txt"),
            include_str!("../../../../tests/fixtures/sudoku/1051_16x16.txt"),
            include_str!("../../../../tests/fixtures/sudoku/generated_25x25.txt"),
        ] {
            let doc = super::super::read(text, None).unwrap();
            let Ok(Parsed { puzzle: Puzzle::Sudoku(sudoku), .. }) = &doc.entries[0] else {
                panic!()
            };
            let written = write(sudoku);
            assert_eq!(super::super::detect(&written), Some(Format::Ipuz));
            let back = read(&written).unwrap();
            assert_eq!(back.entries[0].as_ref().unwrap().puzzle, Puzzle::Sudoku(sudoku.clone()));
        }
    }

    #[test]
    fn givens_come_as_numbers_characters_objects_and_blanks() {
        let text = r#"ipuz({"version": "http://ipuz.org/v2", "kind": ["http://ipuz.org/sudoku#1"],
            "charset": "ABCD", "empty": "x",
            "puzzle": [["A", 2, {"given": 3}, null], ["x", 0, "", "0"], [0,0,0,0], [0,0,0,0]]})"#;
        let doc = read(text).unwrap();
        let Ok(Parsed { puzzle: Puzzle::Sudoku(s), .. }) = &doc.entries[0] else { panic!() };
        assert_eq!(s.givens[..8], [1, 2, 3, 0, 0, 0, 0, 0]);
    }

    #[test]
    fn what_is_not_an_ipuz_sudoku_is_a_placed_error() {
        let base = r#"{"version": "http://ipuz.org/v2", "kind": ["http://ipuz.org/sudoku#1"],
"puzzle": [[1,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,5]]}"#;
        let cases = [
            (base.replace("sudoku#1", "crossword#1"), 1, 43, "not a Sudoku"),
            (base.to_string(), 2, 49, "`5` is no given of this Sudoku"),
            (base.replace("[0,0,0,5]", "[0,0,5]"), 2, 42, "row 4 is not an array of 4"),
            (
                base.replace("[0,0,0,5]", "[0,0,0,2]").replace("],[0,0,0,0],[", "],[1,0,0,0],["),
                2,
                23,
                "repeats",
            ),
            (base.replace("\"puzzle\"", "\"cages\": [], \"puzzle\""), 2, 10, "Killer"),
        ];
        for (text, line, column, words) in cases {
            let error = read(&text).unwrap_err();
            assert_eq!((error.line, error.column), (line, column), "{error}");
            assert!(error.message.contains(words), "{error}");
        }
    }
}
