//! One f-puzzles JSON document read into a puzzle: its fields checked against what
//! kakurod solves (anything else refused by name), the grid's givens, the boxes and the
//! killer cages, every error placed in the file or, for compressed data, on its line.

use crate::format::json_path::{self, Step};
use crate::format::text::{self, Line};
use crate::format::{InputError, json};
use crate::puzzle::validate::{self, Aspect, Invalid};
use crate::puzzle::{Cage, Killer, Puzzle, Sudoku};
use serde_json::{Map, Value};

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

/// Where the JSON came from, to place errors: in the file itself, or compressed at a point
/// of a line (then the message names the place inside the JSON).
pub(super) enum Where<'a> {
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
pub(super) fn puzzle(at: &Where<'_>, json_text: &str) -> Result<Puzzle, InputError> {
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

/// `size`: a side from 4 to [`MAX_SIDE`](super::MAX_SIDE).
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
