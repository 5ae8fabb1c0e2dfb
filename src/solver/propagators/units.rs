//! A family of overlapping permutation constraints (the rows, columns and boxes of a Sudoku
//! grid) propagated as one.
//!
//! Each unit is an all-different whose cells must take every value of the family's value
//! set, with the rules of [`distinct`] (naked singles, hidden singles, Hall sets) and
//! locked candidates: when the places of a value in one unit all lie in another (a box and
//! a row), the value leaves the rest of that other unit. Run as separate propagators, the
//! 27 units of a 9x9 grid wake each other through the queue some 25 times per search node,
//! and each run re-examines every value of its unit. Here the places of each value are a
//! 128-bit board, and the single rules run per (value, unit) pair, only for the pairs
//! whose places changed: a decision that removes one value from 20 cells re-examines that
//! value in the units of those cells, and nothing else. Hall sets, which cost a pass per
//! unfixed cell, run on a unit once the singles have settled everywhere.
//!
//! The propagator remembers the domains of its last run and catches up with the state.
//! After a backtrack the state is a fixed point again plus what the trail holds since
//! ([`State::settled`]), so only those changes are looked at; after a load, every
//! difference is. This needs no trail of its own.

use super::super::domain::Domain;
use super::super::state::{Conflict, PropResult, State};
use super::distinct;
use std::cell::RefCell;

/// Cells are bits of a `u128`.
pub const MAX_CELLS: usize = 128;
/// Units are bits of a `u64`.
pub const MAX_UNITS: usize = 64;
/// A unit has at most as many cells as a domain has values.
pub const MAX_UNIT: usize = 32;
/// Values are bits of a `u32`.
const VALUES: usize = 32;

/// A set of cells: bit `c` is local cell `c`.
type Cells = u128;

/// `local_of` value of a variable that is not a cell.
const NOT_A_CELL: u32 = u32::MAX;

/// Permutation all-different constraints over at most [`MAX_CELLS`] shared cells.
#[derive(Clone, Debug)]
pub struct Units {
    /// The cells (model variables); a cell's local index is its position here.
    vars: Box<[u32]>,
    /// Local index of each model variable up to the largest cell, or `NOT_A_CELL`.
    local_of: Box<[u32]>,
    /// The cells of each unit, as a set.
    unit_cells: Box<[Cells]>,
    /// The cells of each unit, in order: `cells[u * size..(u + 1) * size]`.
    cells: Box<[u32]>,
    /// Cells per unit.
    size: usize,
    /// The units of each cell, as a set.
    cell_units: Box<[u64]>,
    /// For each unit `u`, the units sharing two cells or more with it, as (shared cells,
    /// cells of the other unit outside `u`): a value whose places in `u` all lie in the
    /// shared cells leaves the rest. `overlaps[overlap_start[u]..overlap_start[u + 1]]`.
    overlaps: Box<[(Cells, Cells)]>,
    overlap_start: Box<[u32]>,
    /// For each cell, the units whose rules read it: its own, and the units overlapping
    /// those (a value it regains may undo what one of them removed).
    readers: Box<[u64]>,
    /// The values every unit must use.
    values: u32,
    /// What the last run left behind (boxed: it is large).
    memory: Box<RefCell<Memory>>,
}

/// The propagator's own view of the domains, kept from run to run. Invariant: every
/// (value, unit) pair not in `pending` satisfies the single rules and locked candidates
/// over `doms`, and every unit not in `hall` has no Hall set left to apply.
#[derive(Clone, Debug)]
struct Memory {
    /// Domain of each cell.
    doms: Vec<u32>,
    /// `places[d]`: the cells whose domain holds value `d`.
    places: [Cells; VALUES],
    /// `fixed[d]`: the cells whose domain is exactly `{d}`.
    fixed: [Cells; VALUES],
    /// `pending[d]`: the units where value `d` must be looked at again.
    pending: [u64; VALUES],
    /// The values with pending units.
    busy: u32,
    /// Cells changed by the rules in this run, to be written back to the state.
    narrowed: Cells,
    /// Units whose Hall sets must be looked at again.
    hall: u64,
    /// The cells whose domain is a single value.
    solved: Cells,
    /// The state's epoch and trail length when the last run ended.
    epoch: u64,
    seen: usize,
}

impl Units {
    /// The family of `units` (lists of model variables of one length, at most
    /// [`MAX_UNIT`]), each of which must take every value of `values`. `None` when the
    /// family has more than [`MAX_CELLS`] cells or [`MAX_UNITS`] units.
    pub fn new(units: &[&[usize]], values: Domain) -> Option<Units> {
        let size = units.first().map_or(0, |u| u.len());
        if units.len() > MAX_UNITS || size > MAX_UNIT || units.iter().any(|u| u.len() != size) {
            return None;
        }
        // Cells in the order they first appear.
        let largest = units.iter().flat_map(|u| u.iter()).max().map_or(0, |&v| v + 1);
        let mut local_of = vec![NOT_A_CELL; largest];
        let mut vars = Vec::new();
        let mut cells = Vec::with_capacity(units.len() * size);
        for &v in units.iter().flat_map(|u| u.iter()) {
            if local_of[v] == NOT_A_CELL {
                if vars.len() == MAX_CELLS {
                    return None;
                }
                local_of[v] = vars.len() as u32;
                vars.push(v as u32);
            }
            cells.push(local_of[v]);
        }
        let mut unit_cells = vec![0 as Cells; units.len()];
        let mut cell_units = vec![0u64; vars.len()];
        for (i, &c) in cells.iter().enumerate() {
            let u = i / size.max(1);
            unit_cells[u] |= 1 << c;
            cell_units[c as usize] |= 1 << u;
        }
        let mut overlaps = Vec::new();
        let mut overlap_start = vec![0u32];
        let mut partners = vec![0u64; units.len()];
        for (u, &cells) in unit_cells.iter().enumerate() {
            for (w, &other) in unit_cells.iter().enumerate() {
                let shared = cells & other;
                if w != u && shared & shared.wrapping_sub(1) != 0 && other & !cells != 0 {
                    overlaps.push((shared, other & !cells));
                    partners[u] |= 1 << w;
                }
            }
            overlap_start.push(overlaps.len() as u32);
        }
        let readers =
            cell_units.iter().map(|&own| bits(own).fold(own, |set, w| set | partners[w])).collect();
        // Nothing seen yet: empty domains, which every real domain differs from.
        let memory = Memory {
            doms: vec![0; vars.len()],
            places: [0; VALUES],
            fixed: [0; VALUES],
            pending: [0; VALUES],
            busy: 0,
            narrowed: 0,
            hall: 0,
            solved: 0,
            epoch: u64::MAX,
            seen: 0,
        };
        Some(Units {
            vars: vars.into(),
            local_of: local_of.into(),
            unit_cells: unit_cells.into(),
            cells: cells.into(),
            size,
            cell_units: cell_units.into(),
            overlaps: overlaps.into(),
            overlap_start: overlap_start.into(),
            readers,
            values: values.bits(),
            memory: Box::new(RefCell::new(memory)),
        })
    }

    /// The cells, as model variables.
    pub fn vars(&self) -> &[u32] {
        &self.vars
    }

    /// Brings every unit to its fixed point.
    pub fn propagate(&self, state: &mut State) -> PropResult {
        let mut memory = self.memory.borrow_mut();
        let memory = &mut *memory;
        self.catch_up(memory, state);
        memory.narrowed = 0;
        self.settle(memory)?;
        let mut narrowed = memory.narrowed;
        while narrowed != 0 {
            let c = narrowed.trailing_zeros() as usize;
            narrowed &= narrowed - 1;
            state.set(self.vars[c] as usize, Domain(memory.doms[c]))?;
        }
        (memory.epoch, memory.seen) = (state.epoch(), state.mark());
        Ok(())
    }

    /// Brings the memory to the domains of the state, making pending what the changes
    /// concern. When the state knows its last fixed point (the last backtrack went there),
    /// only the changes after it, or after this propagator's last run if that is later,
    /// concern anything: every other difference restores a fixed point.
    fn catch_up(&self, memory: &mut Memory, state: &State) {
        let settled = state.settled();
        for (c, &v) in self.vars.iter().enumerate() {
            let (old, now) = (memory.doms[c], state.dom(v as usize).bits());
            if old != now {
                self.update(memory, c, now);
                if settled.is_none() {
                    self.concern(memory, c, old, now);
                }
            }
        }
        let Some(settled) = settled else { return };
        let from = if memory.epoch == state.epoch() { memory.seen.max(settled) } else { settled };
        for &(var, old) in state.trail_since(from) {
            if let Some(&c) = self.local_of.get(var as usize).filter(|&&c| c != NOT_A_CELL) {
                self.concern(memory, c as usize, old.bits(), memory.doms[c as usize]);
            }
        }
    }

    /// Applies the rules until nothing is pending. On a conflict the failing pair or unit
    /// stays pending, so the invariant holds for the next run.
    fn settle(&self, memory: &mut Memory) -> PropResult {
        loop {
            self.settle_singles(memory)?;
            let Some(u) = lowest(memory.hall) else { return Ok(()) };
            memory.hall &= !(1 << u);
            // With three open cells or fewer, a Hall set would be one short of all of them:
            // a hidden single, found already.
            if (self.unit_cells[u] & !memory.solved).count_ones() <= 3 {
                continue;
            }
            let cells = &self.cells[u * self.size..(u + 1) * self.size];
            let mut doms = [0u32; MAX_UNIT];
            let doms = &mut doms[..cells.len()];
            for (d, &c) in doms.iter_mut().zip(cells) {
                *d = memory.doms[c as usize];
            }
            if let Err(conflict) = distinct::hall_sets(doms, true) {
                memory.hall |= 1 << u;
                return Err(conflict);
            }
            for (&d, &c) in doms.iter().zip(cells) {
                if memory.doms[c as usize] != d {
                    self.set(memory, c as usize, d);
                }
            }
        }
    }

    /// Applies the single rules to every pending (value, unit) pair, until none is left.
    fn settle_singles(&self, memory: &mut Memory) -> PropResult {
        while memory.busy != 0 {
            let d = memory.busy.trailing_zeros() as usize;
            let mut units = std::mem::take(&mut memory.pending[d]);
            memory.busy &= !(1 << d);
            while units != 0 {
                let u = units.trailing_zeros() as usize;
                units &= units - 1;
                if let Err(conflict) = self.singles(memory, d, u) {
                    memory.pending[d] |= units | 1 << u;
                    memory.busy |= 1 << d;
                    return Err(conflict);
                }
            }
        }
        Ok(())
    }

    /// The rules for value `d` in unit `u`: a cell fixed to `d` takes it from the others;
    /// no place fails; one place takes `d`; places all inside an overlapping unit take `d`
    /// from the rest of that unit (locked candidates).
    fn singles(&self, memory: &mut Memory, d: usize, u: usize) -> PropResult {
        let unit = self.unit_cells[u];
        let places = memory.places[d] & unit;
        let fixed = memory.fixed[d] & unit;
        if fixed == 0 {
            if places & places.wrapping_sub(1) != 0 {
                // Two places or more: locked into an overlapping unit, `d` leaves its rest.
                let range = self.overlap_start[u] as usize..self.overlap_start[u + 1] as usize;
                for &(shared, rest) in &self.overlaps[range] {
                    if places & !shared == 0 {
                        self.remove(memory, d, memory.places[d] & rest)?;
                    }
                }
                return Ok(());
            }
            if places == 0 {
                return Err(Conflict);
            }
            self.set(memory, places.trailing_zeros() as usize, 1 << d);
            return Ok(());
        }
        if fixed & (fixed - 1) != 0 {
            return Err(Conflict);
        }
        self.remove(memory, d, places & !fixed)
    }

    /// Removes value `d` from `cells`.
    fn remove(&self, memory: &mut Memory, d: usize, mut cells: Cells) -> PropResult {
        while cells != 0 {
            let c = cells.trailing_zeros() as usize;
            cells &= cells - 1;
            let now = memory.doms[c] & !(1 << d);
            if now == 0 {
                return Err(Conflict);
            }
            self.set(memory, c, now);
        }
        Ok(())
    }

    /// Changes the domain of cell `c` to `now`, as a rule does.
    fn set(&self, memory: &mut Memory, c: usize, now: u32) {
        let old = memory.doms[c];
        self.update(memory, c, now);
        self.concern(memory, c, old, now);
        memory.narrowed |= 1 << c;
    }

    /// Changes the domain of cell `c` to `now` in the memory and its boards.
    fn update(&self, memory: &mut Memory, c: usize, now: u32) {
        let old = memory.doms[c];
        memory.doms[c] = now;
        let bit: Cells = 1 << c;
        let mut changed = old ^ now;
        while changed != 0 {
            memory.places[changed.trailing_zeros() as usize] ^= bit;
            changed &= changed - 1;
        }
        if distinct::single(old) {
            memory.fixed[old.trailing_zeros() as usize] &= !bit;
            memory.solved &= !bit;
        }
        if distinct::single(now) {
            memory.fixed[now.trailing_zeros() as usize] |= bit;
            memory.solved |= bit;
        }
    }

    /// Makes pending what a change of cell `c` from `old` to `now` concerns: the values
    /// that changed or were fixed, in the cell's units (and, for values it regained, in
    /// the units overlapping those), and the Hall sets of its units.
    fn concern(&self, memory: &mut Memory, c: usize, old: u32, now: u32) {
        let mut touched = old ^ now;
        if distinct::single(old) {
            touched |= old;
        }
        if distinct::single(now) {
            touched |= now;
        }
        memory.hall |= self.cell_units[c];
        let units = if now & !old != 0 { self.readers[c] } else { self.cell_units[c] };
        touched &= self.values;
        memory.busy |= touched;
        while touched != 0 {
            memory.pending[touched.trailing_zeros() as usize] |= units;
            touched &= touched - 1;
        }
    }

    /// The cells sharing a unit with `cell`.
    fn peers(&self, cell: usize) -> Cells {
        let bit: Cells = 1 << cell;
        self.unit_cells.iter().filter(|&&u| u & bit != 0).fold(0, |set, &u| set | u) & !bit
    }

    /// Forward checking after `var` was fixed: its value leaves every cell sharing a unit.
    pub fn forward_check(&self, state: &mut State, var: usize) -> PropResult {
        let Some(value) = state.dom(var).value() else { return Ok(()) };
        let Some(&cell) = self.local_of.get(var).filter(|&&c| c != NOT_A_CELL) else {
            return Ok(());
        };
        let cell = cell as usize;
        let mut peers = self.peers(cell);
        while peers != 0 {
            let other = self.vars[peers.trailing_zeros() as usize] as usize;
            peers &= peers - 1;
            let d = state.dom(other);
            if d.is_fixed() && d.contains(value) {
                return Err(Conflict);
            }
            state.set(other, d.remove(value))?;
        }
        Ok(())
    }

    /// Backtracking check: no unit holds a value twice among its fixed cells.
    pub fn check(&self, state: &State) -> bool {
        self.cells.chunks(self.size.max(1)).all(|unit| {
            let doms = unit.iter().map(|&c| state.dom(self.vars[c as usize] as usize).bits());
            !distinct::fixed_twice(doms)
        })
    }
}

/// The indices of the set bits of `set`.
fn bits(mut set: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        let bit = lowest(set)?;
        set &= set - 1;
        Some(bit)
    })
}

/// Index of the lowest set bit.
#[inline]
fn lowest(set: u64) -> Option<usize> {
    (set != 0).then(|| set.trailing_zeros() as usize)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::sudoku::Sudoku;
    use crate::solver::propagators::{self, Propagator, run_alone as run};

    /// The rows, columns and boxes of an n x n Sudoku, as one family.
    fn family(n: usize) -> Option<Units> {
        let units = Sudoku::units(n, n.isqrt());
        let refs: Vec<&[usize]> = units.iter().map(Vec::as_slice).collect();
        Units::new(&refs, Domain::range(1, n as u32))
    }

    /// The family of an n x n Sudoku as a propagator.
    fn grid(n: usize) -> Propagator {
        Propagator::Units(family(n).expect("small enough for the boards"))
    }

    /// The same domains through separate all-different propagators, one per unit of an
    /// n x n grid (the reference).
    fn run_separately(domains: &[Domain]) -> Option<Vec<Domain>> {
        let n = if domains.len() == 16 { 4 } else { 9 };
        let props: Vec<Propagator> = Sudoku::units(n, n.isqrt())
            .iter()
            .map(|u| Propagator::AllDifferent(propagators::AllDifferent::new(u, domains)))
            .collect();
        let watches = propagators::Watches::new(n * n, &props);
        let mut state = State::new(domains.to_vec(), watches, vec![0; props.len()]);
        (0..props.len() as u32).for_each(|p| state.enqueue(p));
        propagators::fixpoint(&props, &mut state, &mut 0).ok()?;
        Some(state.domains().to_vec())
    }

    fn givens(cells: &[(usize, u32)]) -> Vec<Domain> {
        let mut domains = vec![Domain::range(1, 4); 16];
        for &(cell, value) in cells {
            domains[cell] = Domain::single(value);
        }
        domains
    }

    /// A 4x4 grid the givens below are taken from.
    const SOLUTION: [u32; 16] = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1];

    #[test]
    fn givens_and_their_consequences_reach_the_fixed_point_of_separate_units() {
        for cells in [&[0, 5, 10, 15, 6][..], &[1, 7, 8, 14], &[0, 1, 2, 4, 5, 8, 13]] {
            let given: Vec<(usize, u32)> = cells.iter().map(|&c| (c, SOLUTION[c])).collect();
            let domains = givens(&given);
            let together = run(&grid(4), &domains).expect("consistent");
            assert_eq!(Some(together.clone()), run_separately(&domains));
            assert!(together.iter().zip(SOLUTION).all(|(d, v)| d.contains(v)), "{together:?}");
        }
    }

    #[test]
    fn a_value_twice_in_a_unit_fails() {
        let mut domains = givens(&[(0, 3), (15, 3)]);
        assert!(run(&grid(4), &domains).is_some());
        domains[5] = Domain::single(3);
        assert_eq!(run(&grid(4), &domains), None);
    }

    #[test]
    fn what_it_remembers_never_hides_a_change_after_a_backtrack_or_a_failure() {
        // One propagator run on a sequence of unrelated domains (as a search that narrows,
        // fails and backtracks would) must give what a fresh one gives each time.
        let prop = grid(4);
        let sequence = [
            givens(&[(0, 1), (5, 4)]),
            givens(&[(0, 1), (5, 4), (10, 4), (15, 1), (6, 1)]),
            givens(&[(0, 3), (15, 3), (5, 3)]),
            givens(&[(0, 1), (5, 2), (10, 3), (3, 4), (12, 2)]),
            givens(&[(0, 1)]),
            givens(&[]),
            givens(&[(0, 1), (5, 4), (10, 4), (15, 1), (6, 1)]),
            givens(&[(6, 4), (9, 1)]),
        ];
        for domains in &sequence {
            assert_eq!(run(&prop, domains), run(&grid(4), domains), "{domains:?}");
            assert_eq!(run(&prop, domains), run_separately(domains), "{domains:?}");
        }
    }

    /// A 9x9 solution: the classic shifted pattern with its digits relabelled.
    fn solution_9x9(labels: &[u32]) -> Vec<u32> {
        (0..81).map(|i| labels[(i / 9 * 3 + i / 27 + i % 9) % 9]).collect()
    }

    /// Domains holding `solution`: given where `given` says, else the solution value plus
    /// the extra candidates in `extra`.
    fn planted(solution: &[u32], given: &[bool], extra: &[u32]) -> Vec<Domain> {
        (0..81)
            .map(|i| {
                let value = Domain::single(solution[i]);
                if given[i] { value } else { Domain(value.bits() | extra[i] << 1) }
            })
            .collect()
    }

    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// One propagator fed a series of domains (as a search that narrows, fails and
        /// backtracks would) keeps every planted value, only narrows, and leaves a fixed
        /// point: separate all-different propagators find nothing more to do.
        #[test]
        fn what_it_remembers_never_hides_a_change(
            labels in Just((1..=9u32).collect::<Vec<_>>()).prop_shuffle(),
            rounds in proptest::collection::vec(
                (
                    proptest::collection::vec(proptest::bool::weighted(0.3), 81),
                    proptest::collection::vec(0u32..512, 81),
                ),
                1..6,
            ),
        ) {
            let solution = solution_9x9(&labels);
            let prop = grid(9);
            for (given, extra) in &rounds {
                let domains = planted(&solution, given, extra);
                let after = run(&prop, &domains).expect("the planted solution survives");
                for ((d, before), &value) in after.iter().zip(&domains).zip(&solution) {
                    prop_assert!(d.contains(value));
                    prop_assert_eq!(d.without(*before), Domain::EMPTY);
                }
                prop_assert_eq!(run_separately(&after), Some(after.clone()));
            }
        }

        /// Driven as a search drives it (decide, propagate, backtrack to the mark, where it
        /// catches up from the trail alone; now and then start over from the root domains,
        /// as a new subproblem does), it leaves a fixed point after every step that a fresh
        /// propagator and separate all-different propagators agree is one, and decisions
        /// that follow the planted solution never fail.
        #[test]
        fn a_search_through_it_always_reaches_a_fixed_point(
            labels in Just((1..=9u32).collect::<Vec<_>>()).prop_shuffle(),
            given in proptest::collection::vec(proptest::bool::weighted(0.25), 81),
            steps in proptest::collection::vec(
                (0usize..81, proptest::bool::ANY, proptest::bool::weighted(0.1)),
                1..40,
            ),
        ) {
            let solution = solution_9x9(&labels);
            let prop = grid(9);
            let domains = planted(&solution, &given, &[511; 81]);
            let mut state = State::for_test(&domains, &prop);
            prop_assert!(prop.propagate(&mut state).is_ok());
            let root = state.domains().to_vec();
            for &(cell, follow, restart) in &steps {
                if restart {
                    state.load(&root);
                    prop_assert!(prop.propagate(&mut state).is_ok());
                    prop_assert_eq!(state.domains(), &root[..]);
                }
                let dom = state.dom(cell);
                let other = dom.remove(solution[cell]).min();
                let value = match (follow, other) {
                    (false, Some(other)) if !dom.is_fixed() => other,
                    _ => solution[cell],
                };
                let mark = state.mark();
                let fine = state.set(cell, Domain::single(value)).is_ok()
                    && prop.propagate(&mut state).is_ok();
                prop_assert!(fine || value != solution[cell], "the planted path failed");
                if fine {
                    let after = state.domains().to_vec();
                    prop_assert_eq!(run(&grid(9), &after), Some(after.clone()));
                    prop_assert_eq!(run_separately(&after), Some(after.clone()));
                }
                if !fine || value != solution[cell] {
                    state.undo(mark);
                }
            }
        }
    }

    #[test]
    fn a_naked_pair_leaves_its_row_and_box() {
        let prop = grid(9);
        let mut domains = vec![Domain::range(1, 9); 81];
        domains[0] = Domain::range(1, 2);
        domains[1] = Domain::range(1, 2);
        let after = run(&prop, &domains).expect("consistent");
        for cell in (2..9).chain([9, 10, 11, 18, 19, 20]) {
            assert_eq!(after[cell], Domain::range(3, 9), "cell {cell}");
        }
        assert_eq!(after[27], Domain::range(1, 9));
    }

    #[test]
    fn a_value_locked_in_a_row_of_its_box_leaves_the_rest_of_the_row_again_after_a_load() {
        let prop = grid(9);
        // In the top-left box, 1 can only go in the top row.
        let mut domains = vec![Domain::range(1, 9); 81];
        for cell in [9, 10, 11, 18, 19, 20] {
            domains[cell] = Domain::range(2, 9);
        }
        let mut state = State::for_test(&domains, &prop);
        prop.propagate(&mut state).expect("consistent");
        assert!((3..9).all(|cell| !state.dom(cell).contains(1)), "{:?}", state.domains());
        // Loading the same domains again gives 1 back to the rest of the row, which the
        // box (not the row's cells' own units) must take away again.
        state.load(&domains);
        prop.propagate(&mut state).expect("consistent");
        assert!((3..9).all(|cell| !state.dom(cell).contains(1)), "{:?}", state.domains());
    }

    #[test]
    fn families_too_large_for_the_boards_are_refused() {
        assert!(family(9).is_some());
        assert!(family(16).is_none());
    }
}
