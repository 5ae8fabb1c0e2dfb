//! The grade of a solved Kakuro, decided as the `grade` setting asks and never at a cost
//! that holds the answer back.
//!
//! Under `auto` the grade comes from what the answer already computed: under `mac` the
//! logic that runs first ([`super::logic`]) either finished the grid (the exact grade) or
//! stopped short of trial (expert: trial and search are both expert, so no trial is run
//! to say which). After the other algorithms' search the same logic runs within a fifth
//! of the search's time, and the grade is left undecided when that runs out. Under `full`
//! trial runs as well, within the puzzle's time limit and its cancel.

use crate::grade::{self, Difficulty, GradedBy, Grading};
use crate::puzzle::{Compiled, Kakuro};
use crate::report::Uniqueness;
use crate::solver::{Budget, GradeMode, Outcome, SolveOptions};

/// The share of the search's time that an `auto` grade may take at most.
const AUTO_SHARE: u32 = 5;

/// What grading a solved puzzle gave. One per puzzle, read at once: the grade's count of
/// uses per technique makes it large, which boxing would only turn into an allocation.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Graded {
    /// Not graded: the setting is `off`.
    Not,
    /// The grade, and how it was decided.
    Decided(Grading),
    /// The grade's time ran out before its logic finished or stopped.
    OverBudget,
}

impl Graded {
    /// The report's `difficulty`, `techniques` and `graded_by`.
    pub(super) fn fields(self) -> (Option<Grading>, Option<GradedBy>) {
        match self {
            Graded::Not => (None, None),
            Graded::Decided(grading) => (Some(grading), Some(grading.graded_by)),
            Graded::OverBudget => (None, Some(GradedBy::OverBudget)),
        }
    }
}

/// What the grade of one solved Kakuro may use.
pub(super) struct Answered<'a> {
    /// The model it was solved on, with its run table (none: the table is made here).
    pub(super) compiled: Option<&'a Compiled>,
    /// The grade the logic that ran first decided, if it ran.
    pub(super) first: Option<Grading>,
    /// The search's answer.
    pub(super) outcome: &'a Outcome,
    /// What the answer proved about other solutions.
    pub(super) uniqueness: Uniqueness,
    /// The job's own time limit and cancel.
    pub(super) budget: Budget<'a>,
}

/// Grades `kakuro`, solved as `answered` says, as `options.grade` asks.
pub(super) fn grade(kakuro: &Kakuro, answered: &Answered<'_>, options: &SolveOptions) -> Graded {
    let first = answered.first;
    match options.grade {
        GradeMode::Off => Graded::Not,
        GradeMode::Auto => match first {
            Some(grading) => Graded::Decided(grading),
            None => {
                let share = answered.outcome.stats.solve_time / AUTO_SHARE;
                logic(kakuro, answered, Difficulty::Hard, answered.budget.at_most(share))
            }
        },
        GradeMode::Full => {
            // Trial cannot finish a puzzle with several solutions; the logic below decides.
            let ceiling = match answered.uniqueness {
                Uniqueness::Multiple => Difficulty::Hard,
                _ => Difficulty::Expert,
            };
            match first {
                Some(grading)
                    if grading.graded_by == GradedBy::Logic || ceiling == Difficulty::Hard =>
                {
                    Graded::Decided(grading)
                }
                _ => logic(kakuro, answered, ceiling, answered.budget),
            }
        }
    }
}

/// The logic with levels up to `ceiling` over `kakuro`, within `budget`; a solution proved
/// the only one spares trial the assumption of each cell's own digit.
fn logic(
    kakuro: &Kakuro,
    answered: &Answered<'_>,
    ceiling: Difficulty,
    budget: Budget<'_>,
) -> Graded {
    let unique = answered.uniqueness == Uniqueness::Unique;
    let solution = answered.outcome.solutions.first().filter(|_| unique).map(Vec::as_slice);
    let made;
    let runs = match answered.compiled.and_then(|c| c.runs.as_ref()) {
        Some(runs) => runs,
        None => {
            made = kakuro.run_table();
            &made
        }
    };
    match grade::grade_within(kakuro, runs, solution, ceiling, budget) {
        Some(grading) => Graded::Decided(grading),
        None => Graded::OverBudget,
    }
}

#[cfg(test)]
mod tests {
    use crate::grade::{self, Difficulty, GradedBy, Technique};
    use crate::pipeline::logic::tests::solve;
    use crate::puzzle::{Kakuro, Puzzle};
    use crate::report::{PuzzleReport, Status, Uniqueness};
    use crate::solver::{Algorithm, Budget, GradeMode, Mode, SolveOptions};
    use proptest::prelude::*;
    use std::sync::atomic::AtomicBool;

    const EASY: &str = include_str!("../../../../tests/fixtures/kakuro/1_10x12.txt");
    /// A published puzzle with two solutions.
    const TWO: &str = include_str!("../../../../tests/fixtures/kakuro/257_24x28.txt");
    /// The largest published puzzle, which logic finishes.
    const LARGE: &str = include_str!("../../../../tests/fixtures/kakuro/960_31x46.txt");

    fn with(mode: Mode, grade: GradeMode) -> SolveOptions {
        SolveOptions { mode, grade, ..SolveOptions::default() }
    }

    fn kakuro(report: &PuzzleReport) -> Kakuro {
        match &report.puzzle {
            Some(Puzzle::Kakuro(kakuro)) => kakuro.clone(),
            other => panic!("not a Kakuro: {other:?}"),
        }
    }

    #[test]
    fn a_puzzle_the_logic_finishes_is_graded_by_it_at_no_cost() {
        for mode in Mode::ALL {
            let report = solve(EASY, with(mode, GradeMode::Auto));
            assert_eq!(report.difficulty, Some(Difficulty::Easy), "{mode:?}");
            assert_eq!(report.graded_by, Some(GradedBy::Logic), "{mode:?}");
            // The grade is the logic's that answered: nothing ran after the answer.
            let full = solve(EASY, with(mode, GradeMode::Full));
            assert_eq!((full.difficulty, full.graded_by), (report.difficulty, report.graded_by));
            assert_eq!(full.techniques, report.techniques);
        }
    }

    #[test]
    fn a_puzzle_the_logic_cannot_finish_is_expert_without_trial_unless_full_is_asked() {
        let auto = solve(grade::tests::EXPERT, with(Mode::Unique, GradeMode::Auto));
        assert_eq!((auto.status, auto.uniqueness), (Status::Solved, Uniqueness::Unique));
        assert_ne!(auto.statistics.engine, crate::solver::Engine::Logic);
        assert_eq!(auto.difficulty, Some(Difficulty::Expert));
        assert_eq!(auto.graded_by, Some(GradedBy::LogicStuck));
        assert_eq!(auto.techniques.expect("graded").get(Technique::Trial), 0);
        assert!(!grade::solve(&kakuro(&auto), Difficulty::Hard).solved());

        let full = solve(grade::tests::EXPERT, with(Mode::Unique, GradeMode::Full));
        assert_eq!(full.difficulty, Some(Difficulty::Expert));
        assert_eq!(full.graded_by, Some(GradedBy::Trial));
        assert_eq!(full.techniques.expect("graded").get(Technique::Trial), 2);

        let off = solve(grade::tests::EXPERT, with(Mode::Unique, GradeMode::Off));
        assert_eq!((off.difficulty, off.techniques, off.graded_by), (None, None, None));
    }

    #[test]
    fn a_puzzle_with_several_solutions_is_expert_and_never_tried() {
        for grade_mode in [GradeMode::Auto, GradeMode::Full] {
            let report = solve(TWO, with(Mode::Count, grade_mode));
            assert_eq!(report.uniqueness, Uniqueness::Multiple);
            assert_eq!(report.difficulty, Some(Difficulty::Expert), "{grade_mode:?}");
            assert_eq!(report.graded_by, Some(GradedBy::LogicStuck), "{grade_mode:?}");
            let techniques = report.techniques.expect("graded");
            assert!(!techniques.is_empty());
            assert_eq!(techniques.get(Technique::Trial), 0);
        }
    }

    #[test]
    fn the_other_algorithms_grade_after_their_search_as_mac_does() {
        let by_logic = solve(EASY, SolveOptions::default());
        for algorithm in [Algorithm::Bt, Algorithm::Fc, Algorithm::Sat] {
            // `full`: the grade runs to its end, whatever the search cost.
            let options = SolveOptions { algorithm, ..with(Mode::Unique, GradeMode::Full) };
            let searched = solve(EASY, options);
            assert_eq!(searched.difficulty, by_logic.difficulty, "{algorithm:?}");
            assert_eq!(searched.techniques, by_logic.techniques, "{algorithm:?}");
            assert_eq!(searched.graded_by, Some(GradedBy::Logic), "{algorithm:?}");
            // `auto`: the same grade, or none when a fifth of the search did not suffice.
            let options = SolveOptions { algorithm, ..with(Mode::Unique, GradeMode::Auto) };
            let auto = solve(EASY, options);
            match auto.graded_by {
                Some(GradedBy::OverBudget) => assert_eq!(auto.difficulty, None),
                by => assert_eq!((by, auto.difficulty), (searched.graded_by, searched.difficulty)),
            }
        }
    }

    #[test]
    fn a_spent_budget_decides_nothing_and_an_open_one_decides_the_grade() {
        let report = solve(LARGE, SolveOptions::default());
        let puzzle = kakuro(&report);
        let runs = puzzle.run_table();
        let raised = std::sync::Arc::new(AtomicBool::new(true));
        let spent = Budget { cancel: Some(&raised), ..Budget::default() };
        let past = Budget { deadline: Some(std::time::Instant::now()), ..Budget::default() };
        for ceiling in [Difficulty::Hard, Difficulty::Expert] {
            assert_eq!(grade::grade_within(&puzzle, &runs, None, ceiling, spent), None);
            assert_eq!(grade::grade_within(&puzzle, &runs, None, ceiling, past), None);
            let open = grade::grade_within(&puzzle, &runs, None, ceiling, Budget::default());
            let open = open.expect("an open budget always ends");
            assert_eq!(Some(open.difficulty), report.difficulty);
            assert_eq!(open.graded_by, GradedBy::Logic);
        }
        // Seen from the report: no difficulty, and the route says why.
        assert_eq!(super::Graded::OverBudget.fields(), (None, Some(GradedBy::OverBudget)));
    }

    /// The level the logic must run to the end to decide `by`, and whether it finished.
    fn ran(by: GradedBy, difficulty: Option<Difficulty>) -> Option<(Difficulty, bool)> {
        match by {
            GradedBy::Logic => difficulty.map(|d| (d, true)),
            GradedBy::LogicStuck => Some((Difficulty::Hard, false)),
            GradedBy::Trial => Some((Difficulty::Expert, true)),
            GradedBy::TrialStuck => Some((Difficulty::Expert, false)),
            GradedBy::OverBudget => None,
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

        /// On random grids, in every mode, algorithm and grade setting, a reported grade
        /// is one the logic decides when run to the end of the level it names: it finishes
        /// there and not a level lower, or stops short as said.
        #[test]
        fn a_grade_never_claims_a_level_whose_logic_did_not_run_to_its_end(
            rows in 4usize..11,
            cols in 4usize..11,
            black in 20.0f64..45.0,
            seed in 0u64..1_000_000,
            mode in prop::sample::select(Mode::ALL.to_vec()),
            algorithm in prop::sample::select(vec![Algorithm::Mac, Algorithm::Fc, Algorithm::Sat]),
            grade_mode in prop::sample::select(vec![GradeMode::Auto, GradeMode::Full]),
        ) {
            let puzzle = crate::generate::any_solution(rows, cols, black, seed);
            let text = crate::generate::to_janko(&puzzle);
            // A count stops at 16 (random grids can have millions of solutions), and a
            // search at 200,000 nodes (forward checking alone can take a hundred million
            // on a grid of unclued runs); only a solved puzzle is graded.
            let options = SolveOptions {
                algorithm,
                mode,
                grade: grade_mode,
                count_limit: Some(16),
                node_limit: Some(200_000),
                ..SolveOptions::default()
            };
            let report = solve(&text, options);
            prop_assume!(report.status == Status::Solved);
            let by = report.graded_by.expect("a solved Kakuro is graded");
            if let Some((level, finished)) = ran(by, report.difficulty) {
                let logic = grade::solve(&puzzle, level);
                prop_assert_eq!(logic.solved(), finished, "{:?} at {:?}", by, level);
                if finished && level > Difficulty::Easy {
                    let below = Difficulty::ALL[level as usize - 1];
                    prop_assert!(!grade::solve(&puzzle, below).solved(), "{:?} suffices", below);
                }
                if !finished {
                    prop_assert_eq!(report.difficulty, Some(Difficulty::Expert));
                }
                let trial = report.techniques.map_or(0, |t| t.get(Technique::Trial));
                prop_assert!(trial == 0 || matches!(by, GradedBy::Trial | GradedBy::TrialStuck));
            } else {
                prop_assert_eq!(report.difficulty, None);
            }
        }
    }
}
