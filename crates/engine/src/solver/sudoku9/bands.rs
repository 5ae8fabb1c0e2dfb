//! The candidate state of a 9x9 grid, kept as bands by digit, and its propagation.
//!
//! For each digit and band one 27-bit mask holds the cells where the digit may still go
//! (the layout of [`tables`](super::tables)). A whole grid is 27 such masks and fits in a
//! few cache lines, so the search copies it instead of undoing changes. Propagation works
//! on one digit-band mask at a time with table lookups: the placements a digit has left in
//! its band, the columns it takes from the other two bands, and the cells it is the last
//! candidate of in its row; then naked singles and bivalue cells are found for all nine
//! digits at once with a bitwise counter.

use super::tables::{BAND, COLUMN, MINIROWS, OTHER_BANDS_KEEP, PERMITTED, PLACED_KEEP, ROW};

/// The grid has no solution from here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Contradiction;

/// The candidates of a 9x9 grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Bands {
    /// `cells[digit * 3 + band]`: where `digit` (0-based) may still go in `band`.
    cells: [u32; 27],
    /// Each mask as it was when last propagated; a mask that differs has news to spread.
    spread: [u32; 27],
    /// The cells of each band whose digit is not fixed yet.
    open: [u32; 3],
    /// The open cells of each band with exactly two candidates, as of the last
    /// [`Bands::naked_singles`].
    pairs: [u32; 3],
}

/// Splits a digit-band index into its digit's first index (`digit * 3`) and its band.
const fn split(index: usize) -> (usize, usize) {
    let band = index % 3;
    (index - band, band)
}

impl Bands {
    /// A grid where every digit may go anywhere.
    pub(super) fn new() -> Bands {
        Bands { cells: [BAND; 27], spread: [0; 27], open: [BAND; 3], pairs: [0; 3] }
    }

    /// Puts `digit` (0-based) in grid cell `cell` (row-major), if it may still go there.
    pub(super) fn place(&mut self, digit: usize, cell: usize) -> Result<(), Contradiction> {
        let (band, bit) = (cell / 27, cell % 27);
        let index = digit * 3 + band;
        if self.cells[index] & (1 << bit) == 0 {
            return Err(Contradiction);
        }
        let kept = self.cells[index] & PLACED_KEEP[bit];
        for other in 0..9 {
            self.cells[other * 3 + band] &= !(1 << bit);
        }
        self.cells[index] = kept;
        let column = !COLUMN[bit % 9];
        self.cells[digit * 3 + (band + 1) % 3] &= column;
        self.cells[digit * 3 + (band + 2) % 3] &= column;
        self.open[band] &= !(1 << bit);
        Ok(())
    }

    /// Puts `digit` in grid cell `cell` as far as its own digit-band mask goes: the cell
    /// stays and the rest of its row and box goes. Propagation does the rest (the cell is
    /// then the digit's single in its row: the other digits leave it, and its column
    /// leaves the other bands), which is all a guess or a naked single needs.
    pub(super) fn assign(&mut self, digit: usize, cell: usize) -> Result<(), Contradiction> {
        let (band, bit) = (cell / 27, cell % 27);
        let index = digit * 3 + band;
        if self.cells[index] & (1 << bit) == 0 {
            return Err(Contradiction);
        }
        self.cells[index] &= PLACED_KEEP[bit];
        Ok(())
    }

    /// Whether every cell has its digit.
    pub(super) fn is_solved(&self) -> bool {
        self.open == [0; 3]
    }

    /// Propagates to a fixed point: the band rules until nothing changes, then naked
    /// singles, again until no single is left. Counts each digit-band mask propagated in
    /// `propagations`.
    pub(super) fn propagate(&mut self, propagations: &mut u64) -> Result<(), Contradiction> {
        loop {
            self.spread_changes(propagations)?;
            if self.is_solved() {
                return Ok(());
            }
            if !self.naked_singles()? {
                return Ok(());
            }
        }
    }

    /// Spreads every changed digit-band mask until none changes.
    fn spread_changes(&mut self, propagations: &mut u64) -> Result<(), Contradiction> {
        let mut spread = 0;
        let result = self.spread_all(&mut spread);
        *propagations += spread;
        result
    }

    /// [`Bands::spread_changes`], counting in a local.
    #[inline(always)]
    fn spread_all(&mut self, propagations: &mut u64) -> Result<(), Contradiction> {
        /// One pass over the 27 masks, each with its own constant index (so that the
        /// band arithmetic and bounds checks fold away); true when one had changed.
        macro_rules! pass {
            ($($index:literal)*) => {{
                let mut changed = false;
                $(
                    if self.cells[$index] != self.spread[$index] {
                        changed = true;
                        *propagations += 1;
                        self.spread_one::<$index>()?;
                    }
                )*
                changed
            }};
        }
        while pass!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26) {}
        Ok(())
    }

    /// Spreads digit-band mask `INDEX`: keeps the cells of its digit's possible placements
    /// in the band, takes the columns it is sure of from the other bands, and fixes the
    /// cells where it is the last candidate of a row (after the placement filter a row
    /// single is also a box single).
    #[inline(always)]
    fn spread_one<const INDEX: usize>(&mut self) -> Result<(), Contradiction> {
        let (first, band) = split(INDEX);
        let old = self.cells[INDEX];
        let minirows = usize::from(MINIROWS[(old & ROW) as usize])
            | usize::from(MINIROWS[((old >> 9) & ROW) as usize]) << 3
            | usize::from(MINIROWS[(old >> 18) as usize & 511]) << 6;
        let cells = old & PERMITTED[minirows & 511];
        if cells == 0 {
            return Err(Contradiction);
        }
        self.spread[INDEX] = cells;
        let columns = (cells | cells >> 9 | cells >> 18) & ROW;
        let keep = OTHER_BANDS_KEEP[columns as usize];
        self.cells[first + (band + 1) % 3] &= keep;
        self.cells[first + (band + 2) % 3] &= keep;
        // Branch-free: most spreads fix nothing, but which ones is hard to predict.
        let fixed = row_singles(cells) & self.open[band];
        self.open[band] &= !fixed;
        for digit in 0..9 {
            self.cells[digit * 3 + band] &= !fixed;
        }
        self.cells[INDEX] = cells;
        Ok(())
    }

    /// Fixes every open cell left with one candidate and records the cells left with two.
    /// Returns whether a cell was fixed.
    fn naked_singles(&mut self) -> Result<bool, Contradiction> {
        let mut fixed_any = false;
        for band in 0..3 {
            let (mut one, mut two, mut three) = (0, 0, 0);
            for digit in 0..9 {
                let cells = self.cells[digit * 3 + band];
                three |= two & cells;
                two |= one & cells;
                one |= cells;
            }
            if one != BAND {
                return Err(Contradiction);
            }
            self.pairs[band] = two & !three;
            let mut singles = one & !two & self.open[band];
            fixed_any |= singles != 0;
            while singles != 0 {
                let bit = singles.trailing_zeros() as usize;
                singles &= singles - 1;
                let digit = (0..9).find(|d| self.cells[d * 3 + band] & (1 << bit) != 0);
                self.assign(digit.ok_or(Contradiction)?, band * 27 + bit)?;
            }
        }
        Ok(fixed_any)
    }

    /// The first grid cell with two candidates, if one is known (from the last naked
    /// singles pass). Scoring the pairs (by how constrained their digits are) saved about
    /// a tenth of the nodes on top1465 but cost more time than it saved.
    pub(super) fn pair_cell(&self) -> Option<usize> {
        (0..3)
            .find(|&b| self.pairs[b] != 0)
            .map(|b| b * 27 + self.pairs[b].trailing_zeros() as usize)
    }

    /// The open grid cell with the fewest candidates (at least two), for when no cell has
    /// exactly two.
    pub(super) fn fewest_candidates_cell(&self) -> Option<usize> {
        (0..81)
            .filter(|&cell| self.open[cell / 27] & (1 << (cell % 27)) != 0)
            .min_by_key(|&cell| self.candidates(cell).count_ones())
    }

    /// The candidate digits (bit `d` for 0-based digit `d`) of a grid cell.
    pub(super) fn candidates(&self, cell: usize) -> u32 {
        let (band, bit) = (cell / 27, cell % 27);
        (0..9).filter(|d| self.cells[d * 3 + band] & (1 << bit) != 0).fold(0, |m, d| m | 1 << d)
    }

    /// The digits (1..=9) of a solved grid, row-major.
    pub(super) fn values(&self) -> Vec<u32> {
        let mut values = vec![0; 81];
        for (index, &cells) in self.cells.iter().enumerate() {
            let (digit, band) = (index / 3, index % 3);
            let mut rest = cells;
            while rest != 0 {
                values[band * 27 + rest.trailing_zeros() as usize] = digit as u32 + 1;
                rest &= rest - 1;
            }
        }
        values
    }
}

/// The cells of a band mask that are alone in their row.
fn row_singles(cells: u32) -> u32 {
    let single = |bits: u32| if bits & bits.wrapping_sub(1) == 0 { bits } else { 0 };
    single(cells & ROW) | single(cells & ROW << 9) | single(cells & ROW << 18)
}
