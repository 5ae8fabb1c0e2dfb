//! Random solvable Kakuro (usually with many solutions), for tests and benchmarks.
//!
//! A puzzle is built in three steps:
//! 1. a random black/white layout (first row and first column black, every white run at
//!    most 9 cells long, no white cell alone in both directions);
//! 2. a random filling of the white cells with digits that differ within every run (see
//!    [`fill`](super::fill)); when the search gives up, a fresh layout is drawn, and after
//!    several failures the layout is thinned instead, which always ends (an all-black grid
//!    is trivially filled);
//! 3. clues derived from the filling: every run of two or more cells gets its sum; a lone
//!    cell gets none.
//!
//! The planted filling satisfies every clue, so the puzzle always has a solution. The
//! benchmarks' instances are named by their seeds here, so this path must keep drawing
//! the same random numbers.

use super::fill::{Choice, fill};
use super::layout::{MAX_RUN, run_index, run_lengths, runs};
use super::{GenOptions, Generated, puzzle_of};
use rand::RngExt;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Fresh layouts drawn before the generator starts thinning the last one instead.
const FRESH_LAYOUTS: usize = 8;

/// A random layout, randomly filled, with the clues of that filling.
pub fn random_solvable(options: &GenOptions) -> Generated {
    let (rows, cols) = (options.rows, options.cols);
    let mut rng = ChaCha8Rng::seed_from_u64(options.seed);
    let mut attempt = 0;
    let mut layout = random_layout(options, &mut rng);
    loop {
        let index = run_index(&layout, rows, cols);
        let mut digits = vec![0; layout.len()];
        let whites = (0..layout.len()).filter(|&i| layout[i]).collect();
        if fill(&index, &mut digits, whites, &mut rng, Choice::default()) {
            return puzzle_of(&layout, &digits, rows, cols);
        }
        attempt += 1;
        if attempt < FRESH_LAYOUTS {
            layout = random_layout(options, &mut rng);
        } else {
            thin(&mut layout, rows, cols, &mut rng);
        }
    }
}

/// A random layout (`true` = white) with the border black and the runs repaired.
fn random_layout(options: &GenOptions, rng: &mut ChaCha8Rng) -> Vec<bool> {
    let (rows, cols) = (options.rows, options.cols);
    let total = (rows * cols) as f64;
    let border = (rows + cols).saturating_sub(1) as f64;
    let interior = (rows.saturating_sub(1) * cols.saturating_sub(1)) as f64;
    let target = options.black_percent.clamp(0.0, 100.0) / 100.0 * total;
    let p_black = if interior > 0.0 { ((target - border) / interior).clamp(0.0, 1.0) } else { 1.0 };
    let mut white = vec![false; rows * cols];
    for r in 1..rows {
        for c in 1..cols {
            white[r * cols + c] = !rng.random_bool(p_black);
        }
    }
    repair(&mut white, rows, cols, rng);
    white
}

/// Makes a layout legal: splits runs longer than [`MAX_RUN`] by blackening a random cell
/// of each, and blackens white cells that are alone in both directions; repeats until
/// nothing changes.
fn repair(white: &mut [bool], rows: usize, cols: usize, rng: &mut ChaCha8Rng) {
    loop {
        let mut changed = false;
        for (_, run) in runs(white, rows, cols) {
            if run.len() > MAX_RUN {
                let victim = run[rng.random_range(0..run.len())];
                white[victim] = false;
                changed = true;
            }
        }
        let (row_len, col_len) = run_lengths(white, rows, cols);
        for i in 0..white.len() {
            if white[i] && row_len[i] == 1 && col_len[i] == 1 {
                white[i] = false;
                changed = true;
            }
        }
        if !changed {
            return;
        }
    }
}

/// Blackens one white cell with the most neighbours in its runs (ties broken at random),
/// then repairs the layout: used when random layouts keep failing to fill.
fn thin(white: &mut [bool], rows: usize, cols: usize, rng: &mut ChaCha8Rng) {
    let (row_len, col_len) = run_lengths(white, rows, cols);
    let degree = |i: usize| row_len[i] + col_len[i];
    let busiest: Vec<usize> = {
        let best = (0..white.len()).filter(|&i| white[i]).map(degree).max();
        (0..white.len()).filter(|&i| white[i] && Some(degree(i)) == best).collect()
    };
    if let Some(&victim) = busiest.get(rng.random_range(0..busiest.len().max(1))) {
        white[victim] = false;
    }
    repair(white, rows, cols, rng);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{any_solution, to_janko};
    use crate::puzzle::KakuroCell;
    use crate::puzzle::Puzzle;
    use crate::verify;

    fn options(rows: usize, cols: usize, black: f64, seed: u64) -> GenOptions {
        GenOptions::any_solution(rows, cols, black, seed)
    }

    #[test]
    fn same_seed_same_puzzle_and_other_seed_differs() {
        let a = random_solvable(&options(15, 15, 35.0, 7));
        let b = random_solvable(&options(15, 15, 35.0, 7));
        let c = random_solvable(&options(15, 15, 35.0, 8));
        assert_eq!(a, b);
        assert_eq!(to_janko(&a.puzzle), to_janko(&b.puzzle));
        assert_ne!(a.puzzle, c.puzzle);
    }

    #[test]
    fn planted_filling_verifies_and_layout_is_legal() {
        for (rows, cols, black, seed) in
            [(10, 10, 40.0, 1), (30, 30, 35.0, 2), (30, 100, 35.0, 3), (12, 12, 0.0, 4)]
        {
            let g = random_solvable(&options(rows, cols, black, seed));
            let k = &g.puzzle;
            assert_eq!(verify::check(&Puzzle::Kakuro(k.clone()), &g.filling), Ok(()));
            assert!((0..cols).all(|c| k.cell(0, c) != KakuroCell::White));
            assert!((0..rows).all(|r| k.cell(r, 0) != KakuroCell::White));
            for run in k.runs() {
                assert!(run.cells.len() <= MAX_RUN, "run too long: {run:?}");
                assert_eq!(run.total.is_some(), run.cells.len() > 1, "{run:?}");
            }
            let whites = k.cells.iter().filter(|c| **c == KakuroCell::White).count();
            assert!(whites > 0, "no white cell in {rows}x{cols}");
        }
    }

    #[test]
    fn black_share_is_near_the_target() {
        let g = random_solvable(&options(40, 40, 35.0, 11));
        let blacks = g.puzzle.cells.iter().filter(|c| **c != KakuroCell::White).count();
        let share = blacks as f64 / 1600.0;
        assert!((0.30..0.45).contains(&share), "black share {share}");
    }

    #[test]
    fn written_puzzle_reads_back_as_the_same_kakuro() {
        for seed in 1..=5 {
            let k = any_solution(20, 25, 35.0, seed);
            let document = crate::format::read(&to_janko(&k), None).expect("readable");
            assert_eq!(document.format, crate::format::Format::Janko);
            assert_eq!(document.entries.len(), 1);
            let parsed = document.entries[0].as_ref().expect("a valid puzzle");
            assert_eq!(parsed.puzzle, Puzzle::Kakuro(k));
        }
    }

    #[test]
    fn writer_uses_janko_tokens() {
        let g = random_solvable(&options(6, 6, 30.0, 5));
        let text = to_janko(&g.puzzle);
        let mut lines = text.lines();
        assert_eq!(lines.next(), Some("6 6"));
        assert_eq!(lines.clone().count(), 6);
        for token in lines.flat_map(str::split_whitespace) {
            let ok = token == "-"
                || token == "0"
                || token.split_once(',').is_some_and(|(d, r)| {
                    (d.is_empty() || d.parse::<u32>().is_ok())
                        && (r.is_empty() || r.parse::<u32>().is_ok())
                        && !(d.is_empty() && r.is_empty())
                });
            assert!(ok, "bad token {token:?} in\n{text}");
        }
    }
}
