//! The solver settings a puzzle file asks for itself (the `settings` object of a JSON
//! puzzle), in the file's own keys. Readers only fill this in; turning it into solver
//! overrides happens here, in one place, so the readers need not know the solver's
//! settings and the solver need not know the file's keys.

use crate::solver::{Algorithm, Mode, SolveOverrides, ValOrder, VarOrder};
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

impl From<PuzzleSettings> for SolveOverrides {
    /// The file's wishes as solver overrides. A timeout that is not a finite, non-negative
    /// number of seconds is ignored, and a huge one is capped, rather than rejecting a file
    /// for it.
    fn from(settings: PuzzleSettings) -> SolveOverrides {
        let timeout = settings.timeout_seconds.filter(|s| s.is_finite() && *s >= 0.0);
        SolveOverrides {
            algorithm: settings.algorithm,
            var_order: settings.var_order,
            val_order: settings.val_order,
            mode: settings.mode,
            count_limit: settings.count_limit,
            threads: settings.threads,
            timeout: timeout.map(|secs| Duration::from_secs_f64(secs.min(1e9))),
            node_limit: settings.node_limit,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_reaches_its_override() {
        let text = r#"{"algorithm": "fc", "var_order": "smallest", "val_order": "max",
            "mode": "count", "count_limit": 5, "threads": 2, "timeout_seconds": 1.5,
            "node_limit": 9}"#;
        let settings: PuzzleSettings = serde_json::from_str(text).unwrap();
        let expected = SolveOverrides {
            algorithm: Some(Algorithm::Fc),
            var_order: Some(VarOrder::Smallest),
            val_order: Some(ValOrder::Max),
            mode: Some(Mode::Count),
            count_limit: Some(5),
            threads: Some(2),
            timeout: Some(Duration::from_millis(1500)),
            node_limit: Some(9),
        };
        assert_eq!(SolveOverrides::from(settings), expected);
        assert_eq!(SolveOverrides::from(PuzzleSettings::default()), SolveOverrides::default());
    }

    #[test]
    fn a_negative_timeout_is_ignored_and_a_huge_one_capped() {
        let timeout = |secs: f64| {
            let settings = PuzzleSettings { timeout_seconds: Some(secs), ..Default::default() };
            SolveOverrides::from(settings).timeout
        };
        assert_eq!(timeout(-1.0), None);
        assert_eq!(timeout(1e300), Some(Duration::from_secs(1_000_000_000)));
    }
}
