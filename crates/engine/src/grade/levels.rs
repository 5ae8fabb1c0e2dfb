//! The grades: Kakuro keep their own scale (easy, medium, hard, expert), Sudoku are graded
//! on HoDoKu's (easy, medium, hard, unfair, extreme); one type holds the levels of both.

use serde::{Deserialize, Serialize};

/// How hard a puzzle is for a person: the hardest level of technique its solution needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Difficulty {
    /// Kakuro: combinations and crossings alone. Sudoku: singles.
    Easy,
    /// Kakuro: subsets and bounds inside a run. Sudoku: locked candidates, pairs, triples.
    Medium,
    /// Kakuro: whole-run consistency. Sudoku: quads, basic fish, the single-digit patterns,
    /// wings, finned and sashimi X-wings (HoDoKu's hard).
    Hard,
    /// Sudoku: finned and sashimi swordfish and jellyfish (HoDoKu's unfair).
    Unfair,
    /// Kakuro: needs trial, assuming a digit and following it to a contradiction.
    Expert,
    /// Sudoku: needs trial, or logic cannot finish it (HoDoKu's extreme, where forcing
    /// chains and nets take over).
    Extreme,
}

/// The grades of one kind of puzzle: Kakuro keep theirs, Sudoku are graded on HoDoKu's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scale {
    /// easy, medium, hard, expert.
    Kakuro,
    /// easy, medium, hard, unfair, extreme (HoDoKu's levels).
    Sudoku,
}

impl Scale {
    /// The levels, easiest first.
    pub fn levels(self) -> &'static [Difficulty] {
        use Difficulty::{Easy, Expert, Extreme, Hard, Medium, Unfair};
        match self {
            Scale::Kakuro => &[Easy, Medium, Hard, Expert],
            Scale::Sudoku => &[Easy, Medium, Hard, Unfair, Extreme],
        }
    }

    /// The top level: trial's, and a puzzle's that logic cannot finish.
    pub fn top(self) -> Difficulty {
        match self {
            Scale::Kakuro => Difficulty::Expert,
            Scale::Sudoku => Difficulty::Extreme,
        }
    }

    /// `level` on this scale: the other scale's top read as this one's (a Sudoku asked
    /// for `expert` is asked for `extreme`, a Kakuro for `extreme` is `expert`); `None` for
    /// a level this scale lacks (`unfair` for a Kakuro).
    pub fn read(self, level: Difficulty) -> Option<Difficulty> {
        match (self, level) {
            (Scale::Sudoku, Difficulty::Expert) => Some(Difficulty::Extreme),
            (Scale::Kakuro, Difficulty::Extreme) => Some(Difficulty::Expert),
            _ => self.levels().contains(&level).then_some(level),
        }
    }
}

impl Difficulty {
    /// The grade of a Kakuro logic run that `solved` the puzzle or not: the hardest level
    /// that made progress (easy when none had to), expert when it did not finish.
    pub fn reached(solved: bool, hardest: Option<Difficulty>) -> Difficulty {
        Difficulty::reached_on(Scale::Kakuro, solved, hardest)
    }

    /// [`Difficulty::reached`] on `scale`: its top when the logic did not finish.
    pub fn reached_on(scale: Scale, solved: bool, hardest: Option<Difficulty>) -> Difficulty {
        match solved {
            true => hardest.unwrap_or(Difficulty::Easy),
            false => scale.top(),
        }
    }

    /// Every level of both scales, easiest first.
    pub const ALL: [Difficulty; 6] = [
        Difficulty::Easy,
        Difficulty::Medium,
        Difficulty::Hard,
        Difficulty::Unfair,
        Difficulty::Expert,
        Difficulty::Extreme,
    ];

    /// The level's name, as in JSON and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Difficulty::Easy => "easy",
            Difficulty::Medium => "medium",
            Difficulty::Hard => "hard",
            Difficulty::Unfair => "unfair",
            Difficulty::Expert => "expert",
            Difficulty::Extreme => "extreme",
        }
    }

    /// The level called `name`, if any.
    pub fn from_name(name: &str) -> Option<Difficulty> {
        Difficulty::ALL.into_iter().find(|d| d.name() == name)
    }

    /// True for the levels that need trial or search: expert and extreme.
    pub fn needs_trial(self) -> bool {
        self >= Difficulty::Expert
    }
}
