//! Finned and sashimi fish: `k` base lines whose places of a digit lie on `k` cover lines
//! but for a few extra places, the fins, all in one box. Either a fin holds the digit, or
//! the lines make a plain fish; both clear the digit from the cells of the fins' box that
//! lie on a cover line outside the base lines. Sashimi when a base line keeps at most one
//! place on the cover lines. Definitions as in HoDoKu's `FishSolver` (basic fish) and
//! SudokuWiki's write-ups.

use super::techniques::subsets;
use super::{Shape, State};
use crate::grade::Technique;

impl State {
    /// The first finned (`sashimi` false) or sashimi fish of `k` lines that removes a
    /// candidate.
    pub(super) fn finned_fish(&mut self, shape: &Shape, k: usize, sashimi: bool) -> bool {
        let n = shape.n;
        for d in 1..=n {
            let digit = 1 << d;
            for (base, cover) in [(0, 1), (1, 0)] {
                let lines = self.lines_with(shape, base, digit, 2..=u32::MAX);
                for subset in subsets(lines.len(), k) {
                    let chosen: Vec<(usize, u32)> = subset.iter().map(|&i| lines[i]).collect();
                    let union = chosen.iter().fold(0, |u, &(_, p)| u | p);
                    if union.count_ones() as usize <= k {
                        continue;
                    }
                    let lines = Lines { chosen: &chosen, k, base, cover, sashimi };
                    let found = self.fins_in_a_box(shape, &lines, digit);
                    if let Some((covers, fin_box)) = found {
                        let mut units: Vec<usize> =
                            chosen.iter().map(|&(line, _)| base * n + line).collect();
                        units.extend(covers.iter().map(|&line| cover * n + line));
                        units.push(fin_box);
                        let cells = places_of(shape, &chosen, base);
                        let technique =
                            if k == 2 { Technique::FinnedXWing } else { Technique::FinnedFish };
                        self.used(technique, &units, &cells);
                        return true;
                    }
                }
            }
        }
        false
    }

    /// For base lines `chosen` (index, places), the cover lines and the box of a finned
    /// fish among them that clears something (cleared here): every place outside the box
    /// on a cover line, at least one fin in it.
    fn fins_in_a_box(
        &mut self,
        shape: &Shape,
        lines: &Lines<'_>,
        digit: u32,
    ) -> Option<(Vec<usize>, usize)> {
        let Lines { chosen, k, base, cover, sashimi } = *lines;
        let n = shape.n;
        // The cell at position `p` of base line `line`.
        let cell = |line: usize, p: usize| if base == 0 { line * n + p } else { p * n + line };
        let mut boxes: Vec<usize> = chosen
            .iter()
            .flat_map(|&(line, places)| {
                (0..n).filter(move |&p| places & 1 << p != 0).map(move |p| (line, p))
            })
            .map(|(line, p)| shape.cell_units[cell(line, p)][2])
            .collect();
        boxes.sort_unstable();
        boxes.dedup();
        for fin_box in boxes {
            let in_box = |line: usize, p: usize| shape.cell_units[cell(line, p)][2] == fin_box;
            // The positions the places outside the box need as cover lines.
            let mut outside = 0u32;
            let mut inside = 0u32;
            for &(line, places) in chosen {
                for p in (0..n).filter(|&p| places & 1 << p != 0) {
                    if in_box(line, p) {
                        inside |= 1 << p;
                    } else {
                        outside |= 1 << p;
                    }
                }
            }
            let needed = outside.count_ones() as usize;
            if needed > k {
                continue;
            }
            // The rest of the cover lines go through the box, at positions it holds places.
            let free: Vec<usize> = (0..n).filter(|&p| inside & !outside & 1 << p != 0).collect();
            for extra in subsets(free.len(), k - needed) {
                let covers = extra.iter().fold(outside, |u, &i| u | 1 << free[i]);
                let fins = inside & !covers;
                // No fins: a plain fish, which `fish` finds. Sashimi: a base line keeps at
                // most one place on the cover lines (HoDoKu's definition).
                let thin = chosen.iter().any(|&(_, places)| (places & covers).count_ones() <= 1);
                if fins == 0 || thin != sashimi {
                    continue;
                }
                let mut removed = false;
                for p in (0..n).filter(|&p| covers & 1 << p != 0) {
                    for &target in &shape.kind(cover)[p] {
                        let line = if base == 0 { target / n } else { target % n };
                        let on_base = chosen.iter().any(|&(l, _)| l == line);
                        if !on_base && shape.cell_units[target][2] == fin_box {
                            removed |= self.remove(target, digit);
                        }
                    }
                }
                if removed {
                    let lines = (0..n).filter(|&p| covers & 1 << p != 0).collect();
                    return Some((lines, fin_box));
                }
            }
        }
        None
    }
}

/// The base lines of a finned fish looked for, and what it must be.
#[derive(Clone, Copy)]
struct Lines<'a> {
    /// The base lines: index and places of the digit along it.
    chosen: &'a [(usize, u32)],
    /// How many.
    k: usize,
    /// Their kind (0 rows, 1 columns), and the cover lines' kind.
    base: usize,
    cover: usize,
    /// A sashimi fish is wanted, not a finned one.
    sashimi: bool,
}

/// Every place of the digit on the base lines `chosen`, fins included.
fn places_of(shape: &Shape, chosen: &[(usize, u32)], base: usize) -> Vec<usize> {
    let n = shape.n;
    chosen
        .iter()
        .flat_map(|&(line, places)| {
            (0..n)
                .filter(move |&p| places & 1 << p != 0)
                .map(move |p| if base == 0 { line * n + p } else { p * n + line })
        })
        .collect()
}
