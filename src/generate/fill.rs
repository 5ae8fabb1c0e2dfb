//! Filling white cells with digits that differ within every run: a randomized depth-first
//! search, most constrained cell first, with a node budget.
//!
//! The same search fills a whole layout and refills a few cells around a place where a
//! puzzle is ambiguous; the digits can be weighted (extreme digits make runs with few
//! combinations, so puzzles that are easier and more often unique).

use super::layout::RunIndex;
use rand::RngExt;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

/// How the search chooses digits.
#[derive(Clone, Copy, Debug, Default)]
pub struct Choice<'a> {
    /// Relative weight of each digit (index 1..=9); uniform when `None`.
    pub weights: Option<&'a [u32; 10]>,
    /// Per cell, digits (bit `d`) the cell must not take; none when `None`.
    pub forbidden: Option<&'a [u32]>,
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
        |i: usize, used: &[u32]| 0x3FE & !(used[row_run[i]] | used[col_run[i]] | forbidden(i));
    // Each frame: the cell being tried and the digits not tried yet.
    let mut stack: Vec<(usize, u32)> = Vec::new();
    let budget = 200 * open.len() as u64 + 10_000;
    let mut nodes = 0u64;
    let mut free = open.len();
    loop {
        if free == 0 {
            return true;
        }
        // Most constrained unfilled cell; ties go to the earliest in the shuffled order.
        let mut best: Option<(usize, u32)> = None;
        for &i in &open {
            if digits[i] == 0 {
                let cands = candidates(i, &used);
                if best.is_none_or(|(_, b)| cands.count_ones() < b.count_ones()) {
                    best = Some((i, cands));
                    if cands == 0 {
                        break;
                    }
                }
            }
        }
        if let Some(frame) = best {
            stack.push(frame);
            free -= 1;
        }
        // Try the next digit of the top frame, backtracking over exhausted frames.
        loop {
            nodes += 1;
            let Some((cell, remaining)) = stack.last_mut().filter(|_| nodes <= budget) else {
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
            }
            if *remaining == 0 {
                stack.pop();
                free += 1;
                continue;
            }
            let digit = pick(*remaining, choice.weights, rng);
            *remaining &= !(1 << digit);
            digits[cell] = digit;
            used[row_run[cell]] |= 1 << digit;
            used[col_run[cell]] |= 1 << digit;
            break;
        }
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
