//! The techniques of the levels up to hard, each a pass over the grid that removes what it
//! proves and records the step: singles, locked candidates, naked and hidden subsets, and
//! fish. Trial, which follows them, stays with the logic's loop in `mod.rs`.

use super::{Shape, State};
use crate::grade::Technique;

impl State {
    /// Every cell with one candidate not yet spread: its digit leaves its peers.
    pub(super) fn naked_singles(&mut self, shape: &Shape) -> bool {
        let mut progress = false;
        for cell in 0..shape.n * shape.n {
            let mask = self.logic.candidates[cell];
            if self.placed[cell] || !mask.is_power_of_two() {
                continue;
            }
            self.placed[cell] = true;
            progress = true;
            let mut removed = false;
            for unit in shape.cell_units[cell] {
                for &peer in &shape.units[unit] {
                    removed |= peer != cell && self.remove(peer, mask);
                }
            }
            // A Killer's digit leaves its cage too.
            let cage = shape.cell_cage.get(cell).copied().flatten();
            if let Some(k) = cage {
                for &peer in &shape.cages[k].cells {
                    removed |= peer != cell && self.remove(peer, mask);
                }
            }
            if removed {
                let cages: Vec<usize> = cage.into_iter().collect();
                self.used_on(
                    Technique::NakedSingle,
                    &shape.cell_units[cell],
                    &cages,
                    &[cell],
                    None,
                );
            }
        }
        progress
    }

    /// The cells of `unit` (as a bit set over its positions) where `digit` may go.
    pub(super) fn places(&self, unit: &[usize], digit: u32) -> u32 {
        let has = |cell: usize| self.logic.candidates[cell] & digit != 0;
        unit.iter().enumerate().filter(|&(_, &c)| has(c)).fold(0, |bits, (i, _)| bits | 1 << i)
    }

    /// A digit with one place left in a unit goes there.
    pub(super) fn hidden_singles(&mut self, shape: &Shape) -> bool {
        for (u, unit) in shape.units.iter().enumerate() {
            for d in 1..=shape.n {
                let places = self.places(unit, 1 << d);
                if places == 0 {
                    self.logic.contradiction = true;
                    return true;
                }
                let cell = unit[places.trailing_zeros() as usize];
                if places.is_power_of_two() && self.remove(cell, !(1 << d)) {
                    self.used(Technique::HiddenSingle, &[u], &[cell]);
                    return true;
                }
            }
        }
        false
    }

    /// Pointing (a digit of a box confined to one row or column leaves the rest of that
    /// line), then claiming (a digit of a row, then a column, confined to one box leaves the
    /// rest of it): house by house, digit by digit, as HoDoKu looks.
    pub(super) fn locked_candidates(&mut self, shape: &Shape) -> bool {
        for (from, targets) in [(2, &[0, 1][..]), (0, &[2][..]), (1, &[2][..])] {
            for (i, unit) in shape.kind(from).iter().enumerate() {
                for d in 1..=shape.n {
                    let digit = 1 << d;
                    let cells: Vec<usize> = unit
                        .iter()
                        .copied()
                        .filter(|&c| self.logic.candidates[c] & digit != 0)
                        .collect();
                    let Some(&first) = cells.first() else { continue };
                    for &to in targets {
                        let target = shape.cell_units[first][to];
                        if cells.len() < 2
                            || cells.iter().any(|&c| shape.cell_units[c][to] != target)
                        {
                            continue;
                        }
                        let mut removed = false;
                        for &cell in &shape.units[target] {
                            removed |= !unit.contains(&cell) && self.remove(cell, digit);
                        }
                        if removed {
                            let units = [from * shape.n + i, target];
                            self.used(Technique::LockedCandidates, &units, &cells);
                            return true;
                        }
                    }
                }
            }
        }
        false
    }

    /// `k` open cells of a unit holding only `k` digits between them: those digits leave
    /// the other cells of every house the `k` share, in one step. With `locked`, only a
    /// pair or triple of a box that also lies in one line and clears both (HoDoKu's Locked
    /// Pair and Triple, tried before pointing); without, only the others. Boxes are looked
    /// at first, then rows, then columns, as HoDoKu does.
    pub(super) fn naked_subsets(&mut self, shape: &Shape, k: usize, locked: bool) -> bool {
        let n = shape.n;
        let units: Vec<usize> =
            if locked { (2 * n..3 * n).collect() } else { boxes_first(n).collect() };
        for u in units {
            let unit = &shape.units[u];
            let open: Vec<usize> = unit
                .iter()
                .copied()
                .filter(|&c| {
                    let m = self.logic.candidates[c];
                    (2..=k as u32).contains(&m.count_ones())
                })
                .collect();
            for subset in subsets(open.len(), k) {
                let cells: Vec<usize> = subset.iter().map(|&i| open[i]).collect();
                let union = cells.iter().fold(0, |u, &c| u | self.logic.candidates[c]);
                if union.count_ones() as usize != k {
                    continue;
                }
                // The houses all `k` share, the searched one first.
                let mut shared = vec![u];
                shared.extend(shape.cell_units[cells[0]].into_iter().filter(|&h| {
                    h != u && cells.iter().all(|&c| shape.cell_units[c].contains(&h))
                }));
                let block = shape.cell_units[cells[0]][2];
                let clears = |h: usize, outside_box: bool| {
                    shape.units[h].iter().any(|&c| {
                        !cells.contains(&c)
                            && self.logic.candidates[c] & union != 0
                            && !(outside_box && shape.cell_units[c][2] == block)
                    })
                };
                let in_box = shared.contains(&block) && clears(block, false);
                let in_line = shared.iter().any(|&h| h != block && clears(h, true));
                if (k < 4 && in_box && in_line) != locked {
                    continue;
                }
                let mut removed = false;
                for &h in &shared {
                    for &cell in &shape.units[h] {
                        removed |= !cells.contains(&cell) && self.remove(cell, union);
                    }
                }
                if removed {
                    let technique = match (locked, k) {
                        (true, 2) => Technique::LockedPair,
                        (true, _) => Technique::LockedTriple,
                        _ => subset_kind(Technique::NakedSubset, k),
                    };
                    self.used(technique, &shared, &cells);
                    return true;
                }
            }
        }
        false
    }

    /// `k` digits of a unit that only `k` of its cells can hold: those cells keep no other
    /// digit. Boxes first, then rows, then columns, as HoDoKu looks.
    pub(super) fn hidden_subsets(&mut self, shape: &Shape, k: usize) -> bool {
        for u in boxes_first(shape.n) {
            let unit = &shape.units[u];
            let digits: Vec<(u32, u32)> = (1..=shape.n)
                .map(|d| (1u32 << d, self.places(unit, 1 << d)))
                .filter(|&(_, p)| (2..=k as u32).contains(&p.count_ones()))
                .collect();
            for subset in subsets(digits.len(), k) {
                let places = subset.iter().fold(0, |u, &i| u | digits[i].1);
                if places.count_ones() as usize != k {
                    continue;
                }
                let keep = subset.iter().fold(0, |u, &i| u | digits[i].0);
                let mut removed = false;
                for (i, &cell) in unit.iter().enumerate() {
                    removed |= places & 1 << i != 0 && self.remove(cell, !keep);
                }
                if removed {
                    let cells: Vec<usize> = unit
                        .iter()
                        .enumerate()
                        .filter(|&(i, _)| places & 1 << i != 0)
                        .map(|(_, &c)| c)
                        .collect();
                    self.used(subset_kind(Technique::HiddenSubset, k), &[u], &cells);
                    return true;
                }
            }
        }
        false
    }

    /// The lines of kind `base` (0 rows, 1 columns) whose count of places of `digit` is in
    /// `counts`: each line's index and places, as positions along it (a fish's base lines).
    pub(super) fn lines_with(
        &self,
        shape: &Shape,
        base: usize,
        digit: u32,
        counts: std::ops::RangeInclusive<u32>,
    ) -> Vec<(usize, u32)> {
        let lines = shape.kind(base).iter().enumerate();
        let placed = lines.map(|(i, unit)| (i, self.places(unit, digit)));
        placed.filter(|&(_, p)| counts.contains(&p.count_ones())).collect()
    }

    /// A digit whose places in `k` rows lie in `k` columns leaves those columns' other
    /// rows (and the same with columns and rows swapped).
    pub(super) fn fish(&mut self, shape: &Shape, k: usize) -> bool {
        for d in 1..=shape.n {
            let digit = 1 << d;
            for (base, cover) in [(0, 1), (1, 0)] {
                let lines = self.lines_with(shape, base, digit, 2..=k as u32);
                for subset in subsets(lines.len(), k) {
                    let covered = subset.iter().fold(0, |u, &i| u | lines[i].1);
                    if covered.count_ones() as usize != k {
                        continue;
                    }
                    let mut removed = false;
                    for (line, unit) in shape.kind(cover).iter().enumerate() {
                        if covered & 1 << line == 0 {
                            continue;
                        }
                        for (position, &cell) in unit.iter().enumerate() {
                            let in_base = subset.iter().any(|&i| lines[i].0 == position);
                            removed |= !in_base && self.remove(cell, digit);
                        }
                    }
                    if removed {
                        let n = shape.n;
                        let mut units: Vec<usize> =
                            subset.iter().map(|&i| base * n + lines[i].0).collect();
                        units.extend(
                            (0..n)
                                .filter(|line| covered & 1 << line != 0)
                                .map(|line| cover * n + line),
                        );
                        let cells: Vec<usize> = subset
                            .iter()
                            .flat_map(|&i| {
                                let (line, places) = lines[i];
                                let unit = &shape.kind(base)[line];
                                unit.iter()
                                    .enumerate()
                                    .filter(move |&(p, _)| places & 1 << p != 0)
                                    .map(|(_, &c)| c)
                            })
                            .collect();
                        self.used(Technique::Fish, &units, &cells);
                        return true;
                    }
                }
            }
        }
        false
    }
}

/// The units boxes first, then rows, then columns: HoDoKu's order for subsets.
fn boxes_first(n: usize) -> impl Iterator<Item = usize> {
    (2 * n..3 * n).chain(0..2 * n)
}

/// The technique a subset of `k` cells or digits counts as: quads are hard (HoDoKu's
/// levels), smaller subsets medium.
fn subset_kind(subset: Technique, k: usize) -> Technique {
    match (subset, k) {
        (Technique::NakedSubset, 4..) => Technique::NakedQuad,
        (Technique::HiddenSubset, 4..) => Technique::HiddenQuad,
        _ => subset,
    }
}

/// Every `k`-element subset of `0..len`, as sorted index lists.
pub(super) fn subsets(len: usize, k: usize) -> Vec<Vec<usize>> {
    let mut all = Vec::new();
    let mut current = Vec::with_capacity(k);
    fn extend(
        start: usize,
        len: usize,
        k: usize,
        current: &mut Vec<usize>,
        all: &mut Vec<Vec<usize>>,
    ) {
        if current.len() == k {
            all.push(current.clone());
            return;
        }
        for i in start..len {
            current.push(i);
            extend(i + 1, len, k, current, all);
            current.pop();
        }
    }
    extend(0, len, k, &mut current, &mut all);
    all
}
