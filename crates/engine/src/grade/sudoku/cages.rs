//! The cage techniques of a Killer Sudoku, beside the house techniques of `grade::sudoku`
//! on the same candidates. A cage's digits are distinct and add up to its sum, so its
//! cells only take digits of the *live combinations* of its sum: the sets of as many
//! distinct digits as it has cells, adding up to the sum, that hold every digit placed in
//! it and give each of its cells one of its candidates.
//!
//! - **easy**: [`Technique::CageCombination`] (the cells keep the digits of the live
//!   combinations) and [`Technique::CageHiddenSingle`] (a digit every live combination
//!   holds, with one place in the cage, goes there).
//! - **medium**: [`Technique::CagePointing`] (a digit every live combination holds, whose
//!   places in the cage share a house, leaves the rest of that house),
//!   [`Technique::Innies`] and [`Technique::Outies`] (the rule of 45: a house's digits add
//!   up to `n(n+1)/2`, so the few cells of a house outside the cages wholly inside it, or
//!   the few cells outside it of the cages that cover it, have a known sum, which limits
//!   them like a cage's). They look at each house, then at runs of neighbouring rows or
//!   columns (two, then three, ...), whose digits add up to as many times the house sum:
//!   the regions a person looks at, smallest first.
//! - **hard**: [`Technique::CageConsistency`] (a digit stays in a cell only if the cage's
//!   cells can take distinct digits adding up to its sum with that digit there).
//!
//! Every enumeration is bounded ([`MAX_COMBINATIONS`], [`MAX_STATES`]): a cage of a large
//! grid past the bound is left to the other techniques, which only makes the logic weaker,
//! never unsound.

use super::{Shape, State};
use crate::grade::Technique;
use std::collections::HashMap;

/// The most combinations one cage's sum is enumerated to.
const MAX_COMBINATIONS: usize = 4096;

/// The most partial assignments one consistency check explores.
const MAX_STATES: usize = 100_000;

/// The most cells of innies and outies looked at (a sum over more says little).
const MAX_REGION: usize = 3;

impl State {
    /// The live combinations of cage `k` (`None` past the bound).
    fn live(&self, shape: &Shape, k: usize) -> Option<Vec<u32>> {
        let cage = &shape.cages[k];
        let masks: Vec<u32> = cage.cells.iter().map(|&c| self.logic.candidates[c]).collect();
        let allowed = masks.iter().fold(0, |u, &m| u | m);
        let placed = masks.iter().filter(|m| m.is_power_of_two()).fold(0, |u, &m| u | m);
        let all = combinations(cage.cells.len(), cage.total, allowed)?;
        let live = all
            .into_iter()
            .filter(|&set| set & placed == placed && masks.iter().all(|&m| m & set != 0))
            .collect();
        Some(live)
    }

    /// The digits every live combination of cage `k` holds (none when it has none; `None`
    /// past the bound).
    fn required(&self, shape: &Shape, k: usize) -> Option<u32> {
        let live = self.live(shape, k)?;
        Some(live.iter().fold(if live.is_empty() { 0 } else { !0 }, |u, &s| u & s))
    }

    /// Every cage's cells keep only the digits of its live combinations.
    pub(super) fn cage_combinations(&mut self, shape: &Shape) -> bool {
        for k in 0..shape.cages.len() {
            let Some(live) = self.live(shape, k) else { continue };
            let union = live.iter().fold(0, |u, &s| u | s);
            let mut removed = false;
            for &cell in &shape.cages[k].cells {
                removed |= self.remove(cell, !union);
            }
            if removed {
                self.used_on(Technique::CageCombination, &[], &[k], &shape.cages[k].cells, None);
                return true;
            }
        }
        false
    }

    /// A digit every live combination of a cage holds, with one place left in the cage,
    /// goes there.
    pub(super) fn cage_hidden_singles(&mut self, shape: &Shape) -> bool {
        for k in 0..shape.cages.len() {
            let Some(required) = self.required(shape, k) else { continue };
            for digit in bits(required) {
                let places = self.places_in(&shape.cages[k].cells, digit);
                if let [cell] = places[..]
                    && self.remove(cell, !digit)
                {
                    self.used_on(Technique::CageHiddenSingle, &[], &[k], &[cell], None);
                    return true;
                }
            }
        }
        false
    }

    /// A digit every live combination of a cage holds, whose places in the cage lie in one
    /// row, column or box, leaves that house's other cells.
    pub(super) fn cage_pointing(&mut self, shape: &Shape) -> bool {
        for k in 0..shape.cages.len() {
            let Some(required) = self.required(shape, k) else { continue };
            for digit in bits(required) {
                let places = self.places_in(&shape.cages[k].cells, digit);
                let Some(&first) = places.first() else { continue };
                for kind in 0..3 {
                    let target = shape.cell_units[first][kind];
                    if places.iter().any(|&c| shape.cell_units[c][kind] != target) {
                        continue;
                    }
                    let mut removed = false;
                    for &cell in &shape.units[target] {
                        removed |= !places.contains(&cell) && self.remove(cell, digit);
                    }
                    if removed {
                        self.used_on(Technique::CagePointing, &[target], &[k], &places, None);
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Innies: the cells of a house outside the cages wholly inside it add up to the
    /// house's sum less those cages' sums; a few such cells are limited like a cage.
    pub(super) fn innies(&mut self, shape: &Shape) -> bool {
        for units in regions(shape.n) {
            let region = Region::new(shape, &units);
            let inside = region.cages_inside(shape);
            let held: u32 = inside.iter().map(|&k| shape.cages[k].total).sum();
            let rest: Vec<usize> = region
                .cells
                .iter()
                .copied()
                .filter(|&c| shape.cell_cage[c].is_none_or(|k| !inside.contains(&k)))
                .collect();
            if rest.is_empty() || rest.len() > MAX_REGION || held > region.sum {
                continue;
            }
            let sum = region.sum - held;
            if self.restrict(&rest, sum, share_a_house(shape, &rest)) {
                self.used_on(Technique::Innies, &units, &inside, &rest, Some(sum));
                return true;
            }
        }
        false
    }

    /// Outies: when the cages meeting a house cover it, their cells outside it add up to
    /// those cages' sums less the house's; a few such cells are limited like a cage (their
    /// digits distinct only when they share a house).
    pub(super) fn outies(&mut self, shape: &Shape) -> bool {
        for units in regions(shape.n) {
            let region = Region::new(shape, &units);
            let Some(mut meeting) =
                region.cells.iter().map(|&c| shape.cell_cage[c]).collect::<Option<Vec<_>>>()
            else {
                continue;
            };
            meeting.sort_unstable();
            meeting.dedup();
            let outside: Vec<usize> = meeting
                .iter()
                .flat_map(|&k| shape.cages[k].cells.iter().copied())
                .filter(|&c| !region.holds(shape, c))
                .collect();
            let total: u32 = meeting.iter().map(|&k| shape.cages[k].total).sum();
            if outside.is_empty() || outside.len() > MAX_REGION || total <= region.sum {
                continue;
            }
            let sum = total - region.sum;
            if self.restrict(&outside, sum, share_a_house(shape, &outside)) {
                self.used_on(Technique::Outies, &units, &meeting, &outside, Some(sum));
                return true;
            }
        }
        false
    }

    /// Each cage's cells keep only the digits some distinct assignment adding up to its sum
    /// gives them.
    pub(super) fn cage_consistency(&mut self, shape: &Shape) -> bool {
        for k in 0..shape.cages.len() {
            let cage = &shape.cages[k];
            if self.restrict(&cage.cells.clone(), cage.total, true) {
                self.used_on(Technique::CageConsistency, &[], &[k], &shape.cages[k].cells, None);
                return true;
            }
        }
        false
    }

    /// The cells of `cells` that can hold `digit`.
    fn places_in(&self, cells: &[usize], digit: u32) -> Vec<usize> {
        cells.iter().copied().filter(|&c| self.logic.candidates[c] & digit != 0).collect()
    }

    /// Keeps each of `cells` to the digits an assignment adding up to `sum` (of distinct
    /// digits when `distinct`) gives it; true when a digit went.
    fn restrict(&mut self, cells: &[usize], sum: u32, distinct: bool) -> bool {
        let masks: Vec<u32> = cells.iter().map(|&c| self.logic.candidates[c]).collect();
        let Some(fits) = assignments(&masks, sum, distinct) else { return false };
        let mut removed = false;
        for (&cell, keep) in cells.iter().zip(fits) {
            removed |= self.remove(cell, !keep);
        }
        removed
    }
}

/// The sum of a house's digits, `1 + 2 + ... + n`.
fn house_sum(n: usize) -> u32 {
    (n * (n + 1) / 2) as u32
}

/// The regions the rule of 45 looks at, as lists of units of one kind, smallest first:
/// every house, then every run of 2, 3, ... up to `n - 1` neighbouring rows or columns.
/// (A run of all `n` has no cells outside it, and its innies are the whole grid.)
fn regions(n: usize) -> impl Iterator<Item = Vec<usize>> {
    let houses = (0..3 * n).map(|u| vec![u]);
    let runs = (2..n).flat_map(move |len| {
        (0..2).flat_map(move |kind| {
            (0..=n - len).map(move |first| (first..first + len).map(|i| kind * n + i).collect())
        })
    });
    houses.chain(runs)
}

/// A region of the grid: whole units of one kind, whose digits add up to as many times
/// the house sum.
struct Region<'a> {
    /// The units (all rows, all columns or all boxes).
    units: &'a [usize],
    /// Row, column or box: the index into a cell's units.
    kind: usize,
    /// The cells of the units.
    cells: Vec<usize>,
    /// What its digits add up to.
    sum: u32,
}

impl<'a> Region<'a> {
    fn new(shape: &Shape, units: &'a [usize]) -> Region<'a> {
        let kind = units.first().map_or(0, |&u| u / shape.n.max(1));
        let cells = units.iter().flat_map(|&u| shape.units[u].iter().copied()).collect();
        Region { units, kind, cells, sum: house_sum(shape.n) * units.len() as u32 }
    }

    /// True when `cell` lies in the region.
    fn holds(&self, shape: &Shape, cell: usize) -> bool {
        self.units.contains(&shape.cell_units[cell][self.kind])
    }

    /// The cages that lie wholly in the region.
    fn cages_inside(&self, shape: &Shape) -> Vec<usize> {
        let mut inside: Vec<usize> =
            self.cells.iter().filter_map(|&c| shape.cell_cage[c]).collect();
        inside.sort_unstable();
        inside.dedup();
        inside.retain(|&k| shape.cages[k].cells.iter().all(|&c| self.holds(shape, c)));
        inside
    }
}

/// True when `cells` all lie in one row, one column or one box: their digits are then
/// distinct.
fn share_a_house(shape: &Shape, cells: &[usize]) -> bool {
    let Some(&first) = cells.first() else { return true };
    (0..3).any(|kind| {
        cells.iter().all(|&c| shape.cell_units[c][kind] == shape.cell_units[first][kind])
    })
}

/// Iterates the set bits of a mask as one-bit masks, lowest first.
fn bits(mut mask: u32) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        let bit = mask & mask.wrapping_neg();
        mask &= !bit;
        (bit != 0).then_some(bit)
    })
}

/// Every set of `k` distinct digits of `allowed` (bit `d` for digit `d`) adding up to
/// `total`; `None` past [`MAX_COMBINATIONS`].
fn combinations(k: usize, total: u32, allowed: u32) -> Option<Vec<u32>> {
    let digits: Vec<u32> = (1..32).filter(|d| allowed & 1 << d != 0).collect();
    let mut found = Vec::new();
    let mut within = true;
    choose(&digits, k, total, 0, &mut found, &mut within);
    within.then_some(found)
}

/// Extends `set` with `k` more of `digits` (ascending) adding up to `total`.
fn choose(digits: &[u32], k: usize, total: u32, set: u32, found: &mut Vec<u32>, within: &mut bool) {
    if k == 0 {
        if total == 0 {
            found.push(set);
            *within &= found.len() <= MAX_COMBINATIONS;
        }
        return;
    }
    for (i, &d) in digits.iter().enumerate() {
        // The k smallest digits from here must fit the total, the k largest reach it.
        let rest = &digits[i..];
        let smallest: u32 = rest.iter().take(k).sum();
        let largest: u32 = rest.iter().rev().take(k).sum();
        if rest.len() < k || smallest > total || !*within {
            return;
        }
        if largest < total {
            return;
        }
        choose(&digits[i + 1..], k - 1, total - d, set | 1 << d, found, within);
    }
}

/// Per cell of `masks`, the digits some assignment gives it: one candidate per cell, the
/// cells adding up to `sum`, distinct when `distinct`. `None` past [`MAX_STATES`].
fn assignments(masks: &[u32], sum: u32, distinct: bool) -> Option<Vec<u32>> {
    let mut search = Assign { masks, distinct, fits: vec![0; masks.len()], seen: HashMap::new() };
    search.from(0, 0, sum)?;
    Some(search.fits)
}

/// A memoised walk over the cells in order; a state is the next cell, the digits used
/// (for distinct cells) and the sum still to make.
struct Assign<'a> {
    masks: &'a [u32],
    distinct: bool,
    /// The digits found to fit, per cell.
    fits: Vec<u32>,
    /// Whether each state visited can be finished.
    seen: HashMap<(usize, u32, u32), bool>,
}

impl Assign<'_> {
    /// Whether cells `i..` can be finished from `used` with `left` to make, noting the
    /// digits that fit on the way; `None` past the bound.
    fn from(&mut self, i: usize, used: u32, left: u32) -> Option<bool> {
        if i == self.masks.len() {
            return Some(left == 0);
        }
        if let Some(&known) = self.seen.get(&(i, used, left)) {
            return Some(known);
        }
        if self.seen.len() >= MAX_STATES {
            return None;
        }
        let mut any = false;
        for digit in bits(self.masks[i] & !used) {
            let value = digit.trailing_zeros();
            if value > left {
                break;
            }
            let next = if self.distinct { used | digit } else { used };
            if self.from(i + 1, next, left - value)? {
                self.fits[i] |= digit;
                any = true;
            }
        }
        self.seen.insert((i, used, left), any);
        Some(any)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rule_of_45_looks_at_houses_then_longer_runs_of_rows_and_columns() {
        let all: Vec<Vec<usize>> = regions(4).collect();
        // 12 houses; runs of 2 (3 of rows, 3 of columns) and of 3 (2 and 2).
        assert_eq!(all.len(), 12 + 6 + 4);
        assert!(all[..12].iter().enumerate().all(|(u, r)| *r == [u]));
        assert_eq!(all[12], [0, 1]);
        assert_eq!(all[15], [4, 5]);
        assert_eq!(all[21], [5, 6, 7]);
        assert!(all.windows(2).all(|w| w[0].len() <= w[1].len()), "smallest first");
    }

    #[test]
    fn a_sum_has_its_combinations_of_distinct_digits() {
        let nine = 0x3FE;
        assert_eq!(combinations(2, 3, nine), Some(vec![0b110]));
        assert_eq!(combinations(2, 17, nine), Some(vec![1 << 8 | 1 << 9]));
        assert_eq!(combinations(3, 6, nine), Some(vec![0b1110]));
        assert_eq!(combinations(2, 10, nine).map(|c| c.len()), Some(4));
        assert_eq!(combinations(2, 2, nine), Some(vec![]));
    }

    #[test]
    fn assignments_keep_only_digits_that_complete_the_sum() {
        // Two cells of {1..9} adding up to 4: {1,3} only, as 2+2 repeats a digit.
        let fits = assignments(&[0x3FE, 0x3FE], 4, true).unwrap();
        assert_eq!(fits, vec![0b1010, 0b1010]);
        // Without distinct digits, 2+2 is allowed.
        let fits = assignments(&[0x3FE, 0x3FE], 4, false).unwrap();
        assert_eq!(fits, vec![0b1110, 0b1110]);
        // No assignment at all.
        assert_eq!(assignments(&[0b10, 0b10], 2, true).unwrap(), vec![0, 0]);
    }
}
