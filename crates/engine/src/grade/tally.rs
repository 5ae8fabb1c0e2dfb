//! Per run, which digits its cells hold, kept up to date as candidates narrow, so that the
//! techniques read a run's placed digits, the digits its open cells can take and the
//! digits only one open cell holds without going over its cells.

/// Takes one from the count of every digit in `digits` (each count is at least one), in
/// bit-sliced counters: bit `d` of plane `i` is bit `i` of digit `d`'s count. Four planes
/// count to fifteen, more than a run's nine cells.
#[inline]
fn sub(planes: &mut [u16; 4], digits: u16) {
    let mut borrow = digits;
    for plane in planes {
        if borrow == 0 {
            break;
        }
        let next = !*plane & borrow;
        *plane ^= borrow;
        borrow = next;
    }
}

/// The counts of one run's cells. A cell with one candidate is placed; any other cell,
/// one with none included, is open, as the techniques count them. Candidates only narrow
/// while a tally is kept; after a trial widens them again the tallies are made anew.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Tally {
    /// Per digit, how many open cells can take it, bit-sliced (see [`sub`]).
    open: [u16; 4],
    /// The digits placed.
    pub(super) placed: u16,
    /// The digits placed in two cells or more.
    pub(super) clash: u16,
    /// Open cells.
    pub(super) open_cells: u32,
}

impl Tally {
    /// The tally of cells with candidates `masks`.
    pub(super) fn of(masks: impl Iterator<Item = u16>) -> Tally {
        let mut tally = Tally::default();
        for mask in masks {
            if mask.is_power_of_two() {
                tally.clash |= tally.placed & mask;
                tally.placed |= mask;
            } else {
                let mut carry = mask;
                for plane in &mut tally.open {
                    if carry == 0 {
                        break;
                    }
                    let next = *plane & carry;
                    *plane ^= carry;
                    carry = next;
                }
                tally.open_cells += 1;
            }
        }
        tally
    }

    /// A cell's candidates narrow from `old` to `new`.
    #[inline]
    pub(super) fn narrow(&mut self, old: u16, new: u16) {
        match (old.is_power_of_two(), new.is_power_of_two()) {
            (false, false) => sub(&mut self.open, old & !new),
            (false, true) => {
                sub(&mut self.open, old);
                self.clash |= self.placed & new;
                self.placed |= new;
                self.open_cells -= 1;
            }
            // A placed cell emptied: a contradiction, after which only the count of open
            // cells is read (the solve stops, or a trial makes the tallies anew).
            (true, _) => self.open_cells += 1,
        }
    }

    /// The digits some open cell can take.
    #[inline]
    pub(super) fn union(&self) -> u16 {
        self.open[0] | self.open[1] | self.open[2] | self.open[3]
    }

    /// The digits exactly one open cell can take.
    #[inline]
    pub(super) fn lone(&self) -> u16 {
        self.open[0] & !(self.open[1] | self.open[2] | self.open[3])
    }
}
