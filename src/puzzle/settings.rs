//! The solver settings a puzzle file asks for itself (the `settings` object of a JSON
//! puzzle), in the file's own keys. Readers only fill this in; applying it to the
//! caller's solver options happens here, in one place, so the readers need not know the
//! solver's options and the solver need not know the file's keys.

use crate::solver::effective_threads;
use crate::solver::{Algorithm, Mode, SolveOptions, ValOrder, VarOrder};
use serde::Deserialize;
use std::time::Duration;

/// What a puzzle file asks of the solver; an absent key leaves the caller's setting.
/// Unknown keys are errors, so a typo in a file never goes unnoticed.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PuzzleSettings {
    /// `algorithm`: propagation strength.
    pub(crate) algorithm: Option<Algorithm>,
    /// `var_order`: variable order.
    pub(crate) var_order: Option<VarOrder>,
    /// `val_order`: value order.
    pub(crate) val_order: Option<ValOrder>,
    /// `mode`: what to look for.
    pub(crate) mode: Option<Mode>,
    /// `count_limit`: in `count` mode, stop after this many solutions.
    pub(crate) count_limit: Option<u64>,
    /// `threads`: threads for this puzzle's search (0 = all cores).
    pub(crate) threads: Option<usize>,
    /// `timeout_seconds`: wall-clock limit for the search.
    pub(crate) timeout_seconds: Option<f64>,
    /// `node_limit`: limit on search nodes.
    pub(crate) node_limit: Option<u64>,
}

impl PuzzleSettings {
    /// The caller's `options` with this file's wishes applied. A file may lower the
    /// caller's timeout, node limit and threads but never raise them, so it cannot hold a
    /// worker longer, or take more of the pool, than the operator allows (0 threads means
    /// every core, on either side). A timeout that is not a finite, non-negative number of
    /// seconds is ignored, and a huge one is capped, rather than rejecting a file for it.
    pub(crate) fn apply_to(&self, options: &SolveOptions) -> SolveOptions {
        let mut options = options.clone();
        options.algorithm = self.algorithm.unwrap_or(options.algorithm);
        options.var_order = self.var_order.unwrap_or(options.var_order);
        options.val_order = self.val_order.unwrap_or(options.val_order);
        options.mode = self.mode.unwrap_or(options.mode);
        options.count_limit = self.count_limit.or(options.count_limit);
        let fewer = |t: usize| effective_threads(t) < effective_threads(options.threads);
        if let Some(asked) = self.threads.filter(|&t| fewer(t)) {
            options.threads = asked;
        }
        let timeout = self.timeout_seconds.filter(|s| s.is_finite() && *s >= 0.0);
        if let Some(asked) = timeout.map(|secs| Duration::from_secs_f64(secs.min(1e9))) {
            options.timeout = Some(options.timeout.map_or(asked, |t| t.min(asked)));
        }
        if let Some(nodes) = self.node_limit {
            options.node_limit = Some(options.node_limit.map_or(nodes, |n| n.min(nodes)));
        }
        options
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_reaches_the_options_and_limits_are_only_lowered() {
        let text = r#"{"algorithm": "fc", "var_order": "smallest", "val_order": "max",
            "mode": "count", "count_limit": 5, "threads": 2, "timeout_seconds": 1.5,
            "node_limit": 9}"#;
        let settings: PuzzleSettings = serde_json::from_str(text).unwrap();
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
        };
        assert_eq!(settings.apply_to(&caller), expected);
        assert_eq!(PuzzleSettings::default().apply_to(&caller), caller);
        let tight = SolveOptions {
            threads: 1,
            timeout: Some(Duration::from_secs(1)),
            node_limit: Some(3),
            ..caller
        };
        let lowered = settings.apply_to(&tight);
        assert_eq!(
            (lowered.threads, lowered.timeout, lowered.node_limit),
            (1, tight.timeout, Some(3))
        );
    }

    #[test]
    fn a_negative_timeout_is_ignored_and_a_huge_one_capped() {
        let timeout = |secs: f64| {
            let settings = PuzzleSettings { timeout_seconds: Some(secs), ..Default::default() };
            settings.apply_to(&SolveOptions::default()).timeout
        };
        assert_eq!(timeout(-1.0), None);
        assert_eq!(timeout(1e300), Some(Duration::from_secs(1_000_000_000)));
    }
}
