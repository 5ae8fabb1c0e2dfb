//! Grading Kakuro by the techniques a person solves with.

use serde::{Deserialize, Serialize};

/// How hard a puzzle is for a person: the hardest level of technique its solution needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Difficulty {
    /// Combinations and crossings alone.
    Easy,
    /// Subsets and bounds inside a run.
    Medium,
    /// Whole-run consistency and sums over blocks of runs.
    Hard,
    /// Needs trial: assuming a digit and following it to a contradiction.
    Expert,
}

impl Difficulty {
    /// Every level, easiest first.
    pub const ALL: [Difficulty; 4] =
        [Difficulty::Easy, Difficulty::Medium, Difficulty::Hard, Difficulty::Expert];

    /// The level's name, as in JSON and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Difficulty::Easy => "easy",
            Difficulty::Medium => "medium",
            Difficulty::Hard => "hard",
            Difficulty::Expert => "expert",
        }
    }

    /// The level called `name`, if any.
    pub fn from_name(name: &str) -> Option<Difficulty> {
        Difficulty::ALL.into_iter().find(|d| d.name() == name)
    }
}
