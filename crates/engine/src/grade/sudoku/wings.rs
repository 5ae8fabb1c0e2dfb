//! Wings: a pivot cell and two pincers that see it, whichever digit the pivot takes, put
//! one digit `z` in a pincer (or the pivot), so every cell that sees them all loses `z`.
//! XY-Wing (pivot `{x,y}`, pincers `{x,z}` and `{y,z}`), XYZ-Wing (pivot `{x,y,z}`, the
//! cells that lose `z` see the pivot too) and W-Wing (two cells `{x,y}` that do not see
//! each other, joined by a strong link on `x`: one of them is `y`). Definitions as in
//! HoDoKu's `WingSolver` and SudokuWiki's write-ups.

use super::{Shape, State};
use crate::grade::Technique;

impl State {
    /// The first XY-Wing (`size` 2) or XYZ-Wing (`size` 3) that removes a candidate.
    pub(super) fn xy_wings(&mut self, shape: &Shape, size: u32) -> bool {
        let technique = if size == 2 { Technique::XyWing } else { Technique::XyzWing };
        for pivot in 0..shape.n * shape.n {
            let p = self.logic.candidates[pivot];
            if p.count_ones() != size {
                continue;
            }
            let pincers: Vec<usize> = shape
                .peers(pivot)
                .iter()
                .copied()
                .filter(|&c| {
                    let m = self.logic.candidates[c];
                    // An XY-Wing's pincers share one digit with the pivot, an XYZ-Wing's two.
                    m.count_ones() == 2 && (m & p).count_ones() == size - 1
                })
                .collect();
            for (i, &a) in pincers.iter().enumerate() {
                for &b in &pincers[i + 1..] {
                    let (am, bm) = (self.logic.candidates[a], self.logic.candidates[b]);
                    let z = am & bm;
                    let wing = z.count_ones() == 1
                        && match size {
                            // {x,z}, {y,z} around {x,y}.
                            2 => z & p == 0 && (am | bm) & !z == p,
                            // {x,z}, {y,z} inside {x,y,z}.
                            _ => (am | bm) == p,
                        };
                    if !wing {
                        continue;
                    }
                    let seen: Vec<usize> = if size == 2 { vec![a, b] } else { vec![pivot, a, b] };
                    if self.clear_seeing(shape, z, &seen) {
                        self.used(technique, &[], &[pivot, a, b]);
                        return true;
                    }
                }
            }
        }
        false
    }

    /// The first W-Wing that removes a candidate.
    pub(super) fn w_wings(&mut self, shape: &Shape) -> bool {
        let cells = shape.n * shape.n;
        let pairs: Vec<usize> =
            (0..cells).filter(|&c| self.logic.candidates[c].count_ones() == 2).collect();
        for (i, &a) in pairs.iter().enumerate() {
            let mask = self.logic.candidates[a];
            for &b in &pairs[i + 1..] {
                if self.logic.candidates[b] != mask || shape.sees(a, b) {
                    continue;
                }
                let (x, y) = (mask & mask.wrapping_neg(), mask & (mask - 1));
                for (link, other) in [(x, y), (y, x)] {
                    let Some(ends) = self.joining_link(shape, link, a, b) else { continue };
                    if self.clear_seeing(shape, other, &[a, b]) {
                        self.used(Technique::WWing, &[ends.0], &[a, ends.1, ends.2, b]);
                        return true;
                    }
                }
            }
        }
        false
    }

    /// A strong link on `digit` with one end seeing `a` and the other seeing `b` (neither
    /// end being `a` or `b`): its unit and ends, the one seeing `a` first.
    fn joining_link(
        &self,
        shape: &Shape,
        digit: u32,
        a: usize,
        b: usize,
    ) -> Option<(usize, usize, usize)> {
        for (u, unit) in shape.units.iter().enumerate() {
            let places = self.places(unit, digit);
            if places.count_ones() != 2 {
                continue;
            }
            let e1 = unit[places.trailing_zeros() as usize];
            let e2 = unit[(31 - places.leading_zeros()) as usize];
            if [e1, e2].contains(&a) || [e1, e2].contains(&b) {
                continue;
            }
            if shape.sees(e1, a) && shape.sees(e2, b) {
                return Some((u, e1, e2));
            }
            if shape.sees(e2, a) && shape.sees(e1, b) {
                return Some((u, e2, e1));
            }
        }
        None
    }
}
