//! The techniques of the logic solver, one function each, every one applied to one run.
//! Each returns true when it removed a candidate (the state's `contradiction` may then be
//! set too), and counts itself when it did.

use super::Technique;
use super::logic::{ALL_DIGITS, RunSpec, Solver};

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

/// The union and the intersection of the combinations in `combos` (9-bit masks) that hold
/// every `placed` digit and otherwise only `available` ones, as candidate masks without the
/// placed digits; `None` when there is no such combination.
#[inline]
fn reduced(combos: &[u16], placed: u16, available: u16) -> Option<(u16, u16)> {
    let allowed = placed | available;
    let (mut union, mut both, mut any) = (0u16, ALL_DIGITS, false);
    for &combo in combos {
        let digits = digits_of(combo);
        if digits & placed == placed && digits & !allowed == 0 {
            union |= digits;
            both &= digits;
            any = true;
        }
    }
    any.then_some((union & !placed, both & !placed))
}

/// The cells of one run, copied out of the state so that the easy level can take a run
/// to its own fixed point without touching the work lists.
struct RunCells {
    /// Candidates of the run's cells, in order (the first `n` are used).
    mask: [u16; 9],
    /// Number of cells.
    n: usize,
}

/// What is left of a run once its placed digits are taken out.
struct Remainder {
    /// The digits placed.
    placed: u16,
    /// Cells still open.
    len: usize,
    /// The candidates of the open cells together.
    union: u16,
}

impl RunCells {
    /// The run's placed digits and open cells; `None` when two cells hold the same digit.
    fn remainder(&self) -> Option<Remainder> {
        let (mut placed, mut union, mut len) = (0u16, 0u16, 0usize);
        for &m in &self.mask[..self.n] {
            if m.is_power_of_two() {
                if placed & m != 0 {
                    return None;
                }
                placed |= m;
            } else {
                union |= m;
                len += 1;
            }
        }
        Some(Remainder { placed, len, union })
    }

    /// Naked single, then unique combination or crossing, in one pass over the open cells:
    /// the `placed` digits leave them, and they keep to `envelope` (the digits of the
    /// combinations they can still make). Returns whether each removed a digit, or `None`
    /// when a cell is left empty.
    fn clear_open(&mut self, placed: u16, envelope: u16) -> Option<(bool, bool)> {
        let (mut naked, mut narrowed) = (false, false);
        for m in &mut self.mask[..self.n] {
            if m.is_power_of_two() {
                continue;
            }
            naked |= *m & placed != 0;
            let rest = *m & !placed;
            narrowed |= rest & !envelope != 0;
            *m = rest & envelope;
            if *m == 0 {
                return None;
            }
        }
        Some((naked, narrowed))
    }

    /// Hidden single: a `required` digit only one cell can hold is placed there. Returns
    /// whether one was, and the number of open cells left; `None` when a required digit
    /// fits no cell.
    fn hidden_single(&mut self, required: u16) -> Option<(bool, usize)> {
        let (mut once, mut twice, mut open) = (0u16, 0u16, 0usize);
        for &m in &self.mask[..self.n] {
            twice |= once & m;
            once |= m;
            open += usize::from(!m.is_power_of_two());
        }
        if required & !once != 0 {
            return None;
        }
        let mut placed = false;
        for digit in bits(required & once & !twice) {
            let holder = self.mask[..self.n].iter_mut().find(|m| **m & digit != 0);
            if let Some(m) = holder.filter(|m| **m != digit) {
                *m = digit;
                placed = true;
                open -= 1;
            }
        }
        Some((placed, open))
    }

    /// One round of the easy techniques; `None` on a contradiction, else which of naked
    /// single, unique combination, crossing and hidden single made progress, and whether
    /// another round may find more. Only a new single can give it more: without one, the
    /// placed digits and the combinations the open cells can make stay the same.
    fn easy_round(&mut self, spec: &RunSpec) -> Option<([bool; 4], bool)> {
        let rest = self.remainder()?;
        let (envelope, required) = match spec.total {
            Some(_) => reduced(spec.combos, rest.placed, rest.union & !rest.placed)?,
            None => (ALL_DIGITS, 0),
        };
        let (naked, narrowed) = self.clear_open(rest.placed, envelope)?;
        let unique = envelope.count_ones() as usize == rest.len;
        let (hidden, open) = self.hidden_single(required)?;
        let used = [naked, narrowed && unique, narrowed && !unique, hidden];
        Some((used, open < rest.len))
    }
}

impl Solver<'_> {
    /// The easy level on run `r`, taken to the run's own fixed point: naked single, the
    /// combinations of the open cells (unique combination or crossing) and hidden single,
    /// each counted once per visit when it made progress.
    pub(super) fn easy(&mut self, r: usize) -> bool {
        let layout = self.layout;
        let (spec, cells) = (&layout.runs[r], layout.cells(r));
        let mut run = RunCells { mask: [0; 9], n: cells.len() };
        for (m, &cell) in run.mask.iter_mut().zip(cells) {
            *m = self.cand[cell];
        }
        let mut used = [false; 4];
        let consistent = loop {
            let Some((round, again)) = run.easy_round(spec) else { break false };
            used.iter_mut().zip(round).for_each(|(u, r)| *u |= r);
            if !again {
                break true;
            }
        };
        self.contradiction |= !consistent;
        let mut progress = !consistent;
        for (&m, &cell) in run.mask.iter().zip(cells) {
            if m != self.cand[cell] {
                progress |= self.narrow(cell, m, r);
            }
        }
        let techniques = [
            Technique::NakedSingle,
            Technique::UniqueCombination,
            Technique::Crossing,
            Technique::HiddenSingle,
        ];
        for (technique, used) in techniques.into_iter().zip(used) {
            self.note(technique, used);
        }
        progress
    }

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
        let progress = self.run_consistency(r, &mut scratch.first, &mut scratch.last);
        self.scratch = Some(scratch);
        progress
    }

    /// True when some cell of run `r` has more than one candidate.
    fn has_open(&self, r: usize) -> bool {
        self.layout.cells(r).iter().any(|&c| !self.cand[c].is_power_of_two())
    }

    /// The digits placed in run `r` (cells with one candidate).
    fn placed(&self, r: usize) -> u16 {
        self.layout
            .cells(r)
            .iter()
            .map(|&c| self.cand[c])
            .filter(|m| m.is_power_of_two())
            .fold(0, |p, m| p | m)
    }

    /// The digits every combination the open cells of run `r` can still make holds (none
    /// when there is no such combination: the easy level notes that contradiction).
    fn required(&self, r: usize) -> u16 {
        let cells = self.layout.cells(r);
        let mut run = RunCells { mask: [0; 9], n: cells.len() };
        for (m, &cell) in run.mask.iter_mut().zip(cells) {
            *m = self.cand[cell];
        }
        let spec = &self.layout.runs[r];
        let Some(rest) = run.remainder().filter(|_| spec.total.is_some()) else { return 0 };
        let union = rest.union & !rest.placed;
        reduced(spec.combos, rest.placed, union).map_or(0, |(_, required)| required)
    }

    /// Naked subset: k open cells whose candidates number k between them keep those digits
    /// out of the run's other open cells.
    fn naked_subset(&mut self, r: usize, unions: &mut [u16; 512]) -> bool {
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
    fn hidden_subset(&mut self, r: usize, unions: &mut [(u16, u16); 512]) -> bool {
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

    /// Run consistency: keeps a digit in a cell only when some combination can be
    /// spread over the run's cells, all distinct, giving that cell that digit. Per
    /// combination of n digits, `first[s]` says the first |s| cells can take exactly the
    /// digits `s` (as positions in the combination) and `last[s]` the last |s| cells; a
    /// cell k takes digit b when `first[s]` and `last[rest]` for some s of k digits.
    fn run_consistency(
        &mut self,
        r: usize,
        first: &mut [bool; 512],
        last: &mut [bool; 512],
    ) -> bool {
        let layout = self.layout;
        let (spec, cells) = (layout.runs[r], layout.cells(r));
        let n = cells.len();
        let full = (1usize << n) - 1;
        let mut support = [0u16; 9];
        let (placed, union) = cells.iter().fold((0, 0), |(p, u), &c| {
            let m = self.cand[c];
            (if m.is_power_of_two() { p | m } else { p }, u | m)
        });
        for &combo in spec.combos {
            let digits = digits_of(combo);
            if placed & !digits != 0 || digits & !union != 0 {
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
            reach(first, &|size| size - 1);
            if !first[full] {
                continue;
            }
            reach(last, &|size| n - size);
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
        let mut changed = false;
        for (k, &cell) in cells.iter().enumerate() {
            changed |= self.set(cell, support[k]);
        }
        self.note(Technique::RunConsistency, changed)
    }
}
