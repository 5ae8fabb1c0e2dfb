//! The generation job: a JSON object whose `kind` is `"generate"`, asking the daemon for
//! puzzles instead of handing it one. It is told apart where the JSON puzzle format is (a
//! top-level `kind`), and read here, beside that format, so that its errors carry a line
//! and a column like every other input error. The daemon makes the puzzles
//! (`daemon::generate_job`); `kakurod solve` refuses the file with a pointer to them.
//!
//! | field        | default        | meaning |
//! |--------------|----------------|---------|
//! | `kind`       | required       | `"generate"` |
//! | `puzzle`     | `"kakuro"`     | what to make: `"kakuro"`, `"sudoku"` or `"killer"` |
//! | `rows`       | required       | Kakuro: rows, the black border row included: 3 up to the daemon's `max_rows` |
//! | `cols`       | required       | Kakuro: columns, likewise: 3 up to `max_cols` |
//! | `size`       | required       | Sudoku and Killer: the side, 4, 9, 16 or 25 (within `max_rows` and `max_cols`) |
//! | `count`      | 1              | puzzles to make: 1 up to `max_count` |
//! | `seed`       | 1              | seed of the first puzzle; the next ones take `seed + 1`, `seed + 2`, ... |
//! | `black`      | 40             | Kakuro: share of black cells in percent, from 0 to below 90 |
//! | `symmetry`   | `"rotational"` | of a Kakuro's black cells or a Sudoku's givens: `"none"`, `"rotational"` or `"mirror"` |
//! | `difficulty` | `"logic"`      | Kakuro and Sudoku: `"logic"` (easy to hard, no trial), the exact grade `"easy"`, `"medium"`, `"hard"` or `"expert"`, or `"any"` |
//! | `name`       | none           | free text, ignored |
//!
//! The defaults are those of `kakurod generate`. Unknown fields are errors, as in a JSON
//! puzzle. An example:
//!
//! ```json
//! {"kind": "generate", "rows": 12, "cols": 12, "count": 5, "seed": 1, "difficulty": "medium"}
//! ```

use super::json_path::{self, Step};
use super::{Format, InputError, json, text};
use crate::generate::{
    self, DEFAULT_BLACK, GenOptions, GradeGoal, GridKind, GridOptions, MAX_BLACK, Symmetry,
};
use crate::puzzle::Kind;
use serde::{Deserialize, Serialize};

/// What the errors of a generation job say was expected, when nothing more precise is.
const EXPECTED: &str = "a generation job (see docs/daemon.md)";

/// The smallest side the generator can fill: the first row and column are black, and a
/// white cell needs runs of two cells.
const MIN_SIDE: usize = 3;

/// A generation job, as written, with the defaults filled in (serialized as the echo in
/// its result).
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Job {
    /// Always `generate` (detection looked at it already).
    #[serde(skip_serializing)]
    #[allow(dead_code, reason = "required in the file; detection has read it")]
    kind: String,
    /// Free text for the reader of the file.
    #[serde(default, skip_serializing)]
    #[allow(dead_code, reason = "documentation for the reader of the file")]
    name: Option<String>,
    /// What to make.
    #[serde(default = "kakuro")]
    pub puzzle: Kind,
    /// A Kakuro's rows, the black border row included.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rows: Option<usize>,
    /// A Kakuro's columns, the black border column included.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cols: Option<usize>,
    /// A Sudoku's or Killer Sudoku's side.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<usize>,
    /// Puzzles to make.
    #[serde(default = "one")]
    pub count: usize,
    /// Seed of the first puzzle.
    #[serde(default = "one_u64")]
    pub seed: u64,
    /// A Kakuro's share of black cells, in percent (40 when not given).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub black: Option<f64>,
    /// Symmetry of the black cells.
    #[serde(default)]
    pub symmetry: Symmetry,
    /// The grades every puzzle may have.
    #[serde(default)]
    pub difficulty: GradeGoal,
}

fn one() -> usize {
    1
}

fn one_u64() -> u64 {
    1
}

/// `kakurod generate`'s default kind.
fn kakuro() -> Kind {
    Kind::Kakuro
}

/// What the operator lets one job ask for (`[generate]` in the daemon's configuration).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
pub struct Limits {
    /// Most rows.
    pub max_rows: usize,
    /// Most columns.
    pub max_cols: usize,
    /// Most puzzles per job.
    pub max_count: usize,
}

impl Job {
    /// The seeds of the puzzles, in order (checked by [`read`] not to overflow).
    pub fn seeds(&self) -> impl Iterator<Item = u64> + use<> {
        let first = self.seed;
        (0..self.count as u64).map_while(move |i| first.checked_add(i))
    }

    /// The Kakuro generator's options for the puzzle of `seed` (one thread, no time
    /// limit: the caller sets those).
    pub fn options(&self, seed: u64) -> GenOptions {
        let (rows, cols) = (self.rows.unwrap_or(0), self.cols.unwrap_or(0));
        GenOptions {
            symmetry: self.symmetry,
            difficulty: self.difficulty,
            ..GenOptions::unique(rows, cols, self.black.unwrap_or(DEFAULT_BLACK), seed)
        }
    }

    /// What the job makes, for the log: `RxC` for Kakuro, `sudoku NxN`, `killer NxN`.
    pub fn shape(&self) -> String {
        match (self.puzzle, self.size) {
            (Kind::Kakuro, _) | (_, None) => {
                format!("{}x{}", self.rows.unwrap_or(0), self.cols.unwrap_or(0))
            }
            (kind, Some(n)) => format!("{} {n}x{n}", kind.name()),
        }
    }

    /// The Sudoku or Killer Sudoku generator's options for the puzzle of `seed` (one
    /// thread, no time limit); `None` for a Kakuro job.
    pub fn grid_options(&self, seed: u64) -> Option<GridOptions> {
        let kind = match self.puzzle {
            Kind::Kakuro => return None,
            Kind::Sudoku => GridKind::Sudoku,
            Kind::Killer => GridKind::Killer,
        };
        let size = self.size.unwrap_or(0);
        let difficulty = self.difficulty;
        let symmetry = self.symmetry;
        Some(GridOptions { kind, size, seed, symmetry, threads: 1, difficulty })
    }
}

/// True when `text` is a generation job: a JSON object whose top-level `kind` is
/// `"generate"`. Only the start of the object up to `kind` is looked at, so a job with a
/// syntax error further on is still read as a job, and its error placed as one.
pub fn detect(text: &str) -> bool {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if !text.trim_start().starts_with('{') {
        return false;
    }
    let at = json_path::locate(text, &[Step::Key("kind")]);
    text.get(at..).is_some_and(|value| value.starts_with("\"generate\""))
}

/// True when `text` is to be read as a generation job: it is one ([`detect`]), and the
/// format every input is read as (`forced`), if any, is JSON. The daemon makes such a
/// job's puzzles; `kakurod solve` points it there.
pub fn is_job(text: &str, forced: Option<Format>) -> bool {
    forced.is_none_or(|f| f == Format::Json) && detect(text)
}

/// Reads a generation job and checks it against `limits` and the generator's own rules.
pub fn read(text: &str, limits: &Limits) -> Result<Job, InputError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut job: Job = serde_json::from_str(text).map_err(|e| json::syntax(text, &e, EXPECTED))?;
    match job.puzzle {
        Kind::Kakuro => check_kakuro(text, &mut job, limits)?,
        Kind::Sudoku | Kind::Killer => check_grid(text, &job, limits)?,
    }
    let expected = format!("`count` from 1 to {}", limits.max_count);
    if job.count == 0 {
        return Err(at(text, "count", "`count` is 0: no puzzle to make".into(), expected));
    }
    if job.count > limits.max_count {
        let message =
            format!("`count` is {}, over this daemon's limit ([generate] max_count)", job.count);
        return Err(at(text, "count", message, expected));
    }
    if job.seed.checked_add(job.count as u64 - 1).is_none() {
        let message = format!("`seed` {} leaves no room for {} seeds", job.seed, job.count);
        let expected = format!("a seed of at most {}", u64::MAX - (job.count as u64 - 1));
        return Err(at(text, "seed", message, expected));
    }
    if job.puzzle == Kind::Kakuro {
        job.options(job.seed).check().map_err(|e| refused(text, e.to_string()))?;
    }
    Ok(job)
}

/// The error `message` placed on the value of `key`.
fn at(text: &str, key: &str, message: String, expected: String) -> InputError {
    text::error_at(text, json_path::locate(text, &[Step::Key(key)]), message, expected)
}

/// A Kakuro job: `rows` and `cols` within the limits, a black share that leaves room, no
/// `size`; fills in the default black share.
fn check_kakuro(text: &str, job: &mut Job, limits: &Limits) -> Result<(), InputError> {
    if job.size.is_some() {
        let message = "`size` is the side of a Sudoku or Killer job".into();
        return Err(at(text, "size", message, "`rows` and `cols` for a Kakuro".into()));
    }
    for (key, value, max, limit) in [
        ("rows", job.rows, limits.max_rows, "max_rows"),
        ("cols", job.cols, limits.max_cols, "max_cols"),
    ] {
        let expected = format!("`{key}` from {MIN_SIDE} to {max}");
        let Some(value) = value else {
            let message = format!("missing field `{key}`: a Kakuro job needs `rows` and `cols`");
            return Err(text::error_at(text, json_path::locate(text, &[]), message, expected));
        };
        if value < MIN_SIDE {
            let why =
                "the first row and column are black, and every white cell needs runs of 2 cells";
            return Err(at(text, key, format!("`{key}` is {value}: too small ({why})"), expected));
        }
        if value > max {
            let message =
                format!("`{key}` is {value}, over this daemon's limit ([generate] {limit})");
            return Err(at(text, key, message, expected));
        }
    }
    let (rows, cols) = (job.rows.unwrap_or(0), job.cols.unwrap_or(0));
    let black = *job.black.get_or_insert_with(|| generate::default_black(rows, cols));
    if !(0.0..MAX_BLACK).contains(&black) {
        let why =
            if black < 0.0 { "a share cannot be negative" } else { "no room for white cells" };
        let message = format!("`black` is {black}%: {why}");
        let expected = format!("a share from 0 to below {MAX_BLACK} (percent)");
        return Err(at(text, "black", message, expected));
    }
    Ok(())
}

/// A Sudoku or Killer job: a `size` of 4, 9, 16 or 25 within the limits, and none of the
/// Kakuro fields.
fn check_grid(text: &str, job: &Job, limits: &Limits) -> Result<(), InputError> {
    let kind = job.puzzle.name();
    for (key, given) in [
        ("rows", job.rows.is_some()),
        ("cols", job.cols.is_some()),
        ("black", job.black.is_some()),
        ("difficulty", job.difficulty.exact().is_some() && job.puzzle == Kind::Killer),
    ] {
        if given {
            let fits = if key == "difficulty" { "Kakuro or Sudoku" } else { "Kakuro" };
            let message = format!("`{key}` is for a {fits} job, not a {kind} one");
            return Err(at(text, key, message, "`size` (and `count`, `seed`, `symmetry`)".into()));
        }
    }
    let largest = limits.max_rows.min(limits.max_cols);
    let expected = format!("`size` 4, 9, 16 or 25, at most {largest}");
    let Some(size) = job.size else {
        let message = format!("missing field `size`: a {kind} job needs its side");
        return Err(text::error_at(text, json_path::locate(text, &[]), message, expected));
    };
    if !matches!(size, 4 | 9 | 16 | 25) {
        return Err(at(
            text,
            "size",
            format!("`size` is {size}: not the side of a Sudoku"),
            expected,
        ));
    }
    if size > largest {
        let message =
            format!("`size` is {size}, over this daemon's limit ([generate] max_rows, max_cols)");
        return Err(at(text, "size", message, expected));
    }
    Ok(())
}

/// The error of a job the generator refuses (its message says why), placed on the object.
pub fn refused(text: &str, message: String) -> InputError {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    text::error_at(text, json_path::locate(text, &[]), message, "a job the generator can make")
}

/// The error `kakurod solve` gives a generation job, placed on its `kind`.
pub fn not_a_puzzle(text: &str) -> InputError {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    text::error_at(
        text,
        json_path::locate(text, &[Step::Key("kind")]),
        "a generation job, not a puzzle: drop it into the daemon's inbox, or run `kakurod \
         generate` (see `kakurod generate --help`)",
        "a puzzle to solve",
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grade::Difficulty;

    const LIMITS: Limits = Limits { max_rows: 20, max_cols: 30, max_count: 5 };

    fn job(text: &str) -> Result<Job, InputError> {
        read(text, &LIMITS)
    }

    fn error(text: &str) -> InputError {
        job(text).unwrap_err()
    }

    /// 1-based column of the first occurrence of `needle` on a one-line document.
    fn column(text: &str, needle: &str) -> usize {
        text.find(needle).unwrap() + 1
    }

    #[test]
    fn only_a_top_level_kind_generate_is_a_job() {
        assert!(detect(r#"{"kind": "generate", "rows": 5}"#));
        assert!(detect("\u{feff}\n  {\n\"rows\": 5, \"kind\":\"generate\", \"x\": ]"));
        assert!(!detect(r#"{"kind": "kakuro", "grid": ["generate"]}"#));
        assert!(!detect(r#"{"a": {"kind": "generate"}}"#));
        assert!(!detect(r#"{"rows": 5}"#));
        assert!(!detect("3 3\n- 4, 3,\n,4 0 0\n,3 0 0\n"));
    }

    #[test]
    fn defaults_are_those_of_the_command() {
        let j = job(r#"{"kind": "generate", "rows": 10, "cols": 12, "name": "a batch"}"#).unwrap();
        assert_eq!(
            (j.rows, j.cols, j.count, j.seed, j.black),
            (Some(10), Some(12), 1, 1, Some(40.0))
        );
        assert_eq!((j.symmetry, j.difficulty), (Symmetry::Rotational, GradeGoal::Logic));
        let text = r#"{"kind": "generate", "rows": 8, "cols": 9, "count": 3, "seed": 7,
            "black": 35, "symmetry": "mirror", "difficulty": "hard"}"#;
        let j = job(text).unwrap();
        assert_eq!(j.seeds().collect::<Vec<_>>(), [7, 8, 9]);
        let o = j.options(8);
        assert_eq!((o.rows, o.cols, o.seed, o.black_percent), (8, 9, 8, 35.0));
        assert_eq!(
            (o.symmetry, o.difficulty, o.unique),
            (Symmetry::Mirror, GradeGoal::Exactly(Difficulty::Hard), true)
        );
        let echo = serde_json::to_value(&j).unwrap();
        assert_eq!(echo["difficulty"], "hard");
        assert!(echo.get("kind").is_none() && echo.get("name").is_none(), "{echo}");
    }

    #[test]
    fn sizes_and_counts_outside_the_limits_are_placed_on_their_value() {
        for (text, key, words) in [
            (r#"{"kind": "generate", "rows": 2, "cols": 10}"#, "\"rows\": ", "too small"),
            (r#"{"kind": "generate", "rows": 10, "cols": 0}"#, "\"cols\": ", "too small"),
            (r#"{"kind": "generate", "rows": 21, "cols": 10}"#, "\"rows\": ", "max_rows"),
            (r#"{"kind": "generate", "rows": 10, "cols": 31}"#, "\"cols\": ", "max_cols"),
            (
                r#"{"kind": "generate", "rows": 5, "cols": 5, "count": 0}"#,
                "\"count\": ",
                "no puzzle",
            ),
            (
                r#"{"kind": "generate", "rows": 5, "cols": 5, "count": 6}"#,
                "\"count\": ",
                "max_count",
            ),
            (
                r#"{"kind": "generate", "rows": 5, "cols": 5, "black": 90}"#,
                "\"black\": ",
                "no room",
            ),
            (
                r#"{"kind": "generate", "rows": 5, "cols": 5, "black": -1}"#,
                "\"black\": ",
                "negative",
            ),
        ] {
            let e = error(text);
            assert!(e.message.contains(words), "{text}: {e}");
            assert_eq!((e.line, e.column), (1, column(text, key) + key.len()), "{text}: {e}");
        }
        let e = error(
            r#"{"kind": "generate", "rows": 5, "cols": 5, "count": 2, "seed": 18446744073709551615}"#,
        );
        assert!(e.message.contains("no room for 2 seeds"), "{e}");
    }

    #[test]
    fn schema_errors_keep_serde_positions() {
        let text = "{\n  \"kind\": \"generate\",\n  \"rows\": 5, \"cols\": 5,\n  \"colour\": 1\n}";
        let e = error(text);
        assert!(e.message.contains("unknown field `colour`"), "{e}");
        assert_eq!((e.line, e.column), (4, 3));
        assert_eq!(e.expected, EXPECTED);
        let e = error(r#"{"kind": "generate", "rows": 5, "cols": 5, "difficulty": "impossible"}"#);
        assert!(e.message.contains("unknown variant `impossible`"), "{e}");
        assert_eq!(e.line, 1);
        let e = error(r#"{"kind": "generate", "rows": "ten", "cols": 5}"#);
        assert!(e.message.contains("invalid type: string \"ten\""), "{e}");
        let e = error(r#"{"kind": "generate", "cols": 5}"#);
        assert!(e.message.contains("missing field `rows`"), "{e}");
        let e = error(r#"{"kind": "generate", "rows": 5, "cols": 5, "symmetry": "diagonal"}"#);
        assert!(e.message.contains("unknown variant `diagonal`"), "{e}");
    }

    #[test]
    fn sudoku_and_killer_jobs_take_a_size_and_no_kakuro_fields() {
        let j = job(r#"{"kind": "generate", "puzzle": "killer", "size": 9, "count": 2}"#).unwrap();
        let o = j.grid_options(4).unwrap();
        assert_eq!((o.kind, o.size, o.seed), (GridKind::Killer, 9, 4));
        let echo = serde_json::to_value(&j).unwrap();
        assert_eq!((echo["puzzle"].as_str(), echo["size"].as_u64()), (Some("killer"), Some(9)));
        assert!(echo.get("rows").is_none() && echo.get("black").is_none(), "{echo}");
        assert!(
            job(r#"{"kind": "generate", "rows": 5, "cols": 5}"#).unwrap().grid_options(1).is_none()
        );
        let graded = r#"{"kind": "generate", "puzzle": "sudoku", "size": 9, "difficulty": "hard"}"#;
        let o = job(graded).unwrap().grid_options(1).unwrap();
        assert_eq!(
            (o.kind, o.difficulty),
            (GridKind::Sudoku, GradeGoal::Exactly(Difficulty::Hard))
        );
        for (text, key, words) in [
            (
                r#"{"kind": "generate", "puzzle": "sudoku", "size": 10}"#,
                "\"size\": ",
                "not the side",
            ),
            (r#"{"kind": "generate", "puzzle": "sudoku", "size": 25}"#, "\"size\": ", "max_rows"),
            (
                r#"{"kind": "generate", "puzzle": "sudoku", "size": 9, "black": 30}"#,
                "\"black\": ",
                "Kakuro",
            ),
            (
                r#"{"kind": "generate", "puzzle": "killer", "size": 9, "rows": 9}"#,
                "\"rows\": ",
                "Kakuro",
            ),
            (
                r#"{"kind": "generate", "puzzle": "killer", "size": 9, "difficulty": "easy"}"#,
                "\"difficulty\": ",
                "Kakuro or Sudoku",
            ),
            (r#"{"kind": "generate", "rows": 9, "cols": 9, "size": 9}"#, "\"size\": ", "Sudoku"),
        ] {
            let e = error(text);
            assert!(e.message.contains(words), "{text}: {e}");
            assert_eq!((e.line, e.column), (1, column(text, key) + key.len()), "{text}: {e}");
        }
        let e = error(r#"{"kind": "generate", "puzzle": "sudoku"}"#);
        assert!(e.message.contains("missing field `size`"), "{e}");
        let e = error(r#"{"kind": "generate", "puzzle": "jigsaw", "size": 9}"#);
        assert!(e.message.contains("unknown variant `jigsaw`"), "{e}");
    }

    #[test]
    fn solve_is_pointed_at_the_kind() {
        let text = "{\n  \"kind\": \"generate\", \"rows\": 5, \"cols\": 5}";
        let e = not_a_puzzle(text);
        assert_eq!((e.line, e.column), (2, 11));
        assert!(e.message.contains("kakurod generate"), "{e}");
        let e = refused(text, "no way".into());
        assert_eq!((e.line, e.column, e.message.as_str()), (1, 1, "no way"));
    }

    #[test]
    fn the_documented_example_reads() {
        let example = include_str!("generation.rs")
            .lines()
            .filter_map(|l| l.strip_prefix("//! "))
            .find(|l| l.starts_with('{'))
            .unwrap();
        let j = job(example).unwrap();
        assert_eq!(
            (j.rows, j.count, j.difficulty),
            (Some(12), 5, GradeGoal::Exactly(Difficulty::Medium))
        );
    }
}
