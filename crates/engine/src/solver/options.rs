//! The knobs of one solve: technique, orders, mode and limits. These are the solver's own
//! plain settings; the command line, the configuration file and puzzle files each fill a
//! [`SolveOverrides`](super::SolveOverrides) that is set over them. Serialized, the options
//! are a result document's `settings`. Every choice has a [`name`](Algorithm::name), the same one
//! its serde form uses, so those layers can list and print the choices without a copy.

use serde::{Deserialize, Serialize, Serializer};
use std::time::Duration;

/// How much propagation is done at each search node.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Algorithm {
    /// Generic backtracking: assign, then check the constraints of the assigned variable.
    Bt,
    /// Forward checking: after each assignment, prune the other variables of its
    /// constraints once (no fixed point); a variable pruned to one value counts as assigned.
    Fc,
    /// Maintaining arc consistency: propagate every constraint to a fixed point; in
    /// `first` and `unique` modes a CDCL SAT solver joins a search that outlives a short
    /// probe. A Kakuro is first given to the grader's logic, which answers when it places
    /// every digit.
    #[default]
    Mac,
    /// The CDCL SAT solver alone, on a CNF encoding of the propagated model.
    Sat,
}

impl Algorithm {
    /// Every algorithm, in the order they are listed to users.
    pub const ALL: [Algorithm; 4] = [Algorithm::Bt, Algorithm::Fc, Algorithm::Mac, Algorithm::Sat];

    /// The name written in settings and reports.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Bt => "bt",
            Algorithm::Fc => "fc",
            Algorithm::Mac => "mac",
            Algorithm::Sat => "sat",
        }
    }
}

/// Which variable to branch on next.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VarOrder {
    /// The first unfixed variable in model order.
    InputOrder,
    /// Minimum remaining values: the unfixed variable with the smallest domain.
    #[default]
    FirstFail,
    /// The unfixed variable with the smallest value in its domain.
    Smallest,
}

impl VarOrder {
    /// Every variable order, in the order they are listed to users.
    pub const ALL: [VarOrder; 3] = [VarOrder::InputOrder, VarOrder::FirstFail, VarOrder::Smallest];

    /// The name written in settings and reports.
    pub fn name(self) -> &'static str {
        match self {
            VarOrder::InputOrder => "input_order",
            VarOrder::FirstFail => "first_fail",
            VarOrder::Smallest => "smallest",
        }
    }
}

/// In which order a branching variable's values are tried.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ValOrder {
    /// Smallest value first.
    #[default]
    Min,
    /// Largest value first.
    Max,
}

impl ValOrder {
    /// Every value order, in the order they are listed to users.
    pub const ALL: [ValOrder; 2] = [ValOrder::Min, ValOrder::Max];

    /// The name written in settings and reports.
    pub fn name(self) -> &'static str {
        match self {
            ValOrder::Min => "min",
            ValOrder::Max => "max",
        }
    }
}

/// What the search is asked to find.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// Stop at the first solution.
    First,
    /// Look for a second solution, to prove the first one unique.
    #[default]
    Unique,
    /// Count all solutions (up to `count_limit`).
    Count,
}

impl Mode {
    /// Every mode, in the order they are listed to users.
    pub const ALL: [Mode; 3] = [Mode::First, Mode::Unique, Mode::Count];

    /// The name written in settings and reports.
    pub fn name(self) -> &'static str {
        match self {
            Mode::First => "first",
            Mode::Unique => "unique",
            Mode::Count => "count",
        }
    }
}

/// How a solved Kakuro is graded by human techniques (see `grade`). The grade never holds
/// an answer back: `auto` costs at most a fifth of the search.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum GradeMode {
    /// No grade.
    Off,
    /// The grade from what the answer already computed: under `mac` the logic that runs
    /// first decides it at no cost (the levels below trial finish the grid, or the puzzle
    /// is expert). After the other algorithms' search, that logic runs within a fifth of
    /// the search's time, and the grade is left undecided (`over_budget`) if it runs out.
    #[default]
    Auto,
    /// The whole grade, trial included, whatever it costs, within the time limit.
    Full,
}

impl GradeMode {
    /// Every grade mode, cheapest first.
    pub const ALL: [GradeMode; 3] = [GradeMode::Off, GradeMode::Auto, GradeMode::Full];

    /// The name written in settings and reports.
    pub fn name(self) -> &'static str {
        match self {
            GradeMode::Off => "off",
            GradeMode::Auto => "auto",
            GradeMode::Full => "full",
        }
    }
}

/// Everything that steers one solve. Serialized whole on the queue's wire; a report's
/// `settings` object leaves the threads out ([`as_reported`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SolveOptions {
    /// Propagation strength.
    pub algorithm: Algorithm,
    /// Variable order.
    pub var_order: VarOrder,
    /// Value order.
    pub val_order: ValOrder,
    /// What to look for.
    pub mode: Mode,
    /// In `count` mode, stop after this many solutions.
    pub count_limit: Option<u64>,
    /// Threads for this one puzzle's search; 0 means all cores.
    pub threads: usize,
    /// Wall-clock limit for the search (`timeout_seconds`).
    #[serde(rename = "timeout_seconds", with = "crate::seconds::limit")]
    pub timeout: Option<Duration>,
    /// Limit on search nodes.
    pub node_limit: Option<u64>,
    /// How a solved Kakuro is graded.
    #[serde(default)]
    pub grade: GradeMode,
}

impl SolveOptions {
    /// The defaults, in one place: the command line's, the configuration file's and a
    /// puzzle file's are these.
    pub const DEFAULT: SolveOptions = SolveOptions {
        algorithm: Algorithm::Mac,
        var_order: VarOrder::FirstFail,
        val_order: ValOrder::Min,
        mode: Mode::Unique,
        count_limit: None,
        threads: 1,
        timeout: None,
        node_limit: None,
        grade: GradeMode::Auto,
    };
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions::DEFAULT
    }
}

/// Writes `options` as a report's `settings` object: without the threads, which the
/// statistics give as the search used them.
pub fn as_reported<S: Serializer>(options: &Option<SolveOptions>, s: S) -> Result<S::Ok, S::Error> {
    /// The keys of a report's `settings`, in their order.
    #[derive(Serialize)]
    struct Reported {
        algorithm: Algorithm,
        var_order: VarOrder,
        val_order: ValOrder,
        mode: Mode,
        count_limit: Option<u64>,
        #[serde(rename = "timeout_seconds", with = "crate::seconds::limit")]
        timeout: Option<Duration>,
        node_limit: Option<u64>,
        grade: GradeMode,
    }
    let reported = options.as_ref().map(|o| Reported {
        algorithm: o.algorithm,
        var_order: o.var_order,
        val_order: o.val_order,
        mode: o.mode,
        count_limit: o.count_limit,
        timeout: o.timeout,
        node_limit: o.node_limit,
        grade: o.grade,
    });
    reported.serialize(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names_match_serde<T: Serialize + Copy>(all: &[T], name: fn(T) -> &'static str) {
        for &value in all {
            assert_eq!(serde_json::to_value(value).unwrap(), name(value));
        }
    }

    #[test]
    fn every_name_is_the_serde_name() {
        names_match_serde(&Algorithm::ALL, Algorithm::name);
        names_match_serde(&VarOrder::ALL, VarOrder::name);
        names_match_serde(&ValOrder::ALL, ValOrder::name);
        names_match_serde(&Mode::ALL, Mode::name);
    }
}
