//! The medium and hard techniques of the logic solver, one function each, every one
//! applied to one run. Each returns true when it removed a candidate (the state's
//! `contradiction` may then be set too), and counts itself when it did.

use super::Technique;
use super::easy::live;
use super::logic::Solver;
use super::masks::ones;

/// Iterates the set bits of a mask as one-bit masks, lowest first.
#[inline]
fn bits(mut mask: u16) -> impl Iterator<Item = u16> {
    std::iter::from_fn(move || {
        let bit = mask & mask.wrapping_neg();
        mask &= !bit;
        (bit != 0).then_some(bit)
    })
}

impl Solver<'_> {
    /// The medium level on run `r`: the first of bounds, naked subset and hidden subset that
    /// makes progress.
    pub(super) fn medium(&mut self, r: usize) -> bool {
        if !self.has_open(r) {
            return false;
        }
        let clued = self.layout.runs[r].total.is_some();
        if clued && self.bounds(r) {
            return true;
        }
        let mut scratch = self.scratch.take().unwrap_or_default();
        let progress = self.naked_subset(r, &mut scratch.unions)
            || clued && self.hidden_subset(r, &mut scratch.pairs);
        self.scratch = Some(scratch);
        progress
    }

    /// The hard level on run `r`: run consistency.
    pub(super) fn hard(&mut self, r: usize) -> bool {
        if self.layout.runs[r].total.is_none() || !self.has_open(r) {
            return false;
        }
        let mut scratch = self.scratch.take().unwrap_or_default();
        let progress = self.run_consistency(r, &mut scratch.spread);
        self.scratch = Some(scratch);
        progress
    }

    /// True when some cell of run `r` has more than one candidate (or none).
    fn has_open(&self, r: usize) -> bool {
        self.tallies[r].open_cells > 0
    }

    /// The digits every combination the open cells of run `r` can still make holds (none
    /// when there is no such combination: the easy level notes that contradiction).
    fn required(&self, r: usize) -> u16 {
        let (spec, tally) = (&self.layout.runs[r], &self.tallies[r]);
        if spec.total.is_none() || tally.clash != 0 {
            return 0;
        }
        let (placed, union) = (tally.placed, tally.union());
        live(spec, placed, union & !placed, tally.open_cells).map_or(0, |(_, required)| required)
    }

    /// Naked subset: k open cells whose candidates number k between them keep those digits
    /// out of the run's other open cells.
    fn naked_subset(&mut self, r: usize, unions: &mut [u16; 512]) -> bool {
        let cells = self.layout.cells(r);
        let mut open = [0u32; 9];
        let mut n = 0;
        for &cell in cells {
            if !self.cand[cell as usize].is_power_of_two() {
                open[n] = cell;
                n += 1;
            }
        }
        // A subset of s cells needs s cells of at most s candidates each.
        let mut at_most = [0u32; 10];
        for &cell in &open[..n] {
            at_most[ones(self.cand[cell as usize]) as usize] += 1;
        }
        let mut fits = false;
        let mut cells_so_far = at_most[0] + at_most[1];
        for (size, &count) in at_most.iter().enumerate().take(n).skip(2) {
            cells_so_far += count;
            fits |= cells_so_far >= size as u32;
        }
        if n < 3 || !fits {
            return false;
        }
        for subset in 1usize..(1 << n) - 1 {
            let lowest = subset.trailing_zeros() as usize;
            let union = unions[subset & (subset - 1)] | self.cand[open[lowest] as usize];
            unions[subset] = union;
            let size = ones(subset as u16);
            if size < 2 || ones(union) > size {
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
            self.contradiction |= ones(union) < size;
            if changed || self.contradiction {
                return self.note(Technique::NakedSubset, true);
            }
        }
        false
    }

    /// Hidden subset: k digits every live combination needs, that only k cells of the run
    /// can hold, confine those cells to them.
    fn hidden_subset(&mut self, r: usize, unions: &mut [(u16, u16); 512]) -> bool {
        let cells = self.layout.cells(r);
        let placed = self.tallies[r].placed;
        let need = self.required(r) & !placed;
        if ones(need) < 2 {
            return false;
        }
        // Per needed digit, the cells (by position in the run) that can hold it.
        let mut digits = [0u16; 9];
        let mut holders = [0u16; 9];
        let mut n = 0;
        for digit in bits(need) {
            digits[n] = digit;
            for (k, &cell) in cells.iter().enumerate() {
                if self.cand[cell as usize] & digit != 0 {
                    holders[n] |= 1 << k;
                }
            }
            n += 1;
        }
        if n < 2 {
            return false;
        }
        for subset in 1usize..1 << n {
            let lowest = subset.trailing_zeros() as usize;
            let (held, set) = unions[subset & (subset - 1)];
            let (held, set) = (held | holders[lowest], set | digits[lowest]);
            unions[subset] = (held, set);
            let size = ones(subset as u16);
            if size < 2 || ones(held) > size {
                continue;
            }
            self.contradiction |= ones(held) < size;
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
        if cells.iter().any(|&c| self.cand[c as usize] == 0) {
            return false; // a contradiction already noted; the digit arithmetic needs digits
        }
        let total = u32::from(total);
        let low = |m: u16| m.trailing_zeros();
        let high = |m: u16| 15 - m.leading_zeros();
        let (mut min_sum, mut max_sum) = (0u32, 0u32);
        for &cell in cells {
            min_sum += low(self.cand[cell as usize]);
            max_sum += high(self.cand[cell as usize]);
        }
        let mut changed = false;
        for &cell in cells {
            let mask = self.cand[cell as usize];
            let (others_min, others_max) = (min_sum - low(mask), max_sum - high(mask));
            // The digits d with d + others_min <= total <= d + others_max.
            let keep = match total.checked_sub(others_min) {
                Some(high) => mask & between(total.saturating_sub(others_max), high),
                None => 0,
            };
            if mask & !keep != 0 {
                changed |= self.set(cell, keep);
            }
        }
        self.note(Technique::Bounds, changed)
    }

    /// Run consistency: keeps a digit in a cell only when some combination can be spread
    /// over the run's cells, all distinct, giving that cell that digit. A placed cell takes
    /// its own digit, so only the open cells are spread over the rest of a combination;
    /// see [`spread`].
    fn run_consistency(&mut self, r: usize, tables: &mut Tables) -> bool {
        let layout = self.layout;
        let (spec, cells) = (&layout.runs[r], layout.cells(r));
        let (mut placed, mut twice, mut union) = (0u16, 0u16, 0u16);
        let mut open = [0u16; 9];
        let mut k = 0;
        for &cell in cells {
            let m = self.cand[cell as usize];
            if m.is_power_of_two() {
                twice |= placed & m;
                placed |= m;
            } else if let Some(slot) = open.get_mut(k) {
                *slot = m;
                union |= m;
                k += 1;
            }
        }
        let mut support = [0u16; 9];
        let mut spread_any = false;
        // Two cells with one digit leave no combination a place: every cell is emptied.
        if twice == 0 {
            for &combo in spec.combos {
                let digits = combo << 1;
                let rest = digits & !placed;
                if placed & !digits == 0 && rest & !union == 0 {
                    spread_any |= spread(rest, &open[..k], tables, &mut support);
                }
            }
        }
        let (mut changed, mut j) = (false, 0);
        for &cell in cells {
            let m = self.cand[cell as usize];
            let keep = if m.is_power_of_two() {
                if spread_any { m } else { 0 }
            } else {
                j += 1;
                support.get(j - 1).copied().unwrap_or(0)
            };
            changed |= self.set(cell, keep);
        }
        self.note(Technique::RunConsistency, changed)
    }
}

/// The tables of [`spread`]: `first[s]` says the first |s| open cells can take exactly
/// the digits `s` (as positions in the combination), `last[s]` the last |s|.
pub(super) struct Tables {
    pub(super) first: [bool; 512],
    pub(super) last: [bool; 512],
}

/// Spreads the digits `rest` (as many as `open` has cells) over the open cells with
/// candidates `open`, all distinct: adds to `support[j]` each digit cell `j` takes in some
/// such assignment, and returns whether there is one. Cell `j` takes the digit at position
/// `b` when `first[s]` and `last[rest - s - b]` for some `s` of `j` digits, a dynamic
/// programme over the subsets of `rest`.
fn spread(rest: u16, open: &[u16], tables: &mut Tables, support: &mut [u16; 9]) -> bool {
    let n = open.len();
    let full = (1usize << n) - 1;
    let mut digit_at = [0u16; 9];
    let mut fits = [0usize; 9];
    let mut left = rest;
    for (t, slot) in digit_at.iter_mut().enumerate().take(n) {
        *slot = left & left.wrapping_neg();
        left &= !*slot;
        for (j, &m) in open.iter().enumerate() {
            if m & *slot != 0 {
                fits[j] |= 1 << t;
            }
        }
    }
    reach(&mut tables.first, full, |size| fits[size - 1]);
    if !tables.first[full] {
        return false;
    }
    reach(&mut tables.last, full, |size| fits[n - size]);
    for s in 0..full {
        if !tables.first[s] {
            continue;
        }
        let j = ones(s as u16) as usize;
        let mut options = fits[j] & !s;
        while options != 0 {
            let b = options & options.wrapping_neg();
            options ^= b;
            if tables.last[full ^ s ^ b] {
                support[j] |= digit_at[b.trailing_zeros() as usize];
            }
        }
    }
    true
}

/// Fills `table[s]` for every subset `s` of `full`: true when the cells that
/// `fits_of(|s|)` describes last can take a digit of `s` left after the others took the
/// rest (`table[0]` is true).
#[inline]
fn reach(table: &mut [bool; 512], full: usize, fits_of: impl Fn(usize) -> usize) {
    table[0] = true;
    for s in 1..=full {
        let mut options = s & fits_of(ones(s as u16) as usize);
        let mut ok = false;
        while options != 0 && !ok {
            let b = options & options.wrapping_neg();
            ok = table[s ^ b];
            options ^= b;
        }
        table[s] = ok;
    }
}

/// The digits from `low` to `high` (none when `low > high`), as a candidate mask.
#[inline]
fn between(low: u32, high: u32) -> u16 {
    if low > high || low > 9 {
        return 0;
    }
    let high = high.min(9);
    ((2u32 << high) - (1u32 << low)) as u16
}
