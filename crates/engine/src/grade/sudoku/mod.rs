//! Grading Sudoku (N = k*k, 4x4 to 25x25) by the techniques a person solves with.
//!
//! Candidates are a bit set per cell (bit `d` for digit `d`). As for Kakuro, the techniques
//! are tried cheapest level first, going back to the cheapest after any progress, and the
//! grade is the hardest level that made progress; every step is a sound deduction, so a
//! grid the logic finishes is the puzzle's only solution.
//!
//! - **easy**: [`Technique::NakedSingle`] (a cell's one candidate leaves its row, column
//!   and box) and [`Technique::HiddenSingle`] (a digit with one place left in a unit).
//! - **medium**: [`Technique::LockedPair`] and [`Technique::LockedTriple`] (a naked pair or
//!   triple where a box crosses a line, clearing both), [`Technique::LockedCandidates`]
//!   (pointing and claiming), [`Technique::NakedSubset`] (clearing every house its cells
//!   share) and [`Technique::HiddenSubset`] of two and three cells.
//! - **hard**: naked and hidden quads; [`Technique::Fish`] of two, three and four lines
//!   (X-wing, swordfish, jellyfish); the single-digit patterns [`Technique::Skyscraper`],
//!   [`Technique::TwoStringKite`], [`Technique::TurbotFish`] and
//!   [`Technique::EmptyRectangle`] (`links`); [`Technique::WWing`], [`Technique::XyWing`]
//!   and [`Technique::XyzWing`] (`wings`); [`Technique::FinnedXWing`], finned and sashimi
//!   (`finned`); [`Technique::SimpleColors`] (`links`), [`Technique::MultiColors2`] and
//!   [`Technique::MultiColors1`] (`colors`); [`Technique::RemotePair`]
//!   (`chains`); on a puzzle proved to have one solution ([`proved_unique`]),
//!   [`Technique::BugPlusOne`] and the unique, hidden and avoidable rectangles
//!   (`uniqueness`). They come in HoDoKu's order, and go by HoDoKu's definitions.
//! - **unfair**: [`Technique::FinnedFish`] of three and four lines; [`Technique::SueDeCoq`]
//!   (`suedecoq`); the chains [`Technique::XChain`], [`Technique::XyChain`] and
//!   [`Technique::Aic`] and [`Technique::ContinuousNiceLoop`] (`chains`), [`Technique::GroupedAic`] and [`Technique::GroupedContinuousNiceLoop`] (`grouped`); [`Technique::AlsXz`] and [`Technique::AlsXyWing`] (`als`).
//! - **extreme**: forcing chains ([`Technique::ForcingChainContradiction`] and
//!   [`Technique::ForcingChainVerity`], `forcing`, grids up to 9x9), then forcing nets
//!   ([`Technique::ForcingNetContradiction`] and [`Technique::ForcingNetVerity`]: the
//!   chains' links and the singles a premise makes), then, where they fail,
//!   [`Technique::Trial`] on a cell with two (then three) candidates, followed
//!   with the levels up to hard; a puzzle that even trial cannot finish is extreme too (a
//!   ceiling of `expert`, Kakuro's top, runs trial as well).
//!
//! The grade is on HoDoKu's scale ([`crate::grade::Scale::Sudoku`]); a 9x9's is raised by
//! HoDoKu's score of the path (`score`).
//!
//! A Killer Sudoku is solved by the same logic with its cages added (`cages`): a placed
//! digit also leaves the rest of its cage, and the cage techniques join the levels (see
//! [`journal_killer`]). Killer Sudoku are not graded; the levels only order the techniques.

mod als;
mod cages;
mod chains;
mod colors;
mod finned;
mod forcing;
mod grouped;
mod links;
mod score;
mod suedecoq;
mod techniques;
mod trial;
mod uniqueness;
mod wings;

use super::{Budget, Difficulty, Grading, Scale, Technique, Uses};
use crate::puzzle::{Cage, Killer, Sudoku};
use crate::solver::{Control, SolveOptions, sudoku9};

/// The largest subsets of the medium level.
const MAX_SET: usize = 3;
/// The largest subsets and fish looked for: quads and jellyfish, at the hard level.
const QUAD: usize = 4;

/// The candidates of a Sudoku, as far as the logic has taken them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SudokuLogic {
    /// Per cell, row-major: bit `d` set while digit `d` is possible.
    pub candidates: Vec<u32>,
    /// Some cell or unit lost every candidate: the givens admit no solution.
    pub contradiction: bool,
    /// The hardest level that made progress.
    pub hardest: Option<Difficulty>,
    /// How often each technique made progress.
    pub uses: Uses,
    /// HoDoKu's score of the steps (`score`): each placement a single's points once, each
    /// other step its technique's.
    pub score: u32,
}

impl SudokuLogic {
    /// True when every cell holds one digit and there is no contradiction.
    pub fn solved(&self) -> bool {
        !self.contradiction && self.candidates.iter().all(|m| m.is_power_of_two())
    }

    /// The digits of a solved grid, row-major (0 where a cell is still open).
    pub fn values(&self) -> Vec<u32> {
        let one = |m: u32| if m.is_power_of_two() { m.trailing_zeros() } else { 0 };
        self.candidates.iter().map(|&m| one(m)).collect()
    }

    /// The grade on HoDoKu's scale when the logic (up to trial) has run: the hardest
    /// level used when it finished, extreme when it did not; a 9x9's raised by HoDoKu's
    /// score of the path (`score`).
    pub fn grade(&self) -> Grading {
        let solved = self.solved();
        let mut difficulty = Difficulty::reached_on(Scale::Sudoku, solved, self.hardest);
        if self.candidates.len() == 81 {
            difficulty = score::bumped(difficulty, self.score);
        }
        Grading::on(Scale::Sudoku, difficulty, solved, true, self.uses)
    }
}

/// Solves `sudoku` by logic with the techniques of the levels up to `ceiling`, without
/// the uniqueness techniques: a solve that finishes proves the puzzle has one solution
/// (the generator's proof), so it may not assume it.
pub fn solve_sudoku(sudoku: &Sudoku, ceiling: Difficulty) -> SudokuLogic {
    let shape = Shape::new(sudoku.n, sudoku.box_size, &[]);
    let mut state = State::new(&shape, &sudoku.givens);
    state.run(&shape, ceiling, Budget::default());
    state.logic
}

/// Solves `sudoku` by logic up to expert as [`grade_sudoku`] does, keeping each step
/// ([`crate::explain`] tells them), within `budget`. The uniqueness techniques join in
/// when the puzzle is proved to have one solution ([`proved_unique`]).
pub fn journal_sudoku(sudoku: &Sudoku, budget: Budget<'_>) -> SudokuJournal {
    let mut shape = Shape::new(sudoku.n, sudoku.box_size, &[]);
    shape.unique = proved_unique(sudoku);
    journal(&shape, &sudoku.givens, budget)
}

/// Whether `sudoku` has exactly one solution, as the dedicated 9x9 engine counts them
/// (stopping at a second): the proof the uniqueness techniques need, made once per puzzle
/// before its logic runs, in milliseconds. Other sizes are not proved (HoDoKu's
/// uniqueness techniques are for 9x9 grids): their logic goes without them.
pub fn proved_unique(sudoku: &Sudoku) -> bool {
    if !sudoku9::fits(sudoku.n, sudoku.box_size, SolveOptions::DEFAULT.algorithm) {
        return false;
    }
    let outcome = sudoku9::solve(&sudoku.givens, &SolveOptions::DEFAULT, Control::default());
    outcome.complete && outcome.count == 1
}

/// Solves `killer` by logic up to expert, keeping each step: the Sudoku techniques on its
/// rows, columns and boxes, and the cage techniques on its cages (`cage_combination`,
/// `cage_hidden_single`, `cage_pointing`, `innies`, `outies`, `cage_consistency`). The
/// logic's `hardest` level is kept, but it is no grade: Killer Sudoku are not graded.
pub fn journal_killer(killer: &Killer, budget: Budget<'_>) -> SudokuJournal {
    journal(&Shape::new(killer.n, killer.box_size, &killer.cages), &killer.givens, budget)
}

/// A journaled solve: where the logic got, its steps, and whether the budget ran out
/// before it finished or got stuck.
#[derive(Clone, Debug)]
pub struct SudokuJournal {
    /// The candidates where the logic stopped.
    pub logic: SudokuLogic,
    /// The steps, in order.
    pub entries: Vec<Entry>,
    /// The budget ran out: the steps are a beginning only.
    pub out_of_budget: bool,
}

/// Runs the logic up to expert on `shape` from `givens` with a journal, within `budget`.
fn journal(shape: &Shape, givens: &[u32], budget: Budget<'_>) -> SudokuJournal {
    let mut state = State::new(shape, givens);
    state.journal = Some(Journal::default());
    state.run(shape, Difficulty::Extreme, budget);
    let entries = state.journal.map(|j| j.steps).unwrap_or_default();
    SudokuJournal { logic: state.logic, entries, out_of_budget: state.out_of_budget }
}

/// One use of a technique in a journaled solve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The technique.
    pub technique: Technique,
    /// The units it reasoned on: rows `0..n`, columns `n..2n`, boxes `2n..3n`.
    pub units: Vec<usize>,
    /// The cells it reasoned from (the single, the subset, the digit's places).
    pub cells: Vec<usize>,
    /// A Killer's cages it reasoned on (indices into the puzzle's cages).
    pub cages: Vec<usize>,
    /// The sum of `cells` the step deduced (innies and outies), if any.
    pub sum: Option<u32>,
    /// What it removed: per cell, the digits as a bit set.
    pub removed: Vec<(usize, u32)>,
    /// A chain's candidates (cell, digit), from its start, assumed false, alternately
    /// false and true to its end; empty for other techniques.
    pub chain: Vec<(usize, u32)>,
    /// How `cells` fall into sets, as the sizes of their runs in order: the almost locked
    /// sets of an ALS step, a Sue de Coq's crossing, line set and box set; empty else.
    pub sets: Vec<usize>,
    /// The digits that join an ALS step's sets (restricted commons); 0 for others.
    pub linked: u32,
    /// A forcing chain's chains, each from its premise: (cell, digit, whether it is there).
    pub implications: Vec<Vec<forcing::Implication>>,
}

/// The steps of a solve, kept only when asked for (an answer never pays for them).
#[derive(Clone, Debug, Default)]
struct Journal {
    steps: Vec<Entry>,
    /// Removals since the last step.
    pending: Vec<(usize, u32)>,
}

/// Grades `sudoku`: the hardest level a complete logic solve needs; expert also when logic
/// up to trial gets stuck. The uniqueness techniques join in when the puzzle is proved to
/// have one solution ([`proved_unique`]).
pub fn grade_sudoku(sudoku: &Sudoku) -> Grading {
    grade_sudoku_known(sudoku, proved_unique(sudoku))
}

/// [`grade_sudoku`] for a caller that knows whether `sudoku` has one solution (the
/// generator, which made it so): `unique` lets the uniqueness techniques in, and must be
/// true only for a puzzle proved to have one solution.
pub fn grade_sudoku_known(sudoku: &Sudoku, unique: bool) -> Grading {
    let mut shape = Shape::new(sudoku.n, sudoku.box_size, &[]);
    shape.unique = unique;
    let mut state = State::new(&shape, &sudoku.givens);
    state.run(&shape, Difficulty::Extreme, Budget::default());
    state.logic.grade()
}

/// The grid's units and, per cell, the units it lies in; a Killer's cages.
struct Shape {
    n: usize,
    /// Rows, then columns, then boxes.
    units: Vec<Vec<usize>>,
    /// Per cell: its row, column and box (indices into `units`).
    cell_units: Vec<[usize; 3]>,
    /// A Killer's cages (none for a Sudoku).
    cages: Vec<Cage>,
    /// Per cell, the cage it lies in (empty for a Sudoku).
    cell_cage: Vec<Option<usize>>,
    /// Per cell, the cells it sees (see [`Shape::peers`]).
    peers: std::cell::OnceCell<Vec<Vec<usize>>>,
    /// The puzzle is proved to have one solution: the uniqueness techniques may run.
    unique: bool,
}

impl Shape {
    fn new(n: usize, box_size: usize, cages: &[Cage]) -> Shape {
        let units = Sudoku::units(n, box_size);
        let mut cell_units = vec![[0; 3]; n * n];
        for (u, unit) in units.iter().enumerate() {
            for &cell in unit {
                cell_units[cell][u / n] = u;
            }
        }
        let mut cell_cage = Vec::new();
        if !cages.is_empty() {
            cell_cage = vec![None; n * n];
            for (k, cage) in cages.iter().enumerate() {
                for &cell in &cage.cells {
                    if let Some(slot) = cell_cage.get_mut(cell) {
                        *slot = Some(k);
                    }
                }
            }
        }
        let peers = std::cell::OnceCell::new();
        Shape { n, units, cell_units, cages: cages.to_vec(), cell_cage, peers, unique: false }
    }

    /// True for a Killer Sudoku.
    fn killer(&self) -> bool {
        !self.cages.is_empty()
    }

    /// The units of one kind: 0 rows, 1 columns, 2 boxes.
    fn kind(&self, kind: usize) -> &[Vec<usize>] {
        &self.units[kind * self.n..(kind + 1) * self.n]
    }
}

/// The logic's working state.
#[derive(Clone)]
struct State {
    logic: SudokuLogic,
    /// Cells whose single digit has already left their peers.
    placed: Vec<bool>,
    /// Cells whose placement has scored (the givens from the start).
    scored: Vec<bool>,
    /// The givens: an avoidable rectangle's placed cells may not be among them.
    given: Vec<bool>,
    /// The steps, when they are kept.
    journal: Option<Journal>,
    /// The budget ran out before the logic finished or got stuck.
    out_of_budget: bool,
}

impl State {
    fn new(shape: &Shape, givens: &[u32]) -> State {
        let all = ((1u64 << (shape.n + 1)) - 2) as u32;
        let n = shape.n as u32;
        let candidates = (0..shape.n * shape.n)
            .map(|cell| match givens.get(cell).copied().unwrap_or(0) {
                0 => all,
                d if d <= n => 1 << d,
                _ => 0,
            })
            .collect::<Vec<_>>();
        let contradiction = candidates.contains(&0) || givens.len() != shape.n * shape.n;
        let uses = Uses::default();
        let logic = SudokuLogic { candidates, contradiction, hardest: None, uses, score: 0 };
        let placed = vec![false; shape.n * shape.n];
        // A given scores nothing: only what the logic places does.
        let given: Vec<bool> =
            (0..shape.n * shape.n).map(|c| givens.get(c).is_some_and(|&g| g != 0)).collect();
        let scored = given.clone();
        State { logic, placed, scored, given, journal: None, out_of_budget: false }
    }

    /// Applies the techniques up to `ceiling`, cheapest first, until solved, stuck or
    /// contradicted, or until `budget` runs out (a look at the clock costs nothing beside
    /// a step, which passes over the whole grid).
    fn run(&mut self, shape: &Shape, ceiling: Difficulty, budget: Budget<'_>) {
        self.steps(shape, ceiling, budget);
        self.score_last_singles();
    }

    /// Scores the cells the path filled whose digit never had to leave its peers (the
    /// last ones, once the grid is full): HoDoKu places each with a naked single.
    fn score_last_singles(&mut self) {
        for (cell, &mask) in self.logic.candidates.iter().enumerate() {
            if mask.is_power_of_two() && !std::mem::replace(&mut self.scored[cell], true) {
                let points = score::points(Technique::NakedSingle);
                self.logic.score = self.logic.score.saturating_add(points);
            }
        }
    }

    /// The techniques up to `ceiling`, cheapest first, applied as [`State::run`] says.
    fn steps(&mut self, shape: &Shape, ceiling: Difficulty, budget: Budget<'_>) {
        while !self.logic.contradiction && !self.logic.solved() {
            if budget.spent() {
                self.out_of_budget = true;
                return;
            }
            let killer = shape.killer();
            let progress = self.naked_singles(shape)
                || self.hidden_singles(shape)
                || killer && (self.cage_combinations(shape) || self.cage_hidden_singles(shape))
                || ceiling >= Difficulty::Medium
                    && ((2..=MAX_SET).any(|k| self.naked_subsets(shape, k, true))
                        || self.locked_candidates(shape)
                        || (2..=MAX_SET).any(|k| self.naked_subsets(shape, k, false))
                        || (2..=MAX_SET).any(|k| self.hidden_subsets(shape, k))
                        || killer
                            && (self.cage_pointing(shape)
                                || self.innies(shape)
                                || self.outies(shape)))
                || ceiling >= Difficulty::Hard
                    && (self.naked_subsets(shape, QUAD, false)
                        || self.hidden_subsets(shape, QUAD)
                        || (2..=QUAD).any(|k| self.fish(shape, k))
                        || killer && self.cage_consistency(shape)
                        || self.patterns(shape))
                || ceiling >= Difficulty::Unfair
                    && ((3..=QUAD).any(|k| {
                        self.finned_fish(shape, k, false) || self.finned_fish(shape, k, true)
                    }) || self.sue_de_coq(shape)
                        || self.chains(shape)
                        || self.grouped_chains(shape)
                        || self.als_xz(shape)
                        || self.als_xy_wings(shape))
                || ceiling >= Difficulty::Expert
                    && (self.forcing_chains(shape)
                        || self.forcing_nets(shape)
                        || self.trial(shape, budget));
            if !progress {
                return;
            }
        }
    }

    /// The hard level's patterns past quads and plain fish, in HoDoKu's order: remote
    /// pairs, BUG+1, the single-digit patterns, the wings, the rectangles (BUG+1 and they
    /// only on a puzzle proved to have one solution), finned and sashimi X-wings, then
    /// simple colours and multi-colours.
    fn patterns(&mut self, shape: &Shape) -> bool {
        self.remote_pairs(shape)
            || shape.unique && self.bug_plus_one(shape)
            || self.two_strong_links(shape, Technique::Skyscraper)
            || self.two_strong_links(shape, Technique::TwoStringKite)
            || self.two_strong_links(shape, Technique::TurbotFish)
            || self.empty_rectangles(shape)
            || self.w_wings(shape)
            || self.xy_wings(shape, 2)
            || self.xy_wings(shape, 3)
            || shape.unique && self.rectangles_of_uniqueness(shape)
            || self.finned_fish(shape, 2, false)
            || self.finned_fish(shape, 2, true)
            || self.simple_colors(shape)
            || self.multi_colors(shape)
    }

    /// Counts a use of `technique`, on `units` from `cells`, which removed what was removed
    /// since the last use.
    fn used(&mut self, technique: Technique, units: &[usize], cells: &[usize]) {
        self.used_on(technique, units, &[], cells, None);
    }

    /// [`State::used`] with the cages reasoned on and the sum deduced, if any.
    fn used_on(
        &mut self,
        technique: Technique,
        units: &[usize],
        cages: &[usize],
        cells: &[usize],
        sum: Option<u32>,
    ) {
        self.logic.uses.add(technique);
        // A placement scores once, as the single that made it: a hidden single's cell
        // spreading its digit afterwards is no second step.
        let points = match (technique, cells.first()) {
            (Technique::NakedSingle | Technique::HiddenSingle, Some(&cell)) => {
                let first = !std::mem::replace(&mut self.scored[cell], true);
                if first { score::points(technique) } else { 0 }
            }
            _ => score::step_points(technique, cells.len(), units.len()),
        };
        self.logic.score = self.logic.score.saturating_add(points);
        let level = technique.sudoku_level();
        self.logic.hardest = self.logic.hardest.max(Some(level));
        if let Some(journal) = &mut self.journal {
            let removed = std::mem::take(&mut journal.pending);
            let (units, cells, cages) = (units.to_vec(), cells.to_vec(), cages.to_vec());
            let (chain, sets, linked, implications) = (Vec::new(), Vec::new(), 0, Vec::new());
            let entry = Entry {
                technique,
                units,
                cells,
                cages,
                sum,
                removed,
                chain,
                sets,
                linked,
                implications,
            };
            journal.steps.push(entry);
        }
    }

    /// Counts a use of the chain `technique` through `cells`, its candidates `chain`.
    fn used_chain(&mut self, technique: Technique, cells: &[usize], chain: Vec<(usize, u32)>) {
        self.used(technique, &[], cells);
        if let Some(step) = self.journal.as_mut().and_then(|j| j.steps.last_mut()) {
            step.chain = chain;
        }
    }

    /// Counts a use of `technique` on `units` from the cell sets `sets`, joined by the
    /// digits `linked` (if any).
    fn used_sets(&mut self, technique: Technique, units: &[usize], sets: &[&[usize]], linked: u32) {
        let cells: Vec<usize> = sets.concat();
        self.used(technique, units, &cells);
        if let Some(step) = self.journal.as_mut().and_then(|j| j.steps.last_mut()) {
            step.sets = sets.iter().map(|s| s.len()).collect();
            step.linked = linked;
        }
    }

    /// Removes `digits` from `cell`; true when something was removed.
    fn remove(&mut self, cell: usize, digits: u32) -> bool {
        let mask = &mut self.logic.candidates[cell];
        if *mask & digits == 0 {
            return false;
        }
        if let Some(journal) = &mut self.journal {
            journal.pending.push((cell, *mask & digits));
        }
        *mask &= !digits;
        if *mask == 0 {
            self.logic.contradiction = true;
        }
        true
    }
}

#[cfg(test)]
mod tests;
