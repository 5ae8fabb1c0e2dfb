//! The techniques of the logic solver, one function each, every one applied to one run.
//! Each returns true when it removed a candidate or a live combination (the state's
//! `contradiction` may then be set too), and counts itself when it did.

use super::Technique;
use super::logic::{ALL_DIGITS, Solver};

/// Iterates the set bits of a mask as one-bit masks, lowest first.
#[inline]
fn bits(mut mask: u16) -> impl Iterator<Item = u16> {
    std::iter::from_fn(move || {
        let bit = mask & mask.wrapping_neg();
        mask &= !bit;
        (bit != 0).then_some(bit)
    })
}

/// The candidate mask of a combination (bit `d - 1` per digit becomes bit `d`).
#[inline]
fn digits_of(combo: u16) -> u16 {
    combo << 1
}

impl Solver<'_> {
    /// The easy level on run `r`: naked single, the combinations (unique combination or
    /// crossing) and hidden single.
    pub(super) fn easy(&mut self, r: usize) -> bool {
        let mut progress = self.naked_single(r);
        if self.layout.runs[r].total.is_some() && !self.contradiction {
            progress |= self.combinations(r);
            if !self.contradiction {
                progress |= self.hidden_single(r);
            }
        }
        progress
    }

    /// The medium level on run `r`: the first of naked subset, hidden subset and bounds that
    /// makes progress.
    pub(super) fn medium(&mut self, r: usize) -> bool {
        if self.naked_subset(r) {
            return true;
        }
        self.layout.runs[r].total.is_some() && (self.hidden_subset(r) || self.bounds(r))
    }

    /// The hard level on run `r`: run consistency.
    pub(super) fn hard(&mut self, r: usize) -> bool {
        self.layout.runs[r].total.is_some() && self.run_consistency(r)
    }

    /// The digits placed in run `r` (cells with one candidate); notes a contradiction when
    /// two cells hold the same one.
    fn placed(&mut self, r: usize) -> u16 {
        let mut placed = 0u16;
        for &cell in self.layout.cells(r) {
            let mask = self.cand[cell];
            if mask.is_power_of_two() {
                self.contradiction |= placed & mask != 0;
                placed |= mask;
            }
        }
        placed
    }

    /// Naked single: a placed digit leaves the other cells of its run.
    fn naked_single(&mut self, r: usize) -> bool {
        let placed = self.placed(r);
        if placed == 0 || self.contradiction {
            return self.contradiction;
        }
        let mut changed = false;
        for &cell in self.layout.cells(r) {
            let mask = self.cand[cell];
            if !mask.is_power_of_two() {
                changed |= self.set(cell, !placed);
            }
        }
        self.note(Technique::NakedSingle, changed)
    }

    /// Unique combination and crossing: drops the combinations that no longer fit the run's
    /// cells, then keeps every cell to the digits of the live ones.
    fn combinations(&mut self, r: usize) -> bool {
        let layout = self.layout;
        let (spec, cells) = (layout.runs[r], layout.cells(r));
        let placed = self.placed(r);
        let union = cells.iter().fold(0, |u, &c| u | self.cand[c]);
        let mut live = self.live[r];
        for (j, &combo) in spec.combos.iter().enumerate() {
            let digits = digits_of(combo);
            let fits = placed & !digits == 0
                && digits & !union == 0
                && cells.iter().all(|&c| self.cand[c] & digits != 0);
            if !fits {
                live &= !(1 << j);
            }
        }
        // Dropping a combination changes nothing a person sees until a digit goes, so it is
        // not counted; the digits it takes away are.
        self.set_live(r, live);
        if self.contradiction {
            return true;
        }
        let live = self.live[r];
        let envelope = (0..spec.combos.len())
            .filter(|j| live & (1 << j) != 0)
            .fold(0, |e, j| e | digits_of(spec.combos[j]));
        let mut changed = false;
        for &cell in cells {
            changed |= self.set(cell, envelope);
        }
        let technique =
            if live.is_power_of_two() { Technique::UniqueCombination } else { Technique::Crossing };
        self.note(technique, changed)
    }

    /// The digits every live combination of run `r` holds.
    fn required(&self, r: usize) -> u16 {
        let (spec, live) = (&self.layout.runs[r], self.live[r]);
        (0..spec.combos.len())
            .filter(|j| live & (1 << j) != 0)
            .fold(ALL_DIGITS, |req, j| req & digits_of(spec.combos[j]))
    }

    /// Hidden single: a digit every live combination needs that only one cell can hold is
    /// placed there.
    fn hidden_single(&mut self, r: usize) -> bool {
        let cells = self.layout.cells(r);
        let (mut once, mut twice) = (0u16, 0u16);
        for &cell in cells {
            let mask = self.cand[cell];
            twice |= once & mask;
            once |= mask;
        }
        let required = self.required(r);
        if required & !once != 0 {
            self.contradiction = true;
            return true;
        }
        let mut changed = false;
        for digit in bits(required & once & !twice) {
            if let Some(&cell) = cells.iter().find(|&&c| self.cand[c] & digit != 0) {
                changed |= self.set(cell, digit);
            }
        }
        self.note(Technique::HiddenSingle, changed)
    }

    /// Naked subset: k open cells whose candidates number k between them keep those digits
    /// out of the run's other open cells.
    fn naked_subset(&mut self, r: usize) -> bool {
        let cells = self.layout.cells(r);
        let mut open = [0usize; 9];
        let mut n = 0;
        for &cell in cells {
            if !self.cand[cell].is_power_of_two() {
                open[n] = cell;
                n += 1;
            }
        }
        if n < 3 {
            return false;
        }
        let mut unions = [0u16; 512];
        for subset in 1usize..(1 << n) - 1 {
            let lowest = subset.trailing_zeros() as usize;
            let union = unions[subset & (subset - 1)] | self.cand[open[lowest]];
            unions[subset] = union;
            let size = subset.count_ones();
            if size < 2 || union.count_ones() > size {
                continue;
            }
            let mut changed = false;
            for (k, &cell) in open[..n].iter().enumerate() {
                if subset & (1 << k) == 0 {
                    changed |= self.set(cell, !union);
                }
            }
            // Fewer digits than cells is a contradiction, which `set` has noted if a digit
            // went; otherwise note it here.
            self.contradiction |= union.count_ones() < size;
            if changed || self.contradiction {
                return self.note(Technique::NakedSubset, true);
            }
        }
        false
    }

    /// Hidden subset: k digits every live combination needs, that only k cells of the run
    /// can hold, confine those cells to them.
    fn hidden_subset(&mut self, r: usize) -> bool {
        let cells = self.layout.cells(r);
        let placed = self.placed(r);
        let need = self.required(r) & !placed;
        // Per needed digit, the cells (by position in the run) that can hold it.
        let mut digits = [0u16; 9];
        let mut holders = [0u16; 9];
        let mut n = 0;
        for digit in bits(need) {
            digits[n] = digit;
            for (k, &cell) in cells.iter().enumerate() {
                if self.cand[cell] & digit != 0 {
                    holders[n] |= 1 << k;
                }
            }
            n += 1;
        }
        if n < 2 {
            return false;
        }
        let mut unions = [(0u16, 0u16); 512];
        for subset in 1usize..1 << n {
            let lowest = subset.trailing_zeros() as usize;
            let (held, set) = unions[subset & (subset - 1)];
            let (held, set) = (held | holders[lowest], set | digits[lowest]);
            unions[subset] = (held, set);
            let size = subset.count_ones();
            if size < 2 || held.count_ones() > size {
                continue;
            }
            self.contradiction |= held.count_ones() < size;
            let mut changed = false;
            for k in bits(held) {
                let cell = cells[k.trailing_zeros() as usize];
                changed |= self.set(cell, set);
            }
            if changed || self.contradiction {
                return self.note(Technique::HiddenSubset, true);
            }
        }
        false
    }

    /// Bounds: a digit goes when, with the other cells' smallest candidates, it already
    /// exceeds the clue, or with their largest it cannot reach it.
    fn bounds(&mut self, r: usize) -> bool {
        let layout = self.layout;
        let (cells, Some(total)) = (layout.cells(r), layout.runs[r].total) else {
            return false;
        };
        if cells.iter().any(|&c| self.cand[c] == 0) {
            return false; // a contradiction already noted; the digit arithmetic needs digits
        }
        let total = u32::from(total);
        let low = |m: u16| m.trailing_zeros();
        let high = |m: u16| 15 - m.leading_zeros();
        let (mut min_sum, mut max_sum) = (0u32, 0u32);
        for &cell in cells {
            min_sum += low(self.cand[cell]);
            max_sum += high(self.cand[cell]);
        }
        let mut changed = false;
        for &cell in cells {
            let mask = self.cand[cell];
            let (others_min, others_max) = (min_sum - low(mask), max_sum - high(mask));
            let mut keep = 0u16;
            for digit in bits(mask) {
                let d = digit.trailing_zeros();
                if d + others_min <= total && d + others_max >= total {
                    keep |= digit;
                }
            }
            changed |= self.set(cell, keep);
        }
        self.note(Technique::Bounds, changed)
    }

    /// Run consistency: keeps a digit in a cell only when some live combination can be
    /// spread over the run's cells, all distinct, giving that cell that digit. Per
    /// combination of n digits, `first[s]` says the first |s| cells can take exactly the
    /// digits `s` (as positions in the combination) and `last[s]` the last |s| cells; a
    /// cell k takes digit b when `first[s]` and `last[rest]` for some s of k digits.
    fn run_consistency(&mut self, r: usize) -> bool {
        let layout = self.layout;
        let (spec, cells) = (layout.runs[r], layout.cells(r));
        let n = cells.len();
        let full = (1usize << n) - 1;
        let mut support = [0u16; 9];
        let mut live = 0u16;
        let mut first = [false; 512];
        let mut last = [false; 512];
        for (j, &combo) in spec.combos.iter().enumerate() {
            if self.live[r] & (1 << j) == 0 {
                continue;
            }
            // The combination's digits, and per cell the positions of those it can take.
            let mut digit_at = [0u16; 9];
            for (t, digit) in bits(digits_of(combo)).enumerate() {
                digit_at[t] = digit;
            }
            let mut fits = [0usize; 9];
            for (k, &cell) in cells.iter().enumerate() {
                for (t, &digit) in digit_at[..n].iter().enumerate() {
                    if self.cand[cell] & digit != 0 {
                        fits[k] |= 1 << t;
                    }
                }
            }
            let reach = |table: &mut [bool; 512], cell_of: &dyn Fn(usize) -> usize| {
                table[0] = true;
                for s in 1..=full {
                    let mut options = s & fits[cell_of(s.count_ones() as usize)];
                    let mut ok = false;
                    while options != 0 && !ok {
                        let b = options & options.wrapping_neg();
                        ok = table[s ^ b];
                        options ^= b;
                    }
                    table[s] = ok;
                }
            };
            reach(&mut first, &|size| size - 1);
            if !first[full] {
                continue;
            }
            live |= 1 << j;
            reach(&mut last, &|size| n - size);
            for s in 0..full {
                if !first[s] {
                    continue;
                }
                let k = s.count_ones() as usize;
                let mut options = fits[k] & !s;
                while options != 0 {
                    let b = options & options.wrapping_neg();
                    options ^= b;
                    if last[full ^ s ^ b] {
                        support[k] |= digit_at[b.trailing_zeros() as usize];
                    }
                }
            }
        }
        let mut changed = self.set_live(r, live);
        for (k, &cell) in cells.iter().enumerate() {
            changed |= self.set(cell, support[k]);
        }
        self.note(Technique::RunConsistency, changed)
    }
}
