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

// TEMPORARY stand-in until the logic solver lands: every white cell open.
/// Result of a logic solve.
pub struct Logic {
    /// Candidates per cell.
    pub candidates: Vec<u16>,
    /// Contradiction found.
    pub contradiction: bool,
}
impl Logic {
    /// Open cells.
    pub fn open_cells(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.candidates.len()).filter(|&c| self.candidates[c].count_ones() > 1)
    }
}
/// Logic solve.
pub fn solve(puzzle: &crate::puzzle::Kakuro, _ceiling: Difficulty) -> Logic {
    let candidates = puzzle
        .cells
        .iter()
        .map(|c| if *c == crate::puzzle::KakuroCell::White { 0x3FE } else { 0 })
        .collect();
    Logic { candidates, contradiction: false }
}
/// Grading.
pub struct Grading {
    /// Difficulty.
    pub difficulty: Difficulty,
}
/// Grade.
pub fn grade(_puzzle: &crate::puzzle::Kakuro) -> Grading {
    Grading { difficulty: Difficulty::Expert }
}
