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
//! It keeps its own copy of the domains between runs and catches up with the state from
//! the trail since the last backtrack ([`State::settled`]). The grids at the fixed points
//! the search may come back to are saved, so a backtrack is a copy. A fresh start (the
//! root) takes the fixed cells' digits from their peers a digit and band at a time.

use super::super::domain::{self, Domain};
use super::super::state::{Conflict, PropResult, State};
use super::distinct;
use std::cell::RefCell;
use wide::u16x8;

/// Cells of the grid.
const CELLS: usize = 81;
/// Rows, columns and boxes: units `0..9` are rows, `9..18` columns, `18..27` boxes.
const UNITS: usize = 27;
/// Bits of a band that are cells.
const BAND: u32 = (1 << 27) - 1;
/// Copies a 9-bit set of columns into the three rows of a band.
const EVERY_ROW: u32 = 1 | 1 << 9 | 1 << 18;
/// Columns reached by no set of places (bit 31 is past the grid).
const NEVER: u32 = u32::MAX;

/// The six permutations of a 3x3 matrix (bit `3 * row + column`) as bit sets.
const PERMUTATIONS: [u16; 6] = {
    let mut perms = [0u16; 6];
    let orders = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];
    let mut p = 0;
    while p < 6 {
        perms[p] = 1 << orders[p][0] | 1 << (3 + orders[p][1]) | 1 << (6 + orders[p][2]);
        p += 1;
    }
    perms
};

/// For each 3x3 matrix, the entries on some permutation inside it (empty when there is
/// none: some row and column cannot be matched).
const MATCHED: [u16; 512] = {
    let mut table = [0u16; 512];
    let mut m = 0usize;
    while m < 512 {
        let mut p = 0;
        while p < 6 {
            if m as u16 & PERMUTATIONS[p] == PERMUTATIONS[p] {
                table[m] |= PERMUTATIONS[p];
            }
            p += 1;
        }
        m += 1;
    }
    table
};

/// For each 3x3 matrix, its entries that are alone in their column.
const ALONE: [u16; 512] = {
    let mut table = [0u16; 512];
    let mut m = 0usize;
    while m < 512 {
        let mut e = 0;
        while e < 9 {
            if m & 1 << e != 0 && ((m >> (e % 3)) & 0b1001001).count_ones() == 1 {
                table[m] |= 1 << e;
            }
            e += 1;
        }
        m += 1;
    }
    table
};

/// For each row of nine cells, its three segments (one per box) that are not empty, and
/// those that hold exactly one cell.
const SEGMENTS: [(u8, u8); 512] = {
    let mut table = [(0u8, 0u8); 512];
    let mut row = 0usize;
    while row < 512 {
        let mut s = 0;
        while s < 3 {
            let ones = ((row >> (3 * s)) & 7).count_ones();
            if ones > 0 {
                table[row].0 |= 1 << s;
            }
            if ones == 1 {
                table[row].1 |= 1 << s;
            }
            s += 1;
        }
        row += 1;
    }
    table
};

/// For each set of row-box segments of a band (bit `3 * row + box`), their cells.
const SEGMENT_CELLS: [u32; 512] = {
    let mut table = [0u32; 512];
    let mut m = 0usize;
    while m < 512 {
        let mut e = 0;
        while e < 9 {
            if m & 1 << e != 0 {
                table[m] |= 7 << (9 * (e / 3) + 3 * (e % 3));
            }
            e += 1;
        }
        m += 1;
    }
    table
};

/// The cells of each unit, in order.
const UNIT_CELLS: [[u8; 9]; UNITS] = {
    let mut units = [[0u8; 9]; UNITS];
    let mut i = 0;
    while i < 9 {
        let mut j = 0;
        while j < 9 {
            units[i][j] = (9 * i + j) as u8;
            units[9 + i][j] = (9 * j + i) as u8;
            units[18 + i][j] = (9 * (i / 3 * 3 + j / 3) + i % 3 * 3 + j % 3) as u8;
            j += 1;
        }
        i += 1;
    }
    units
};

/// The cells of each unit, as a set.
const UNIT_SETS: [u128; UNITS] = {
    let mut sets = [0u128; UNITS];
    let mut u = 0;
    while u < UNITS {
        let mut j = 0;
        while j < 9 {
            sets[u] |= 1 << UNIT_CELLS[u][j];
            j += 1;
        }
        u += 1;
    }
    sets
};

/// The cells of each unit, by band.
const UNIT_BANDS: [[u32; 3]; UNITS] = {
    let mut table = [[0u32; 3]; UNITS];
    let mut u = 0;
    while u < UNITS {
        let mut j = 0;
        while j < 9 {
            let c = UNIT_CELLS[u][j] as usize;
            table[u][c / 27] |= 1 << (c % 27);
            j += 1;
        }
        u += 1;
    }
    table
};

/// The index of the unit whose cells are `cells`, if one is.
fn unit_index(cells: u128) -> Option<usize> {
    let (low, high) = (cells.trailing_zeros() as usize, 127 - cells.leading_zeros() as usize);
    let u = match high.checked_sub(low)? {
        8 => low / 9,
        72 => 9 + low,
        20 => 18 + low / 27 * 3 + low % 9 / 3,
        _ => return None,
    };
    UNIT_SETS.get(u).filter(|&&set| set == cells).map(|_| u)
}

/// The units of each cell, as a set.
const UNITS_OF: [u32; CELLS] = {
    let mut table = [0u32; CELLS];
    let mut u = 0;
    while u < UNITS {
        let mut j = 0;
        while j < 9 {
            table[UNIT_CELLS[u][j] as usize] |= 1 << u;
            j += 1;
        }
        u += 1;
    }
    table
};

/// The cells sharing a unit with each cell, by band.
const PEERS: [[u32; 3]; CELLS] = {
    let mut table = [[0u32; 3]; CELLS];
    let mut c = 0;
    while c < CELLS {
        let mut u = 0;
        while u < UNITS {
            if UNITS_OF[c] & 1 << u != 0 {
                let mut j = 0;
                while j < 9 {
                    let other = UNIT_CELLS[u][j] as usize;
                    if other != c {
                        table[c][other / 27] |= 1 << (other % 27);
                    }
                    j += 1;
                }
            }
            u += 1;
        }
        c += 1;
    }
    table
};

/// The 27 all-different constraints of a 9x9 Sudoku grid.
#[derive(Clone, Debug)]
pub struct Bands {
    /// The cells (model variables) in row-major order.
    vars: Box<[u32]>,
    /// The variable of the first cell.
    first: usize,
    /// What the last run left behind (boxed: it is large).
    memory: Box<RefCell<Memory>>,
}

/// The domains as the rules see them. Cell `c` is bit `c % 27` of band `c / 27`; digit
/// `d` (`0..9`) is value `d + 1`, domain bit `d + 1`.
#[derive(Clone, Copy, Debug)]
struct Grid {
    /// Domain of each cell. Invariant: digit `d` is in `doms[c]` exactly when cell `c`
    /// is in `places[d]`.
    doms: [u32; CELLS],
    /// The places of each digit, by band.
    places: [[u32; 3]; 9],
    /// Cells with one digit left that their peers no longer hold.
    solved: [u32; 3],
    /// For each digit, columns in each band (bits `9 * band + column`) that the stacks'
    /// rule was last seen to keep whole: while the digit's places reach exactly these,
    /// the rule has nothing to say.
    columns_held: [u32; 9],
}

/// The propagator's own view of the domains, kept from run to run.
#[derive(Clone, Debug)]
struct Memory {
    grid: Grid,
    /// Digit bands to look at again: bit `3 * digit + band`.
    dirty: u32,
    /// Cells with one digit left whose peers may still hold it.
    fresh: [u32; 3],
    /// Units whose Hall sets must be looked at again.
    hall: u32,
    /// Cells this run narrowed, to be written back to the state.
    narrowed: [u32; 3],
    /// The state's epoch and trail length when the last run ended.
    epoch: u64,
    seen: usize,
    /// Whether `grid` is the fixed point the last run ended at (it did not fail).
    clean: bool,
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
        let memory = Memory {
            grid: Grid {
                doms: [0; CELLS],
                places: [[0; 3]; 9],
                solved: [0; 3],
                columns_held: [NEVER; 9],
            },
            dirty: 0,
            fresh: [0; 3],
            hall: 0,
            narrowed: [0; 3],
            epoch: u64::MAX,
            seen: 0,
            clean: false,
            saved: Vec::new(),
        };
        Bands {
            first,
            vars: (first..first + CELLS).map(|v| v as u32).collect(),
            memory: Box::new(RefCell::new(memory)),
        }
    }

    /// The cells, as model variables.
    pub fn vars(&self) -> &[u32] {
        &self.vars
    }

    /// The cell of model variable `var`, if it is one.
    fn cell_of(&self, var: usize) -> Option<usize> {
        var.checked_sub(self.first).filter(|&c| c < CELLS)
    }

    /// The domains of the cells in the state.
    fn doms<'s>(&self, state: &'s State) -> &'s [Domain] {
        &state.domains()[self.first..self.first + CELLS]
    }

    /// Brings every unit to its fixed point.
    pub fn propagate(&self, state: &mut State) -> PropResult {
        let mut memory = self.memory.borrow_mut();
        let memory = &mut *memory;
        self.catch_up(memory, state)?;
        memory.settle()?;
        for (b, &narrowed) in memory.narrowed.iter().enumerate() {
            for i in bits(narrowed) {
                let c = 27 * b + i;
                state.set(self.vars[c] as usize, Domain(memory.grid.doms[c]))?;
            }
        }
        (memory.epoch, memory.seen, memory.clean) = (state.epoch(), state.mark(), true);
        match memory.saved.last_mut() {
            Some((seen, grid)) if *seen == memory.seen => *grid = memory.grid,
            _ => memory.saved.push((memory.seen, memory.grid)),
        }
        Ok(())
    }

    /// Brings the memory to the domains of the state, and makes pending what the changes
    /// concern. After a load everything is. After a backtrack only the changes since it
    /// (or since this propagator's last run, if later) are: every other difference
    /// restores a fixed point, often one whose grid was saved.
    fn catch_up(&self, memory: &mut Memory, state: &State) -> PropResult {
        // Until this run ends at a fixed point (it may fail from here on).
        let clean = std::mem::replace(&mut memory.clean, false);
        memory.dirty = 0;
        memory.fresh = [0; 3];
        memory.hall = 0;
        memory.narrowed = [0; 3];
        let now = self.doms(state);
        let Some(settled) = state.settled() else { return memory.start_from(now) };
        while memory.saved.last().is_some_and(|&(seen, _)| seen > settled) {
            memory.saved.pop();
        }
        let from = if memory.epoch == state.epoch() { memory.seen.max(settled) } else { settled };
        let mut changed = [0u32; 3];
        for &(var, _) in state.trail_since(from) {
            if let Some(c) = self.cell_of(var as usize) {
                changed[c / 27] |= 1 << (c % 27);
            }
        }
        // After the one backtrack since the last run, back to where that run ended (as the
        // first decision at a new choice point does), the grid is the state's there: only
        // the cells changed since differ. Otherwise the grid saved when a run ended where
        // the backtrack went back to is the state's there, unless the trail was cut below
        // and grown again without a run: then cells other than those changed since differ,
        // and everything starts over.
        let differ =
            if clean && state.epoch() == memory.epoch.wrapping_add(1) && settled == memory.seen {
                changed
            } else {
                let saved =
                    memory.saved.last().filter(|&&(seen, _)| seen == settled && from == settled);
                if let Some(&(_, grid)) = saved {
                    memory.grid = grid;
                }
                let differ = differing_cells(&memory.grid.doms, now);
                if saved.is_some() && (0..3).any(|b| differ[b] & !changed[b] != 0) {
                    return memory.start_from(now);
                }
                differ
            };
        for (b, &differ) in differ.iter().enumerate() {
            for i in bits(differ) {
                memory.restore(27 * b + i, now[27 * b + i].bits());
            }
        }
        for &(var, old) in state.trail_since(from) {
            if let Some(c) = self.cell_of(var as usize) {
                memory.concern(c, old.bits());
            }
        }
        Ok(())
    }

    /// Forward checking after `var` was fixed: its value leaves every cell sharing a unit.
    pub fn forward_check(&self, state: &mut State, var: usize) -> PropResult {
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
    pub fn check(&self, state: &State) -> bool {
        UNIT_CELLS.iter().all(|unit| {
            let doms = unit.iter().map(|&c| state.dom(self.vars[c as usize] as usize).bits());
            !distinct::fixed_twice(doms)
        })
    }
}

impl Memory {
    /// Forgets every saved grid and rebuilds from the domains `now`.
    fn start_from(&mut self, now: &[Domain]) -> PropResult {
        self.saved.clear();
        for (dom, now) in self.grid.doms.iter_mut().zip(now) {
            *dom = now.bits();
        }
        self.start_over()
    }

    /// Rebuilds the boards from `doms` alone, with everything pending.
    fn start_over(&mut self) -> PropResult {
        // Every digit everywhere, less the digits each cell lacks: at the root, most cells
        // lack none.
        self.grid.places = [[BAND; 3]; 9];
        self.grid.solved = [0; 3];
        // What the fixed cells (the givens, at the root) take from their peers, and where
        // they are, by digit.
        let mut taken = [[0u32; 3]; 9];
        let mut fixed = [[0u32; 3]; 9];
        for (b, doms) in self.grid.doms.chunks_exact(27).enumerate() {
            for (i, &dom) in doms.iter().enumerate() {
                if distinct::single(dom) {
                    let d = dom.trailing_zeros() as usize - 1;
                    for (taken, &peers) in taken[d].iter_mut().zip(&PEERS[27 * b + i]) {
                        *taken |= peers;
                    }
                    fixed[d][b] |= 1 << i;
                    self.grid.solved[b] |= 1 << i;
                } else {
                    for d in bits(!dom >> 1 & 0x1FF) {
                        self.grid.places[d][b] &= !(1 << i);
                    }
                }
            }
        }
        // A fixed cell holds its own digit only.
        for (places, fixed) in self.grid.places.iter_mut().zip(&fixed) {
            for b in 0..3 {
                places[b] &= !self.grid.solved[b] | fixed[b];
            }
        }
        // They are solved at once, a digit and band at a time: at the root that is most of
        // the work, and cheaper than solving them one by one.
        for (d, taken) in taken.iter().enumerate() {
            for (b, &taken) in taken.iter().enumerate() {
                let cells = self.grid.places[d][b] & taken;
                self.grid.places[d][b] &= !cells;
                self.narrowed[b] |= cells;
                for i in bits(cells) {
                    self.grid.doms[27 * b + i] &= !(2 << d);
                }
            }
        }
        let mut emptied = false;
        for (b, doms) in self.grid.doms.chunks_exact(27).enumerate() {
            let mut singles = 0;
            for (i, &dom) in doms.iter().enumerate() {
                emptied |= dom == 0;
                singles |= u32::from(distinct::single(dom)) << i;
            }
            self.fresh[b] = singles & !self.grid.solved[b];
        }
        self.dirty = BAND;
        self.hall = (1 << UNITS) - 1;
        if emptied { Err(Conflict) } else { Ok(()) }
    }

    /// Sets cell `c` to `now` as a backtrack restored it: its peers no longer hold it if it
    /// is a single digit.
    fn restore(&mut self, c: usize, now: u32) {
        let (b, bit) = (c / 27, 1 << (c % 27));
        for d in bits((self.grid.doms[c] ^ now) >> 1) {
            self.grid.places[d][b] ^= bit;
        }
        self.grid.doms[c] = now;
        if distinct::single(now) {
            self.grid.solved[b] |= bit;
        } else {
            self.grid.solved[b] &= !bit;
        }
    }

    /// Makes pending what a change of cell `c` from `old` concerns.
    fn concern(&mut self, c: usize, old: u32) {
        let (b, bit) = (c / 27, 1 << (c % 27));
        let now = self.grid.doms[c];
        for d in bits((old ^ now) >> 1) {
            self.dirty |= 1 << (3 * d + b);
        }
        if distinct::single(now) {
            self.grid.solved[b] &= !bit;
            self.fresh[b] |= bit;
        }
        self.hall |= UNITS_OF[c];
    }

    /// Applies the rules until nothing is pending: naked singles first, then the digit
    /// rules of the bands and stacks, then Hall sets.
    fn settle(&mut self) -> PropResult {
        loop {
            if self.fresh[0] | self.fresh[1] | self.fresh[2] != 0 {
                for b in 0..3 {
                    while self.fresh[b] != 0 {
                        let i = self.fresh[b].trailing_zeros() as usize;
                        self.fresh[b] &= self.fresh[b] - 1;
                        self.solve(b, i)?;
                    }
                }
            } else if self.dirty != 0 {
                let d = self.dirty.trailing_zeros() as usize / 3;
                let bands = (self.dirty >> (3 * d)) & 7;
                self.dirty &= !(7 << (3 * d));
                for b in bits(bands) {
                    self.rows(d, b)?;
                }
                self.columns(d)?;
            } else if self.hall != 0 {
                let u = self.hall.trailing_zeros() as usize;
                self.hall &= self.hall - 1;
                self.hall_sets(u)?;
            } else {
                return Ok(());
            }
        }
    }

    /// Cell `i` of band `b` holds one digit: its peers lose it.
    fn solve(&mut self, b: usize, i: usize) -> PropResult {
        let (c, bit) = (27 * b + i, 1 << i);
        if self.grid.solved[b] & bit != 0 {
            return Ok(());
        }
        self.grid.solved[b] |= bit;
        let d = self.grid.doms[c].trailing_zeros() as usize - 1;
        for (band, &peers) in PEERS[c].iter().enumerate() {
            self.remove(d, band, peers)?;
        }
        Ok(())
    }

    /// The rows and boxes of band `b` for digit `d`: segments on no row-box permutation
    /// lose it; a box left with one segment of one cell gets it. (So does a row with one
    /// place: its box has no other place left then.)
    fn rows(&mut self, d: usize, b: usize) -> PropResult {
        let places = self.grid.places[d][b];
        let rows = [places & 0x1FF, places >> 9 & 0x1FF, places >> 18];
        let [(r0, one0), (r1, one1), (r2, one2)] = rows.map(|r| SEGMENTS[r as usize]);
        let reach = r0 as usize | (r1 as usize) << 3 | (r2 as usize) << 6;
        let keep = MATCHED[reach] as usize;
        if keep == 0 {
            return Err(Conflict);
        }
        let one = one0 as usize | (one1 as usize) << 3 | (one2 as usize) << 6;
        let kept = places & SEGMENT_CELLS[keep];
        self.remove(d, b, places & !kept)?;
        // Mostly the digit's solved cells: they hold nothing else to lose.
        let alone = kept & SEGMENT_CELLS[ALONE[keep] as usize & one];
        self.place(d, b, alone & !self.grid.solved[b]);
        Ok(())
    }

    /// The columns and boxes of each stack for digit `d`: column-box segments on no
    /// permutation lose it, as in [`Memory::rows`]. The hidden singles this leaves are
    /// found there: a column with one place confines its box to that column.
    fn columns(&mut self, d: usize) -> PropResult {
        let places = self.grid.places[d];
        let reach = places.map(|p| (p | p >> 9 | p >> 18) & 0x1FF);
        let columns = reach[0] | reach[1] << 9 | reach[2] << 18;
        if columns == self.grid.columns_held[d] {
            return Ok(());
        }
        let mut allowed = [0u32; 3];
        for s in (0..9).step_by(3) {
            let matrix = reach[0] >> s & 7 | (reach[1] >> s & 7) << 3 | (reach[2] >> s & 7) << 6;
            let keep = MATCHED[matrix as usize] as u32;
            if keep == 0 {
                return Err(Conflict);
            }
            for (b, allowed) in allowed.iter_mut().enumerate() {
                *allowed |= (keep >> (3 * b) & 7) << s;
            }
        }
        // What is left reaches columns the rule keeps whole: a matrix within a matrix's
        // permutations has the same ones.
        let [a0, a1, a2] = allowed;
        self.grid.columns_held[d] = columns & (a0 | a1 << 9 | a2 << 18);
        for (b, &allowed) in allowed.iter().enumerate() {
            self.remove(d, b, places[b] & !(allowed * EVERY_ROW))?;
        }
        Ok(())
    }

    /// The Hall sets of unit `u`.
    fn hall_sets(&mut self, u: usize) -> PropResult {
        // Every single cell is solved by now, so the open cells are the others. (Shifted by
        // 0, 1 and 2, the unit's places in the three bands are distinct.) With three open
        // cells or fewer, a Hall set would be one short of all of them: a hidden single,
        // found already.
        let [s0, s1, s2] = [0, 1, 2].map(|b| UNIT_BANDS[u][b] & self.grid.solved[b]);
        let open = 9 - (s0 | s1 << 1 | s2 << 2).count_ones();
        if open <= 3 {
            return Ok(());
        }
        let cells = &UNIT_CELLS[u];
        let dom = |k: usize| self.grid.doms[cells[k] as usize];
        let mut doms = [dom(0), dom(1), dom(2), dom(3), dom(4), dom(5), dom(6), dom(7), dom(8)];
        if !unit_hall_sets(&mut doms, open)? {
            return Ok(());
        }
        for (&c, &now) in cells.iter().zip(&doms) {
            self.narrow(c as usize / 27, c as usize % 27, now);
        }
        Ok(())
    }

    /// Digit `d` goes to `cells` of band `b`, which hold it: they lose every other digit.
    fn place(&mut self, d: usize, b: usize, cells: u32) {
        for i in bits(cells) {
            self.narrow(b, i, 2 << d);
        }
    }

    /// Cell `i` of band `b` keeps only the digits of `now`, a part of its domain that is not
    /// empty, all at once (a removal per digit would look at the cell each time). (Inlined
    /// into its callers' loops: a call costs more than it does.)
    #[inline(always)]
    fn narrow(&mut self, b: usize, i: usize, now: u32) {
        let c = 27 * b + i;
        debug_assert!(now != 0 && now & !self.grid.doms[c] == 0, "a part of the domain");
        let lost = self.grid.doms[c] & !now;
        for d in bits(lost >> 1) {
            self.grid.places[d][b] &= !(1 << i);
            self.dirty |= 1 << (3 * d + b);
        }
        let changed = u32::from(lost != 0);
        self.grid.doms[c] = now;
        self.narrowed[b] |= changed << i;
        self.fresh[b] |= (u32::from(distinct::single(now)) & changed) << i;
        self.hall |= UNITS_OF[c] & changed.wrapping_neg();
    }

    /// Digit `d` leaves `cells` of band `b`.
    #[inline(always)]
    fn remove(&mut self, d: usize, b: usize, cells: u32) -> PropResult {
        // Most calls find nothing to remove: that test is inlined, the work is not.
        let cells = cells & self.grid.places[d][b];
        if cells == 0 { Ok(()) } else { self.take(d, b, cells) }
    }

    /// Digit `d` leaves `cells` of band `b`, which hold it.
    #[inline(never)]
    fn take(&mut self, d: usize, b: usize, cells: u32) -> PropResult {
        self.grid.places[d][b] &= !cells;
        self.dirty |= 1 << (3 * d + b);
        self.narrowed[b] |= cells;
        // Every cell is updated before a conflict is reported: the boards and `doms` must
        // agree for the next run.
        let mut emptied = false;
        for i in bits(cells) {
            let c = 27 * b + i;
            let dom = self.grid.doms[c] & !(2 << d);
            self.grid.doms[c] = dom;
            emptied |= dom == 0;
            // (An emptied cell counts as fresh too: the run fails before it is solved.)
            self.fresh[b] |= u32::from(dom & dom.wrapping_sub(1) == 0) << i;
            self.hall |= UNITS_OF[c];
        }
        if emptied { Err(Conflict) } else { Ok(()) }
    }
}

/// The Hall sets of a unit's domains, with `open` of them not fixed, by the rule of
/// [`distinct::hall_sets`]. A Hall set is rare, so first the sets read off the domains are
/// tested side by side in eight 16-bit vector lanes: how many domains lie within each, and
/// its size. Only the sets that hold as many domains as they have values go to the rule.
/// A fixed cell's set is too small to be one: when one of the first eight is fixed, the
/// ninth set takes its lane (all nine domains are still counted). (Not inlined: the
/// caller's branches are predicted better without it.)
#[inline(never)]
fn unit_hall_sets(doms: &mut [u32; 9], open: u32) -> Result<bool, Conflict> {
    let mut lanes = [0u16; 8];
    for (lane, &d) in lanes.iter_mut().zip(doms.iter()) {
        *lane = d as u16; // digit domains fit: bits 1..9
    }
    let (sets, size) = (u16x8::new(lanes), ones(u16x8::new(lanes)));
    let ninth = doms[8] as u16;
    let acts = if open == 9 {
        // Nothing fixed: the ninth set is tested on its own (the other lanes hold the
        // empty set, which is too small to be one).
        let alone = u16x8::new([ninth, 0, 0, 0, 0, 0, 0, 0]);
        acting_sets(sets, size, doms, open) | acting_sets(alone, ones(alone), doms, open) << 8
    } else if distinct::single(doms[8]) {
        acting_sets(sets, size, doms, open)
    } else {
        let k = size.simd_eq(u16x8::splat(1)).to_bitmask().trailing_zeros().min(15);
        let lane = LANE_BITS.simd_eq(u16x8::splat(1 << k));
        let sets = lane.bitselect(u16x8::splat(ninth), sets);
        let size = lane.bitselect(u16x8::splat(domain::size(doms[8]) as u16), size);
        let acts = acting_sets(sets, size, doms, open);
        // Lane `k` stands for the ninth domain.
        acts & !(1 << k) | (acts >> k & 1) << 8
    };
    if acts == 0 {
        return Ok(false);
    }
    apply_hall_sets(doms, open, acts)
}

/// The bit of each lane's index.
const LANE_BITS: u16x8 = u16x8::new([1, 2, 4, 8, 16, 32, 64, 128]);

/// The lanes (as bits) whose set the Hall rule acts on: it has from 2 to `open - 2`
/// values (`size`), and as many of `doms` lie within it, or more.
#[inline(always)]
fn acting_sets(sets: u16x8, size: u16x8, doms: &[u32; 9], open: u32) -> u32 {
    let zero = u16x8::splat(0);
    let mut inside = zero;
    for &d in doms {
        // All ones, minus one, in the lanes whose set holds `d`.
        inside -= (u16x8::splat(d as u16) & !sets).simd_eq(zero);
    }
    let small =
        size.simd_gt(u16x8::splat(1)) & size.simd_lt(u16x8::splat((open as u16).saturating_sub(1)));
    (small & !inside.simd_lt(size)).to_bitmask()
}

/// The rule of [`distinct::hall_sets`] where the sets read off `doms` that it acts on are
/// known (bit `i` for `doms[i]`): until one of them changes a domain, the rule skips every
/// other set; after that, it goes on from the next one. (Not inlined: the test in front
/// stays lean.)
#[inline(never)]
fn apply_hall_sets(doms: &mut [u32; 9], open: u32, mut hall: u32) -> Result<bool, Conflict> {
    while hall != 0 {
        let i = hall.trailing_zeros() as usize;
        hall &= hall - 1;
        if distinct::hall_set(doms, i)? {
            distinct::hall_sets_from(doms, open, true, i + 1)?;
            return Ok(true);
        }
    }
    Ok(false)
}

/// The number of set bits of each lane.
fn ones(x: u16x8) -> u16x8 {
    let x = x - (x.unbounded_shr_scalar(1) & u16x8::splat(0x5555));
    let x = (x & u16x8::splat(0x3333)) + (x.unbounded_shr_scalar(2) & u16x8::splat(0x3333));
    let x = (x + x.unbounded_shr_scalar(4)) & u16x8::splat(0x0F0F);
    (x + x.unbounded_shr_scalar(8)) & u16x8::splat(0x1F)
}

/// The cells (by band) where `old` and `now` differ; branch-free.
fn differing_cells(old: &[u32; CELLS], now: &[Domain]) -> [u32; 3] {
    let mut differ = [0u32; 3];
    for (differ, (old, now)) in
        differ.iter_mut().zip(old.chunks_exact(27).zip(now.chunks_exact(27)))
    {
        for (i, (old, now)) in old.iter().zip(now).enumerate() {
            *differ |= u32::from(*old != now.bits()) << i;
        }
    }
    differ
}

/// The indices of the set bits of `set`.
fn bits(mut set: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        let bit = (set != 0).then(|| set.trailing_zeros() as usize)?;
        set &= set - 1;
        Some(bit)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::sudoku::Sudoku;
    use crate::solver::propagators::{self, Propagator, run_alone as run};
    use proptest::prelude::*;

    /// The units of a 9x9 Sudoku, as lists of variables.
    fn sudoku_units() -> Vec<Vec<usize>> {
        Sudoku::units(9, 3)
    }

    fn family(units: &[Vec<usize>], values: Domain) -> Option<Bands> {
        let refs: Vec<&[usize]> = units.iter().map(Vec::as_slice).collect();
        Bands::new(&refs, values)
    }

    fn grid() -> Propagator {
        Propagator::Bands(family(&sudoku_units(), Domain::range(1, 9)).expect("a 9x9 grid"))
    }

    /// The same domains through separate all-different propagators, one per unit (the
    /// reference).
    fn run_separately(domains: &[Domain]) -> Option<Vec<Domain>> {
        let props: Vec<Propagator> = sudoku_units()
            .iter()
            .map(|u| Propagator::AllDifferent(propagators::AllDifferent::new(u, domains)))
            .collect();
        let watches = propagators::Watches::new(CELLS, &props);
        let mut state = State::new(domains.to_vec(), watches, vec![0; props.len()]);
        (0..props.len() as u32).for_each(|p| state.enqueue(p));
        propagators::fixpoint(&props, &mut state, &mut 0).ok()?;
        Some(state.domains().to_vec())
    }

    /// A 9x9 solution: the classic shifted pattern with its digits relabelled.
    fn solution(labels: &[u32]) -> Vec<u32> {
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

    /// Checks what a run of the grid propagator left: `after` is narrower than `before`,
    /// keeps `solution`, and separate all-different propagators find nothing more to do.
    fn check_fixed_point(before: &[Domain], after: &[Domain], solution: &[u32]) {
        for ((d, b), &value) in after.iter().zip(before).zip(solution) {
            assert!(d.contains(value), "{after:?}");
            assert_eq!(d.without(*b), Domain::EMPTY);
        }
        assert_eq!(run_separately(after).as_deref(), Some(after));
    }

    #[test]
    fn the_rows_columns_and_boxes_of_a_grid_are_recognised_in_any_order() {
        let values = Domain::range(1, 9);
        let mut units = sudoku_units();
        assert!(family(&units, values).is_some());
        units.reverse();
        units.iter_mut().for_each(|u| u.reverse());
        assert!(family(&units, values).is_some());
        let shifted: Vec<Vec<usize>> =
            units.iter().map(|u| u.iter().map(|v| v + 5).collect()).collect();
        assert!(family(&shifted, values).is_some());
        // Not a grid: a unit missing, a box replaced by a diagonal, other values, a
        // 4x4 or 16x16 grid.
        assert!(family(&units[1..], values).is_none());
        let mut diagonal = sudoku_units();
        diagonal[26] = (0..9).map(|i| 10 * i).collect();
        assert!(family(&diagonal, values).is_none());
        assert!(family(&sudoku_units(), Domain::range(2, 10)).is_none());
        assert!(family(&Sudoku::units(4, 2), Domain::range(1, 4)).is_none());
        assert!(family(&Sudoku::units(16, 4), Domain::range(1, 16)).is_none());
    }

    #[test]
    fn givens_keep_the_solution_and_reach_a_fixed_point_of_the_units() {
        let solution = solution(&[3, 1, 4, 5, 9, 2, 6, 8, 7]);
        for step in [2, 3, 5, 7] {
            let given: Vec<bool> = (0..81).map(|i| i % step == 0).collect();
            let before = planted(&solution, &given, &[511; 81]);
            let after = run(&grid(), &before).expect("consistent");
            check_fixed_point(&before, &after, &solution);
        }
    }

    #[test]
    fn a_value_twice_in_a_unit_fails() {
        let mut domains = vec![Domain::range(1, 9); 81];
        domains[0] = Domain::single(3);
        domains[80] = Domain::single(3);
        assert!(run(&grid(), &domains).is_some());
        for clash in [8, 72, 20] {
            let mut domains = domains.clone();
            domains[clash] = Domain::single(3);
            assert_eq!(run(&grid(), &domains), None, "cell {clash}");
        }
    }

    #[test]
    fn a_naked_pair_leaves_its_row_and_box() {
        let mut domains = vec![Domain::range(1, 9); 81];
        domains[0] = Domain::range(1, 2);
        domains[1] = Domain::range(1, 2);
        let after = run(&grid(), &domains).expect("consistent");
        for cell in (2..9).chain([9, 10, 11, 18, 19, 20]) {
            assert_eq!(after[cell], Domain::range(3, 9), "cell {cell}");
        }
        assert_eq!(after[27], Domain::range(1, 9));
    }

    #[test]
    fn a_value_locked_in_a_line_of_its_box_leaves_the_rest_of_the_line() {
        // In the top-left box, 1 can only go in the top row, and 2 only in the left
        // column; the same again after the domains are loaded afresh.
        let mut domains = vec![Domain::range(1, 9); 81];
        for cell in [9, 10, 11, 18, 19, 20] {
            domains[cell] = domains[cell].remove(1);
        }
        for cell in [1, 2, 10, 11, 19, 20] {
            domains[cell] = domains[cell].remove(2);
        }
        let prop = grid();
        let mut state = State::for_test(&domains, &prop);
        for _ in 0..2 {
            state.load(&domains);
            prop.propagate(&mut state).expect("consistent");
            assert!((3..9).all(|cell| !state.dom(cell).contains(1)), "{:?}", state.domains());
            assert!((3..9).all(|row| !state.dom(9 * row).contains(2)), "{:?}", state.domains());
            assert!(state.dom(27).contains(1) && state.dom(4).contains(2));
        }
    }

    #[test]
    fn a_value_with_one_place_in_a_column_goes_there() {
        let mut domains = vec![Domain::range(1, 9); 81];
        for row in 1..9 {
            domains[9 * row + 4] = domains[9 * row + 4].remove(7);
        }
        let after = run(&grid(), &domains).expect("consistent");
        assert_eq!(after[4], Domain::single(7));
        assert!(!after[5].contains(7) && !after[13].contains(7));
    }

    /// The grid propagator, run once on an empty grid.
    fn empty_grid_run() -> (Propagator, State) {
        let prop = grid();
        let mut state = State::for_test(&[Domain::range(1, 9); 81], &prop);
        prop.propagate(&mut state).expect("consistent");
        (prop, state)
    }

    /// Runs `prop` on `state` and checks the result against a fresh propagator's; cell 0
    /// must be open again.
    fn run_matches_a_fresh_one(prop: &Propagator, state: &mut State) -> Vec<Domain> {
        prop.propagate(state).expect("consistent");
        let after = state.domains().to_vec();
        assert_eq!(after[0], Domain::range(1, 9));
        assert_eq!(run(&grid(), &after), Some(after.clone()));
        after
    }

    #[test]
    fn a_saved_grid_that_is_no_longer_the_state_is_not_used() {
        let (prop, mut state) = empty_grid_run();
        let root = state.mark();
        state.set(0, Domain::single(1)).expect("a value of the domain");
        prop.propagate(&mut state).expect("consistent");
        let decided = state.mark();
        // Back to the root, then as long a trail again by other changes, without a run.
        state.undo(root);
        state.set(80, Domain::single(5)).expect("a value of the domain");
        for cell in (30..80).take(decided - root - 1) {
            state.set(cell, state.dom(cell).remove(cell as u32 % 9 + 1)).expect("values left");
        }
        assert_eq!(state.mark(), decided);
        state.undo(decided);
        let after = run_matches_a_fresh_one(&prop, &mut state);
        assert!(!after[8].contains(5));
    }

    #[test]
    fn a_grid_left_by_a_failed_run_is_not_used() {
        let (prop, mut state) = empty_grid_run();
        let root = state.mark();
        // Two cells of the first row fixed to 1 fail, and leave the propagator's grid
        // behind them; one backtrack goes back to exactly where the good run ended.
        state.set(0, Domain::single(1)).expect("a value of the domain");
        state.set(1, Domain::single(1)).expect("a value of the domain");
        assert_eq!(prop.propagate(&mut state), Err(Conflict));
        state.undo(root);
        state.set(80, Domain::single(5)).expect("a value of the domain");
        run_matches_a_fresh_one(&prop, &mut state);
    }

    proptest! {
        /// The vector test in front of the Hall set rule changes nothing it would do.
        #[test]
        fn unit_hall_sets_agree_with_the_rule(
            masks in proptest::array::uniform9(1u32..512),
            small in proptest::array::uniform9(proptest::bool::weighted(0.6)),
        ) {
            // Domains of digits 1..9 (bits 1..9), many of them small enough to matter.
            let mut doms = masks.map(|m| m << 1);
            for (dom, &small) in doms.iter_mut().zip(&small) {
                while small && dom.count_ones() > 3 {
                    *dom &= *dom - 1;
                }
            }
            let open = doms.iter().filter(|d| !distinct::single(**d)).count() as u32;
            let mut expected = doms;
            let expected_result = distinct::hall_sets_among(&mut expected, open, true);
            let result = unit_hall_sets(&mut doms, open);
            prop_assert_eq!(result, expected_result);
            if result.is_ok() {
                prop_assert_eq!(doms, expected);
            }
        }

        #[test]
        fn ones_counts_the_bits_of_each_lane(lanes in proptest::array::uniform8(any::<u16>())) {
            let counts = ones(u16x8::new(lanes)).to_array();
            for (count, lane) in counts.iter().zip(lanes) {
                prop_assert_eq!(u32::from(*count), lane.count_ones());
            }
        }

        /// The columns the stacks' rule holds for a digit are where its places are left,
        /// and the rule run again from scratch on them takes nothing more.
        #[test]
        fn the_columns_held_are_a_fixed_point_of_the_stacks_rule(
            places in proptest::array::uniform3(0u32..1 << 27),
        ) {
            let bands = Bands::over(0);
            let mut memory = bands.memory.borrow_mut();
            for (c, dom) in memory.grid.doms.iter_mut().enumerate() {
                let holds_1 = places[c / 27] >> (c % 27) & 1;
                *dom = 0x3FC | holds_1 << 1;
            }
            memory.grid.places = [[BAND; 3]; 9];
            memory.grid.places[0] = places;
            if memory.columns(0).is_err() {
                return Ok(()); // no permutation left in some stack
            }
            let left = memory.grid.places[0];
            let reach = left.map(|p| (p | p >> 9 | p >> 18) & 0x1FF);
            prop_assert_eq!(memory.grid.columns_held[0], reach[0] | reach[1] << 9 | reach[2] << 18);
            memory.grid.columns_held[0] = NEVER;
            prop_assert!(memory.columns(0).is_ok());
            prop_assert_eq!(memory.grid.places[0], left);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// One propagator fed a series of unrelated domains (as a search that narrows,
        /// fails and starts over would) gives what a fresh one gives each time, keeps the
        /// planted values and leaves a fixed point of the units.
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
            let solution = solution(&labels);
            let prop = grid();
            for (given, extra) in &rounds {
                let before = planted(&solution, given, extra);
                let after = run(&prop, &before).expect("the planted solution survives");
                prop_assert_eq!(run(&grid(), &before), Some(after.clone()));
                check_fixed_point(&before, &after, &solution);
            }
        }

        /// Driven as a search drives it (decide, propagate, backtrack to the mark, where it
        /// catches up from the trail or a saved grid; now and then start over from the
        /// root domains, as a new subproblem does), it leaves after every step a fixed
        /// point that a fresh propagator and separate all-different propagators agree is
        /// one, and decisions that follow the planted solution never fail.
        #[test]
        fn a_search_through_it_always_reaches_a_fixed_point(
            labels in Just((1..=9u32).collect::<Vec<_>>()).prop_shuffle(),
            given in proptest::collection::vec(proptest::bool::weighted(0.25), 81),
            steps in proptest::collection::vec(
                (0usize..81, proptest::bool::ANY, proptest::bool::weighted(0.1), 0usize..3),
                1..40,
            ),
        ) {
            let solution = solution(&labels);
            let prop = grid();
            let domains = planted(&solution, &given, &[511; 81]);
            let mut state = State::for_test(&domains, &prop);
            prop_assert!(prop.propagate(&mut state).is_ok());
            let root = state.domains().to_vec();
            let mut marks = vec![state.mark()];
            for &(cell, follow, restart, back) in &steps {
                if restart {
                    state.load(&root);
                    marks = vec![state.mark()];
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
                    prop_assert_eq!(run(&grid(), &after), Some(after.clone()));
                    prop_assert_eq!(run_separately(&after), Some(after.clone()));
                    marks.push(state.mark());
                } else {
                    state.undo(mark);
                }
                // Back to a fixed point taken earlier (or to this one, as a search does
                // before its first value): always off a wrong decision.
                let levels = if fine && value != solution[cell] { back.max(1) } else { back };
                let keep = marks.len().saturating_sub(levels).max(1);
                marks.truncate(keep);
                state.undo(marks[keep - 1]);
            }
        }
    }
}
