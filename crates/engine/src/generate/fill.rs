//! Filling white cells with digits that differ within every run: a randomized depth-first
//! search, most constrained cell first, with a node budget.
//!
//! The same search fills a whole layout and refills a few cells around a place where a
//! puzzle is ambiguous; the digits can be weighted (extreme digits make runs with few
//! combinations, so puzzles that are easier and more often unique). A digit that completes
//! a rectangle whose corners could shift and keep every sum (see [`completes_shift`]) is
//! tried last: such a filling surely has a second solution, and repairing it often costs a
//! black cell, but a dead end of the search costs more.

use super::layout::RunIndex;
use rand::RngExt;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeSet;

/// The digits 1..=9 of a candidate set (bit `d` for digit `d`).
const DIGITS: u32 = 0x3FE;
/// Marks a frame's set once only put-off digits are left in it.
const RELAXED: u32 = 1 << 31;

/// How the search chooses digits.
#[derive(Clone, Copy, Debug, Default)]
pub struct Choice<'a> {
    /// Relative weight of each digit (index 1..=9); uniform when `None`.
    pub weights: Option<&'a [u32; 10]>,
    /// Per cell, digits (bit `d`) the cell must not take; none when `None`.
    pub forbidden: Option<&'a [u32]>,
    /// Try last the digits that complete a shifting rectangle ([`completes_shift`]): for
    /// puzzles meant to have one solution. Random grids of many solutions (the benchmarks'
    /// instances) keep the plain order.
    pub put_off_shifts: bool,
}

/// Fills the cells `open` of `digits` (the others keep their digits) so that every run of
/// `index` holds distinct digits; false (with `open` cleared again) when the randomized
/// search exceeds its budget.
pub fn fill(
    index: &RunIndex,
    digits: &mut [u32],
    mut open: Vec<usize>,
    rng: &mut ChaCha8Rng,
    choice: Choice<'_>,
) -> bool {
    let RunIndex { row_run, col_run, runs } = index;
    open.shuffle(rng);
    for &cell in &open {
        digits[cell] = 0;
    }
    // Digits already in the runs of the open cells (no other run is ever looked at).
    let mut used = vec![0u32; runs.len()];
    for &open_cell in &open {
        for id in [row_run[open_cell], col_run[open_cell]] {
            if used[id] == 0 {
                used[id] = runs[id].1.iter().fold(1, |bits, &cell| bits | 1 << digits[cell]);
            }
        }
    }
    for bits in &mut used {
        *bits &= !1;
    }
    let forbidden = |i: usize| choice.forbidden.map_or(0, |f| f[i]);
    let candidates =
        |i: usize, used: &[u32]| DIGITS & !(used[row_run[i]] | used[col_run[i]] | forbidden(i));
    // Each frame: the cell being tried, the digits not tried yet, and those put off
    // because they complete a shift rectangle (tried last, when no other digit is left).
    let mut stack: Vec<(usize, u32, u32)> = Vec::new();
    let mut order = Order::new(digits.len(), &open);
    for &cell in &open {
        order.set(cell, Some(candidates(cell, &used).count_ones()));
    }
    // After `cell` changed: the candidates of the open cells of its two runs.
    let recount = |order: &mut Order, digits: &[u32], used: &[u32], cell: usize| {
        for id in [row_run[cell], col_run[cell]] {
            for &other in &runs[id].1 {
                let count = (digits[other] == 0).then(|| candidates(other, used).count_ones());
                order.set(other, count);
            }
        }
    };
    let budget = 200 * open.len() as u64 + 10_000;
    let mut nodes = 0u64;
    let mut free = open.len();
    loop {
        if free == 0 {
            return true;
        }
        // Most constrained unfilled cell; ties go to the earliest in the shuffled order.
        if let Some(cell) = order.most_constrained(&open) {
            stack.push((cell, candidates(cell, &used), 0));
            free -= 1;
        }
        // Try the next digit of the top frame, backtracking over exhausted frames.
        loop {
            nodes += 1;
            let Some((cell, remaining, put_off)) = stack.last_mut().filter(|_| nodes <= budget)
            else {
                for &cell in &open {
                    digits[cell] = 0;
                }
                return false;
            };
            let cell = *cell;
            let old = digits[cell];
            if old != 0 {
                used[row_run[cell]] &= !(1 << old);
                used[col_run[cell]] &= !(1 << old);
                digits[cell] = 0;
                recount(&mut order, digits, &used, cell);
            }
            if *remaining == 0 && *put_off != 0 {
                // Only shifting digits are left: better them than a dead end.
                *remaining = std::mem::take(put_off) | RELAXED;
            }
            if *remaining & DIGITS == 0 {
                stack.pop();
                free += 1;
                continue;
            }
            let digit = pick(*remaining & DIGITS, choice.weights, rng);
            *remaining &= !(1 << digit);
            let relaxed = *remaining & RELAXED != 0;
            if choice.put_off_shifts && !relaxed && completes_shift(index, digits, cell, digit) {
                *put_off |= 1 << digit;
                continue;
            }
            digits[cell] = digit;
            used[row_run[cell]] |= 1 << digit;
            used[col_run[cell]] |= 1 << digit;
            recount(&mut order, digits, &used, cell);
            break;
        }
    }
}

/// The unfilled open cells by their count of candidates, each count's cells in the
/// shuffled order: the most constrained cell without a scan of every open cell at every
/// step, which made filling a 500x500 take minutes.
struct Order {
    /// Per cell, its place in the shuffled order (`usize::MAX`: not open).
    place: Vec<usize>,
    /// Per cell, the count it is held under in `by_count`, if held.
    held: Vec<Option<u32>>,
    /// Per count of candidates (0..=9), the places of the unfilled cells with that many.
    by_count: [BTreeSet<usize>; 10],
}

impl Order {
    fn new(cells: usize, open: &[usize]) -> Self {
        let mut place = vec![usize::MAX; cells];
        for (i, &cell) in open.iter().enumerate() {
            place[cell] = i;
        }
        Order { place, held: vec![None; cells], by_count: Default::default() }
    }

    /// Holds `cell` under `count` candidates, or no longer (`None`: filled); cells not open
    /// are ignored.
    fn set(&mut self, cell: usize, count: Option<u32>) {
        let place = self.place[cell];
        if place == usize::MAX || self.held[cell] == count {
            return;
        }
        if let Some(old) = self.held[cell] {
            self.by_count[old as usize].remove(&place);
        }
        if let Some(new) = count {
            self.by_count[new as usize].insert(place);
        }
        self.held[cell] = count;
    }

    /// The unfilled cell with the fewest candidates, the earliest in `open` among them.
    fn most_constrained(&self, open: &[usize]) -> Option<usize> {
        self.by_count.iter().find_map(|places| places.first()).map(|&place| open[place])
    }
}

/// A random digit of the non-empty set `bits`, uniform or by `weights`.
fn pick(bits: u32, weights: Option<&[u32; 10]>, rng: &mut ChaCha8Rng) -> u32 {
    let Some(weights) = weights else {
        return nth_bit(bits, rng.random_range(0..bits.count_ones()));
    };
    let digits = || (1..=9u32).filter(|d| bits & (1 << d) != 0);
    let total: u32 = digits().map(|d| weights[d as usize].max(1)).sum();
    let mut ticket = rng.random_range(0..total);
    for d in digits() {
        let w = weights[d as usize].max(1);
        if ticket < w {
            return d;
        }
        ticket -= w;
    }
    bits.trailing_zeros()
}

/// The position of the `n`-th set bit of `bits` (counting from 0).
fn nth_bit(mut bits: u32, n: u32) -> u32 {
    for _ in 0..n {
        bits &= bits - 1;
    }
    bits.trailing_zeros()
}

/// The digits of run `id` (bit `d`), as `digits` has them now.
fn run_digits(index: &RunIndex, digits: &[u32], id: usize) -> u32 {
    index.runs[id].1.iter().fold(0, |bits, &c| bits | 1 << digits[c]) & !1
}

/// Whether `digit` in `cell` completes a *shift rectangle*: four filled corners, two on a
/// shared across run and two on another, each pair of columns on a shared down run, whose
/// digits can move by some `k` (`+k` on `cell` and the opposite corner, `-k` on the other
/// two) and stay distinct digits in all four runs. Every run keeps its sum, so such a
/// filling has a second solution for sure; refusing the digit here spares a repair that
/// would often cost a black cell.
fn completes_shift(index: &RunIndex, digits: &[u32], cell: usize, digit: u32) -> bool {
    let RunIndex { row_run, col_run, runs } = index;
    let (top, left) = (row_run[cell], col_run[cell]);
    let (top_digits, left_digits) =
        (run_digits(index, digits, top), run_digits(index, digits, left));
    // A run's digits other than those of its two corners.
    let without = |bits: u32, x: u32, y: u32| bits & !(1 << x) & !(1 << y);
    for &b in &runs[top].1 {
        if b == cell || digits[b] == 0 {
            continue;
        }
        let right = col_run[b];
        let right_digits = run_digits(index, digits, right);
        for &c in &runs[left].1 {
            if c == cell || digits[c] == 0 {
                continue;
            }
            let Some(d) = (c + b).checked_sub(cell) else { continue };
            let bottom = row_run[c];
            if d >= digits.len() || digits[d] == 0 || row_run[d] != bottom || col_run[d] != right {
                continue;
            }
            let (vb, vc, vd) = (digits[b], digits[c], digits[d]);
            let rest = [
                (without(top_digits, vb, vb), [0, 1]),
                (without(left_digits, vc, vc), [0, 2]),
                (without(run_digits(index, digits, bottom), vc, vd), [2, 3]),
                (without(right_digits, vb, vd), [1, 3]),
            ];
            let corners = [digit, vb, vc, vd];
            if (1..=8).flat_map(|k| [k, -k]).any(|k| shift_fits(corners, k, &rest)) {
                return true;
            }
        }
    }
    false
}

/// Whether the corners `[cell, b, c, d]` shifted by `+k, -k, -k, +k` stay digits, distinct
/// within each run and from the run's other digits (`rest`: per run, its other digits and
/// the two corners on it).
fn shift_fits(corners: [u32; 4], k: i32, rest: &[(u32, [usize; 2]); 4]) -> bool {
    let signs = [1, -1, -1, 1];
    let mut moved = [0u32; 4];
    for i in 0..4 {
        let value = corners[i] as i32 + signs[i] * k;
        if !(1..=9).contains(&value) {
            return false;
        }
        moved[i] = value as u32;
    }
    rest.iter().all(|&(others, [x, y])| {
        moved[x] != moved[y] && others & (1 << moved[x] | 1 << moved[y]) == 0
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::layout::run_index;

    const PUT_OFF: Choice<'static> =
        Choice { weights: None, forbidden: None, put_off_shifts: true };

    /// A 3x3 grid whose border is black: one 2x2 block of white cells 4, 5 / 7, 8.
    fn block(b: u32, c: u32, d: u32) -> (RunIndex, Vec<u32>) {
        let white: Vec<bool> = (0..9).map(|i| i / 3 > 0 && i % 3 > 0).collect();
        let digits = vec![0, 0, 0, 0, 0, b, 0, c, d];
        (run_index(&white, 3, 3), digits)
    }

    #[test]
    fn a_rectangle_whose_corners_can_shift_is_refused() {
        // 1 2 / 2 1 swaps to 2 1 / 1 2; 1 3 / 2 9 cannot move (9 has no room up, 1 down).
        let (index, digits) = block(2, 2, 1);
        assert!(completes_shift(&index, &digits, 4, 1));
        let (index, digits) = block(3, 2, 9);
        assert!(!completes_shift(&index, &digits, 4, 1));
        // 2 4 / 3 5 shifts by one (3 3 / 2 6 clashes, 1 5 / 4 4 clashes, but 4 2 / 1 7 fits).
        let (index, digits) = block(4, 3, 5);
        assert!(completes_shift(&index, &digits, 4, 2));
        // An unfilled corner completes nothing.
        let (index, digits) = block(2, 2, 0);
        assert!(!completes_shift(&index, &digits, 4, 1));
    }

    #[test]
    fn the_most_constrained_cell_is_the_one_a_scan_in_order_finds() {
        let mut rng: ChaCha8Rng = rand::SeedableRng::seed_from_u64(3);
        let mut open: Vec<usize> = (0..40).step_by(2).collect();
        open.shuffle(&mut rng);
        let mut order = Order::new(40, &open);
        let mut counts: Vec<Option<u32>> = vec![None; 40];
        for _ in 0..500 {
            let cell = rng.random_range(0..40);
            let count = (rng.random_range(0..4) > 0).then(|| rng.random_range(0..10));
            order.set(cell, count);
            if open.contains(&cell) {
                counts[cell] = count;
            }
            let scan = (0..10).find_map(|n| open.iter().copied().find(|&c| counts[c] == Some(n)));
            assert_eq!(order.most_constrained(&open), scan);
        }
    }

    #[test]
    fn a_shifting_digit_is_taken_only_when_no_other_is_left() {
        let mut rng = rand::SeedableRng::seed_from_u64(7);
        // With 2 / 2 1 around it, every digit but 9 lets the corners shift by one.
        let (index, mut digits) = block(2, 2, 1);
        for _ in 0..50 {
            assert!(fill(&index, &mut digits, vec![4], &mut rng, PUT_OFF));
            assert_eq!(digits[4], 9);
        }
        // With 5 / 5 4 around it, every digit shifts: one is taken all the same.
        let (index, mut digits) = block(5, 5, 4);
        assert!(fill(&index, &mut digits, vec![4], &mut rng, PUT_OFF));
        assert!(digits[4] != 0 && digits[4] != 5);
    }
}
