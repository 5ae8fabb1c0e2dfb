//! The one type of optional solver settings, [`SolveOverrides`]: what the command line,
//! the daemon's configuration file and a puzzle file's `settings` object may set over
//! [`SolveOptions`]. Each knob is declared here once, under the key files write it with;
//! an absent one keeps the setting it falls on. Two ways to apply them live here too:
//! [`SolveOverrides::over`] for the operator's (the command line, the configuration),
//! which replace, and [`SolveOverrides::within`] for a puzzle file's, which may lower the
//! operator's limits but never raise them.

use super::effective_threads;
use super::options::{Algorithm, GradeMode, Mode, SolveOptions, ValOrder, VarOrder};
use serde::Deserialize;
use std::time::Duration;

/// Solver settings that are given or not. Unknown keys are errors, so a typo in a file
/// never goes unnoticed.
/// Error messages name the type as a puzzle file's reader has always seen it
/// ("expected struct PuzzleSettings").
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, expecting = "struct PuzzleSettings")]
pub struct SolveOverrides {
    /// `algorithm`: propagation strength.
    pub algorithm: Option<Algorithm>,
    /// `var_order`: variable order.
    pub var_order: Option<VarOrder>,
    /// `val_order`: value order.
    pub val_order: Option<ValOrder>,
    /// `mode`: what to look for.
    pub mode: Option<Mode>,
    /// `count_limit`: in `count` mode, stop after this many solutions.
    pub count_limit: Option<u64>,
    /// `threads`: threads for the puzzle's search (0 = all cores).
    pub threads: Option<usize>,
    /// `timeout_seconds`: wall-clock limit for the search; 0 is no limit, as in
    /// config.toml. A value that is not a finite, non-negative number of seconds is
    /// ignored, and a huge one capped at 1e9 s, rather than rejecting a file for it.
    #[serde(rename = "timeout_seconds", with = "crate::seconds::limit", default)]
    pub timeout: Option<Duration>,
    /// `node_limit`: limit on search nodes; 0 is no limit.
    pub node_limit: Option<u64>,
    /// `grade`: how a solved Kakuro is graded (`off`, `auto`, `full`).
    pub grade: Option<GradeMode>,
    /// `explain`: the result of a solved puzzle carries its solving path
    /// ([`crate::explain`]). Not a solver setting: the pipeline reads it after the answer
    /// (which never pays for it), and [`SolveOverrides::over`] and
    /// [`SolveOverrides::within`] leave it out.
    pub explain: Option<bool>,
}

impl SolveOverrides {
    /// True when the file asks for the solving path.
    pub fn wants_explain(&self) -> bool {
        self.explain == Some(true)
    }
}

impl SolveOverrides {
    /// `base` with every setting given here in its place: the operator's choice.
    pub fn over(&self, base: &SolveOptions) -> SolveOptions {
        SolveOptions {
            algorithm: self.algorithm.unwrap_or(base.algorithm),
            var_order: self.var_order.unwrap_or(base.var_order),
            val_order: self.val_order.unwrap_or(base.val_order),
            mode: self.mode.unwrap_or(base.mode),
            count_limit: self.count_limit.or(base.count_limit),
            threads: self.threads.unwrap_or(base.threads),
            timeout: self.timeout.or(base.timeout),
            node_limit: self.node_limit().or(base.node_limit),
            grade: self.grade.unwrap_or(base.grade),
        }
    }

    /// `base` with a puzzle file's wishes applied. A file may lower the operator's timeout,
    /// node limit and threads but never raise them, so it cannot hold a worker longer, or
    /// take more of the pool, than the operator allows (0 threads means every core, on
    /// either side). Nor may it ask for a costlier grade than the operator's.
    pub fn within(&self, base: &SolveOptions) -> SolveOptions {
        let fewer = |t: usize| effective_threads(t) < effective_threads(base.threads);
        SolveOptions {
            threads: self.threads.filter(|&t| fewer(t)).unwrap_or(base.threads),
            timeout: lower(base.timeout, self.timeout),
            node_limit: lower(base.node_limit, self.node_limit()),
            grade: self.grade.map_or(base.grade, |asked| asked.min(base.grade)),
            ..self.over(base)
        }
    }

    /// The node limit asked for, if it is one.
    fn node_limit(&self) -> Option<u64> {
        self.node_limit.filter(|&n| n > 0)
    }
}

/// The lower of two limits, where `None` is no limit.
fn lower<T: Ord>(limit: Option<T>, asked: Option<T>) -> Option<T> {
    match (limit, asked) {
        (Some(limit), Some(asked)) => Some(limit.min(asked)),
        (limit, asked) => limit.or(asked),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_reaches_the_options_and_a_file_only_lowers_limits() {
        let text = r#"{"algorithm": "fc", "var_order": "smallest", "val_order": "max",
            "mode": "count", "count_limit": 5, "threads": 2, "timeout_seconds": 1.5,
            "node_limit": 9, "grade": "off"}"#;
        let settings: SolveOverrides = serde_json::from_str(text).unwrap();
        let caller = SolveOptions {
            threads: 4,
            timeout: Some(Duration::from_secs(60)),
            node_limit: Some(1000),
            ..SolveOptions::default()
        };
        let expected = SolveOptions {
            algorithm: Algorithm::Fc,
            var_order: VarOrder::Smallest,
            val_order: ValOrder::Max,
            mode: Mode::Count,
            count_limit: Some(5),
            threads: 2,
            timeout: Some(Duration::from_millis(1500)),
            node_limit: Some(9),
            grade: GradeMode::Off,
        };
        assert_eq!(settings.within(&caller), expected);
        assert_eq!(settings.over(&caller), expected);
        assert_eq!(SolveOverrides::default().within(&caller), caller);
        assert_eq!(SolveOverrides::default().over(&caller), caller);
        let tight = SolveOptions {
            threads: 1,
            timeout: Some(Duration::from_secs(1)),
            node_limit: Some(3),
            ..caller
        };
        let lowered = settings.within(&tight);
        assert_eq!(
            (lowered.threads, lowered.timeout, lowered.node_limit),
            (1, tight.timeout, Some(3))
        );
        let replaced = settings.over(&tight);
        assert_eq!(
            (replaced.threads, replaced.timeout, replaced.node_limit),
            (2, expected.timeout, Some(9))
        );
    }

    #[test]
    fn a_negative_timeout_is_ignored_and_a_huge_one_capped() {
        let timeout = |secs: f64| {
            let text = format!(r#"{{"timeout_seconds": {secs}}}"#);
            let settings: SolveOverrides = serde_json::from_str(&text).unwrap();
            settings.within(&SolveOptions::default()).timeout
        };
        assert_eq!(timeout(-1.0), None);
        assert_eq!(timeout(1e300), Some(Duration::from_secs(1_000_000_000)));
    }

    #[test]
    fn errors_name_every_key_in_order_and_the_type_as_files_know_it() {
        let error = |text: &str| serde_json::from_str::<SolveOverrides>(text).unwrap_err();
        assert_eq!(
            error(r#"{"speed": 3}"#).to_string(),
            "unknown field `speed`, expected one of `algorithm`, `var_order`, `val_order`, \
             `mode`, `count_limit`, `threads`, `timeout_seconds`, `node_limit`, `grade`, \
             `explain` at line 1 column 8"
        );
        assert!(error(r#""x""#).to_string().contains("expected struct PuzzleSettings"));
        assert!(error(r#"{"mode": "first", "mode": "count"}"#).to_string().contains("duplicate"));
    }
}
