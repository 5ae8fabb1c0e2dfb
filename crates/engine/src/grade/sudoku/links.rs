//! Single-digit patterns built on strong links: a digit with exactly two places left in a
//! unit (a conjugate pair) is in one of them. Two strong links whose near ends see each
//! other put the digit in one of their far ends, so every cell that sees both far ends
//! loses it: a Skyscraper (two parallel lines joined across), a 2-String Kite (a row and
//! a column joined in a box) or, any other way, a Turbot Fish. An Empty Rectangle joins a
//! strong link to a box whose places of the digit lie on one row and one column.
//! Definitions as in HoDoKu's `SingleDigitPatternSolver` and SudokuWiki's write-ups.

use super::{Shape, State};
use crate::grade::Technique;

/// A strong link: the unit, and the two cells that are the digit's only places in it.
pub(super) type Link = (usize, usize, usize);

impl Shape {
    /// True when cells `a` and `b` differ and share a row, column or box.
    pub(super) fn sees(&self, a: usize, b: usize) -> bool {
        a != b && (0..3).any(|k| self.cell_units[a][k] == self.cell_units[b][k])
    }

    /// The cells that share a row, column or box with `cell`, each once; made for every
    /// cell the first time a technique asks (most puzzles never get that far).
    pub(super) fn peers(&self, cell: usize) -> &[usize] {
        let all = self.peers.get_or_init(|| {
            (0..self.n * self.n)
                .map(|cell| {
                    let mut peers: Vec<usize> = self.cell_units[cell]
                        .iter()
                        .flat_map(|&u| self.units[u].iter().copied())
                        .filter(|&c| c != cell)
                        .collect();
                    peers.sort_unstable();
                    peers.dedup();
                    peers
                })
                .collect()
        });
        &all[cell]
    }

    /// The kind of unit `u`: 0 a row, 1 a column, 2 a box.
    fn kind_of(&self, u: usize) -> usize {
        u / self.n
    }
}

impl State {
    /// The strong links of `digit`, unit by unit.
    pub(super) fn strong_links(&self, shape: &Shape, digit: u32) -> Vec<Link> {
        let mut links = Vec::new();
        for (u, unit) in shape.units.iter().enumerate() {
            let places = self.places(unit, digit);
            if places.count_ones() == 2 {
                let first = unit[places.trailing_zeros() as usize];
                let last = unit[(31 - places.leading_zeros()) as usize];
                links.push((u, first, last));
            }
        }
        links
    }

    /// The first pattern of two strong links of kind `wanted` (Skyscraper, 2-String Kite
    /// or Turbot Fish) that removes a candidate.
    pub(super) fn two_strong_links(&mut self, shape: &Shape, wanted: Technique) -> bool {
        for d in 1..=shape.n {
            let digit = 1 << d;
            let links = self.strong_links(shape, digit);
            for (i, &(u1, a1, b1)) in links.iter().enumerate() {
                for &(u2, a2, b2) in &links[i + 1..] {
                    if [a2, b2].contains(&a1) || [a2, b2].contains(&b1) {
                        continue;
                    }
                    for (far1, near1) in [(a1, b1), (b1, a1)] {
                        for (near2, far2) in [(a2, b2), (b2, a2)] {
                            if !shape.sees(near1, near2)
                                || pattern(shape, u1, u2, near1, near2) != wanted
                            {
                                continue;
                            }
                            // The digit is in far1 or far2: a cell seeing both loses it.
                            let cells = [far1, near1, near2, far2];
                            if self.clear_seeing(shape, digit, &[far1, far2]) {
                                self.used(wanted, &[u1, u2], &cells);
                                return true;
                            }
                        }
                    }
                }
            }
        }
        false
    }

    /// Removes `digit` from every cell that sees all of `cells` (and is none of them);
    /// true when something was removed.
    pub(super) fn clear_seeing(&mut self, shape: &Shape, digit: u32, cells: &[usize]) -> bool {
        let Some((&first, rest)) = cells.split_first() else { return false };
        let mut removed = false;
        for &target in shape.peers(first) {
            if cells.contains(&target) || !rest.iter().all(|&c| shape.sees(c, target)) {
                continue;
            }
            removed |= self.remove(target, digit);
        }
        removed
    }

    /// Empty Rectangle: in a box, the digit's places lie on one row and one column that
    /// cross in it (on both, not on one alone); a strong link on a line outside the box,
    /// one end on that row (column), puts the digit, if not at that end, in the box's
    /// column (row) — so the cell where the link's other line meets that column (row)
    /// cannot hold it: it would leave the box no place.
    pub(super) fn empty_rectangles(&mut self, shape: &Shape) -> bool {
        let n = shape.n;
        for d in 1..=n {
            let digit = 1 << d;
            let links = self.strong_links(shape, digit);
            for (b, unit) in shape.kind(2).iter().enumerate() {
                let cells: Vec<usize> = unit
                    .iter()
                    .copied()
                    .filter(|&c| self.logic.candidates[c] & digit != 0)
                    .collect();
                if cells.len() < 2 {
                    continue;
                }
                let (rows, cols) = (lines_of(&cells, n, 0), lines_of(&cells, n, 1));
                if rows.len() < 2 || cols.len() < 2 {
                    continue;
                }
                for &row in &rows {
                    for &col in &cols {
                        let on_cross = |c: &usize| c / n == row || c % n == col;
                        if !cells.iter().all(on_cross) {
                            continue;
                        }
                        let target = self.empty_rectangle_target(shape, &links, b, row, col, digit);
                        if let Some((link, target)) = target
                            && self.remove(target, digit)
                        {
                            let (unit_of_link, end1, end2) = link;
                            let mut reasons = cells.clone();
                            reasons.extend([end1, end2]);
                            self.used(
                                Technique::EmptyRectangle,
                                &[2 * n + b, unit_of_link],
                                &reasons,
                            );
                            return true;
                        }
                    }
                }
            }
        }
        false
    }

    /// The strong link and the cell an Empty Rectangle of box `b` crossing at `row` and
    /// `col` clears, if one of `links` makes one.
    fn empty_rectangle_target(
        &self,
        shape: &Shape,
        links: &[Link],
        b: usize,
        row: usize,
        col: usize,
        digit: u32,
    ) -> Option<(Link, usize)> {
        let n = shape.n;
        let in_box = |c: usize| shape.cell_units[c][2] == 2 * n + b;
        for &link in links {
            let (u, e1, e2) = link;
            if in_box(e1) || in_box(e2) {
                continue;
            }
            for (near, far) in [(e1, e2), (e2, e1)] {
                // A link in a column with its near end on the box's row clears the cell of
                // the box's column in the far end's row; a link in a row, the other way.
                let target = match shape.kind_of(u) {
                    1 if near / n == row => (far / n) * n + col,
                    0 if near % n == col => row * n + far % n,
                    _ => continue,
                };
                if !in_box(target) && self.logic.candidates[target] & digit != 0 {
                    return Some((link, target));
                }
            }
        }
        None
    }
}

/// The kind of pattern two strong links in units `u1` and `u2`, joined by `near1` and
/// `near2` seeing each other, make.
fn pattern(shape: &Shape, u1: usize, u2: usize, near1: usize, near2: usize) -> Technique {
    let (k1, k2) = (shape.kind_of(u1), shape.kind_of(u2));
    let same = |k: usize| shape.cell_units[near1][k] == shape.cell_units[near2][k];
    match (k1, k2) {
        // Two rows joined in a column, or two columns joined in a row.
        (0, 0) if same(1) => Technique::Skyscraper,
        (1, 1) if same(0) => Technique::Skyscraper,
        (0, 1) | (1, 0) if same(2) => Technique::TwoStringKite,
        _ => Technique::TurbotFish,
    }
}

/// The rows (`kind` 0) or columns (1) of `cells` in a grid `n` wide, each once.
fn lines_of(cells: &[usize], n: usize, kind: usize) -> Vec<usize> {
    let mut lines: Vec<usize> =
        cells.iter().map(|&c| if kind == 0 { c / n } else { c % n }).collect();
    lines.dedup();
    lines.sort_unstable();
    lines.dedup();
    lines
}

impl State {
    /// Simple Colors: a digit's strong links, joined into a chain, colour its places in
    /// two colours, one of which holds the digit. Two cells of one colour that see each
    /// other make that colour false (a wrap: the digit leaves all its cells); a cell that
    /// sees both colours cannot hold it (a trap).
    pub(super) fn simple_colors(&mut self, shape: &Shape) -> bool {
        for d in 1..=shape.n {
            let digit = 1 << d;
            let links = self.strong_links(shape, digit);
            for (colours, cells) in colourings(&links, 3) {
                let of = |colour: bool| -> Vec<usize> {
                    cells
                        .iter()
                        .zip(&colours)
                        .filter(|&(_, &c)| c == colour)
                        .map(|(&x, _)| x)
                        .collect()
                };
                let (one, other) = (of(true), of(false));
                let clash = |side: &[usize]| {
                    side.iter()
                        .enumerate()
                        .any(|(i, &a)| side[i + 1..].iter().any(|&b| shape.sees(a, b)))
                };
                let mut removed = false;
                for (side, rest) in [(&one, &other), (&other, &one)] {
                    if clash(side) {
                        for &cell in side.iter() {
                            removed |= self.remove(cell, digit);
                        }
                        if removed {
                            let mut reasons = side.clone();
                            reasons.extend(rest.iter());
                            self.used(Technique::SimpleColors, &[], &reasons);
                            return true;
                        }
                    }
                }
                for target in 0..shape.n * shape.n {
                    if cells.contains(&target) || self.logic.candidates[target] & digit == 0 {
                        continue;
                    }
                    let sees = |side: &[usize]| side.iter().any(|&c| shape.sees(c, target));
                    if sees(&one) && sees(&other) {
                        removed |= self.remove(target, digit);
                    }
                }
                if removed {
                    let mut reasons = one.clone();
                    reasons.extend(other.iter());
                    self.used(Technique::SimpleColors, &[], &reasons);
                    return true;
                }
            }
        }
        false
    }
}

/// The chains of strong `links` (units aside), each coloured in two colours: per chain of
/// at least `least` cells, the colour of each cell and the cells.
pub(super) fn colourings(links: &[Link], least: usize) -> Vec<(Vec<bool>, Vec<usize>)> {
    let mut done: Vec<usize> = Vec::new();
    let mut chains = Vec::new();
    for &(_, first, _) in links {
        if done.contains(&first) {
            continue;
        }
        let (mut cells, mut colours) = (vec![first], vec![true]);
        let mut at = 0;
        while at < cells.len() {
            let (cell, colour) = (cells[at], colours[at]);
            for &(_, a, b) in links {
                let next = if a == cell {
                    b
                } else if b == cell {
                    a
                } else {
                    continue;
                };
                if !cells.contains(&next) {
                    cells.push(next);
                    colours.push(!colour);
                }
            }
            at += 1;
        }
        done.extend(cells.iter().copied());
        if cells.len() >= least {
            chains.push((colours, cells));
        }
    }
    chains
}
