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

use super::json_path::{self, Step};
use super::text::{self, Line};
use super::{Document, Format, InputError, Parsed, json};
use crate::puzzle::validate::{self, Aspect, Invalid};
use crate::puzzle::{Cage, Killer, Puzzle, Sudoku};
use crate::solver::SolveOverrides;
use serde_json::{Map, Value, json};

/// The address a written URL starts with.
pub const LOAD_PREFIX: &str = "https://f-puzzles.com/?load=";

/// The largest side f-puzzles draws.
pub const MAX_SIDE: usize = 16;

/// The longest compressed string read. lz-string's output can grow with the square of its
/// input (8,192 characters can ask for some 100 MB), so the bound sits at twice a large
/// real grid: kakurod's own 16x16 Sudoku is about 900 characters, a 9x9 Killer 800.
const MAX_DATA: usize = 4_096;

/// Top-level fields read or safely ignored (metadata and the solution).
const KNOWN: [&str; 9] = [
    "size",
    "grid",
    "killercage",
    "title",
    "author",
    "ruleset",
    "solution",
    "disabledlogic",
    "truecandidatesoptions",
];

/// Cell fields that are only colours or a solver's marks.
const COSMETIC_CELL: [&str; 7] = [
    "c",
    "cArray",
    "highlight",
    "highlightArray",
    "centerPencilMarks",
    "cornerPencilMarks",
    "candidates",
];

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

/// Where the JSON came from, to place errors: in the file itself, or compressed at a point
/// of a line (then the message names the place inside the JSON).
enum Where<'a> {
    Json(&'a str),
    Packed(Line<'a>, usize),
}

impl Where<'_> {
    fn error(&self, json: &str, path: &[Step<'_>], message: String, expected: &str) -> InputError {
        match self {
            Where::Json(text) => {
                text::error_at(text, json_path::locate(json, path), message, expected)
            }
            Where::Packed(line, at) => {
                let message = format!("{message} (at `{}` of the decompressed JSON)", name(path));
                line.error_at(*at, message, expected)
            }
        }
    }
}

/// A JSON path as `killercage[2].cells[0]`.
fn name(path: &[Step<'_>]) -> String {
    let mut out = String::new();
    for step in path {
        match step {
            Step::Key(key) if out.is_empty() => out.push_str(key),
            Step::Key(key) => out.push_str(&format!(".{key}")),
            Step::Index(i) => out.push_str(&format!("[{i}]")),
        }
    }
    if out.is_empty() { "the top".to_string() } else { out }
}

/// Reading one f-puzzles JSON document.
struct Reader<'a> {
    at: &'a Where<'a>,
    json: &'a str,
}

impl Reader<'_> {
    fn fail<T>(&self, path: &[Step<'_>], message: String, expected: &str) -> Result<T, InputError> {
        Err(self.at.error(self.json, path, message, expected))
    }
}

/// The puzzle of an f-puzzles JSON text.
fn puzzle(at: &Where<'_>, json_text: &str) -> Result<Puzzle, InputError> {
    let value: Value = serde_json::from_str(json_text).map_err(|e| match at {
        Where::Json(text) => json::syntax(text, &e, "f-puzzles JSON"),
        Where::Packed(line, offset) => {
            let message = format!("the decompressed data is not JSON: {e}");
            line.error_at(*offset, message, "f-puzzles JSON inside")
        }
    })?;
    let reader = Reader { at, json: json_text };
    let Some(object) = value.as_object() else {
        return reader.fail(&[], "not a JSON object".into(), "an f-puzzles object");
    };
    refuse_unknown(&reader, object)?;
    let n = side(&reader, object)?;
    // f-puzzles' default regions are kakurod's Killer boxes; a Sudoku's are the same.
    let box_size = validate::killer_box(n)
        .or_else(|message| reader.fail(&[Step::Key("size")], message, "a side with boxes"))?;
    let (givens, places) = grid(&reader, object, n, box_size)?;
    let square = validate::sudoku_box(n).is_ok();
    match object.get("killercage") {
        None if square => {
            let sudoku = Sudoku { n, box_size, givens };
            validate::sudoku(&sudoku).map_err(|e| placed(&reader, &places, &[], e))?;
            Ok(Puzzle::Sudoku(sudoku))
        }
        cages => {
            let (cages, cage_places) = killer_cages(&reader, cages, n)?;
            let killer = Killer { n, box_size, cages, givens };
            validate::killer(&killer).map_err(|e| placed(&reader, &places, &cage_places, e))?;
            Ok(Puzzle::Killer(killer))
        }
    }
}

/// Fails on the first field kakurod does not read that holds something.
fn refuse_unknown(reader: &Reader<'_>, object: &Map<String, Value>) -> Result<(), InputError> {
    for (key, value) in object {
        if !KNOWN.contains(&key.as_str()) && !is_empty(value) {
            let message = format!("the f-puzzles constraint `{key}` is not one kakurod solves");
            return reader.fail(
                &[Step::Key(key)],
                message,
                "a plain Sudoku or Killer Sudoku: givens and killer cages only",
            );
        }
    }
    Ok(())
}

/// `false`, `null`, `""`, `[]` or `{}`: a field that says nothing.
fn is_empty(value: &Value) -> bool {
    match value {
        Value::Null | Value::Bool(false) => true,
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.is_empty(),
        _ => false,
    }
}

/// `size`: a side from 4 to [`MAX_SIDE`].
fn side(reader: &Reader<'_>, object: &Map<String, Value>) -> Result<usize, InputError> {
    let size = object.get("size");
    match size.and_then(Value::as_u64) {
        Some(n @ 4..=16) => Ok(n as usize),
        _ => {
            let shown = size.map_or("nothing".to_string(), Value::to_string);
            let message = format!("`size` is {shown}");
            reader.fail(&[Step::Key("size")], message, "a side from 4 to 16, as f-puzzles has")
        }
    }
}

/// The givens of `grid` (n rows of n cells), and where each cell sits.
fn grid(
    reader: &Reader<'_>,
    object: &Map<String, Value>,
    n: usize,
    box_h: usize,
) -> Result<(Vec<u32>, Vec<[usize; 2]>), InputError> {
    let Some(rows) = object.get("grid").and_then(Value::as_array).filter(|rows| rows.len() == n)
    else {
        let message = format!("`grid` is not an array of {n} rows (the `size`)");
        return reader.fail(&[Step::Key("grid")], message, "`size` rows of `size` cells");
    };
    let box_w = n / box_h;
    let mut givens = Vec::with_capacity(n * n);
    let mut places = Vec::with_capacity(n * n);
    let mut regions: Vec<Option<i64>> = Vec::with_capacity(n * n);
    let mut explicit = Vec::with_capacity(n * n);
    for (r, row) in rows.iter().enumerate() {
        let Some(cells) = row.as_array().filter(|cells| cells.len() == n) else {
            let message = format!("row {} is not an array of {n} cells", r + 1);
            return reader.fail(&[Step::Key("grid"), Step::Index(r)], message, "`size` cells");
        };
        for (c, cell) in cells.iter().enumerate() {
            let path = [Step::Key("grid"), Step::Index(r), Step::Index(c)];
            let (given, region) = grid_cell(reader, &path, cell, n)?;
            givens.push(given);
            places.push([r, c]);
            let default = (r / box_h * (n / box_w) + c / box_w) as i64;
            regions.push(region.unwrap_or(Some(default)));
            explicit.push(region.is_some());
        }
    }
    standard_regions(reader, &regions, &explicit, n, box_h)?;
    Ok((givens, places))
}

/// One cell: its given (0 for none) and its `region` field (`None` when absent,
/// `Some(None)` for `null`: no region).
fn grid_cell(
    reader: &Reader<'_>,
    path: &[Step<'_>],
    cell: &Value,
    n: usize,
) -> Result<(u32, Option<Option<i64>>), InputError> {
    let Some(fields) = cell.as_object() else {
        return reader.fail(
            path,
            format!("`{cell}` is no cell"),
            "an object such as {} or {\"value\": 5, \"given\": true}",
        );
    };
    for (key, value) in fields {
        let read = ["value", "given", "region"].contains(&key.as_str());
        if !read && !COSMETIC_CELL.contains(&key.as_str()) && !is_empty(value) {
            let message = format!("the cell field `{key}` is not one kakurod solves");
            let mut inner = path.to_vec();
            inner.push(Step::Key(key));
            return reader.fail(&inner, message, "a cell's `value`, `given`, `region` and colours");
        }
    }
    let given = fields.get("given").and_then(Value::as_bool).unwrap_or(false);
    let value = match fields.get("value") {
        Some(value) if given => match value.as_u64() {
            Some(v @ 1..) if v as usize <= n => v as u32,
            _ => {
                let message = format!("`{value}` is no given of this grid");
                return reader.fail(path, message, &format!("a digit from 1 to {n}"));
            }
        },
        _ => 0,
    };
    let region = fields.get("region").map(Value::as_i64);
    Ok((value, region))
}

/// Fails unless the regions are the standard boxes (in whatever numbering), on a cell
/// whose `region` is written when one of the two cells that disagree has it.
fn standard_regions(
    reader: &Reader<'_>,
    regions: &[Option<i64>],
    explicit: &[bool],
    n: usize,
    box_h: usize,
) -> Result<(), InputError> {
    let box_w = n / box_h;
    let box_of = |i: usize| (i / n / box_h, i % n / box_w);
    let clash = |i: usize, j: usize| {
        regions[i].is_none() || (regions[i] == regions[j]) != (box_of(i) == box_of(j))
    };
    for i in 0..regions.len() {
        let Some(j) = (0..regions.len()).find(|&j| clash(i, j)) else { continue };
        let cell = if explicit[i] || !explicit[j] { i } else { j };
        let path =
            [Step::Key("grid"), Step::Index(cell / n), Step::Index(cell % n), Step::Key("region")];
        let message = "the regions are not the standard boxes".to_string();
        return reader.fail(&path, message, &format!("f-puzzles' default {box_h}x{box_w} boxes"));
    }
    Ok(())
}

/// The killer cages, and for each the path index of every cell as listed.
fn killer_cages(
    reader: &Reader<'_>,
    cages: Option<&Value>,
    n: usize,
) -> Result<(Vec<Cage>, Vec<Vec<usize>>), InputError> {
    let list = match cages {
        None | Some(Value::Null) => return Ok((Vec::new(), Vec::new())),
        Some(Value::Array(list)) => list,
        Some(_) => {
            let message = "`killercage` is not an array".to_string();
            return reader.fail(&[Step::Key("killercage")], message, "an array of cages");
        }
    };
    let mut cages = Vec::with_capacity(list.len());
    let mut listed = Vec::with_capacity(list.len());
    for (id, cage) in list.iter().enumerate() {
        let path = [Step::Key("killercage"), Step::Index(id)];
        let total = cage_sum(reader, &path, cage)?;
        let names = cage.get("cells").and_then(Value::as_array);
        let Some(names) = names.filter(|names| !names.is_empty()) else {
            let message = "a killer cage without `cells`".to_string();
            return reader.fail(&path, message, "\"cells\": [\"R1C1\", …]");
        };
        let mut cells = Vec::with_capacity(names.len());
        for (k, name) in names.iter().enumerate() {
            let cell = name.as_str().and_then(|s| cell_index(s, n)).map_or_else(
                || {
                    let cell_path = [path[0], path[1], Step::Key("cells"), Step::Index(k)];
                    let message = format!("`{name}` is no cell of this grid");
                    reader.fail(&cell_path, message, &format!("`RxCy` with x and y from 1 to {n}"))
                },
                Ok,
            )?;
            cells.push(cell);
        }
        listed.push(cells.clone());
        cells.sort_unstable();
        cages.push(Cage { total, cells });
    }
    Ok((cages, listed))
}

/// A cage's `value`: its sum, as a string (as f-puzzles writes it) or a number.
fn cage_sum(reader: &Reader<'_>, path: &[Step<'_>], cage: &Value) -> Result<u32, InputError> {
    let value = cage.get("value");
    let sum = match value {
        Some(Value::String(s)) => text::number(s.trim()),
        Some(Value::Number(v)) => v.as_u64().and_then(|v| u32::try_from(v).ok()),
        _ => None,
    };
    match sum {
        Some(sum) if sum > 0 => Ok(sum),
        _ => {
            let shown = value.map_or("nothing".to_string(), Value::to_string);
            let message = format!("a killer cage whose sum is {shown}");
            let mut inner = path.to_vec();
            inner.push(Step::Key("value"));
            reader.fail(&inner, message, "a cage sum, such as \"value\": \"15\"")
        }
    }
}

/// `R3C5` (1-based) as a row-major index of an n-by-n grid.
fn cell_index(name: &str, n: usize) -> Option<usize> {
    let rest = name.strip_prefix(['R', 'r'])?;
    let (row, col) = rest.split_once(['C', 'c'])?;
    let (row, col) = (text::number(row)? as usize, text::number(col)? as usize);
    ((1..=n).contains(&row) && (1..=n).contains(&col)).then(|| (row - 1) * n + col - 1)
}

/// A broken rule, placed on the given or the cage it is about.
fn placed(
    reader: &Reader<'_>,
    places: &[[usize; 2]],
    cages: &[Vec<usize>],
    e: Invalid,
) -> InputError {
    let cell = places.get(e.cell).copied().unwrap_or([0, 0]);
    let mut path = vec![Step::Key("grid"), Step::Index(cell[0]), Step::Index(cell[1])];
    match e.aspect {
        Aspect::CageSum(id) => {
            path = vec![Step::Key("killercage"), Step::Index(id), Step::Key("value")]
        }
        Aspect::CageCell(id) => {
            path = vec![Step::Key("killercage"), Step::Index(id), Step::Key("cells")];
            let listed = cages.get(id).and_then(|cells| cells.iter().position(|&c| c == e.cell));
            path.extend(listed.map(Step::Index));
        }
        _ => {}
    }
    reader.at.error(reader.json, &path, e.message, &e.expected)
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
            include_str!("../../tests/fixtures/sudoku/generated_4x4.txt"),
            include_str!("../../tests/fixtures/sudoku/1_9x9.txt"),
            include_str!("../../tests/fixtures/sudoku/1051_16x16.txt"),
            include_str!("../../tests/fixtures/killer/574_6x6.txt"),
        ] {
            let puzzle = super::super::read(text, None).unwrap().entries.remove(0).unwrap().puzzle;
            let url = write(&puzzle).unwrap();
            assert!(url.starts_with(LOAD_PREFIX), "{url}");
            assert_eq!(one(&url), puzzle);
        }
        let big = super::super::read(
            include_str!("../../tests/fixtures/sudoku/generated_25x25.txt"),
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
