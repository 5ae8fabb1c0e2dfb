//! The uniqueness techniques, tried only on a puzzle proved to have one solution (a grid of
//! side 9 whose solver count stops at one, see `mod.rs`): a deadly pattern, four open
//! cells in two rows, two columns and two boxes holding `a` and `b` crosswise, could swap
//! its digits and make a second solution, so the candidates that would complete one go.
//! BUG+1, Unique Rectangles types 1 to 6, Hidden Rectangles and Avoidable Rectangles types
//! 1 and 2, by the definitions of HoDoKu's `UniquenessSolver` (its rectangles start from a
//! cell of two candidates and a partner in its box, as here).

use super::techniques::subsets;
use super::{Shape, State};
use crate::grade::Technique;

/// Four cells in two rows, two columns and two boxes: `[i11, i12, i21, i22]`, the first
/// two in one box, `i21` in line with `i11` and `i22` with `i12`.
type Corners = [usize; 4];

impl State {
    /// The cell's candidates count: a cell of one is placed.
    fn open(&self, cell: usize) -> bool {
        self.logic.candidates[cell].count_ones() >= 2
    }

    /// BUG+1: every open cell holds two candidates but one, which holds three, and each
    /// digit has two places in each house but one digit, three in that cell's row, column
    /// and box. Without that digit there, the grid would be a bivalue universal grave,
    /// which has no solution or more than one: the cell takes it.
    pub(super) fn bug_plus_one(&mut self, shape: &Shape) -> bool {
        let cells = shape.n * shape.n;
        let mut three = None;
        for cell in (0..cells).filter(|&c| self.open(c)) {
            match self.logic.candidates[cell].count_ones() {
                2 => {}
                3 if three.is_none() => three = Some(cell),
                _ => return false,
            }
        }
        let Some(cell) = three else { return false };
        let mut extra = 0u32;
        let mut units = Vec::new();
        for (u, unit) in shape.units.iter().enumerate() {
            for d in 1..=shape.n {
                let digit = 1u32 << d;
                let count = unit
                    .iter()
                    .filter(|&&c| self.open(c) && self.logic.candidates[c] & digit != 0)
                    .count();
                match count {
                    0..=2 => {}
                    3 if extra == 0 || extra == digit => {
                        extra = digit;
                        units.push(u);
                    }
                    _ => return false,
                }
            }
        }
        if extra == 0 || units.as_slice() != shape.cell_units[cell] {
            return false;
        }
        if self.logic.candidates[cell] & extra == 0 || !self.remove(cell, !extra) {
            return false;
        }
        self.used(Technique::BugPlusOne, &units, &[cell]);
        true
    }

    /// The uniqueness tests in HoDoKu's order: unique rectangles of types 1 to 6, hidden
    /// rectangles, avoidable rectangles of types 1 and 2.
    pub(super) fn rectangles_of_uniqueness(&mut self, shape: &Shape) -> bool {
        use Technique::{
            AvoidableRectangle1, AvoidableRectangle2, HiddenRectangle, UniqueRectangle1,
            UniqueRectangle2, UniqueRectangle3, UniqueRectangle4, UniqueRectangle5,
            UniqueRectangle6,
        };
        [
            UniqueRectangle1,
            UniqueRectangle2,
            UniqueRectangle3,
            UniqueRectangle4,
            UniqueRectangle5,
            UniqueRectangle6,
            HiddenRectangle,
        ]
        .into_iter()
        .any(|t| self.unique_rectangles(shape, t))
            || [AvoidableRectangle1, AvoidableRectangle2]
                .into_iter()
                .any(|t| self.avoidable_rectangles(shape, t))
    }

    /// The first unique (or hidden) rectangle of `technique`'s type that removes a
    /// candidate.
    pub(super) fn unique_rectangles(&mut self, shape: &Shape, technique: Technique) -> bool {
        for (corners, pair) in self.rectangles(shape) {
            let found = match technique {
                Technique::UniqueRectangle1 => self.ur_type_1(corners, pair),
                Technique::UniqueRectangle2 | Technique::UniqueRectangle5 => {
                    self.ur_type_2_or_5(shape, corners, pair, technique)
                }
                Technique::UniqueRectangle3 => self.ur_type_3(shape, corners, pair),
                Technique::UniqueRectangle4 => self.ur_type_4(shape, corners, pair),
                Technique::UniqueRectangle6 => self.ur_type_6(shape, corners, pair),
                Technique::HiddenRectangle => self.hidden_rectangle(shape, corners, pair),
                _ => false,
            };
            if found {
                let units = self.rectangle_units(shape, &corners);
                self.used(technique, &units, &corners);
                return true;
            }
        }
        false
    }

    /// The rows and columns of a rectangle (its two boxes follow from them).
    fn rectangle_units(&self, shape: &Shape, corners: &Corners) -> Vec<usize> {
        let mut units: Vec<usize> = corners
            .iter()
            .flat_map(|&c| [shape.cell_units[c][0], shape.cell_units[c][1]])
            .collect();
        units.sort_unstable();
        units.dedup();
        units
    }

    /// Every rectangle of open cells holding both digits of a cell of two, as HoDoKu finds
    /// them: from that cell, a partner in its box on its row or column, and the two cells
    /// in line with them in another box. Each once, with the pair.
    fn rectangles(&self, shape: &Shape) -> Vec<(Corners, u32)> {
        let mut seen = Vec::new();
        let mut found = Vec::new();
        for i11 in 0..shape.n * shape.n {
            let pair = self.logic.candidates[i11];
            if pair.count_ones() != 2 {
                continue;
            }
            let has = |c: usize| self.open(c) && self.logic.candidates[c] & pair == pair;
            for (i12, i21, i22) in self.partners(shape, i11, &has) {
                if !has(i21) || !has(i22) {
                    continue;
                }
                let mut key = [i11, i12, i21, i22];
                key.sort_unstable();
                if !seen.contains(&key) {
                    seen.push(key);
                    found.push(([i11, i12, i21, i22], pair));
                }
            }
        }
        found
    }

    /// For `i11`, each partner `i12` in its box on its row or column that `partner`
    /// accepts, with each pair of cells `(i21, i22)` in line with them in another box
    /// (`i21` with `i11`).
    fn partners(
        &self,
        shape: &Shape,
        i11: usize,
        partner: &dyn Fn(usize) -> bool,
    ) -> Vec<(usize, usize, usize)> {
        let n = shape.n;
        let [r11, c11, b11] = shape.cell_units[i11];
        let mut out = Vec::new();
        for &i12 in &shape.units[b11] {
            let [r12, c12, _] = shape.cell_units[i12];
            if i12 == i11 || (r12 != r11 && c12 != c11) || !partner(i12) {
                continue;
            }
            // On one row: the far side is along the two columns, and the other way round.
            let (line11, line12) = if r11 == r12 { (c11, c12) } else { (r11, r12) };
            let (u11, u12) = (&shape.units[line11], &shape.units[line12]);
            for k in 0..n {
                let (i21, i22) = (u11[k], u12[k]);
                if shape.cell_units[i21][2] != b11 {
                    out.push((i12, i21, i22));
                }
            }
        }
        out
    }

    /// Type 1: three corners hold only the pair: the fourth loses both.
    fn ur_type_1(&mut self, corners: Corners, pair: u32) -> bool {
        let more: Vec<usize> =
            corners.into_iter().filter(|&c| self.logic.candidates[c] & !pair != 0).collect();
        more.len() == 1 && self.remove(more[0], pair)
    }

    /// The corners holding more than the pair.
    fn with_more(&self, corners: Corners, pair: u32) -> Vec<usize> {
        corners.into_iter().filter(|&c| self.logic.candidates[c] & !pair != 0).collect()
    }

    /// Types 2 and 5: the corners with more (two or three) hold one more digit between
    /// them: one of them holds it, so it leaves the cells that see them all. Type 2 when
    /// they are two on one row or column, type 5 otherwise.
    fn ur_type_2_or_5(
        &mut self,
        shape: &Shape,
        corners: Corners,
        pair: u32,
        technique: Technique,
    ) -> bool {
        let more = self.with_more(corners, pair);
        if !(2..=3).contains(&more.len()) {
            return false;
        }
        let extra = more.iter().fold(0, |u, &c| u | self.logic.candidates[c] & !pair);
        if extra.count_ones() != 1 {
            return false;
        }
        let [a, b] = [more[0], more[1]];
        let in_line =
            more.len() == 2 && (0..2).any(|k| shape.cell_units[a][k] == shape.cell_units[b][k]);
        let kind = if in_line { Technique::UniqueRectangle2 } else { Technique::UniqueRectangle5 };
        kind == technique && self.clear_seeing(shape, extra, &more)
    }

    /// Type 3: the two corners with more act as one cell holding their extra digits; with
    /// `k` other cells of a house they share (holding neither digit of the pair) that make
    /// `k + 1` digits, those digits are locked in them and leave the rest of the house (and
    /// of the box too when all lie in one).
    fn ur_type_3(&mut self, shape: &Shape, corners: Corners, pair: u32) -> bool {
        let more = self.with_more(corners, pair);
        let &[a, b] = more.as_slice() else { return false };
        let extra = (self.logic.candidates[a] | self.logic.candidates[b]) & !pair;
        for kind in 0..3 {
            let unit = shape.cell_units[a][kind];
            if shape.cell_units[b][kind] != unit {
                continue;
            }
            let pool: Vec<usize> = shape.units[unit]
                .iter()
                .copied()
                .filter(|&c| {
                    !corners.contains(&c) && self.open(c) && self.logic.candidates[c] & pair == 0
                })
                .collect();
            for k in 1..=pool.len() {
                for subset in subsets(pool.len(), k) {
                    let mut cells: Vec<usize> = subset.iter().map(|&i| pool[i]).collect();
                    let digits = cells.iter().fold(extra, |u, &c| u | self.logic.candidates[c]);
                    cells.extend([a, b]);
                    // A box's set on one row or column is the line's, found there.
                    let one_line = (0..2).any(|line| {
                        cells
                            .iter()
                            .all(|&c| shape.cell_units[c][line] == shape.cell_units[a][line])
                    });
                    if digits.count_ones() as usize != k + 1 || kind == 2 && one_line {
                        continue;
                    }
                    let mut houses = vec![unit];
                    let same_box =
                        cells.iter().all(|&c| shape.cell_units[c][2] == shape.cell_units[a][2]);
                    if kind < 2 && same_box {
                        houses.push(shape.cell_units[a][2]);
                    }
                    let mut removed = false;
                    for house in houses {
                        for &cell in &shape.units[house] {
                            removed |= !cells.contains(&cell) && self.remove(cell, digits);
                        }
                    }
                    if removed {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Type 4: the two corners with more lie on one row or column, and one digit of the
    /// pair has no place among the cells that see both: one of them holds it, so neither
    /// holds the other digit.
    fn ur_type_4(&mut self, shape: &Shape, corners: Corners, pair: u32) -> bool {
        let more = self.with_more(corners, pair);
        let &[a, b] = more.as_slice() else { return false };
        if !(0..2).any(|k| shape.cell_units[a][k] == shape.cell_units[b][k]) {
            return false;
        }
        let seen: Vec<usize> =
            shape.peers(a).iter().copied().filter(|&c| c != b && shape.sees(c, b)).collect();
        let held = seen.iter().fold(0, |u, &c| u | self.logic.candidates[c]);
        let Some((_, other)) = unheld(pair, held) else { return false };
        let removed = self.remove(a, other);
        self.remove(b, other) || removed
    }

    /// Type 6: the two corners with more are diagonal, and one digit of the pair lies in
    /// the rectangle's rows and columns only at its corners (an X-wing): were it in the two
    /// corners with more, the other two would hold the other digit, so they lose it.
    fn ur_type_6(&mut self, shape: &Shape, corners: Corners, pair: u32) -> bool {
        let more = self.with_more(corners, pair);
        let &[a, b] = more.as_slice() else { return false };
        if (0..2).any(|k| shape.cell_units[a][k] == shape.cell_units[b][k]) {
            return false;
        }
        let lines = [a, b].map(|c| [shape.cell_units[c][0], shape.cell_units[c][1]]);
        let held = lines
            .iter()
            .flatten()
            .flat_map(|&u| shape.units[u].iter().copied())
            .filter(|c| !corners.contains(c))
            .fold(0, |u, c| u | self.logic.candidates[c]);
        let Some((tied, _)) = unheld(pair, held) else { return false };
        let removed = self.remove(a, tied);
        self.remove(b, tied) || removed
    }

    /// Hidden rectangle: a corner holding only the pair (with one more such corner at
    /// most, diagonal to it); where the row and column of the opposite corner hold one
    /// digit of the pair only at the rectangle's corners, the opposite corner cannot hold
    /// the other: the corners around would hold the first and the rectangle be deadly.
    fn hidden_rectangle(&mut self, shape: &Shape, corners: Corners, pair: u32) -> bool {
        let two: Vec<usize> =
            corners.into_iter().filter(|&c| self.logic.candidates[c] & !pair == 0).collect();
        let diagonal =
            |a: usize, b: usize| (0..2).all(|k| shape.cell_units[a][k] != shape.cell_units[b][k]);
        let fits = match two.as_slice() {
            [_] => true,
            &[a, b] => diagonal(a, b),
            _ => false,
        };
        if !fits {
            return false;
        }
        for &corner in &two {
            let Some(&opposite) = corners.iter().find(|&&c| diagonal(c, corner)) else {
                continue;
            };
            let [row, col, _] = shape.cell_units[opposite];
            let (x, y) = (pair & pair.wrapping_neg(), pair & (pair - 1));
            for (tied, gone) in [(x, y), (y, x)] {
                let outside = [row, col]
                    .iter()
                    .flat_map(|&u| shape.units[u].iter().copied())
                    .any(|c| !corners.contains(&c) && self.logic.candidates[c] & tied != 0);
                if !outside && self.remove(opposite, gone) {
                    return true;
                }
            }
        }
        false
    }

    /// Avoidable rectangles: two cells of one box on one row or column that the logic
    /// placed (no givens) with `a` and `b`, and the cells in line with them in another box.
    /// Type 1: one of those placed `b` (not a given) and the other open with `a`: it loses
    /// `a` (or the same the other way). Type 2: both open, `{b,z}` and `{a,z}`: one of
    /// them is `z`, which leaves the cells that see both.
    pub(super) fn avoidable_rectangles(&mut self, shape: &Shape, technique: Technique) -> bool {
        let placed = |s: &State, c: usize| !s.given[c] && s.logic.candidates[c].is_power_of_two();
        let pair_with = |s: &State, c: usize, d: u32| {
            s.logic.candidates[c].count_ones() == 2 && s.logic.candidates[c] & d != 0
        };
        let mut seen = Vec::new();
        for i11 in 0..shape.n * shape.n {
            if !placed(self, i11) {
                continue;
            }
            let a = self.logic.candidates[i11];
            let partner = |c: usize| placed(self, c);
            for (i12, i21, i22) in self.partners(shape, i11, &partner) {
                let b = self.logic.candidates[i12];
                let (m21, m22) = (self.logic.candidates[i21], self.logic.candidates[i22]);
                let fits = (m21 == b && placed(self, i21) && pair_with(self, i22, a))
                    || (m22 == a && placed(self, i22) && pair_with(self, i21, b))
                    || (pair_with(self, i21, b) && pair_with(self, i22, a));
                let mut key = [i11, i12, i21, i22];
                key.sort_unstable();
                if !fits || seen.contains(&key) {
                    continue;
                }
                seen.push(key);
                let corners = [i11, i12, i21, i22];
                let open = |c: usize| self.logic.candidates[c].count_ones() >= 2;
                let removed = match (technique, open(i21), open(i22)) {
                    (Technique::AvoidableRectangle1, false, true) => self.remove(i22, a),
                    (Technique::AvoidableRectangle1, true, false) => self.remove(i21, b),
                    (Technique::AvoidableRectangle2, true, true) => {
                        let z = m21 & !b;
                        m22 & z != 0 && self.clear_seeing(shape, z, &[i21, i22])
                    }
                    _ => false,
                };
                if removed {
                    let units = self.rectangle_units(shape, &corners);
                    self.used(technique, &units, &corners);
                    return true;
                }
            }
        }
        false
    }
}

/// The digit of `pair` (two digits' bits) that `held` lacks, the lower one first when it
/// lacks both, with the pair's other digit; `None` when `held` has both.
fn unheld(pair: u32, held: u32) -> Option<(u32, u32)> {
    let (x, y) = (pair & pair.wrapping_neg(), pair & (pair - 1));
    if held & x == 0 {
        Some((x, y))
    } else if held & y == 0 {
        Some((y, x))
    } else {
        None
    }
}
