//! Puzzles with exactly one solution: fill, derive the clues, find where a second solution
//! differs, repair there, until none is left; then prove it once more, whole.
//!
//! **Finding every ambiguity at once.** The puzzle's model is propagated at the root (the
//! solver's arc consistency, with the exact run tables); the cells left open fall into
//! independent parts, and the puzzle is unique exactly when each part is. Each part is
//! small, so the solver (SAT for the hard ones) looks for a second solution of every part
//! in one round, and every part that has one is repaired in that same round.
//!
//! **Repairing.** Where the planted filling `A` and the other solution `B` differ, one cell
//! and the differing cells of its two runs are refilled with new digits (the cell neither
//! `A`'s nor `B`'s, the others not `B`'s). The clues of those runs change, so `B` is no
//! longer a solution; extreme digits are preferred, since they leave runs with few
//! combinations. A place that stays ambiguous after a few refills gets a black cell (with
//! its symmetric partner), where the layout rules allow one.
//!
//! **The proof.** The finished puzzle is solved once more as a whole, in `unique` mode,
//! by the solver's own route (root propagation, decomposition, search and SAT racing);
//! only a complete answer of exactly one solution lets the puzzle out.
//!
//! **Grades.** By default (`logic`: easy to hard), and with a target grade below
//! `expert`, the logic solver of [`crate::grade`] replaces the search as the finder
//! ([`troubles`]): every region it cannot solve with techniques up to the level is
//! repaired the same way, and a puzzle it solves completely is unique by that proof. An
//! exact grade must be exact: a puzzle the level below also solves is drawn again.

use super::fill::{Choice, fill};
use super::layout::{Layout, RunIndex, run_index};
use super::limits;
use super::{GenError, GenOptions, Generated, Proof, puzzle_of};
use crate::grade::{self, Difficulty};
use crate::puzzle::Kakuro;
use crate::solver::Budget;
use crate::solver::combos;
use crate::solver::{self, Mode, SolveOptions};
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::{Duration, Instant};

/// Visits of a cell whose refills touch only the trouble's cells of its runs; later
/// visits refill its runs whole.
const REFILLS_BEFORE_SPREAD: u32 = 2;
/// Visits of a cell before a black cell is tried in its runs.
const REFILLS_BEFORE_BLACK: u32 = 4;
/// Refills tried for one repair; the one with the fewest combinations is kept.
const REFILL_TRIES: usize = 6;
/// Visits of every cell of a trouble after which its whole region is refilled.
const STUCK_AFTER: u32 = 6;
/// One repair for every this many cells of a trouble.
const CELLS_PER_REPAIR: usize = 12;
/// Conflicts (or nodes) one part's check may take; a part that needs more is changed as
/// if it were ambiguous, since a puzzle that hard to prove is no puzzle to print.
const CHECK_BUDGET: u64 = 5_000;
/// Puzzles (layout and filling) drawn before the options are declared out of reach.
const DRAWS: usize = 200;

/// Generates a puzzle with exactly one solution, as `options` say.
pub fn generate(options: &GenOptions, budget: Budget<'_>) -> Result<Generated, GenError> {
    let started = Instant::now();
    // A Kakuro asked for `extreme` (the Sudoku scale's top) is asked for `expert`.
    let difficulty =
        options.difficulty.on(crate::grade::Scale::Kakuro).map_err(GenError::Options)?;
    let options = &GenOptions { difficulty, ..options.clone() };
    let mut rng = ChaCha8Rng::seed_from_u64(options.seed);
    let mut checks = Checks::default();
    for _ in 0..DRAWS {
        limits::check(&budget)?;
        let Some(layout) = Layout::publisher(
            options.rows,
            options.cols,
            options.black_percent,
            options.symmetry,
            &mut rng,
        ) else {
            return Err(GenError::Options(format!(
                "no layout of a {}x{} grid with {}% black cells has a white cell",
                options.rows, options.cols, options.black_percent
            )));
        };
        let Some(mut maker) = Maker::new(layout, options.difficulty.exact(), &mut rng) else {
            continue;
        };
        if !maker.make_unique(options, &budget, &mut checks, &mut rng)? {
            continue;
        }
        let puzzle = maker.puzzle();
        let grading = grade::grade(&puzzle.puzzle);
        if !options.difficulty.accepts(grading.difficulty) {
            continue;
        }
        let proof = prove(&puzzle.puzzle, options, &budget, &mut checks)?;
        return Ok(Generated {
            proof: Some(proof),
            difficulty: Some(grading.difficulty),
            seconds: started.elapsed().as_secs_f64(),
            ..puzzle
        });
    }
    Err(GenError::Options(format!(
        "no {}x{} puzzle{} was found in {DRAWS} draws; try another size or black share",
        options.rows,
        options.cols,
        options.difficulty.described()
    )))
}

/// Uniqueness checks made, and the time spent in them.
#[derive(Default)]
struct Checks {
    count: u32,
    time: Duration,
}

/// A layout with its planted filling, being repaired.
struct Maker {
    layout: Layout,
    index: RunIndex,
    /// Per cell: the planted digit (0 for black cells).
    digits: Vec<u32>,
    /// Per cell: how often it was refilled.
    refills: Vec<u32>,
    weights: [u32; 10],
}

impl Maker {
    /// Fills `layout`; `None` when the fill search gives up.
    fn new(layout: Layout, target: Option<Difficulty>, rng: &mut ChaCha8Rng) -> Option<Maker> {
        let index = run_index(&layout.white, layout.rows, layout.cols);
        let mut digits = vec![0; layout.white.len()];
        let whites = (0..digits.len()).filter(|&i| layout.white[i]).collect();
        let weights = weights(target);
        let choice = Choice { weights: Some(&weights), forbidden: None, put_off_shifts: true };
        if !fill(&index, &mut digits, whites, rng, choice) {
            return None;
        }
        let refills = vec![0; digits.len()];
        Some(Maker { layout, index, digits, refills, weights })
    }

    fn puzzle(&self) -> Generated {
        puzzle_of(&self.layout.white, &self.digits, self.layout.rows, self.layout.cols)
    }

    /// Repairs until nothing is left to repair; false when this draw should be given up.
    fn make_unique(
        &mut self,
        options: &GenOptions,
        budget: &Budget<'_>,
        checks: &mut Checks,
        rng: &mut ChaCha8Rng,
    ) -> Result<bool, GenError> {
        let max_rounds = 200 + self.index.runs.len();
        for round in 0..max_rounds {
            limits::check(budget)?;
            let troubles = self.troubles(options, budget, checks)?;
            tracing::debug!(
                round,
                troubles = troubles.len(),
                checks = checks.count,
                "uniqueness round"
            );
            if troubles.is_empty() {
                self.whiten(options, budget, checks, rng)?;
                return Ok(true);
            }
            for trouble in troubles {
                self.repair(&trouble, rng);
            }
        }
        Ok(false)
    }

    /// Where the puzzle is not settled: by the search, or by the logic of a target grade
    /// below expert.
    fn troubles(
        &self,
        options: &GenOptions,
        budget: &Budget<'_>,
        checks: &mut Checks,
    ) -> Result<Vec<Trouble>, GenError> {
        let puzzle = self.puzzle().puzzle;
        match options.difficulty.logic_level() {
            Some(level) => Ok(logic_troubles(&puzzle, level)),
            None => search_troubles(&puzzle, &self.digits, options, budget, checks),
        }
    }

    /// Turns black cells white again (with their partners, and digits that differ in their
    /// runs) while the black share is above the one asked, keeping each change only when
    /// the puzzle stays settled. Repairs add black cells where new digits alone did not
    /// settle a place, and later repairs often make some of them needless.
    fn whiten(
        &mut self,
        options: &GenOptions,
        budget: &Budget<'_>,
        checks: &mut Checks,
        rng: &mut ChaCha8Rng,
    ) -> Result<(), GenError> {
        let cells = self.layout.white.len();
        let target = (options.black_percent / 100.0 * cells as f64).round() as usize;
        let mut order: Vec<usize> = (0..cells).filter(|&c| !self.layout.white[c]).collect();
        order.shuffle(rng);
        for cell in order {
            if cells - self.layout.white_count() <= target {
                break;
            }
            limits::check(budget)?;
            self.try_whiten(cell, options, budget, checks, rng)?;
        }
        Ok(())
    }

    /// Whitens `cell` (and its partner) with new digits, if the layout allows it and the
    /// puzzle stays settled; otherwise leaves everything as it was.
    fn try_whiten(
        &mut self,
        cell: usize,
        options: &GenOptions,
        budget: &Budget<'_>,
        checks: &mut Checks,
        rng: &mut ChaCha8Rng,
    ) -> Result<(), GenError> {
        if !self.layout.can_whiten(cell) {
            return Ok(());
        }
        let (white, digits) = (self.layout.white.clone(), self.digits.clone());
        self.layout.whiten(cell);
        self.index = run_index(&self.layout.white, self.layout.rows, self.layout.cols);
        let mut new = vec![cell, self.layout.partner(cell)];
        new.dedup();
        let weights = self.weights;
        let choice = Choice { weights: Some(&weights), forbidden: None, put_off_shifts: true };
        // The runs it joins must not hold a digit twice already.
        let filled = self.joined_runs_distinct(&new)
            && fill(&self.index, &mut self.digits, new, rng, choice);
        if !filled || !self.troubles(options, budget, checks)?.is_empty() {
            (self.layout.white, self.digits) = (white, digits);
            self.index = run_index(&self.layout.white, self.layout.rows, self.layout.cols);
        }
        Ok(())
    }

    /// Whether every run through `cells` holds distinct digits in its other cells.
    fn joined_runs_distinct(&self, cells: &[usize]) -> bool {
        let runs = cells.iter().flat_map(|&c| [self.index.row_run[c], self.index.col_run[c]]);
        runs.into_iter().all(|run| {
            let mut seen = 0u32;
            self.index.runs[run].1.iter().filter(|c| !cells.contains(c)).all(|&c| {
                let bit = 1 << self.digits[c];
                let fresh = seen & bit == 0;
                seen |= bit;
                fresh
            })
        })
    }

    /// Changes the puzzle where `trouble` is: one repair for every few of its cells.
    fn repair(&mut self, trouble: &Trouble, rng: &mut ChaCha8Rng) {
        let mut cells = trouble.cells.clone();
        cells.shuffle(rng);
        let mut in_trouble = vec![false; self.digits.len()];
        for &c in &cells {
            in_trouble[c] = true;
        }
        let stuck = cells.iter().all(|&c| self.refills[c] >= STUCK_AFTER);
        if stuck && self.refill_region(&cells, rng) {
            return;
        }
        for &cell in cells.iter().take(cells.len().div_ceil(CELLS_PER_REPAIR)) {
            self.repair_at(cell, &in_trouble, trouble.other.as_deref(), rng);
        }
    }

    /// Refills every run through `cells` from scratch, or failing that blackens a cell
    /// of those runs; false when neither could be done.
    fn refill_region(&mut self, cells: &[usize], rng: &mut ChaCha8Rng) -> bool {
        let mut region: Vec<usize> = cells.iter().flat_map(|&c| self.run_cells(c)).collect();
        region.sort_unstable();
        region.dedup();
        if rng.random_bool(0.5) {
            region.shuffle(rng);
            if region.iter().any(|&c| self.blacken_near(c, rng)) {
                return true;
            }
        }
        let weights = self.weights;
        self.best_refill(
            region,
            Choice { weights: Some(&weights), forbidden: None, put_off_shifts: true },
            rng,
        )
    }

    /// Refills around `cell` (the cell neither the planted digit nor `other`'s, the
    /// trouble's cells of its runs not `other`'s), over a window that grows with every
    /// visit; a black cell in its runs once refills there keep failing.
    fn repair_at(
        &mut self,
        cell: usize,
        in_trouble: &[bool],
        other: Option<&[u32]>,
        rng: &mut ChaCha8Rng,
    ) {
        if !self.layout.white[cell] {
            return;
        }
        self.refills[cell] += 1;
        let visits = self.refills[cell];
        if visits > REFILLS_BEFORE_BLACK && self.blacken_near(cell, rng) {
            return;
        }
        let near: Vec<usize> =
            self.run_cells(cell).into_iter().filter(|&c| in_trouble[c] || c == cell).collect();
        let window = if visits <= REFILLS_BEFORE_SPREAD {
            near.clone()
        } else {
            let mut all: Vec<usize> = near.iter().flat_map(|&c| self.run_cells(c)).collect();
            all.sort_unstable();
            all.dedup();
            all
        };
        let mut forbidden = vec![0u32; self.digits.len()];
        if let Some(other) = other {
            for &c in &near {
                forbidden[c] = 1 << other[c];
            }
        }
        forbidden[cell] |= 1 << self.digits[cell];
        let weights = self.weights;
        let choice =
            Choice { weights: Some(&weights), forbidden: Some(&forbidden), put_off_shifts: true };
        if !self.best_refill(window, choice, rng) {
            self.blacken_near(cell, rng);
        }
    }

    /// Refills `window` a few times and keeps the refill whose runs have the fewest digit
    /// combinations in all (the fewer, the less room for another solution); false, with
    /// the digits unchanged, when no refill was found.
    fn best_refill(
        &mut self,
        window: Vec<usize>,
        choice: Choice<'_>,
        rng: &mut ChaCha8Rng,
    ) -> bool {
        let mut touched: Vec<usize> =
            window.iter().flat_map(|&c| [self.index.row_run[c], self.index.col_run[c]]).collect();
        touched.sort_unstable();
        touched.dedup();
        let mut best: Option<(usize, Vec<u32>)> = None;
        for _ in 0..REFILL_TRIES {
            let mut digits = self.digits.clone();
            if !fill(&self.index, &mut digits, window.clone(), rng, choice) {
                continue;
            }
            let score: usize = touched
                .iter()
                .map(|&run| {
                    let cells = &self.index.runs[run].1;
                    let total = cells.iter().map(|&c| digits[c]).sum();
                    combos::list(cells.len(), total).len()
                })
                .sum();
            if best.as_ref().is_none_or(|(s, _)| score < *s) {
                best = Some((score, digits));
            }
        }
        let Some((_, digits)) = best else { return false };
        self.digits = digits;
        true
    }

    /// The white cells of `cell`'s across and down runs (`cell` included once).
    fn run_cells(&self, cell: usize) -> Vec<usize> {
        let (across, down) = (self.index.row_run[cell], self.index.col_run[cell]);
        let mut cells: Vec<usize> = self.index.runs[across].1.clone();
        cells.extend(self.index.runs[down].1.iter().filter(|&&c| c != cell));
        cells
    }

    /// Blackens `cell` or another cell of its runs (with its partner) where the layout
    /// allows; false when none may turn black.
    fn blacken_near(&mut self, cell: usize, rng: &mut ChaCha8Rng) -> bool {
        let mut others = self.run_cells(cell);
        others.retain(|&c| c != cell);
        others.shuffle(rng);
        let candidates = std::iter::once(cell).chain(others);
        let Some(black) = candidates.into_iter().find(|&c| self.layout.can_blacken(c)) else {
            return false;
        };
        self.layout.blacken(black);
        for (i, digit) in self.digits.iter_mut().enumerate() {
            if !self.layout.white[i] {
                *digit = 0;
            }
        }
        self.index = run_index(&self.layout.white, self.layout.rows, self.layout.cols);
        true
    }
}

/// Digit weights for a target grade: extreme digits make runs with one combination.
fn weights(target: Option<Difficulty>) -> [u32; 10] {
    match target {
        Some(Difficulty::Easy) => [0, 12, 8, 4, 2, 1, 2, 4, 8, 12],
        Some(Difficulty::Medium) | None => [0, 6, 5, 4, 3, 2, 3, 4, 5, 6],
        Some(Difficulty::Hard | Difficulty::Unfair) => [0, 3, 3, 3, 3, 3, 3, 3, 3, 3],
        Some(Difficulty::Expert | Difficulty::Extreme) => [0, 2, 3, 4, 5, 5, 5, 4, 3, 2],
    }
}

/// The independent proof: the whole puzzle solved in `unique` mode by the solver's own
/// route, which must answer exactly one solution, completely.
fn prove(
    puzzle: &Kakuro,
    options: &GenOptions,
    budget: &Budget<'_>,
    checks: &mut Checks,
) -> Result<Proof, GenError> {
    let started = Instant::now();
    let compiled = puzzle.compile();
    let solve = SolveOptions {
        mode: Mode::Unique,
        threads: options.threads,
        timeout: budget.left(),
        ..Default::default()
    };
    let outcome = solver::solve(&compiled.model, &solve, budget.cancel);
    checks.count += 1;
    checks.time += started.elapsed();
    if let Some(reason) = outcome.stopped {
        return Err(limits::error_for(budget, reason));
    }
    Proof::of(&outcome, checks.count, checks.time)
}

#[cfg(test)]
mod tests;
mod troubles;

use troubles::{Trouble, logic_troubles, search_troubles};
