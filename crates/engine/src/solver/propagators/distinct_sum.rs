//! A Kakuro run or killer cage: distinct digits 1..9 that add up to a total, propagated as
//! one constraint to generalized arc consistency.
//!
//! A digit stays in a cell's domain only if some assignment of distinct digits to the whole
//! run, within the current domains, reaches the total and gives the cell that digit. The
//! propagator walks the cells in order keeping the set of digit masks reachable so far
//! (forward), keeps the masks that can still be completed to a valid combination
//! (backward), and reads each cell's supported digits off the two (see `combos`).

use super::super::combos::{self, MaskSet};
use super::super::state::State;
use super::contract::{Conflict, PropResult, Propagate};
use crate::model::Domain;

/// `vars` hold distinct digits 1..9 summing to `total`.
#[derive(Clone, Debug)]
pub struct DistinctSum {
    /// The cells, inline (a run has at most 9): no allocation, and the propagator sits in
    /// one cache line or two.
    cells: [u32; 9],
    len: u8,
    total: u32,
}

/// The 9-bit digit mask of a domain (bit `d - 1` for digit `d`).
#[inline]
fn digit_mask(d: Domain) -> u32 {
    (d.bits() >> 1) & 0x1FF
}

/// The digits each cell of a run can take in some assignment of distinct digits, within
/// `masks`, that reaches `total`; `None` when there is no such assignment.
///
/// Works combination by combination (see `combos::list`): a combination can only be used
/// if every cell can take one of its digits and together the cells cover all of them. When
/// at most one cell is restricted within the combination (all others can take any of its
/// digits), every digit a cell can take there is supported, as any order of the rest works.
/// Otherwise an exact search runs over the digits the usable combinations allow:
/// enumeration when it is small, else the mask-set walk.
fn run_supports(masks: &[u32], total: u32) -> Option<[u32; 9]> {
    let n = masks.len();
    let mut supports = [0u32; 9];
    let mut needs_search = false;
    let mut restricted = [0u32; 9];
    let mut allowed = [0u32; 9];
    for &combo in combos::list(n, total) {
        let combo = u32::from(combo);
        if !usable(masks, combo, &mut restricted) {
            continue;
        }
        for (a, &r) in allowed.iter_mut().zip(&restricted[..n]) {
            *a |= r;
        }
        let mut narrowed = restricted[..n].iter().filter(|&&r| r != combo);
        match (narrowed.next(), narrowed.next()) {
            // Every cell can take any digit of the combination.
            (None, _) => supports[..n].iter_mut().for_each(|s| *s |= combo),
            // One cell is narrowed: with two or more digits left it never blocks the
            // others; with a single digit, that digit is its and no one else's.
            (Some(&only), None) => {
                let taken = if only.count_ones() == 1 { only } else { 0 };
                for (s, &r) in supports.iter_mut().zip(&restricted[..n]) {
                    *s |= if r == only { r } else { r & !taken };
                }
            }
            _ => needs_search = true,
        }
    }
    if needs_search {
        // Exact search over the digits the usable combinations allow.
        let product = allowed[..n - 1].iter().fold(1u32, |p, a| p.saturating_mul(a.count_ones()));
        return if product <= ENUMERATION_LIMIT {
            enumerate_supports(&allowed[..n], total)
        } else {
            mask_walk(&allowed[..n], total)
        };
    }
    supports[..n].iter().all(|&s| s != 0).then_some(supports)
}

/// Whether `combo` can be the run's digit set given `masks` (every cell can take one of its
/// digits, and together they cover all of them); fills `restricted` with each cell's
/// digits within `combo`.
#[inline]
fn usable(masks: &[u32], combo: u32, restricted: &mut [u32; 9]) -> bool {
    let mut union = 0;
    for (r, &m) in restricted.iter_mut().zip(masks) {
        *r = m & combo;
        if *r == 0 {
            return false;
        }
        union |= *r;
    }
    union == combo
}

/// The exact supports by dynamic programming over digit masks: the cells are taken in
/// order, keeping the set of digit masks reachable so far (forward) and the masks from
/// which a valid combination can still be completed (backward).
fn mask_walk(masks: &[u32], total: u32) -> Option<[u32; 9]> {
    let n = masks.len();
    let valid = combos::valid(n, total);
    let partial = combos::partial(n, total);
    let mut forward = [combos::EMPTY; 10];
    forward[0][0] = 1;
    for i in 0..n {
        let mut next = combos::EMPTY;
        let mut bits = masks[i];
        while bits != 0 {
            let b = bits.trailing_zeros();
            bits &= bits - 1;
            combos::or_into(&mut next, &combos::add_digit(&forward[i], b));
        }
        combos::and_into(&mut next, partial);
        if combos::is_empty(&next) {
            return None;
        }
        forward[i + 1] = next;
    }
    let mut backward: MaskSet = forward[n];
    combos::and_into(&mut backward, valid);
    if combos::is_empty(&backward) {
        return None;
    }
    let mut supports = [0u32; 9];
    for i in (0..n).rev() {
        let mut previous = combos::EMPTY;
        let mut bits = masks[i];
        while bits != 0 {
            let b = bits.trailing_zeros();
            bits &= bits - 1;
            if combos::intersects(&combos::add_digit(&forward[i], b), &backward) {
                supports[i] |= 1 << b;
                combos::or_into(&mut previous, &combos::remove_digit(&backward, b));
            }
        }
        combos::and_into(&mut previous, &forward[i]);
        backward = previous;
    }
    Some(supports)
}

/// Above this many candidate assignments of all cells but the last, the mask-set walk is
/// used instead of enumeration.
const ENUMERATION_LIMIT: u32 = 64;

/// Enumerates the assignments of distinct digits (within `masks`)
/// that reach `total`, and returns for each cell the digits some assignment gives it;
/// `None` when there is no assignment. Stops as soon as every digit is supported.
fn enumerate_supports(masks: &[u32], total: u32) -> Option<[u32; 9]> {
    let n = masks.len();
    let mut walk = Walk { masks: [0; 9], n, total, supports: [0; 9], path: [0; 9], open: 0 };
    for (i, &m) in masks.iter().enumerate() {
        walk.masks[i] = m;
        walk.open += walk.masks[i].count_ones();
    }
    walk.visit(0, 0, 0);
    walk.supports[..n].iter().all(|&s| s != 0).then_some(walk.supports)
}

/// State of [`enumerate_supports`]' depth-first walk.
struct Walk {
    masks: [u32; 9],
    n: usize,
    total: u32,
    supports: [u32; 9],
    /// Digit bit chosen for each cell so far.
    path: [u32; 9],
    /// (cell, digit) pairs not yet supported; the walk stops when this reaches zero.
    open: u32,
}

impl Walk {
    /// Tries every digit for cell `i` given the digits `used` so far summing to `sum`;
    /// returns false once every digit is supported (nothing left to learn).
    fn visit(&mut self, i: usize, used: u32, sum: u32) -> bool {
        let rest = (self.n - i - 1) as u32;
        if rest == 0 {
            let last = self.total.wrapping_sub(sum);
            if (1..=9).contains(&last) {
                let bit = 1 << (last - 1);
                if self.masks[i] & bit != 0 && used & bit == 0 {
                    self.path[i] = bit;
                    for j in 0..self.n {
                        let new = self.path[j] & !self.supports[j];
                        if new != 0 {
                            self.supports[j] |= new;
                            self.open -= 1;
                        }
                    }
                }
            }
            return self.open != 0;
        }
        let (rest_min, rest_max) = sum_range(rest);
        let mut bits = self.masks[i] & !used;
        while bits != 0 {
            let b = bits.trailing_zeros();
            bits &= bits - 1;
            let with = sum + b + 1;
            if with + rest_min > self.total {
                break;
            }
            if with + rest_max < self.total {
                continue;
            }
            self.path[i] = 1 << b;
            if !self.visit(i + 1, used | 1 << b, with) {
                return false;
            }
        }
        true
    }
}

/// The domain holding `value` if it is a digit 1..9, else empty.
fn digit(value: u32) -> Domain {
    if (1..=9).contains(&value) { Domain::single(value) } else { Domain::EMPTY }
}

/// `{ total - d : d in domain }`, restricted to digits 1..9 (`total` at most 18).
#[inline]
fn mirror(domain: Domain, total: u32) -> Domain {
    if total > 18 {
        return Domain::EMPTY;
    }
    // Reversing the bits sends digit d to bit 31 - d; shifting lands it on total - d.
    Domain((domain.bits().reverse_bits() >> (31 - total)) & 0x3FE)
}

/// Smallest and largest sum of `k` distinct digits 1..9.
pub fn sum_range(k: u32) -> (u32, u32) {
    let k = k.min(9);
    (k * (k + 1) / 2, k * (19 - k) / 2)
}

impl DistinctSum {
    /// The constraint over `vars` (at most 9, domains within 1..9) with sum `total`.
    pub fn new(vars: &[usize], total: u32) -> DistinctSum {
        let mut cells = [0u32; 9];
        for (c, &v) in cells.iter_mut().zip(vars) {
            *c = v as u32;
        }
        DistinctSum { cells, len: vars.len().min(9) as u8, total }
    }

    /// Narrows each cell to its supported digits.
    fn narrow(&self, state: &mut State, masks: &[u32], supports: &[u32]) -> PropResult {
        for (i, (&mask, &support)) in masks.iter().zip(supports).enumerate() {
            if support != mask {
                state.set(self.vars()[i] as usize, Domain(support << 1))?;
            }
        }
        Ok(())
    }

    /// Two cells: `a` keeps the digits whose partner `total - a` is another digit in the
    /// other cell's domain. Exact, and much cheaper than the general walk.
    fn propagate_pair(&self, state: &mut State) -> PropResult {
        let (x, y) = (self.vars()[0] as usize, self.vars()[1] as usize);
        let (dx, dy) = (state.dom(x), state.dom(y));
        let mut keep = Domain(0x3FE);
        if self.total.is_multiple_of(2) {
            keep = keep.remove(self.total / 2);
        }
        let nx = dx.intersect(mirror(dy, self.total)).intersect(keep);
        let ny = dy.intersect(mirror(nx, self.total));
        state.set(x, nx)?;
        Ok(state.set(y, ny)?)
    }
}

impl Propagate for DistinctSum {
    /// The constrained variables.
    fn vars(&self) -> &[u32] {
        &self.cells[..self.len as usize]
    }

    /// Removes every digit without support; fails when none is left for some cell.
    fn propagate(&mut self, state: &mut State) -> PropResult {
        let n = self.vars().len();
        match n {
            1 => {
                let var = self.vars()[0] as usize;
                return Ok(state.set(var, state.dom(var).intersect(digit(self.total)))?);
            }
            2 => return self.propagate_pair(state),
            10.. => return Err(Conflict),
            _ => {}
        }
        let mut masks = [0u32; 9];
        for (i, &v) in self.vars().iter().enumerate() {
            masks[i] = digit_mask(state.dom(v as usize));
        }
        let supports = run_supports(&masks[..n], self.total).ok_or(Conflict)?;
        self.narrow(state, &masks[..n], &supports[..n])
    }

    /// Forward checking after `var` was fixed: its digit leaves the other cells, and the
    /// other cells keep only digits that leave a reachable remainder.
    fn forward_check(&self, state: &mut State, var: usize) -> PropResult {
        let Some(value) = state.dom(var).value() else { return Ok(()) };
        for &v in self.vars().iter() {
            if v as usize != var {
                state.remove_value(v as usize, value)?;
            }
        }
        let (mut fixed_sum, mut open) = (0u32, 0u32);
        for &v in self.vars().iter() {
            match state.dom(v as usize).value() {
                Some(x) => fixed_sum += x,
                None => open += 1,
            }
        }
        if fixed_sum > self.total {
            return Err(Conflict);
        }
        let rest = self.total - fixed_sum;
        if open == 0 {
            return if rest == 0 { Ok(()) } else { Err(Conflict) };
        }
        let (others_min, others_max) = sum_range(open - 1);
        let upper = rest.saturating_sub(others_min);
        let lower = rest.saturating_sub(others_max).max(1);
        let window = Domain::range(lower, upper.min(9));
        for &v in self.vars().iter() {
            let v = v as usize;
            if !state.dom(v).is_fixed() {
                state.set(v, state.dom(v).intersect(window))?;
            }
        }
        Ok(())
    }

    /// Backtracking check: fixed digits distinct and not over the total; exact when all fixed.
    fn check(&self, state: &State) -> bool {
        let (mut seen, mut sum, mut open) = (0u32, 0u32, 0u32);
        for &v in self.vars().iter() {
            match state.dom(v as usize).value() {
                Some(x) => {
                    if seen & (1 << x) != 0 {
                        return false;
                    }
                    seen |= 1 << x;
                    sum += x;
                }
                None => open += 1,
            }
        }
        if open == 0 { sum == self.total } else { sum + open <= self.total }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::propagators::{Propagator, run_alone};
    use proptest::prelude::*;

    fn run(domains: &[Domain], total: u32) -> Option<Vec<Domain>> {
        let vars: Vec<usize> = (0..domains.len()).collect();
        run_alone(&mut Propagator::DistinctSum(DistinctSum::new(&vars, total)), domains)
    }

    /// The reference: enumerate every assignment and keep the digits some solution uses.
    fn naive(domains: &[Domain], total: u32) -> Option<Vec<Domain>> {
        let mut support = vec![Domain::EMPTY; domains.len()];
        let mut current = Vec::new();
        fn walk(i: usize, ds: &[Domain], total: u32, cur: &mut Vec<u32>, sup: &mut [Domain]) {
            if i == ds.len() {
                if cur.iter().sum::<u32>() == total {
                    for (s, &v) in sup.iter_mut().zip(cur.iter()) {
                        *s = s.union(Domain::single(v));
                    }
                }
                return;
            }
            for v in ds[i].iter() {
                if !cur.contains(&v) {
                    cur.push(v);
                    walk(i + 1, ds, total, cur, sup);
                    cur.pop();
                }
            }
        }
        walk(0, domains, total, &mut current, &mut support);
        support.iter().all(|d| !d.is_empty()).then_some(support)
    }

    #[test]
    fn three_over_two_cells_is_one_and_two() {
        let d = run(&[Domain::range(1, 9); 2], 3).expect("consistent");
        assert_eq!(d, vec![Domain::range(1, 2); 2]);
    }

    #[test]
    fn hall_reasoning_inside_the_run_is_exact() {
        // Cells {1,2}, {1,2}, any: total 6 needs the third cell to be 3.
        let d = run(&[Domain::range(1, 2), Domain::range(1, 2), Domain::range(1, 9)], 6)
            .expect("consistent");
        assert_eq!(d[2], Domain::single(3));
    }

    #[test]
    fn unreachable_total_fails() {
        assert_eq!(run(&[Domain::range(1, 9); 3], 3), None);
        assert_eq!(run(&[Domain::range(1, 9); 2], 18), None);
    }

    proptest! {
        #[test]
        fn agrees_with_the_naive_reference(
            raw in proptest::collection::vec(1u32..512, 1..=6),
            total in 1u32..=45,
        ) {
            let domains: Vec<Domain> = raw.iter().map(|&m| Domain(m << 1)).collect();
            prop_assert_eq!(run(&domains, total), naive(&domains, total));
        }
    }
}
