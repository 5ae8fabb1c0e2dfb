//! Many distinct inputs, each with a known answer, made without a solver: a Sudoku with
//! one solution keeps exactly one solution under the grid's symmetries (digits relabelled,
//! bands and the rows within a band permuted, the same for columns, transposition), and
//! its solution follows by the same transformation. Some inputs are broken on purpose (an
//! unknown cell token), to be answered by an error document and moved to `failed/`.

use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashSet;
use std::path::Path;

/// One input file and what it must be answered with.
#[derive(Clone, Debug)]
pub struct Input {
    /// The file name, e.g. `d-0042.txt`.
    pub name: String,
    /// Its text.
    pub text: String,
    /// The solution's tokens (`.sol` layout), or `None` for an input that must be rejected.
    pub solution: Option<String>,
}

impl Input {
    /// The input's name without its extension: its results' stem.
    pub fn stem(&self) -> &str {
        self.name.trim_end_matches(".txt")
    }
}

/// A square grid of tokens (`-` or a digit).
type Grid = Vec<Vec<String>>;

/// The puzzles transformed: a Sudoku and its solution in the fixtures.
const BASES: [&str; 3] = ["1_9x9", "top1465-1_9x9", "generated_4x4"];

/// `count` distinct inputs named `PREFIX-NNNN.txt`; every `broken_every`-th one is broken.
pub fn inputs(prefix: &str, count: usize, broken_every: usize, seed: u64) -> Vec<Input> {
    let bases = bases();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut seen = HashSet::new();
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let k = out.len();
        // Mostly 9x9 (a few thousand distinct ones are easy to draw); every fifth a 4x4.
        let (puzzle, solution) = &bases[if k % 5 == 4 { 2 } else { k % 2 }];
        let map = Symmetry::draw(puzzle.len(), &mut rng);
        let (mut puzzle, solution) = (map.apply(puzzle), map.apply(solution));
        let broken = broken_every > 0 && k % broken_every == broken_every - 1;
        if broken {
            // An unknown token where a blank was: a parse error at that cell.
            let (r, c) = blank(&puzzle, &mut rng);
            puzzle[r][c] = format!("x{k}");
        }
        let text = render(&puzzle);
        if !seen.insert(text.clone()) {
            continue;
        }
        let name = format!("{prefix}-{k:04}.txt");
        out.push(Input { name, text, solution: (!broken).then(|| render(&solution)) });
    }
    out
}

/// A `lines` batch of `count` 9x9 Sudoku drawn as [`inputs`] draws them (none broken, not
/// all distinct), one a line, and the solution file the daemon writes for it: each
/// solution in one line, in the same order.
pub fn lines_batch(count: usize, seed: u64) -> (String, String) {
    let line = |grid: &Grid| -> String {
        grid.iter().flatten().map(|t| if t == "-" { "." } else { t.as_str() }).collect()
    };
    let bases = bases();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut batch, mut solutions) = (String::new(), String::new());
    for k in 0..count {
        let (puzzle, solution) = &bases[k % 2];
        let map = Symmetry::draw(puzzle.len(), &mut rng);
        batch.push_str(&line(&map.apply(puzzle)));
        batch.push('\n');
        solutions.push_str(&line(&map.apply(solution)));
        solutions.push('\n');
    }
    (batch, solutions)
}

/// The Sudoku of [`BASES`] and their solutions.
fn bases() -> Vec<(Grid, Grid)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/sudoku");
    BASES
        .iter()
        .map(|b| {
            let read = |ext: &str| {
                let path = root.join(format!("{b}.{ext}"));
                parse(&std::fs::read_to_string(&path).expect("a fixture of tests/fixtures/sudoku"))
            };
            (read("txt"), read("sol"))
        })
        .collect()
}

fn parse(text: &str) -> Grid {
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let size: usize = lines
        .next()
        .and_then(|h| h.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .expect("a size line");
    let grid: Grid =
        lines.map(|l| l.split_whitespace().map(String::from).collect::<Vec<_>>()).collect();
    assert!(grid.len() == size && grid.iter().all(|row| row.len() == size), "a square grid");
    grid
}

fn render(grid: &Grid) -> String {
    let n = grid.len();
    let rows: Vec<String> = grid.iter().map(|row| row.join(" ")).collect();
    format!("{n} {n}\n{}\n", rows.join("\n"))
}

/// A random blank cell of `grid`.
fn blank(grid: &Grid, rng: &mut ChaCha8Rng) -> (usize, usize) {
    let blanks: Vec<(usize, usize)> = (0..grid.len())
        .flat_map(|r| (0..grid.len()).map(move |c| (r, c)))
        .filter(|&(r, c)| grid[r][c] == "-")
        .collect();
    blanks[rng.random_range(0..blanks.len())]
}

/// One symmetry of an `n` x `n` Sudoku.
struct Symmetry {
    /// `rows[i]`: which row of the original becomes row `i`; the same for `cols`.
    rows: Vec<usize>,
    cols: Vec<usize>,
    /// `digits[d - 1]`: what digit `d` becomes.
    digits: Vec<usize>,
    transpose: bool,
}

impl Symmetry {
    fn draw(n: usize, rng: &mut ChaCha8Rng) -> Symmetry {
        let mut digits: Vec<usize> = (1..=n).collect();
        digits.shuffle(rng);
        Symmetry {
            rows: lines(n, rng),
            cols: lines(n, rng),
            digits,
            transpose: rng.random_range(0..2) == 1,
        }
    }

    fn apply(&self, grid: &Grid) -> Grid {
        let cell = |r: usize, c: usize| {
            let (r, c) = if self.transpose { (c, r) } else { (r, c) };
            let token = &grid[self.rows[r]][self.cols[c]];
            match token.parse::<usize>() {
                Ok(d) if d >= 1 => self.digits[d - 1].to_string(),
                _ => token.clone(),
            }
        };
        (0..grid.len()).map(|r| (0..grid.len()).map(|c| cell(r, c)).collect()).collect()
    }
}

/// A permutation of `n` rows (or columns) that keeps the boxes: bands permuted, and the
/// lines within each band.
fn lines(n: usize, rng: &mut ChaCha8Rng) -> Vec<usize> {
    let k = (1..=n).find(|k| k * k == n).expect("a square size");
    let mut bands: Vec<usize> = (0..k).collect();
    bands.shuffle(rng);
    let mut out = Vec::with_capacity(n);
    for band in bands {
        let mut within: Vec<usize> = (0..k).collect();
        within.shuffle(rng);
        out.extend(within.into_iter().map(|i| band * k + i));
    }
    out
}
