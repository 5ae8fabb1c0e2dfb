//! The generation job: a JSON object whose `kind` is `"generate"`, asking the daemon for
//! puzzles instead of handing it one. It is told apart where the JSON puzzle format is (a
//! top-level `kind`), and read here, beside that format, so that its errors carry a line
//! and a column like every other input error. The daemon makes the puzzles
//! (`daemon::generate_job`); `kakurod solve` refuses the file with a pointer to them.
//!
//! | field        | default        | meaning |
//! |--------------|----------------|---------|
//! | `kind`       | required       | `"generate"` |
//! | `rows`       | required       | rows, the black border row included: 3 up to the daemon's `max_rows` |
//! | `cols`       | required       | columns, likewise: 3 up to `max_cols` |
//! | `count`      | 1              | puzzles to make: 1 up to `max_count` |
//! | `seed`       | 1              | seed of the first puzzle; the next ones take `seed + 1`, `seed + 2`, ... |
//! | `black`      | 40             | share of black cells in percent, from 0 to below 90 |
//! | `symmetry`   | `"rotational"` | of the black cells: `"none"`, `"rotational"` or `"mirror"` |
//! | `difficulty` | any            | the exact grade: `"easy"`, `"medium"`, `"hard"` or `"expert"` |
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
use crate::generate::{GenOptions, MAX_BLACK, Symmetry};
use crate::grade::Difficulty;
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
    /// Rows, the black border row included.
    pub rows: usize,
    /// Columns, the black border column included.
    pub cols: usize,
    /// Puzzles to make.
    #[serde(default = "one")]
    pub count: usize,
    /// Seed of the first puzzle.
    #[serde(default = "one_u64")]
    pub seed: u64,
    /// Share of black cells, in percent.
    #[serde(default = "default_black")]
    pub black: f64,
    /// Symmetry of the black cells.
    #[serde(default)]
    pub symmetry: Symmetry,
    /// The grade every puzzle must have, if any.
    #[serde(default)]
    pub difficulty: Option<Difficulty>,
}

fn one() -> usize {
    1
}

fn one_u64() -> u64 {
    1
}

/// `kakurod generate`'s default black share.
fn default_black() -> f64 {
    40.0
}

/// What the operator lets one job ask for (`[generate]` in the daemon's configuration).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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

    /// The generator's options for the puzzle of `seed` (one thread, no time limit: the
    /// caller sets those).
    pub fn options(&self, seed: u64) -> GenOptions {
        GenOptions {
            symmetry: self.symmetry,
            difficulty: self.difficulty,
            ..GenOptions::unique(self.rows, self.cols, self.black, seed)
        }
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
    let job: Job = serde_json::from_str(text).map_err(|e| json::syntax(text, &e, EXPECTED))?;
    let at = |key: &str, message: String, expected: String| {
        text::error_at(text, json_path::locate(text, &[Step::Key(key)]), message, expected)
    };
    for (key, value, max, limit) in [
        ("rows", job.rows, limits.max_rows, "max_rows"),
        ("cols", job.cols, limits.max_cols, "max_cols"),
    ] {
        let expected = format!("`{key}` from {MIN_SIDE} to {max}");
        if value < MIN_SIDE {
            let why =
                "the first row and column are black, and every white cell needs runs of 2 cells";
            return Err(at(key, format!("`{key}` is {value}: too small ({why})"), expected));
        }
        if value > max {
            let message =
                format!("`{key}` is {value}, over this daemon's limit ([generate] {limit})");
            return Err(at(key, message, expected));
        }
    }
    let expected = format!("`count` from 1 to {}", limits.max_count);
    if job.count == 0 {
        return Err(at("count", "`count` is 0: no puzzle to make".into(), expected));
    }
    if job.count > limits.max_count {
        let message =
            format!("`count` is {}, over this daemon's limit ([generate] max_count)", job.count);
        return Err(at("count", message, expected));
    }
    if !(0.0..MAX_BLACK).contains(&job.black) {
        let why =
            if job.black < 0.0 { "a share cannot be negative" } else { "no room for white cells" };
        let message = format!("`black` is {}%: {why}", job.black);
        return Err(at("black", message, format!("a share from 0 to below {MAX_BLACK} (percent)")));
    }
    if job.seed.checked_add(job.count as u64 - 1).is_none() {
        let message = format!("`seed` {} leaves no room for {} seeds", job.seed, job.count);
        return Err(at(
            "seed",
            message,
            format!("a seed of at most {}", u64::MAX - (job.count as u64 - 1)),
        ));
    }
    job.options(job.seed).check().map_err(|e| refused(text, e.to_string()))?;
    Ok(job)
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
        assert_eq!((j.rows, j.cols, j.count, j.seed, j.black), (10, 12, 1, 1, 40.0));
        assert_eq!((j.symmetry, j.difficulty), (Symmetry::Rotational, None));
        let text = r#"{"kind": "generate", "rows": 8, "cols": 9, "count": 3, "seed": 7,
            "black": 35, "symmetry": "mirror", "difficulty": "hard"}"#;
        let j = job(text).unwrap();
        assert_eq!(j.seeds().collect::<Vec<_>>(), [7, 8, 9]);
        let o = j.options(8);
        assert_eq!((o.rows, o.cols, o.seed, o.black_percent), (8, 9, 8, 35.0));
        assert_eq!(
            (o.symmetry, o.difficulty, o.unique),
            (Symmetry::Mirror, Some(Difficulty::Hard), true)
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
        assert_eq!((j.rows, j.count, j.difficulty), (12, 5, Some(Difficulty::Medium)));
    }
}
