//! The rules of the grid, on the boards of each digit: naked singles, the row-box and
//! column-box permutations of each band and stack (pointing, claiming, hidden singles),
//! and Hall sets per unit. A [`Board`] is the grid and what is pending; the rules run until
//! nothing is.

use super::super::contract::{Conflict, PropResult};
use super::super::distinct;
use super::bits;
use super::hall::unit_hall_sets;
use super::tables::*;
use crate::model::Domain;

/// The domains as the rules see them. Cell `c` is bit `c % 27` of band `c / 27`; digit
/// `d` (`0..9`) is value `d + 1`, domain bit `d + 1`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Grid {
    /// Domain of each cell. Invariant: digit `d` is in `doms[c]` exactly when cell `c`
    /// is in `places[d]`.
    pub(super) doms: [u32; CELLS],
    /// The places of each digit, by band.
    pub(super) places: [[u32; 3]; 9],
    /// Cells with one digit left that their peers no longer hold.
    pub(super) solved: [u32; 3],
    /// For each digit, columns in each band (bits `9 * band + column`) that the stacks'
    /// rule was last seen to keep whole: while the digit's places reach exactly these,
    /// the rule has nothing to say.
    pub(super) columns_held: [u32; 9],
}

/// The grid and the work pending on it during one run.
#[derive(Clone, Debug)]
pub(super) struct Board {
    pub(super) grid: Grid,
    /// Digit bands to look at again: bit `3 * digit + band`.
    dirty: u32,
    /// Cells with one digit left whose peers may still hold it.
    fresh: [u32; 3],
    /// Units whose Hall sets must be looked at again.
    hall: u32,
    /// Cells this run narrowed, to be written back to the state.
    pub(super) narrowed: [u32; 3],
}

impl Board {
    /// A board with nothing known and nothing pending.
    pub(super) fn new() -> Board {
        let grid = Grid {
            doms: [0; CELLS],
            places: [[0; 3]; 9],
            solved: [0; 3],
            columns_held: [NEVER; 9],
        };
        Board { grid, dirty: 0, fresh: [0; 3], hall: 0, narrowed: [0; 3] }
    }

    /// Starts a run: nothing pending, nothing narrowed.
    #[inline]
    pub(super) fn clear_pending(&mut self) {
        self.dirty = 0;
        self.fresh = [0; 3];
        self.hall = 0;
        self.narrowed = [0; 3];
    }
}

impl Board {
    /// The cells (by band) whose domain in the grid is not the one in `now`; branch-free.
    pub(super) fn differing_cells(&self, now: &[Domain]) -> [u32; 3] {
        let mut differ = [0u32; 3];
        let old = self.grid.doms.chunks_exact(27);
        for (differ, (old, now)) in differ.iter_mut().zip(old.zip(now.chunks_exact(27))) {
            for (i, (old, now)) in old.iter().zip(now).enumerate() {
                *differ |= u32::from(*old != now.bits()) << i;
            }
        }
        differ
    }

    /// Rebuilds from the domains `now`.
    pub(super) fn start_from(&mut self, now: &[Domain]) -> PropResult {
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
    #[inline]
    pub(super) fn restore(&mut self, c: usize, now: u32) {
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
    #[inline]
    pub(super) fn concern(&mut self, c: usize, old: u32) {
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
    pub(super) fn settle(&mut self) -> PropResult {
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
    /// permutation lose it, as in [`Board::rows`]. The hidden singles this leaves are
    /// found there: a column with one place confines its box to that column.
    pub(super) fn columns(&mut self, d: usize) -> PropResult {
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
