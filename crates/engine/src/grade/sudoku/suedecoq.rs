//! Sue de Coq: where a row or column crosses a box, two or three open cells of the crossing
//! `C` hold digits `V`, at least two more than cells. A set `D` of the line's other cells
//! and a set `E` of the box's other cells, sharing no digit of `V`, each with more cells
//! than digits outside `V`, make with `C` as many cells as the digits they can hold (a
//! digit of `V` once, a digit outside `V` once in `D` and once in `E`): every one of those
//! digits is placed there. So `D`'s digits and those of `V` that `E` lacks leave the rest of
//! the line, `E`'s and those that `D` lacks the rest of the box. By the definition of
//! HoDoKu's `MiscellaneousSolver` (its sets drawn from cells outside the crossing); looked
//! for on grids up to 9x9.

use super::techniques::subsets;
use super::{Shape, State};
use crate::grade::Technique;

/// The largest side looked at.
const MAX_SIDE: usize = 9;

impl State {
    /// The union of the candidates of `cells`.
    fn held(&self, cells: &[usize]) -> u32 {
        cells.iter().fold(0, |u, &c| u | self.logic.candidates[c])
    }

    /// Every subset of `cells` (as cell lists), smallest first.
    fn groups(cells: &[usize]) -> Vec<Vec<usize>> {
        let all = (1..=cells.len()).flat_map(|k| subsets(cells.len(), k));
        all.map(|pick| pick.iter().map(|&i| cells[i]).collect()).collect()
    }

    /// The first Sue de Coq that removes a candidate.
    pub(super) fn sue_de_coq(&mut self, shape: &Shape) -> bool {
        if shape.n > MAX_SIDE {
            return false;
        }
        let n = shape.n;
        for line in 0..2 * n {
            for b in 2 * n..3 * n {
                let open = |c: &usize| self.logic.candidates[*c].count_ones() >= 2;
                let (line_cells, box_cells) = (&shape.units[line], &shape.units[b]);
                let crossing: Vec<usize> = line_cells
                    .iter()
                    .copied()
                    .filter(|c| box_cells.contains(c) && open(c))
                    .collect();
                if crossing.len() < 2 {
                    continue;
                }
                let rest_of = |unit: &[usize], other: &[usize]| -> Vec<usize> {
                    unit.iter().copied().filter(|c| !other.contains(c) && open(c)).collect()
                };
                let (line_rest, box_rest) =
                    (rest_of(line_cells, box_cells), rest_of(box_cells, line_cells));
                for k in 2..=crossing.len().min(3) {
                    for pick in subsets(crossing.len(), k) {
                        let c: Vec<usize> = pick.iter().map(|&i| crossing[i]).collect();
                        if self.sue_de_coq_at(shape, [line, b], &c, &line_rest, &box_rest) {
                            return true;
                        }
                    }
                }
            }
        }
        false
    }

    /// A Sue de Coq on the crossing cells `c` of `units` (line, box), its sets drawn from
    /// `line_rest` and `box_rest`.
    fn sue_de_coq_at(
        &mut self,
        shape: &Shape,
        units: [usize; 2],
        c: &[usize],
        line_rest: &[usize],
        box_rest: &[usize],
    ) -> bool {
        let v = self.held(c);
        let plus = v.count_ones() as usize - c.len();
        if plus < 2 {
            return false;
        }
        for d in State::groups(line_rest) {
            let d_digits = self.held(&d);
            let (vd, xd) = (d_digits & v, d_digits & !v);
            let spare = d.len().saturating_sub(xd.count_ones() as usize);
            if vd == 0 || spare == 0 || spare >= plus {
                continue;
            }
            // E's cells may not hold a digit of V that D holds.
            let allowed: Vec<usize> = box_rest
                .iter()
                .copied()
                .filter(|&cell| self.logic.candidates[cell] & vd == 0)
                .collect();
            for e in State::groups(&allowed) {
                let e_digits = self.held(&e);
                let (ve, xe) = (e_digits & v, e_digits & !v);
                let e_spare = e.len().saturating_sub(xe.count_ones() as usize);
                if ve == 0 || e.len() <= xe.count_ones() as usize || e_spare != plus - spare {
                    continue;
                }
                let mut removed = false;
                let (line_gone, box_gone) = ((v & !ve) | xd, (v & !vd) | xe);
                for (unit, gone, set) in [(units[0], line_gone, &d), (units[1], box_gone, &e)] {
                    for &cell in &shape.units[unit] {
                        if !c.contains(&cell) && !set.contains(&cell) {
                            removed |= self.remove(cell, gone);
                        }
                    }
                }
                if removed {
                    self.used_sets(Technique::SueDeCoq, &units, &[c, &d, &e], 0);
                    return true;
                }
            }
        }
        false
    }
}
