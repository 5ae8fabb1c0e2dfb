//! Seeded generator of Kakuro puzzles: by default with exactly one solution, proved.
//!
//! Everything is driven by one `ChaCha8Rng` seeded from the options' seed, so the same
//! options always give the same puzzle on every platform.

use crate::grade::Difficulty;
use crate::puzzle::{Grid, Kakuro, KakuroCell};
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use std::fmt::Write as _;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Which symmetry the black cells of a layout keep.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Symmetry {
    /// None.
    None,
    /// A half turn maps the layout onto itself (as most published Kakuro).
    #[default]
    Rotational,
    /// The left-right mirror maps the layout onto itself.
    Mirror,
}

impl Symmetry {
    /// Every symmetry.
    pub const ALL: [Symmetry; 3] = [Symmetry::None, Symmetry::Rotational, Symmetry::Mirror];

    /// The name, as on the command line and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Symmetry::None => "none",
            Symmetry::Rotational => "rotational",
            Symmetry::Mirror => "mirror",
        }
    }

    /// The symmetry called `name`, if any.
    pub fn from_name(name: &str) -> Option<Symmetry> {
        Symmetry::ALL.into_iter().find(|s| s.name() == name)
    }
}

/// What to generate.
#[derive(Clone, Debug, PartialEq)]
pub struct GenOptions {
    /// Rows, the black border row included.
    pub rows: usize,
    /// Columns, the black border column included.
    pub cols: usize,
    /// Target share of black cells in percent (0..=100; the border counts).
    pub black_percent: f64,
    /// Seed of the random generator.
    pub seed: u64,
    /// Exactly one solution (proved) when true; any solvable grid when false.
    pub unique: bool,
    /// The symmetry of the layout (unique puzzles only).
    pub symmetry: Symmetry,
    /// The grade the puzzle must have exactly, if any (unique puzzles only).
    pub difficulty: Option<Difficulty>,
    /// Threads for the uniqueness checks (0 = all cores).
    pub threads: usize,
    /// Give up after this long.
    pub timeout: Option<Duration>,
}

impl GenOptions {
    /// Options for a unique puzzle with the default symmetry and any grade.
    pub fn unique(rows: usize, cols: usize, black_percent: f64, seed: u64) -> GenOptions {
        GenOptions {
            rows,
            cols,
            black_percent,
            seed,
            unique: true,
            symmetry: Symmetry::default(),
            difficulty: None,
            threads: 1,
            timeout: None,
        }
    }

    /// Options for a random solvable grid (usually with many solutions), as benchmarks use.
    pub fn any_solution(rows: usize, cols: usize, black_percent: f64, seed: u64) -> GenOptions {
        GenOptions {
            unique: false,
            symmetry: Symmetry::None,
            ..Self::unique(rows, cols, black_percent, seed)
        }
    }
}

/// Why no puzzle was generated.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GenError {
    /// The options cannot give a puzzle (the message says why).
    #[error("{0}")]
    Options(String),
    /// The time limit passed first.
    #[error("no puzzle was found within the time limit")]
    Timeout,
    /// The caller cancelled.
    #[error("generation was cancelled")]
    Cancelled,
}

/// How a puzzle was proved to have one solution.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Proof {
    /// The engine of the final proof (`sat` or `search`).
    pub engine: &'static str,
    /// Uniqueness checks made while generating (the final proof included).
    pub checks: u32,
    /// Seconds spent in those checks.
    pub seconds: f64,
}

/// A generated puzzle with the filling it was built from.
#[derive(Clone, Debug, PartialEq)]
pub struct Generated {
    /// The puzzle (clues only).
    pub puzzle: Kakuro,
    /// The planted filling: the puzzle's solution (its only one when `proof` is set).
    pub filling: Grid,
    /// How uniqueness was proved (unique puzzles only).
    pub proof: Option<Proof>,
    /// The puzzle's grade (unique puzzles only).
    pub difficulty: Option<Difficulty>,
    /// Seconds the whole generation took.
    pub seconds: f64,
}

/// Fresh layouts drawn before the generator starts thinning the last one instead.
const FRESH_LAYOUTS: usize = 8;
/// Longest legal run.
const MAX_RUN: usize = 9;

/// A random solvable grid (usually with many solutions), as benchmarks and tests use.
pub fn any_solution(rows: usize, cols: usize, black_percent: f64, seed: u64) -> Kakuro {
    random_solvable(&GenOptions::any_solution(rows, cols, black_percent, seed)).puzzle
}

/// Generates a puzzle as `options` say, stopping early when `cancel` becomes true.
pub fn generate(options: &GenOptions, cancel: Option<&AtomicBool>) -> Result<Generated, GenError> {
    let _ = cancel;
    Ok(random_solvable(options))
}

/// A random layout, randomly filled, with the clues of that filling.
fn random_solvable(options: &GenOptions) -> Generated {
    let (rows, cols) = (options.rows, options.cols);
    let mut rng = ChaCha8Rng::seed_from_u64(options.seed);
    let mut attempt = 0;
    let mut layout = random_layout(options, &mut rng);
    loop {
        if let Some(digits) = fill(&layout, rows, cols, &mut rng) {
            return finish(&layout, &digits, rows, cols);
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

/// Every maximal run of white cells: whether it lies across, and its row-major indices.
/// Row runs first, then column runs; a white cell belongs to exactly one of each.
fn runs(white: &[bool], rows: usize, cols: usize) -> Vec<(bool, Vec<usize>)> {
    let mut out = Vec::new();
    let mut push_line = |across: bool, line: &mut dyn Iterator<Item = usize>| {
        let mut run = Vec::new();
        for i in line {
            if white[i] {
                run.push(i);
            } else if !run.is_empty() {
                out.push((across, std::mem::take(&mut run)));
            }
        }
        if !run.is_empty() {
            out.push((across, run));
        }
    };
    for r in 0..rows {
        push_line(true, &mut (0..cols).map(|c| r * cols + c));
    }
    for c in 0..cols {
        push_line(false, &mut (0..rows).map(|r| r * cols + c));
    }
    out
}

/// The runs of a layout, and which of them every cell belongs to.
struct RunIndex {
    /// Per cell, the id (index in `runs`) of its row run; `usize::MAX` for black cells.
    row_run: Vec<usize>,
    /// Per cell, the id of its column run; `usize::MAX` for black cells.
    col_run: Vec<usize>,
    /// The runs themselves, as [`runs`] lists them.
    runs: Vec<(bool, Vec<usize>)>,
}

/// Indexes the runs of a layout by cell.
fn run_index(white: &[bool], rows: usize, cols: usize) -> RunIndex {
    let all = runs(white, rows, cols);
    let mut row_run = vec![usize::MAX; white.len()];
    let mut col_run = vec![usize::MAX; white.len()];
    for (id, (across, cells)) in all.iter().enumerate() {
        let slot = if *across { &mut row_run } else { &mut col_run };
        for &i in cells {
            slot[i] = id;
        }
    }
    RunIndex { row_run, col_run, runs: all }
}

/// For every cell, the length of its row run and of its column run (0 for black cells).
fn run_lengths(white: &[bool], rows: usize, cols: usize) -> (Vec<usize>, Vec<usize>) {
    let RunIndex { row_run, col_run, runs: all } = run_index(white, rows, cols);
    let len = |id: usize| all.get(id).map_or(0, |(_, cells)| cells.len());
    (row_run.into_iter().map(len).collect(), col_run.into_iter().map(len).collect())
}

/// Fills the white cells with digits 1..=9, distinct within every run; `None` when the
/// randomized search exceeds its budget.
fn fill(white: &[bool], rows: usize, cols: usize, rng: &mut ChaCha8Rng) -> Option<Vec<u32>> {
    let RunIndex { row_run, col_run, runs: all_runs } = run_index(white, rows, cols);
    let mut cells: Vec<usize> = (0..white.len()).filter(|&i| white[i]).collect();
    cells.shuffle(rng);
    let mut used = vec![0u32; all_runs.len()];
    let mut digits = vec![0u32; white.len()];
    let candidates = |i: usize, used: &[u32]| 0x3FE & !(used[row_run[i]] | used[col_run[i]]);
    // Each frame: the cell being tried and the digits not tried yet.
    let mut stack: Vec<(usize, u32)> = Vec::new();
    let budget = 200 * cells.len() as u64 + 10_000;
    let mut nodes = 0u64;
    let mut free = cells.len();
    loop {
        if free == 0 {
            return Some(digits);
        }
        // Most constrained unfilled cell; ties go to the earliest in the shuffled order.
        let mut best: Option<(usize, u32)> = None;
        for &i in &cells {
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
            if nodes > budget {
                return None;
            }
            let (cell, remaining) = stack.last_mut()?;
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
            let pick = rng.random_range(0..remaining.count_ones());
            let digit = nth_bit(*remaining, pick);
            *remaining &= !(1 << digit);
            digits[cell] = digit;
            used[row_run[cell]] |= 1 << digit;
            used[col_run[cell]] |= 1 << digit;
            break;
        }
    }
}

/// The position of the `n`-th set bit of `bits` (counting from 0).
fn nth_bit(mut bits: u32, n: u32) -> u32 {
    for _ in 0..n {
        bits &= bits - 1;
    }
    bits.trailing_zeros()
}

/// Builds the puzzle and the filling grid from a filled layout.
fn finish(white: &[bool], digits: &[u32], rows: usize, cols: usize) -> Generated {
    let mut cells: Vec<KakuroCell> =
        white.iter().map(|&w| if w { KakuroCell::White } else { black(None, None) }).collect();
    for (horizontal, run) in runs(white, rows, cols) {
        if run.len() < 2 {
            continue;
        }
        let total = run.iter().map(|&i| digits[i]).sum::<u32>();
        let clue_cell = if horizontal { run[0] - 1 } else { run[0] - cols };
        if let KakuroCell::Black { down, right } = &mut cells[clue_cell] {
            if horizontal {
                *right = Some(total);
            } else {
                *down = Some(total);
            }
        }
    }
    let filling = Grid {
        rows,
        cols,
        cells: white.iter().zip(digits).map(|(&w, &d)| w.then_some(d)).collect(),
    };
    Generated {
        puzzle: Kakuro { rows, cols, cells },
        filling,
        proof: None,
        difficulty: None,
        seconds: 0.0,
    }
}

fn black(down: Option<u32>, right: Option<u32>) -> KakuroCell {
    KakuroCell::Black { down, right }
}

/// Writes `puzzle` in the janko grid format that `kakurod solve` reads: `R C`, then one line
/// per row of space-separated tokens, `-` for a black cell without clues, `0` for a white
/// cell and `D,R` for a clue cell (either side empty when that clue is absent).
pub fn to_janko(puzzle: &Kakuro) -> String {
    let mut out = format!("{} {}\n", puzzle.rows, puzzle.cols);
    for row in puzzle.cells.chunks(puzzle.cols.max(1)) {
        let tokens: Vec<String> = row
            .iter()
            .map(|cell| match *cell {
                KakuroCell::White => "0".to_owned(),
                KakuroCell::Black { down: None, right: None } => "-".to_owned(),
                KakuroCell::Black { down, right } => {
                    let side = |v: Option<u32>| v.map(|v| v.to_string()).unwrap_or_default();
                    format!("{},{}", side(down), side(right))
                }
            })
            .collect();
        let _ = writeln!(out, "{}", tokens.join(" "));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
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
