//! Which grades a generated puzzle may have. By default one a person solves by logic
//! alone (easy to hard): an expert puzzle needs trial, which puzzle makers avoid, so it
//! is made only when asked for, by its grade or by `any`.

use crate::grade::{Difficulty, Scale};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The grades a generated puzzle may have.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum GradeGoal {
    /// Easy, medium or hard: solvable by logic alone, no trial (the default).
    #[default]
    Logic,
    /// Exactly this grade.
    Exactly(Difficulty),
    /// Any grade, expert (trial) included.
    Any,
}

impl GradeGoal {
    /// Every goal, in the order `--help` lists them.
    pub const ALL: [GradeGoal; 8] = [
        GradeGoal::Logic,
        GradeGoal::Exactly(Difficulty::Easy),
        GradeGoal::Exactly(Difficulty::Medium),
        GradeGoal::Exactly(Difficulty::Hard),
        GradeGoal::Exactly(Difficulty::Unfair),
        GradeGoal::Exactly(Difficulty::Expert),
        GradeGoal::Exactly(Difficulty::Extreme),
        GradeGoal::Any,
    ];

    /// The hardest grade of [`GradeGoal::Logic`].
    pub const LOGIC_CEILING: Difficulty = Difficulty::Hard;

    /// The name, as on the command line and in a generation job.
    pub fn name(self) -> &'static str {
        match self {
            GradeGoal::Logic => "logic",
            GradeGoal::Exactly(level) => level.name(),
            GradeGoal::Any => "any",
        }
    }

    /// The goal called `name`, if any.
    pub fn from_name(name: &str) -> Option<GradeGoal> {
        GradeGoal::ALL.into_iter().find(|g| g.name() == name)
    }

    /// The level of logic that must settle the puzzle, when logic is to settle it: the
    /// goal's hardest grade below expert; `None` when only the search can (expert, any).
    pub fn logic_level(self) -> Option<Difficulty> {
        match self {
            GradeGoal::Logic => Some(Self::LOGIC_CEILING),
            GradeGoal::Exactly(level) if !level.needs_trial() => Some(level),
            GradeGoal::Exactly(_) | GradeGoal::Any => None,
        }
    }

    /// The goal on the grades of `scale`: a Sudoku asked for `expert` is asked for
    /// `extreme` (the top of HoDoKu's scale, where trial stands), a Kakuro for `extreme`
    /// for `expert`; `Err` says why a grade the scale lacks (`unfair` for a Kakuro) cannot
    /// be made.
    pub fn on(self, scale: Scale) -> Result<GradeGoal, String> {
        let GradeGoal::Exactly(level) = self else { return Ok(self) };
        match scale.read(level) {
            Some(level) => Ok(GradeGoal::Exactly(level)),
            None => {
                let names: Vec<&str> = scale.levels().iter().map(|l| l.name()).collect();
                Err(format!(
                    "{} is not a grade of this kind of puzzle; its grades are {}",
                    level.name(),
                    names.join(", ")
                ))
            }
        }
    }

    /// Whether a puzzle of `grade` meets the goal.
    pub fn accepts(self, grade: Difficulty) -> bool {
        match self {
            GradeGoal::Logic => grade <= Self::LOGIC_CEILING,
            GradeGoal::Exactly(level) => grade == level,
            GradeGoal::Any => true,
        }
    }

    /// The one grade asked for, if the goal is one.
    pub fn exact(self) -> Option<Difficulty> {
        match self {
            GradeGoal::Exactly(level) => Some(level),
            GradeGoal::Logic | GradeGoal::Any => None,
        }
    }

    /// The goal in words, for messages: `of grade hard`, `solvable by logic (easy to
    /// hard)`, or nothing for any grade.
    pub fn described(self) -> String {
        match self {
            GradeGoal::Logic => " solvable by logic (easy to hard)".into(),
            GradeGoal::Exactly(level) => format!(" of grade {}", level.name()),
            GradeGoal::Any => String::new(),
        }
    }
}

impl Serialize for GradeGoal {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for GradeGoal {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(match GoalName::deserialize(d)? {
            GoalName::Logic => GradeGoal::Logic,
            GoalName::Easy => GradeGoal::Exactly(Difficulty::Easy),
            GoalName::Medium => GradeGoal::Exactly(Difficulty::Medium),
            GoalName::Hard => GradeGoal::Exactly(Difficulty::Hard),
            GoalName::Unfair => GradeGoal::Exactly(Difficulty::Unfair),
            GoalName::Expert => GradeGoal::Exactly(Difficulty::Expert),
            GoalName::Extreme => GradeGoal::Exactly(Difficulty::Extreme),
            GoalName::Any => GradeGoal::Any,
        })
    }
}

/// The names a goal is read from, as serde reads an enum's: an unknown name is refused
/// with the list of those known, placed as every other error of its document.
#[derive(Deserialize)]
#[serde(rename_all = "lowercase")]
enum GoalName {
    Logic,
    Easy,
    Medium,
    Hard,
    Unfair,
    Expert,
    Extreme,
    Any,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_the_default_is_logic() {
        for goal in GradeGoal::ALL {
            assert_eq!(GradeGoal::from_name(goal.name()), Some(goal));
            let json = serde_json::to_string(&goal).unwrap();
            assert_eq!(serde_json::from_str::<GradeGoal>(&json).unwrap(), goal);
        }
        assert_eq!(GradeGoal::default(), GradeGoal::Logic);
        let e = serde_json::from_str::<GradeGoal>("\"impossible\"").unwrap_err();
        assert!(
            e.to_string().contains("unknown variant `impossible`, expected one of `logic`"),
            "{e}"
        );
    }

    #[test]
    fn logic_takes_easy_to_hard_and_settles_by_hard_logic() {
        let accepted: Vec<Difficulty> =
            Difficulty::ALL.into_iter().filter(|&d| GradeGoal::Logic.accepts(d)).collect();
        assert_eq!(accepted, [Difficulty::Easy, Difficulty::Medium, Difficulty::Hard]);
        assert_eq!(GradeGoal::Logic.logic_level(), Some(Difficulty::Hard));
        assert_eq!(GradeGoal::Exactly(Difficulty::Medium).logic_level(), Some(Difficulty::Medium));
        assert_eq!(GradeGoal::Exactly(Difficulty::Expert).logic_level(), None);
        assert_eq!(GradeGoal::Any.logic_level(), None);
        assert!(Difficulty::ALL.into_iter().all(|d| GradeGoal::Any.accepts(d)));
    }
}
