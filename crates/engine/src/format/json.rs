//! kakurod's own JSON puzzle format: one object per file.
//!
//! | field      | kinds            | meaning |
//! |------------|------------------|---------|
//! | `kind`     | all              | `"kakuro"`, `"sudoku"` or `"killer"` (required; `"generate"` makes the file a generation job instead, see [`super::generation`]) |
//! | `name`     | all              | free text, ignored |
//! | `grid`     | kakuro, sudoku   | Kakuro: rows as strings of janko tokens (`"- 16, ,23 0"`, `\` also accepted as separator) or as arrays of tokens (`["-", "16,", "0"]`). Sudoku: rows as arrays of numbers, 0 = blank |
//! | `givens`   | sudoku, killer   | rows as arrays of numbers, 0 = blank (a Sudoku takes `grid` or `givens`; optional for a Killer) |
//! | `size`     | killer           | side N of the grid (4..25; 6 has 2x3 boxes) |
//! | `cages`    | killer           | `[{"sum": S, "cells": [[row, col], ...]}]`, rows and columns counted from 0 |
//! | `settings` | all              | solver settings for this puzzle, as in `SolveOverrides`: `algorithm` (`bt`, `fc`, `mac`, `sat`), `var_order` (`input_order`, `first_fail`, `smallest`), `val_order` (`min`, `max`), `mode` (`first`, `unique`, `count`), `count_limit`, `threads`, `timeout_seconds`, `node_limit`, `grade` (`off`, `auto`, `full`), `explain` (see below) |
//! | `explain`  | all              | `true`: the result document of a solved puzzle carries its solving path, `"explain": {"steps", "difficulty", "solved"}` (docs/explain.md); also accepted in `settings`, and never computed when not asked |
//!
//! Unknown fields are errors, so a typo never goes unnoticed. Examples, one per kind:
//!
//! ```json
//! {
//!   "kind": "kakuro",
//!   "name": "a 3x3 Kakuro",
//!   "grid": [
//!     "-  4,  3,",
//!     ",4  0   0",
//!     ",3  0   0"
//!   ],
//!   "settings": {"mode": "unique", "timeout_seconds": 30}
//! }
//! ```
//!
//! ```json
//! {
//!   "kind": "sudoku",
//!   "givens": [[1, 0, 0, 0], [0, 0, 3, 0], [0, 4, 0, 0], [0, 0, 0, 2]]
//! }
//! ```
//!
//! ```json
//! {
//!   "kind": "killer",
//!   "size": 4,
//!   "cages": [
//!     {"sum": 3, "cells": [[0, 0], [0, 1]]},
//!     {"sum": 7, "cells": [[0, 2], [0, 3]]}
//!   ],
//!   "settings": {"mode": "first", "timeout_seconds": 10}
//! }
//! ```
//!
//! Syntax errors carry serde_json's line and column; rule errors (an unreachable clue, a
//! cage in two pieces) are placed on the offending value with `json_path`.

use super::json_grid::{self as grid, Item, Row};
use super::json_path::{self, Step};
use super::text;
use super::{Document, Format, InputError, Parsed};
use crate::puzzle::validate::{self, Aspect, Invalid};
use crate::puzzle::{Cage, KakuroCell, Killer, Kind, Puzzle, Sudoku};
use crate::solver::SolveOverrides;
use serde::Deserialize;

/// The JSON object, as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct JsonPuzzle {
    kind: Kind,
    #[serde(default)]
    #[allow(dead_code, reason = "documentation for the reader of the file")]
    name: Option<String>,
    grid: Option<Vec<Row>>,
    givens: Option<Vec<Row>>,
    size: Option<u64>,
    cages: Option<Vec<JsonCage>>,
    settings: Option<SolveOverrides>,
    /// The solving path asked for at the top level (as `settings.explain`).
    explain: Option<bool>,
}

/// One cage, as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct JsonCage {
    sum: u32,
    cells: Vec<[u64; 2]>,
}

/// Reads a JSON puzzle.
pub fn read(text: &str) -> Result<Document, InputError> {
    let raw: JsonPuzzle = serde_json::from_str(text).map_err(|e| syntax(text, &e, EXPECTED))?;
    let reader = Reader { text };
    let puzzle = match raw.kind {
        Kind::Kakuro => reader.kakuro(&raw)?,
        Kind::Sudoku => reader.sudoku(&raw)?,
        Kind::Killer => reader.killer(&raw)?,
    };
    let line = text::error_at(text, json_path::locate(text, &[]), "", "").line;
    let mut overrides = raw.settings.unwrap_or_default();
    overrides.explain = raw.explain.or(overrides.explain);
    Ok(Document {
        format: Format::Json,
        batch: false,
        entries: vec![Ok(Parsed { puzzle, overrides, line })],
    })
}

/// What a JSON puzzle's syntax and schema errors say was expected.
const EXPECTED: &str = "a kakurod JSON puzzle (see docs/formats.md)";

/// A serde_json error at its own line and column (counted in characters), with what was
/// `expected` (the JSON puzzle, or a generation job).
pub(super) fn syntax(text: &str, error: &serde_json::Error, expected: &str) -> InputError {
    let full = error.to_string();
    let message = full.rfind(" at line ").map_or(full.as_str(), |at| &full[..at]).to_string();
    let line_start =
        text::lines(text).nth(error.line().saturating_sub(1)).map_or(text.len(), |l| l.start);
    let mut offset = line_start + error.column().saturating_sub(1);
    if message.starts_with("unknown field") {
        offset = key_start(text, line_start + error.column()).unwrap_or(offset);
    }
    text::error_at(text, offset, message, expected)
}

/// The opening quote of the object key that the text up to `end` closes: serde_json
/// reports an unknown field after the key's closing quote and the blanks after it, which
/// may run onto the next lines.
fn key_start(text: &str, end: usize) -> Option<usize> {
    let key = text.get(..end)?.trim_end().strip_suffix('"')?;
    let escaped = |at: usize| key[..at].bytes().rev().take_while(|&b| b == b'\\').count() % 2 == 1;
    key.match_indices('"').map(|(at, _)| at).rev().find(|&at| !escaped(at))
}

/// Reading one document; holds the text to place errors.
struct Reader<'a> {
    text: &'a str,
}

impl Reader<'_> {
    fn at(
        &self,
        path: &[Step<'_>],
        message: impl Into<String>,
        expected: impl Into<String>,
    ) -> InputError {
        text::error_at(self.text, json_path::locate(self.text, path), message, expected)
    }

    /// Fails when `field` is present: it does not apply to `kind`.
    fn refuse(&self, present: bool, field: &str, kind: &str) -> Result<(), InputError> {
        if !present {
            return Ok(());
        }
        let message = format!("`{field}` does not apply to a {kind}");
        Err(self.at(&[Step::Key(field)], message, format!("only the fields of a {kind}")))
    }

    fn kakuro(&self, raw: &JsonPuzzle) -> Result<Puzzle, InputError> {
        self.refuse(raw.givens.is_some(), "givens", "kakuro")?;
        self.refuse(raw.size.is_some(), "size", "kakuro")?;
        self.refuse(raw.cages.is_some(), "cages", "kakuro")?;
        let Some(rows) = &raw.grid else {
            return Err(self.at(&[], "a kakuro needs `grid`", "`grid`: rows of janko tokens"));
        };
        let (kakuro, places) = grid::kakuro(self.text, rows)?;
        validate::kakuro(&kakuro).map_err(|e| self.place_token(&places, e))?;
        Ok(Puzzle::Kakuro(kakuro))
    }

    /// Places a Kakuro rule violation on its token.
    fn place_token(&self, places: &[grid::Place], e: Invalid) -> InputError {
        let offset = places.get(e.cell).map_or(0, |p| p.offset(self.text, e.aspect));
        text::error_at(self.text, offset, e.message, e.expected)
    }

    fn sudoku(&self, raw: &JsonPuzzle) -> Result<Puzzle, InputError> {
        self.refuse(raw.size.is_some(), "size", "sudoku")?;
        self.refuse(raw.cages.is_some(), "cages", "sudoku")?;
        let (field, rows) = match (&raw.grid, &raw.givens) {
            (Some(rows), None) => ("grid", rows),
            (None, Some(rows)) => ("givens", rows),
            (Some(_), Some(_)) => {
                let message = "both `grid` and `givens`";
                return Err(self.at(&[Step::Key("givens")], message, "one of them"));
            }
            (None, None) => {
                return Err(self.at(&[], "a sudoku needs `givens`", "`givens`: rows of numbers"));
            }
        };
        let n = rows.len();
        let box_size = validate::sudoku_box(n)
            .map_err(|m| self.at(&[Step::Key(field)], m, "4, 9, 16 or 25 rows"))?;
        let givens = self.numbers(field, rows, n)?;
        let sudoku = Sudoku { n, box_size, givens };
        validate::sudoku(&sudoku).map_err(|e| self.place_cell(field, n, e))?;
        Ok(Puzzle::Sudoku(sudoku))
    }

    fn place_cell(&self, field: &str, n: usize, e: Invalid) -> InputError {
        let path = [Step::Key(field), Step::Index(e.cell / n), Step::Index(e.cell % n)];
        self.at(&path, e.message, e.expected)
    }

    /// `n` rows of `n` numbers, row-major.
    fn numbers(&self, field: &str, rows: &[Row], n: usize) -> Result<Vec<u32>, InputError> {
        let mut values = Vec::with_capacity(n * n);
        for (r, row) in rows.iter().enumerate() {
            let Row::Items(items) = row else {
                return Err(self.at(
                    &[Step::Key(field), Step::Index(r)],
                    "a row as a string",
                    "an array of numbers",
                ));
            };
            if items.len() != n {
                let message =
                    format!("row {} has {} values, the grid has {n} rows", r + 1, items.len());
                return Err(self.at(
                    &[Step::Key(field), Step::Index(r)],
                    message,
                    format!("{n} numbers per row"),
                ));
            }
            for (c, item) in items.iter().enumerate() {
                match item {
                    Item::Number(v) => values.push(u32::try_from(*v).unwrap_or(u32::MAX)),
                    Item::Token(_) => {
                        let path = [Step::Key(field), Step::Index(r), Step::Index(c)];
                        return Err(self.at(
                            &path,
                            "a string where a number belongs",
                            "a number, 0 for a blank",
                        ));
                    }
                }
            }
        }
        Ok(values)
    }

    fn killer(&self, raw: &JsonPuzzle) -> Result<Puzzle, InputError> {
        self.refuse(raw.grid.is_some(), "grid", "killer")?;
        let Some(size) = raw.size else {
            return Err(self.at(&[], "a killer needs `size`", "`size`: the side of the grid"));
        };
        let n = usize::try_from(size).unwrap_or(usize::MAX);
        let box_size = validate::killer_box(n)
            .map_err(|m| self.at(&[Step::Key("size")], m, "a side from 4 to 25"))?;
        let givens = match &raw.givens {
            Some(rows) if rows.len() != n => {
                let message = format!("{} rows of givens for a grid of side {n}", rows.len());
                return Err(self.at(&[Step::Key("givens")], message, format!("{n} rows")));
            }
            Some(rows) => self.numbers("givens", rows, n)?,
            None => vec![0; n * n],
        };
        let Some(json_cages) = &raw.cages else {
            return Err(self.at(
                &[],
                "a killer needs `cages`",
                "`cages`: [{\"sum\": S, \"cells\": [[r, c], ...]}]",
            ));
        };
        let mut cages = Vec::with_capacity(json_cages.len());
        for (i, cage) in json_cages.iter().enumerate() {
            if cage.cells.is_empty() {
                let path = [Step::Key("cages"), Step::Index(i), Step::Key("cells")];
                return Err(self.at(&path, "a cage without cells", "at least one [row, col]"));
            }
            let mut cells = Vec::with_capacity(cage.cells.len());
            for (j, &[r, c]) in cage.cells.iter().enumerate() {
                if r >= size || c >= size {
                    let path =
                        [Step::Key("cages"), Step::Index(i), Step::Key("cells"), Step::Index(j)];
                    let message = format!("cell [{r}, {c}] is off the grid");
                    return Err(self.at(&path, message, format!("rows and columns 0..{}", n - 1)));
                }
                cells.push(r as usize * n + c as usize);
            }
            cages.push(Cage { total: cage.sum, cells });
        }
        let killer = Killer { n, box_size, cages, givens };
        validate::killer(&killer).map_err(|e| match e.aspect {
            Aspect::CageSum(i) => self.at(
                &[Step::Key("cages"), Step::Index(i), Step::Key("sum")],
                e.message,
                e.expected,
            ),
            Aspect::CageCell(i) => {
                let listed = killer.cages.get(i).map(|c| &c.cells);
                let j =
                    listed.and_then(|cells| cells.iter().rposition(|&c| c == e.cell)).unwrap_or(0);
                let path = [Step::Key("cages"), Step::Index(i), Step::Key("cells"), Step::Index(j)];
                self.at(&path, e.message, e.expected)
            }
            _ => self.place_cell("givens", n, e),
        })?;
        let mut killer = killer;
        // Listed order served to place errors; the puzzle keeps cells in increasing order.
        killer.cages.iter_mut().for_each(|cage| cage.cells.sort_unstable());
        Ok(Puzzle::Killer(killer))
    }
}

/// `puzzle` in this format, one grid row a line: what `kakurod convert --to json` writes.
pub fn write(puzzle: &Puzzle) -> String {
    let rows = |rows: Vec<String>| format!("[\n    {}\n  ]", rows.join(",\n    "));
    let numbers = |values: &[u32], n: usize| {
        rows(values.chunks(n.max(1)).map(|row| serde_json::json!(row).to_string()).collect())
    };
    let fields = match puzzle {
        Puzzle::Kakuro(k) => {
            let token = |cell: &KakuroCell| match *cell {
                KakuroCell::White => "0".to_string(),
                KakuroCell::Black { down: None, right: None } => "-".to_string(),
                KakuroCell::Black { down, right } => {
                    let clue = |c: Option<u32>| c.map_or_else(String::new, |v| v.to_string());
                    format!("{},{}", clue(down), clue(right))
                }
            };
            let grid = k.cells.chunks(k.cols.max(1)).map(|row| {
                serde_json::json!(row.iter().map(token).collect::<Vec<_>>().join(" ")).to_string()
            });
            vec![("kind", "\"kakuro\"".to_string()), ("grid", rows(grid.collect()))]
        }
        Puzzle::Sudoku(s) => {
            vec![("kind", "\"sudoku\"".to_string()), ("givens", numbers(&s.givens, s.n))]
        }
        Puzzle::Killer(k) => {
            let cage = |cage: &Cage| {
                let cells: Vec<[usize; 2]> =
                    cage.cells.iter().map(|&c| [c / k.n.max(1), c % k.n.max(1)]).collect();
                format!("{{\"sum\": {}, \"cells\": {}}}", cage.total, serde_json::json!(cells))
            };
            let mut fields = vec![
                ("kind", "\"killer\"".to_string()),
                ("size", k.n.to_string()),
                ("cages", rows(k.cages.iter().map(cage).collect())),
            ];
            if k.givens.iter().any(|&g| g != 0) {
                fields.push(("givens", numbers(&k.givens, k.n)));
            }
            fields
        }
    };
    let fields: Vec<String> =
        fields.iter().map(|(key, value)| format!("  \"{key}\": {value}")).collect();
    format!("{{\n{}\n}}\n", fields.join(",\n"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::KakuroCell;
    use crate::solver::Mode;
    use std::time::Duration;

    fn puzzle(text: &str) -> Result<(Puzzle, SolveOverrides), InputError> {
        let doc = read(text)?;
        assert_eq!((doc.format, doc.batch, doc.entries.len()), (Format::Json, false, 1));
        let parsed = doc.entries.into_iter().next().unwrap().unwrap();
        Ok((parsed.puzzle, parsed.overrides))
    }

    const KAKURO: &str = r#"{
  "kind": "kakuro",
  "grid": ["- 4, 3,", ",4 0 0", ",3 0 0"],
  "settings": {"mode": "first", "node_limit": 1000}
}"#;

    #[test]
    fn kakuro_rows_as_strings_or_tokens_and_settings() {
        let (p, o) = puzzle(KAKURO).unwrap();
        let Puzzle::Kakuro(k) = &p else { panic!() };
        assert_eq!(k.cell(0, 1), KakuroCell::Black { down: Some(4), right: None });
        assert_eq!((o.mode, o.node_limit), (Some(Mode::First), Some(1000)));
        let tokens = r#"{"kind": "kakuro", "grid": [["-", "4\\", "3\\"], ["\\4", 0, "0"], [",3", "0", "0"]]}"#;
        assert_eq!(puzzle(tokens).unwrap().0, p);
    }

    #[test]
    fn sudoku_from_givens_or_grid() {
        let rows = "[[1,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,4]]";
        let (p, _) = puzzle(&format!(r#"{{"kind": "sudoku", "givens": {rows}}}"#)).unwrap();
        let (q, _) = puzzle(&format!(r#"{{"kind": "sudoku", "grid": {rows}}}"#)).unwrap();
        assert_eq!(p, q);
        let Puzzle::Sudoku(s) = p else { panic!() };
        assert_eq!((s.n, s.box_size, s.givens[15]), (4, 2, 4));
    }

    #[test]
    fn killer_cells_are_zero_based_and_sorted() {
        let text =
            r#"{"kind": "killer", "size": 4, "cages": [{"sum": 3, "cells": [[0, 1], [0, 0]]}]}"#;
        let Puzzle::Killer(k) = puzzle(text).unwrap().0 else { panic!() };
        assert_eq!(k.cages, vec![Cage { total: 3, cells: vec![0, 1] }]);
        assert_eq!(k.givens, vec![0; 16]);
    }

    fn error(text: &str) -> InputError {
        puzzle(text).unwrap_err()
    }

    #[test]
    fn syntax_and_schema_errors_keep_serde_positions() {
        let e = error("{\n  \"kind\": \"kakuro\",\n  \"grid\": [\"- 0\",]\n}");
        assert_eq!(e.line, 3);
        let e = error("{\"kind\": \"chess\"}");
        assert!(e.message.contains("unknown variant `chess`"), "{e}");
        assert_eq!((e.line, e.column), (1, 16));
        let e = error("{\"kind\": \"sudoku\", \"settings\": {\"mode\": \"first\", \"speed\": 3}}");
        assert!(e.message.contains("unknown field `speed`"), "{e}");
        assert_eq!(e.column, 50);
        let e = error("{\"kind\": \"sudoku\", \"givens\": [[1, -2]]}");
        assert!(e.message.contains("invalid type: integer `-2`"), "{e}");
        assert_eq!(e.column, 36);
    }

    #[test]
    fn an_unknown_field_is_placed_on_its_key_whatever_follows_it() {
        // serde_json reports the key after the blanks behind it: here on the next line.
        let e = error("{\n  \"kidsgivens\"\n");
        assert!(e.message.contains("unknown field `kidsgivens`"), "{e}");
        assert_eq!((e.line, e.column), (2, 3));
        let e = error("{\"kind\": \"sudoku\", \"a\\\"b\" : 1}");
        assert_eq!((e.line, e.column), (1, 20));
        let e = error("{\"kind\": \"sudoku\", \"\": 1}");
        assert_eq!((e.line, e.column), (1, 20));
    }

    #[test]
    fn rule_errors_point_into_the_document() {
        // Clue 3 over three cells, in a row string; the right clue sits after the comma.
        let e = error(r#"{"kind": "kakuro", "grid": ["- 3, 3, 3,", ",3 0 0 0"]}"#);
        assert_eq!(e.column, 45);
        assert!(e.message.contains("clue 3 cannot be made of 3"), "{e}");
        let e = error(r#"{"kind": "kakuro", "grid": [["-", "4,"], [",4", "x"]]}"#);
        assert!(e.message.contains("unknown cell `x`"), "{e}");
        assert_eq!(e.column, 50);
        let e = error(r#"{"kind": "sudoku", "givens": [[1,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,5]]}"#);
        assert!(e.message.contains("out of range"), "{e}");
        assert_eq!(e.column, 68);
        let e = error(
            r#"{"kind": "killer", "size": 4, "cages": [{"sum": 9, "cells": [[0, 0], [0, 1]]}]}"#,
        );
        assert!(e.message.contains("cage sum 9"), "{e}");
        assert_eq!(e.column, 49);
        let e = error(
            r#"{"kind": "killer", "size": 4, "cages": [{"sum": 3, "cells": [[0, 0], [4, 0]]}]}"#,
        );
        assert!(e.message.contains("off the grid"), "{e}");
    }

    #[test]
    fn killer_givens_are_checked_and_placed() {
        let cages = r#""cages": [{"sum": 3, "cells": [[0, 0], [0, 1]]}]"#;
        let givens = r#""givens": [[1, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 2]]"#;
        let text = format!(r#"{{"kind": "killer", "size": 4, {cages}, {givens}}}"#);
        let Puzzle::Killer(k) = puzzle(&text).unwrap().0 else { panic!() };
        assert_eq!((k.givens[0], k.givens[1], k.givens[15]), (1, 2, 2));
        let clash = text.replace("[0, 0, 0, 2]", "[1, 0, 0, 0]");
        let e = error(&clash);
        assert!(e.message.contains("given 1 repeats in its column"), "{e}");
        assert_eq!(e.column, clash.find("[1, 0, 0, 0]").unwrap() + 2);
    }

    #[test]
    fn the_documented_examples_read() {
        let mut examples = Vec::new();
        let mut current: Option<Vec<&str>> = None;
        for line in include_str!("json.rs").lines().filter_map(|l| l.strip_prefix("//!")) {
            let line = line.strip_prefix(' ').unwrap_or(line);
            match (line, current.as_mut()) {
                ("```json", None) => current = Some(Vec::new()),
                ("```", Some(_)) => examples.extend(current.take().map(|b| b.join("\n"))),
                (_, Some(block)) => block.push(line),
                (_, None) => {}
            }
        }
        let kinds: Vec<Kind> = examples.iter().map(|e| puzzle(e).unwrap().0.kind()).collect();
        assert_eq!(kinds, vec![Kind::Kakuro, Kind::Sudoku, Kind::Killer]);
        let (_, settings) = puzzle(&examples[2]).unwrap();
        let ten = Some(Duration::from_secs(10));
        assert_eq!((settings.mode, settings.timeout), (Some(Mode::First), ten));
    }

    #[test]
    fn missing_and_misplaced_fields() {
        assert!(error(r#"{"kind": "kakuro"}"#).message.contains("needs `grid`"));
        assert!(error(r#"{"kind": "killer", "cages": []}"#).message.contains("needs `size`"));
        assert!(error(r#"{"kind": "killer", "size": 7, "cages": []}"#).message.contains("boxes"));
        let e = error(r#"{"kind": "kakuro", "grid": ["0"], "size": 4}"#);
        assert!(e.message.contains("`size` does not apply"), "{e}");
        assert_eq!(e.column, 43);
        let e = error(r#"{"kind": "sudoku", "givens": [[1, 2], [3, 4]]}"#);
        assert!(e.message.contains("side 2"), "{e}");
        let e = error(r#"{"kind": "kakuro", "grid": ["- 0", "0"]}"#);
        assert!(e.message.contains("row 2 has 1 cells"), "{e}");
    }
}
