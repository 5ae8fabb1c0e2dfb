//! f-puzzles / SudokuPad Sudoku and Killer Sudoku, read and written. Three shapes:
//! - the JSON itself: `{"size": 9, "grid": [[{"value": 5, "given": true}, {}, …], …],
//!   "killercage": [{"cells": ["R1C1", "R1C2"], "value": "15"}], "title": …}`;
//! - that JSON compressed by lz-string's `compressToBase64` (it starts `N4I`);
//! - URLs holding the compressed JSON: `https://f-puzzles.com/?load=DATA`,
//!   `https://sudokupad.app/fpuzzlesDATA` (or `fpuzDATA`, `?puzzleid=fpuzzlesDATA`,
//!   `/sudoku/fpuzzlesDATA`), percent-encoded or not.
//!
//! A file of compressed strings or URLs holds one per line (a batch; blank and `#` lines
//! skipped). The field names are f-puzzles' own, as SudokuPad and other importers read them
//! (`FPuzzlesPuzzle`, `FPuzzlesGridCell` of yusitnikov/puzzletv). A given is a cell's
//! `value` with `given: true` (a `value` without it is a solver's digit, ignored); boxes
//! are f-puzzles' default regions, `h` rows by `size / h` columns with `h` the largest
//! divisor whose square fits (2x3 in a 6x6), which is kakurod's Killer box. What kakurod
//! cannot solve is refused by name, never dropped: any constraint beyond killer cages
//! (thermometers, arrows, diagonals, `cage`, …), cosmetics that may carry rules (`text`,
//! `line`, …), regions other than the boxes, given pencil marks, a cage without a sum.
//! Without `killercage`, a square side gives a Sudoku and another side a Killer Sudoku
//! without cages.

mod document;

use super::text::{self, Line};
use super::{Document, Format, InputError, Parsed};
use crate::puzzle::Puzzle;
use crate::solver::SolveOverrides;
use document::{Where, puzzle};
use serde_json::{Value, json};

/// The address a written URL starts with.
pub const LOAD_PREFIX: &str = "https://f-puzzles.com/?load=";

/// The largest side f-puzzles draws.
pub const MAX_SIDE: usize = 16;

/// The longest compressed string read. lz-string's output can grow with the square of its
/// input (8,192 characters can ask for some 100 MB), so the bound sits at twice a large
/// real grid: kakurod's own 16x16 Sudoku is about 900 characters, a 9x9 Killer 800.
const MAX_DATA: usize = 4_096;

/// Reads f-puzzles JSON, or compressed strings and URLs one per line.
pub fn read(text: &str) -> Result<Document, InputError> {
    if text.trim_start().starts_with('{') {
        let start = text.len() - text.trim_start().len();
        let line = text::error_at(text, start, "", "").line;
        let puzzle = puzzle(&Where::Json(text), text)?;
        let parsed = Parsed { puzzle, overrides: SolveOverrides::default(), line };
        return Ok(Document { format: Format::Fpuzzles, batch: false, entries: vec![Ok(parsed)] });
    }
    let lines: Vec<Line<'_>> = text::lines(text).filter(Line::is_content).collect();
    match lines.as_slice() {
        [] => Err(text::error_at(text, text.len(), "the file holds no puzzle", expected_input())),
        [one] => {
            let parsed = entry(*one)?;
            Ok(Document { format: Format::Fpuzzles, batch: false, entries: vec![Ok(parsed)] })
        }
        many => {
            let entries = many.iter().map(|line| entry(*line)).collect();
            Ok(Document { format: Format::Fpuzzles, batch: true, entries })
        }
    }
}

/// True for f-puzzles JSON (a `grid` of rows of objects), or a first content line that is
/// an f-puzzles or SudokuPad URL or a compressed f-puzzles string.
pub(crate) fn looks_like(text: &str) -> bool {
    if text.trim_start().starts_with('{') {
        return grid_of_objects(text);
    }
    let first = text::lines(text).find(Line::is_content);
    first.is_some_and(|line| {
        let trimmed = line.text.trim();
        // A SudokuPad URL without data (a short link) is taken too, for the reader to say
        // why it cannot be read.
        (is_url(trimmed) && (payload(trimmed).is_some() || is_short_link(trimmed)))
            || is_bare(trimmed)
    })
}

/// A URL of f-puzzles or SudokuPad.
fn is_url(line: &str) -> bool {
    ["f-puzzles.com", "sudokupad.app", "crackingthecryptic.com"]
        .iter()
        .any(|host| line.contains(host))
}

/// A SudokuPad short link (`https://sudokupad.app/psxczr0jpr`): the name of a puzzle kept on
/// SudokuPad's server, with no data in the URL.
fn is_short_link(line: &str) -> bool {
    line.contains("://") && !line.contains(' ') && payload(line).is_none()
}

/// `"grid"` followed by `[[{`: kakurod's own JSON has rows of numbers or strings there.
fn grid_of_objects(text: &str) -> bool {
    text.match_indices("\"grid\"").any(|(at, key)| {
        let rest = text[at + key.len()..].trim_start();
        let Some(rest) = rest.strip_prefix(':') else { return false };
        let Some(rest) = rest.trim_start().strip_prefix('[') else { return false };
        let Some(rest) = rest.trim_start().strip_prefix('[') else { return false };
        rest.trim_start().starts_with('{')
    })
}

/// A compressed string alone: base64 that starts as lz-string starts `{"`, with a
/// character no line of Sudoku digits holds.
fn is_bare(token: &str) -> bool {
    token.starts_with("N4I")
        && token.bytes().all(is_base64)
        && token.bytes().any(|b| b.is_ascii_lowercase() || matches!(b, b'+' | b'/' | b'='))
}

fn is_base64(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || matches!(byte, b'+' | b'/' | b'=')
}

fn expected_input() -> &'static str {
    "f-puzzles JSON, an lz-string compressed f-puzzles string, or a URL such as \
     https://f-puzzles.com/?load=DATA or https://sudokupad.app/fpuzzlesDATA"
}

/// The compressed data in a URL line, with its byte offset in the line; the whole line
/// when it is the data alone.
fn payload(line: &str) -> Option<(usize, &str)> {
    if is_bare(line) {
        return Some((0, line));
    }
    let (at, marker) = ["load=", "fpuzzles", "fpuz"]
        .iter()
        .find_map(|marker| line.find(marker).map(|at| (at, marker.len())))?;
    let start = at + marker;
    let end = line[start..].find(['&', '#', ' ']).map_or(line.len(), |len| start + len);
    Some((start, &line[start..end]))
}

/// One line: a URL or a compressed string.
fn entry(line: Line<'_>) -> Result<Parsed, InputError> {
    let trimmed = line.text.trim();
    let lead = line.start + (line.text.len() - line.text.trim_start().len());
    let Some((offset, data)) = payload(trimmed) else {
        let message = if is_url(trimmed) && is_short_link(trimmed) {
            "a SudokuPad short link names a puzzle kept on SudokuPad's server, which kakurod \
             does not reach (it reads no network): open it in SudokuPad and copy the \
             f-puzzles data or an fpuzzles link"
        } else {
            "no f-puzzles data on this line"
        };
        return Err(line.error_at(lead, message, expected_input()));
    };
    let at = lead + offset;
    let json = unpack(line, at, data)?;
    let puzzle = puzzle(&Where::Packed(line, at), &json)?;
    Ok(Parsed { puzzle, overrides: SolveOverrides::default(), line: line.number })
}

/// The JSON text inside compressed (and maybe percent-encoded) data.
fn unpack(line: Line<'_>, at: usize, data: &str) -> Result<String, InputError> {
    let decoded = percent_encoding::percent_decode_str(data)
        .decode_utf8()
        .map_err(|_| line.error_at(at, "the data is not percent-encoded UTF-8", "base64 text"))?;
    if let Some(bad) = decoded.bytes().position(|b| !is_base64(b)) {
        // The raw offset is exact when nothing before it was percent-encoded.
        let raw = data.find(|c: char| !c.is_ascii_alphanumeric() && !"+/=%".contains(c));
        let message = "not a character of lz-string's base64";
        return Err(line.error_at(at + raw.unwrap_or(bad), message, "A-Z, a-z, 0-9, +, / and ="));
    }
    if decoded.is_empty() || decoded.len() > MAX_DATA {
        let message = format!("{} characters of compressed data", decoded.len());
        return Err(line.error_at(at, message, format!("1 to {MAX_DATA} characters")));
    }
    let units = lz_str::decompress_from_base64(&decoded).filter(|units| !units.is_empty());
    let text = units.and_then(|units| String::from_utf16(&units).ok());
    text.ok_or_else(|| {
        let message = "the data does not decompress (lz-string base64) to text";
        line.error_at(at, message, "f-puzzles data as f-puzzles or SudokuPad writes it")
    })
}

/// A Sudoku or Killer Sudoku as an f-puzzles URL (`LOAD_PREFIX` and the compressed JSON),
/// with a newline; the reason when f-puzzles cannot hold it.
pub fn write(puzzle: &Puzzle) -> Result<String, String> {
    let (n, givens, cages) = match puzzle {
        Puzzle::Sudoku(s) => (s.n, &s.givens, None),
        Puzzle::Killer(k) => (k.n, &k.givens, Some(&k.cages)),
        Puzzle::Kakuro(_) => return Err("f-puzzles holds Sudoku and Killer Sudoku".into()),
    };
    if n > MAX_SIDE {
        return Err(format!("f-puzzles grids go up to {MAX_SIDE}x{MAX_SIDE}, this one is {n}x{n}"));
    }
    let cell = |v: u32| if v == 0 { json!({}) } else { json!({"value": v, "given": true}) };
    let grid: Vec<Vec<Value>> =
        givens.chunks(n.max(1)).map(|row| row.iter().map(|&v| cell(v)).collect()).collect();
    let mut document = json!({"size": n, "title": "", "author": "", "ruleset": "", "grid": grid});
    if let Some(cages) = cages {
        let name = |i: &usize| format!("R{}C{}", i / n + 1, i % n + 1);
        let cages: Vec<Value> = cages
            .iter()
            .map(|c| json!({"cells": c.cells.iter().map(name).collect::<Vec<_>>(), "value": c.total.to_string()}))
            .collect();
        document["killercage"] = Value::from(cages);
    }
    Ok(format!("{LOAD_PREFIX}{}\n", lz_str::compress_to_base64(&document.to_string())))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::Cage;

    const KILLER_4: &str = r#"{"size":4,"grid":[[{"value":1,"given":true},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{"value":2}]],
"killercage":[{"cells":["R1C1","R1C2"],"value":"3"},{"cells":["R4C3","R4C4"],"value":"7"}]}"#;

    fn one(text: &str) -> Puzzle {
        read(text).unwrap().entries.remove(0).unwrap().puzzle
    }

    #[test]
    fn json_compressed_and_urls_read_alike() {
        let Puzzle::Killer(k) = one(KILLER_4) else { panic!() };
        assert_eq!((k.n, k.box_size, k.cages.len()), (4, 2, 2));
        assert_eq!(k.givens[0], 1);
        assert_eq!(k.givens[15], 0, "a value without `given` is a solver's digit");
        assert_eq!(k.cages[1], Cage { total: 7, cells: vec![14, 15] });
        let packed = lz_str::compress_to_base64(KILLER_4);
        let escaped = packed.replace('+', "%2B").replace('/', "%2F").replace('=', "%3D");
        for text in [
            packed.clone(),
            format!("https://www.f-puzzles.com/?load={packed}"),
            format!("https://sudokupad.app/fpuzzles{packed}"),
            format!("https://sudokupad.app/fpuz{packed}"),
            format!("https://sudokupad.app/?puzzleid=fpuzzles{escaped}"),
        ] {
            assert_eq!(super::super::detect(&text), Some(Format::Fpuzzles), "{text}");
            assert_eq!(one(&text), Puzzle::Killer(k.clone()), "{text}");
        }
        assert_eq!(super::super::detect(KILLER_4), Some(Format::Fpuzzles));
    }

    #[test]
    fn fixtures_go_to_a_url_and_back() {
        for text in [
            include_str!("../../../../../tests/fixtures/sudoku/generated_4x4.txt"),
            include_str!("../../../../../tests/fixtures/sudoku/1_9x9.txt"),
            include_str!("../../../../../tests/fixtures/sudoku/1051_16x16.txt"),
            include_str!("../../../../../tests/fixtures/killer/574_6x6.txt"),
        ] {
            let puzzle = super::super::read(text, None).unwrap().entries.remove(0).unwrap().puzzle;
            let url = write(&puzzle).unwrap();
            assert!(url.starts_with(LOAD_PREFIX), "{url}");
            assert_eq!(one(&url), puzzle);
        }
        let big = super::super::read(
            include_str!("../../../../../tests/fixtures/sudoku/generated_25x25.txt"),
            None,
        );
        let big = big.unwrap().entries.remove(0).unwrap().puzzle;
        assert!(write(&big).unwrap_err().contains("up to 16x16"));
    }

    #[test]
    fn a_6x6_without_cages_is_a_killer_with_2x3_boxes() {
        let row = r#"[{},{},{},{},{},{}]"#;
        let text = format!(r#"{{"size":6,"grid":[{}]}}"#, [row; 6].join(","));
        let Puzzle::Killer(k) = one(&text) else { panic!() };
        assert_eq!((k.n, k.box_size, k.cages.len()), (6, 2, 0));
    }

    #[test]
    fn what_kakurod_cannot_solve_is_refused_by_name_where_it_is() {
        let with =
            |field: &str| KILLER_4.replacen("{\"size\":4,", &format!("{{\"size\":4,{field},"), 1);
        let region = KILLER_4.replacen("{},{},{}],[{}", "{},{},{\"region\":0}],[{}", 1);
        let cases = [
            (with("\"antiknight\":true"), 1, 24, "`antiknight`"),
            (with("\"thermometer\":[{\"lines\":[[\"R1C1\",\"R1C2\"]]}]"), 1, 25, "`thermometer`"),
            (region, 1, 61, "not the standard boxes"),
            (KILLER_4.replace("\"value\":\"7\"", "\"value\":\"\""), 2, 86, "sum is \"\""),
            (KILLER_4.replace("R4C4", "R5C4"), 2, 70, "`\"R5C4\"` is no cell"),
            (KILLER_4.replace("\"value\":\"7\"", "\"value\":\"2\""), 2, 86, "cannot be made"),
            (KILLER_4.replace("\"size\":4", "\"size\":5"), 1, 9, "cannot be cut into boxes"),
            (KILLER_4.replace("\"size\":4", "\"size\":17"), 1, 9, "`size` is 17"),
            (KILLER_4.replace("\"value\":1,", "\"value\":9,"), 1, 20, "`9` is no given"),
            (
                KILLER_4.replace("\"value\":2}", "\"value\":2,\"givenPencilMarks\":[1]}"),
                1,
                123,
                "`givenPencilMarks`",
            ),
            ("{\"size\":4,".to_string(), 1, 10, "EOF"),
        ];
        for (text, line, column, words) in cases {
            let error = read(&text).unwrap_err();
            assert_eq!((error.line, error.column), (line, column), "{text}: {error}");
            assert!(error.message.contains(words), "{error}");
        }
    }

    #[test]
    fn bad_compressed_data_is_an_error_on_its_line() {
        let good = lz_str::compress_to_base64(KILLER_4);
        let cases = [
            (format!("# c\nhttps://f-puzzles.com/?load=N4I*{good}"), 2, 32, "not a character"),
            (
                format!("https://f-puzzles.com/?load=N4Ig{}", "A".repeat(MAX_DATA)),
                1,
                29,
                "characters of compressed data",
            ),
            ("N4IgzglgXgpiBcBOAvkA".to_string(), 1, 1, "at `grid`"),
            (format!("{LOAD_PREFIX}{}", lz_str::compress_to_base64("{oops")), 1, 29, "not JSON"),
            ("https://f-puzzles.com/?load=N4Igabcdef".to_string(), 1, 29, "does not decompress"),
            (
                format!(
                    "https://f-puzzles.com/?load={}",
                    lz_str::compress_to_base64("{\"size\":4,\"grid\":[]}")
                ),
                1,
                29,
                "at `grid`",
            ),
        ];
        for (text, line, column, words) in cases {
            let error = read(&text).unwrap_err();
            assert_eq!((error.line, error.column), (line, column), "{text}: {error}");
            assert!(error.message.contains(words), "{error}");
        }
    }
}
