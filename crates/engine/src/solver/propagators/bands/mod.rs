//! The rows, columns and boxes of a 9x9 Sudoku propagated as one, a digit at a time on
//! bitboards.
//!
//! The places of each digit are 81 bits in three bands of 27 (a band is three rows, bit
//! `9 * row + column`). In a band each of the three rows and each of the three boxes holds
//! the digit exactly once, so which boxes each row can reach (a 3x3 matrix) must contain
//! a permutation; the row-box segments on no permutation lose the digit. That covers
//! pointing and claiming, and a box left with one segment of one cell is a hidden single
//! (as is a row or column with one place). Columns and boxes are read the same way in
//! each stack. Table lookups do this for a whole band in a few instructions, where
//! unit-by-unit rules visit each value of each unit. Naked singles are found while cells
//! are narrowed.
//!
//! Hall sets (naked pairs, triples, ...) then run per unit with the rules of [`distinct`],
//! so the fixed point is at least that of the separate all-different propagators it
//! replaces.
//!
//! It keeps its own copy of the domains between runs (it [keeps memory](Propagate) in the
//! terms of the contract) and catches up with the state from the trail since its last
//! run. The grids at the fixed points the search may come back to are saved, so a
//! backtrack is a copy. A fresh start (the root) takes the fixed cells' digits from their
//! peers a digit and band at a time.
//!
//! `tables` holds the grid's geometry, `rules` the rules on a [`rules::Board`], `hall`
//! the vector Hall set test.

mod hall;
mod rules;
mod tables;
#[cfg(test)]
mod tests;

use super::super::state::State;
use super::contract::{PropResult, Propagate};
use super::distinct;
use crate::model::Domain;
use rules::{Board, Grid};
use tables::{CELLS, PEERS, UNIT_CELLS, UNITS, unit_index};

/// How the board's grid stands to the state's domains, and so what a run must catch up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sync {
    /// Nothing is known (after a reload or a failed run): the board is rebuilt.
    Unknown,
    /// The grid is the state's domains when the trail had this length: the changes after
    /// it are all it lacks.
    At(usize),
    /// The state's domains when the trail had this length are a fixed point of every
    /// propagator (a backtrack went there), but the grid is another one's: the cells that
    /// differ are set without running any rule, and the changes after it are new.
    FixedPointAt(usize),
}

/// The 27 all-different constraints of a 9x9 Sudoku grid.
#[derive(Clone, Debug)]
pub struct Bands {
    /// The cells (model variables) in row-major order.
    vars: Box<[u32]>,
    /// The variable of the first cell.
    first: usize,
    /// The grid and the rules' pending work (boxed: it is large).
    board: Box<Board>,
    /// How the board's grid stands to the state's domains.
    sync: Sync,
    /// The grids at the fixed points the search may backtrack to, with their trail
    /// lengths, oldest first: going back to one is a copy.
    saved: Vec<(usize, Grid)>,
}

impl Bands {
    /// The grid whose rows, columns and boxes are `units`, when they are exactly those of
    /// a 9x9 grid of 81 consecutive variables in row-major order, with 9 consecutive
    /// values.
    pub fn new(units: &[&[usize]], values: Domain) -> Option<Bands> {
        if units.len() != UNITS || values != Domain::range(1, 9) {
            return None;
        }
        // Units in the usual order (rows, columns, boxes, each in reading order) are
        // recognised at a glance; any other order is worked out unit by unit.
        let usual = |first: usize| {
            units.iter().zip(&UNIT_CELLS).all(|(unit, cells)| {
                unit.len() == 9 && unit.iter().zip(cells).all(|(&v, &c)| v == first + c as usize)
            })
        };
        if let Some(&first) = units[0].first()
            && usual(first)
        {
            return Some(Bands::over(first));
        }
        let first = units.iter().filter_map(|u| u.iter().min()).min().copied()?;
        let mut found = 0u32;
        for unit in units {
            // (A variable past the grid's 81 sets bit 127, which no unit has.)
            let cells = unit.iter().fold(0u128, |cells, &v| cells | 1 << (v - first).min(127));
            let u = unit_index(cells).filter(|&u| found & 1 << u == 0)?;
            found |= 1 << u;
        }
        Some(Bands::over(first))
    }

    /// The grid of the 81 variables from `first` on.
    fn over(first: usize) -> Bands {
        Bands {
            first,
            vars: (first..first + CELLS).map(|v| v as u32).collect(),
            board: Box::new(Board::new()),
            sync: Sync::Unknown,
            saved: Vec::new(),
        }
    }

    /// The cell of model variable `var`, if it is one.
    fn cell_of(&self, var: usize) -> Option<usize> {
        var.checked_sub(self.first).filter(|&c| c < CELLS)
    }

    /// Brings the board to the domains of the state, and makes pending what the changes
    /// concern: everything when nothing is known, else the changes since the trail length
    /// where the grid (or the cells that differ) was the state's.
    fn catch_up(&mut self, state: &State) -> PropResult {
        let now = &state.domains()[self.first..self.first + CELLS];
        // Unknown from here until this run ends at a fixed point (it may fail).
        let changes = match std::mem::replace(&mut self.sync, Sync::Unknown) {
            Sync::Unknown => {
                self.saved.clear();
                return self.board.start_from(now);
            }
            // The changed cells are the only ones that differ.
            Sync::At(seen) => {
                let changes = state.changes_since(seen);
                for &(var, _) in changes {
                    if let Some(c) = self.cell_of(var as usize) {
                        self.board.restore(c, now[c].bits());
                    }
                }
                changes
            }
            // Other cells differ too, and the changed ones are among them.
            Sync::FixedPointAt(mark) => {
                for (b, &differ) in self.board.differing_cells(now).iter().enumerate() {
                    for i in bits(differ) {
                        self.board.restore(27 * b + i, now[27 * b + i].bits());
                    }
                }
                state.changes_since(mark)
            }
        };
        for &(var, old) in changes {
            if let Some(c) = self.cell_of(var as usize) {
                self.board.concern(c, old.bits());
            }
        }
        Ok(())
    }

    /// Writes the cells the run narrowed back to the state, and saves the grid of this
    /// fixed point at the trail length it ends at.
    fn finish(&mut self, state: &mut State) -> PropResult {
        for (b, &narrowed) in self.board.narrowed.iter().enumerate() {
            for i in bits(narrowed) {
                let c = 27 * b + i;
                state.set(self.vars[c] as usize, Domain(self.board.grid.doms[c]))?;
            }
        }
        let end = state.mark();
        self.sync = Sync::At(end);
        match self.saved.last_mut() {
            Some((at, grid)) if *at == end => *grid = self.board.grid,
            _ => self.saved.push((end, self.board.grid)),
        }
        Ok(())
    }
}

impl Propagate for Bands {
    /// The cells, as model variables.
    fn vars(&self) -> &[u32] {
        &self.vars
    }

    /// Brings every unit to its fixed point.
    fn propagate(&mut self, state: &mut State) -> PropResult {
        self.board.clear_pending();
        self.catch_up(state)?;
        self.board.settle()?;
        self.finish(state)
    }

    /// Forward checking after `var` was fixed: its value leaves every cell sharing a unit.
    fn forward_check(&self, state: &mut State, var: usize) -> PropResult {
        let Some(value) = state.dom(var).value() else { return Ok(()) };
        let Some(cell) = self.cell_of(var) else { return Ok(()) };
        for (b, &peers) in PEERS[cell].iter().enumerate() {
            for i in bits(peers) {
                state.remove_value(self.vars[27 * b + i] as usize, value)?;
            }
        }
        Ok(())
    }

    /// Backtracking check: no unit holds a value twice among its fixed cells.
    fn check(&self, state: &State) -> bool {
        UNIT_CELLS.iter().all(|unit| {
            let doms = unit.iter().map(|&c| state.dom(self.vars[c as usize] as usize).bits());
            !distinct::fixed_twice(doms)
        })
    }

    fn keeps_memory(&self) -> bool {
        true
    }

    /// Nothing kept is the state's any more: the next run starts over.
    fn reload(&mut self) {
        self.sync = Sync::Unknown;
        self.saved.clear();
    }

    /// Grids saved after `mark` are gone with the changes that led to them. The board is
    /// still good when its grid is the state's at `mark` or before it (the changes since
    /// are still on the trail); else the newest grid saved at `mark` or before it is; else
    /// the board is patched to the fixed point at `mark` when it next runs.
    fn backtrack(&mut self, mark: usize) {
        while self.saved.last().is_some_and(|&(at, _)| at > mark) {
            self.saved.pop();
        }
        if matches!(self.sync, Sync::At(seen) | Sync::FixedPointAt(seen) if seen <= mark) {
            return;
        }
        self.sync = match self.saved.last() {
            Some(&(at, grid)) => {
                self.board.grid = grid;
                Sync::At(at)
            }
            None => Sync::FixedPointAt(mark),
        };
    }
}

/// The indices of the set bits of `set`.
#[inline]
fn bits(mut set: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        let bit = (set != 0).then(|| set.trailing_zeros() as usize)?;
        set &= set - 1;
        Some(bit)
    })
}
