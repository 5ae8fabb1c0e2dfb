//! Multi-Colors (HoDoKu's `ColoringSolver`): a digit's conjugate pairs colour its places in
//! clusters, each of two colours, one of which holds the digit. Two clusters A and B:
//! - type 2: a colour of A whose cells see both colours of B is false (one of B's colours
//!   is true, and would leave that colour of A no room), so its cells lose the digit;
//! - type 1: a cell of colour a sees a cell of colour b: a and b are not both true, so the
//!   other colours of A and B are not both false, and a cell that sees both loses it.

use super::{Shape, State};
use crate::grade::Technique;

impl State {
    /// Multi-Colors of types 2 and 1, per digit and pair of clusters, as HoDoKu looks.
    pub(super) fn multi_colors(&mut self, shape: &Shape) -> bool {
        for d in 1..=shape.n {
            let digit = 1 << d;
            let links = self.strong_links(shape, digit);
            let clusters: Vec<[Vec<usize>; 2]> = super::links::colourings(&links, 2)
                .into_iter()
                .map(|(colours, cells)| {
                    let of = |colour: bool| {
                        let side = cells.iter().zip(&colours).filter(move |&(_, &c)| c == colour);
                        side.map(|(&x, _)| x).collect()
                    };
                    [of(true), of(false)]
                })
                .collect();
            for (i, a) in clusters.iter().enumerate() {
                for (j, b) in clusters.iter().enumerate() {
                    if i == j {
                        continue;
                    }
                    let seen = |side: &[usize], by: &[usize]| {
                        side.iter().any(|&x| by.iter().any(|&y| shape.sees(x, y)))
                    };
                    // Type 2: a colour of A that sees both colours of B.
                    let false_sides: Vec<&Vec<usize>> =
                        a.iter().filter(|side| seen(&b[0], side) && seen(&b[1], side)).collect();
                    let mut removed = false;
                    for side in &false_sides {
                        for &cell in side.iter() {
                            removed |= self.remove(cell, digit);
                        }
                    }
                    if removed {
                        self.used_colors(Technique::MultiColors2, a, b);
                        return true;
                    }
                    // Type 1: colours a_x and b_y see each other, so a_(1-x) or b_(1-y).
                    for (x, y) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
                        if !seen(&a[x], &b[y]) {
                            continue;
                        }
                        let (ta, tb) = (&a[1 - x], &b[1 - y]);
                        for target in 0..shape.n * shape.n {
                            let member = ta.contains(&target) || tb.contains(&target);
                            let sees = |side: &[usize]| side.iter().any(|&c| shape.sees(c, target));
                            if !member
                                && self.logic.candidates[target] & digit != 0
                                && sees(ta)
                                && sees(tb)
                            {
                                removed |= self.remove(target, digit);
                            }
                        }
                    }
                    if removed {
                        self.used_colors(Technique::MultiColors1, a, b);
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Counts a Multi-Colors step on clusters `a` and `b`: four sets, their colours.
    fn used_colors(&mut self, technique: Technique, a: &[Vec<usize>; 2], b: &[Vec<usize>; 2]) {
        self.used_sets(technique, &[], &[&a[0], &a[1], &b[0], &b[1]], 0);
    }
}
