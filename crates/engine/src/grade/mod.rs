//! Grading puzzles by the techniques a person solves with: Kakuro here, Sudoku in
//! `grade::sudoku` (its own techniques, the same four levels). Killer Sudoku are not graded.
//!
//! The Kakuro logic solver works on candidate sets (a `u16` per cell, bit `d` for digit `d`) and on
//! each clued run's *live combinations*: the digit sets of the run's length and clue that
//! hold every digit placed in the run and otherwise only digits its open cells can still
//! take (the run "reduced" by its placed digits). It tries its techniques in levels,
//! cheapest first, and after any progress goes back to the cheapest level, as Simon
//! Tatham's `solo.c` does; the grade is the hardest level that made progress. Every step
//! below trial is a sound deduction, and trial only removes a digit that leads to a
//! contradiction, so a complete solve proves the solution unique.
//!
//! The levels and their techniques (each a function of `techniques`):
//!
//! - **easy**
//!   - [`Technique::NakedSingle`]: a placed digit leaves the rest of its run.
//!   - [`Technique::UniqueCombination`]: a run whose open cells have one live combination
//!     left (`3` in 2 cells is {1,2}) keeps them to its digits.
//!   - [`Technique::Crossing`]: an open cell keeps only digits of its run's live
//!     combinations. Applied from both runs, a cell keeps the intersection of its across
//!     and down sets (`3` in 2 across and `4` in 2 down meet in a 1).
//!   - [`Technique::HiddenSingle`]: a digit every live combination needs, that only one cell
//!     of the run can hold, is placed there.
//! - **medium**
//!   - [`Technique::Bounds`]: a digit is removed when the other cells' smallest (largest)
//!     digits already exceed (cannot reach) the clue with it.
//!   - [`Technique::NakedSubset`]: k open cells of a run holding only k digits between them
//!     take those digits from the run's other cells.
//!   - [`Technique::HiddenSubset`]: k digits every live combination needs, that only k cells
//!     can hold, leave those cells no other digit.
//! - **hard**
//!   - [`Technique::RunConsistency`]: a digit stays in a cell only if some combination can
//!     be spread over the run's cells, all distinct, giving that cell that digit (found by a
//!     dynamic programme over the combination's digit subsets).
//!   - [`Technique::RegionSum`]: only when every run is stuck, the rule of 45 of regions on
//!     bands of whole rows (columns): their across clues and their down runs add up alike,
//!     which gives the few cells sticking in or out a known sum (see `regions`).
//! - **expert**
//!   - [`Technique::Trial`]: assume one digit of a cell with two (then three) candidates and
//!     propagate with the levels up to hard; a contradiction removes the digit. A puzzle that
//!     logic cannot finish even so needs search, and is graded expert as well.
//!
//! Changes are propagated through one work list of runs per run-local level, so a level
//! only looks again at runs whose cells changed since it last looked at them; the easy
//! level takes each run it visits to that run's own fixed point at once. The first round
//! of the combinations (every cell kept to the digits its two clues allow) is done while
//! the solver is set up.
//!
//! Under the default algorithm the pipeline runs the levels below trial first ([`solve_runs`])
//! and answers with a grid they finish, searching only where they get stuck. Grading runs
//! on every Kakuro the pipeline solves, so it is kept cheap: the state is an
//! array of candidate masks over the white cells, each run keeps a tally of its digits
//! (placed, and held by open cells) that the easy level reads instead of its cells, the
//! combinations of one or two open cells come from tables, and the pipeline hands over the
//! run table it compiled the model from, and a solution it proved unique (which trial need
//! not assume). None of it changes a deduction or a count of techniques.

mod easy;
mod journal;
mod layout;
mod levels;
mod lists;
mod logic;
mod masks;
mod regions;
mod sudoku;
mod tally;
mod technique;
mod techniques;
#[cfg(test)]
pub(crate) mod tests;

use crate::puzzle::{Kakuro, RunTable};
use crate::solver::Budget;
pub use journal::KakuroEntry;
pub use levels::{Difficulty, Scale};
pub use regions::Region;
use serde::Serialize;
pub use sudoku::{
    Entry as SudokuEntry, SudokuJournal, SudokuLogic, grade_sudoku, grade_sudoku_known,
    journal_killer, journal_sudoku, proved_unique, solve_sudoku,
};
pub use technique::{Technique, Uses};

/// Result of a logic solve with techniques up to a ceiling.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Logic {
    /// Per cell, row-major: bit `d` set means digit `d` (1..=9) is still possible; 0 for
    /// black cells.
    pub candidates: Vec<u16>,
    /// Some cell or run lost every candidate: the clues admit no solution from here.
    pub contradiction: bool,
    /// The hardest level that made progress (`None`: nothing was deduced).
    pub hardest: Option<Difficulty>,
    /// How often each technique made progress.
    pub uses: Uses,
}

impl Logic {
    /// True when every white cell has exactly one candidate and there is no contradiction.
    pub fn solved(&self) -> bool {
        !self.contradiction && self.open_cells().next().is_none()
    }

    /// The digit placed in `cell`, when it has a single candidate.
    pub fn value(&self, cell: usize) -> Option<u32> {
        let mask = *self.candidates.get(cell)?;
        mask.is_power_of_two().then_some(mask.trailing_zeros())
    }

    /// The grade this logic decides when it ran the levels up to hard to their end: the
    /// exact grade when it finished (the same as [`grade`] gives, since the levels are
    /// tried cheapest first and the logic never got past the ones it used), expert
    /// ([`GradedBy::LogicStuck`]) when it stopped short; `None` after a contradiction (the
    /// clues admit no solution, nothing to grade).
    pub fn grade_up_to_hard(&self) -> Option<Grading> {
        (!self.contradiction).then(|| Grading::of(self.solved(), false, self.hardest, self.uses))
    }

    /// The white cells with more than one candidate, in row-major order.
    pub fn open_cells(&self) -> impl Iterator<Item = usize> + '_ {
        self.candidates.iter().enumerate().filter(|(_, m)| m.count_ones() > 1).map(|(i, _)| i)
    }
}

/// Solves `puzzle` by logic with the techniques of the levels up to `ceiling`, until it is
/// solved, stuck or contradicted.
pub fn solve(puzzle: &Kakuro, ceiling: Difficulty) -> Logic {
    solve_runs(puzzle, &puzzle.run_table(), ceiling)
}

/// [`solve`] with the puzzle's run table at hand (`runs` must be `puzzle`'s).
pub fn solve_runs(puzzle: &Kakuro, runs: &RunTable, ceiling: Difficulty) -> Logic {
    let logic = solve_runs_within(puzzle, runs, ceiling, Budget::default());
    logic.unwrap_or_else(|| unreachable!("a solve without a budget never runs out of it"))
}

/// [`solve_runs`] within `budget`: `None` when it ran out first.
pub fn solve_runs_within(
    puzzle: &Kakuro,
    runs: &RunTable,
    ceiling: Difficulty,
    budget: Budget<'_>,
) -> Option<Logic> {
    let layout = layout::Layout::new(runs, puzzle.cells.len(), puzzle.cols);
    let mut solver = logic::Solver::new(&layout, &[]);
    solver.budget = budget;
    solver.run(ceiling);
    (!solver.out_of_budget).then(|| solver.into_logic())
}

/// Solves `puzzle` by logic up to expert as [`grade`] does, keeping each step
/// ([`crate::explain`] tells them). The candidates the solve starts from, every white
/// cell kept to the digits of its two runs' combinations, are not in the journal: they
/// follow from the runs alone. `placed` holds a digit per white cell (0: none) that the
/// solve starts from, a player's progress. The solve gives up when `budget` runs out.
pub fn journal_kakuro(
    puzzle: &Kakuro,
    runs: &RunTable,
    placed: &[u32],
    budget: Budget<'_>,
) -> KakuroJournal {
    let layout = layout::Layout::new(runs, puzzle.cells.len(), puzzle.cols);
    let mut solver = logic::Solver::new(&layout, &[]);
    for (cell, &digit) in placed.iter().enumerate().filter(|&(_, &d)| (1..=9).contains(&d)) {
        solver.set(cell as u32, 1 << digit);
    }
    solver.journal = Some(Box::default());
    solver.budget = budget;
    solver.run(Difficulty::Expert);
    let entries = solver.journal.take().map(|j| j.entries).unwrap_or_default();
    let out_of_budget = solver.out_of_budget;
    KakuroJournal { logic: solver.into_logic(), entries, out_of_budget }
}

/// A journaled Kakuro solve ([`journal_kakuro`]).
#[derive(Clone, Debug)]
pub struct KakuroJournal {
    /// The candidates where the logic stopped.
    pub logic: Logic,
    /// The steps, in order.
    pub entries: Vec<KakuroEntry>,
    /// The budget ran out: the steps are a beginning only.
    pub out_of_budget: bool,
}

/// A puzzle's grade.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Grading {
    /// The hardest level a complete logic solve needs; expert also when logic up to trial
    /// gets stuck (or finds the clues contradictory).
    pub difficulty: Difficulty,
    /// True when the logic solver placed every digit.
    pub solved_by_logic: bool,
    /// How often each technique made progress.
    pub uses: Uses,
    /// How the difficulty was decided: which logic ran, and whether it finished.
    pub graded_by: GradedBy,
}

impl Grading {
    /// The grade of a logic solve that `solved` the puzzle or not, with trial or without:
    /// the hardest level that made progress (easy when none had to), expert when it did not
    /// finish.
    fn of(solved: bool, trial: bool, hardest: Option<Difficulty>, uses: Uses) -> Grading {
        Grading::on(Scale::Kakuro, Difficulty::reached(solved, hardest), solved, trial, uses)
    }

    /// The grade `difficulty` on `scale` of a logic solve that `solved` the puzzle or not,
    /// with trial or without.
    fn on(scale: Scale, difficulty: Difficulty, solved: bool, trial: bool, uses: Uses) -> Grading {
        let graded_by = match (trial, solved) {
            (_, true) if difficulty < scale.top() => GradedBy::Logic,
            (true, true) => GradedBy::Trial,
            (true, false) => GradedBy::TrialStuck,
            (false, _) => GradedBy::LogicStuck,
        };
        Grading { difficulty, solved_by_logic: solved, uses, graded_by }
    }
}

/// How a grade was decided, the JSON's `graded_by`. Every route but `over_budget` decides
/// the difficulty exactly: the levels are tried cheapest first, so a logic that finishes
/// never needed more than it used, and one that stops short of trial leaves only expert.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GradedBy {
    /// The levels below trial placed every digit: the grade is the hardest one they used.
    Logic,
    /// The levels below trial stopped short: expert, decided without trial (which would
    /// only tell whether assumptions finish the grid, at a cost that grows with it).
    LogicStuck,
    /// Trial placed every digit: expert.
    Trial,
    /// Trial, run to its end, stopped short too: expert, the puzzle needs search (or has
    /// several solutions).
    TrialStuck,
    /// The time the grade was given ran out before its logic finished or stopped: no
    /// difficulty is claimed.
    OverBudget,
}

impl GradedBy {
    /// The route's name, as in JSON and on the statistics line.
    pub fn name(self) -> &'static str {
        match self {
            GradedBy::Logic => "logic",
            GradedBy::LogicStuck => "logic_stuck",
            GradedBy::Trial => "trial",
            GradedBy::TrialStuck => "trial_stuck",
            GradedBy::OverBudget => "over_budget",
        }
    }
}

/// Grades `puzzle`: the hardest level a complete logic solve needs; expert also when logic
/// up to trial gets stuck.
pub fn grade(puzzle: &Kakuro) -> Grading {
    grade_runs(puzzle, &puzzle.run_table(), None)
}

/// [`grade`] with the puzzle's run table at hand (the pipeline has it from compiling the
/// model; `runs` must be `puzzle`'s), and with the puzzle's solution (a digit per white
/// cell, row-major) when it is proved to be the only one. The solution only saves work:
/// trial need not assume a cell's own digit, which in a puzzle with one solution cannot
/// lead to a contradiction. The grade is the same with or without it.
pub fn grade_runs(puzzle: &Kakuro, runs: &RunTable, solution: Option<&[u32]>) -> Grading {
    let unbounded = grade_within(puzzle, runs, solution, Difficulty::Expert, Budget::default());
    unbounded.unwrap_or_else(|| unreachable!("a grade without a budget always ends"))
}

/// [`grade_runs`] with the logic's levels up to `ceiling` (hard: no trial; expert: with
/// trial) and within `budget`: `None` when the budget ran out before the logic finished or
/// stopped. Below expert a puzzle the levels cannot finish is graded expert
/// ([`GradedBy::LogicStuck`]), which is exact: trial and search are both expert.
pub fn grade_within(
    puzzle: &Kakuro,
    runs: &RunTable,
    solution: Option<&[u32]>,
    ceiling: Difficulty,
    budget: Budget<'_>,
) -> Option<Grading> {
    let layout = layout::Layout::new(runs, puzzle.cells.len(), puzzle.cols);
    let mut solver = logic::Solver::new(&layout, solution.unwrap_or_default());
    solver.budget = budget;
    solver.run(ceiling);
    let (solved, hardest, uses) = solver.outcome();
    let trial = ceiling == Difficulty::Expert;
    (!solver.out_of_budget).then(|| Grading::of(solved, trial, hardest, uses))
}
