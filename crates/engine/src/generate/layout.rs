//! Layouts a publisher prints: which cells are white.
//!
//! The first row and column are black (they hold the clues of the runs that start at the
//! edge). Every white cell lies in one across and one down run of 2 to 9 cells, the white
//! cells form one orthogonally connected region, and the black cells of the interior keep
//! the chosen [`Symmetry`].
//!
//! A layout is grown rather than repaired: the interior starts white, runs longer than 9
//! are split, and then black cells (with their symmetric partners) are added at random
//! wherever they leave every run at 0 or at least 2 cells, until the black share reaches
//! the target. A layout that ends disconnected keeps its largest region when that keeps
//! the symmetry, else it is drawn again.

use super::Symmetry;
use crate::puzzle::grid::neighbours;
use rand::RngExt;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

/// Longest legal run.
pub const MAX_RUN: usize = 9;
/// How far (in rows and columns) the local connectivity check looks around a cell.
const NEARBY: isize = 4;
/// Draws of a layout before the generator gives up on the options.
const DRAWS: usize = 64;

/// Which cells of a `rows` x `cols` grid are white.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Rows, the black border row included.
    pub rows: usize,
    /// Columns, the black border column included.
    pub cols: usize,
    /// Row-major: `true` for a white cell.
    pub white: Vec<bool>,
    /// The symmetry kept when cells are blackened.
    pub symmetry: Symmetry,
}

impl Layout {
    /// Grows a legal layout near `black_percent` black cells; `None` when the size leaves
    /// no room for one (every draw ended without a white cell).
    pub fn publisher(
        rows: usize,
        cols: usize,
        black_percent: f64,
        symmetry: Symmetry,
        rng: &mut ChaCha8Rng,
    ) -> Option<Layout> {
        let target = (black_percent.clamp(0.0, 100.0) / 100.0 * (rows * cols) as f64).round();
        for _ in 0..DRAWS {
            let mut layout = Layout { rows, cols, white: interior(rows, cols), symmetry };
            layout.split_long_runs(rng);
            layout.clear_short_runs();
            layout.add_blacks(target as usize, rng);
            if layout.keep_largest_region() && layout.white_count() > 0 {
                return Some(layout);
            }
        }
        None
    }

    /// Number of white cells.
    pub fn white_count(&self) -> usize {
        self.white.iter().filter(|&&w| w).count()
    }

    /// The cell paired with `cell` by the symmetry (itself on an axis or centre, and for
    /// [`Symmetry::None`]).
    pub fn partner(&self, cell: usize) -> usize {
        let (r, c) = (cell / self.cols, cell % self.cols);
        match self.symmetry {
            Symmetry::None => cell,
            Symmetry::Rotational => (self.rows - r) * self.cols + (self.cols - c),
            Symmetry::Mirror => r * self.cols + (self.cols - c),
        }
    }

    /// Whether `cell` may turn black: with its partner, it leaves every run it touches at
    /// 0 or at least 2 cells and the white cells connected. (Runs only get shorter.)
    /// Connection is only checked near the pair: a repair asks this of many cells, and a
    /// search of the whole grid for each would cost more than the cells it would allow.
    pub fn can_blacken(&mut self, cell: usize) -> bool {
        if !self.white[cell] {
            return false;
        }
        let pair = [cell, self.partner(cell)];
        self.set_pair(pair, false);
        let ok = pair.iter().all(|&c| self.lines_ok(c))
            && pair.iter().all(|&c| self.neighbours_meet_nearby(c));
        self.set_pair(pair, true);
        ok
    }

    /// Blackens `cell` and its partner.
    pub fn blacken(&mut self, cell: usize) {
        self.set_pair([cell, self.partner(cell)], false);
    }

    /// Whether `cell` and its partner, black and off the border, may turn white: every
    /// run through them is then 2 to [`MAX_RUN`] cells long (so they join the white
    /// region, too).
    pub fn can_whiten(&mut self, cell: usize) -> bool {
        let pair = [cell, self.partner(cell)];
        let border = |c: usize| c < self.cols || c.is_multiple_of(self.cols);
        if pair.iter().any(|&c| self.white[c] || border(c)) {
            return false;
        }
        self.set_pair(pair, true);
        let ok = pair.iter().all(|&c| self.lines_ok(c) && self.runs_fit(c));
        self.set_pair(pair, false);
        ok
    }

    /// Whitens `cell` and its partner.
    pub fn whiten(&mut self, cell: usize) {
        self.set_pair([cell, self.partner(cell)], true);
    }

    /// Whether the across and down runs through `cell` are at most [`MAX_RUN`] long.
    fn runs_fit(&self, cell: usize) -> bool {
        let (cols, len) = (self.cols, self.white.len());
        // White cells beyond `cell`, step after step.
        let reach = |step: &dyn Fn(usize) -> Option<usize>| {
            std::iter::successors(step(cell), |&at| step(at)).take_while(|&n| self.white[n]).count()
        };
        let across = reach(&|at| (at % cols > 0).then(|| at - 1))
            + reach(&|at| (at % cols + 1 < cols).then_some(at + 1));
        let down =
            reach(&|at| at.checked_sub(cols)) + reach(&|at| (at + cols < len).then_some(at + cols));
        across < MAX_RUN && down < MAX_RUN
    }

    /// Whether every run is 2 to 9 cells long and the white cells are connected.
    #[cfg(test)]
    pub fn is_legal(&self) -> bool {
        let lengths_ok = runs(&self.white, self.rows, self.cols)
            .iter()
            .all(|(_, run)| (2..=MAX_RUN).contains(&run.len()));
        lengths_ok && self.is_connected()
    }

    fn set_pair(&mut self, pair: [usize; 2], white: bool) {
        for cell in pair {
            self.white[cell] = white;
        }
    }

    /// Splits every run longer than [`MAX_RUN`] at a random cell that leaves both parts at
    /// least 2 long, until none is left.
    fn split_long_runs(&mut self, rng: &mut ChaCha8Rng) {
        loop {
            let long: Vec<Vec<usize>> = runs(&self.white, self.rows, self.cols)
                .into_iter()
                .filter_map(|(_, run)| (run.len() > MAX_RUN).then_some(run))
                .collect();
            if long.is_empty() {
                return;
            }
            for run in long {
                if run.iter().all(|&c| self.white[c]) {
                    let cut = run[rng.random_range(2..run.len() - 2)];
                    self.blacken(cut);
                }
            }
        }
    }

    /// Blackens white cells whose across or down run is a single cell, until none is left.
    fn clear_short_runs(&mut self) {
        loop {
            let (across, down) = run_lengths(&self.white, self.rows, self.cols);
            let lone: Vec<usize> = (0..self.white.len())
                .filter(|&i| self.white[i] && (across[i] == 1 || down[i] == 1))
                .collect();
            if lone.is_empty() {
                return;
            }
            for cell in lone {
                self.blacken(cell);
            }
        }
    }

    /// Adds black cells in random order while the share is below `target` cells, each
    /// only where it leaves no one-cell run.
    fn add_blacks(&mut self, target: usize, rng: &mut ChaCha8Rng) {
        let mut blacks = self.white.len() - self.white_count();
        let mut order: Vec<usize> = (0..self.white.len()).filter(|&i| self.white[i]).collect();
        order.shuffle(rng);
        for cell in order {
            if blacks >= target {
                return;
            }
            if !self.white[cell] {
                continue;
            }
            let pair = [cell, self.partner(cell)];
            self.set_pair(pair, false);
            if pair.iter().all(|&c| self.lines_ok(c)) && self.still_connected(pair) {
                blacks += if pair[0] == pair[1] { 1 } else { 2 };
            } else {
                self.set_pair(pair, true);
            }
        }
    }

    /// Whether the white cells are still connected after `pair` turned black (they were
    /// before). Usually the white neighbours of each cell still meet within a few steps
    /// around it, which settles it locally; otherwise the whole grid is searched.
    fn still_connected(&self, pair: [usize; 2]) -> bool {
        pair.iter().all(|&cell| self.neighbours_meet_nearby(cell)) || self.is_connected()
    }

    /// Whether the white orthogonal neighbours of `cell` reach each other through white
    /// cells within [`NEARBY`] rows and columns of it.
    fn neighbours_meet_nearby(&self, cell: usize) -> bool {
        let (r0, c0) = ((cell / self.cols) as isize, (cell % self.cols) as isize);
        let inside = |r: isize, c: isize| {
            (r - r0).abs() <= NEARBY
                && (c - c0).abs() <= NEARBY
                && r >= 0
                && c >= 0
                && (r as usize) < self.rows
                && (c as usize) < self.cols
                && self.white[r as usize * self.cols + c as usize]
        };
        let steps = [(-1, 0), (1, 0), (0, -1), (0, 1)];
        let neighbours: Vec<(isize, isize)> = steps
            .iter()
            .map(|(dr, dc)| (r0 + dr, c0 + dc))
            .filter(|&(r, c)| inside(r, c))
            .collect();
        let Some(&start) = neighbours.first() else { return true };
        let side = (2 * NEARBY + 1) as usize;
        let slot = |(r, c): (isize, isize)| {
            ((r - r0 + NEARBY) as usize) * side + (c - c0 + NEARBY) as usize
        };
        let mut seen = vec![false; side * side];
        seen[slot(start)] = true;
        let mut stack = vec![start];
        while let Some((r, c)) = stack.pop() {
            for (dr, dc) in steps {
                let next = (r + dr, c + dc);
                if inside(next.0, next.1) && !seen[slot(next)] {
                    seen[slot(next)] = true;
                    stack.push(next);
                }
            }
        }
        neighbours.iter().all(|&n| seen[slot(n)])
    }

    /// Whether the row and the column through `cell` have no one-cell run.
    fn lines_ok(&self, cell: usize) -> bool {
        let (r, c) = (cell / self.cols, cell % self.cols);
        let row = (0..self.cols).map(|x| r * self.cols + x);
        let col = (0..self.rows).map(|y| y * self.cols + c);
        no_lone_run(&self.white, row) && no_lone_run(&self.white, col)
    }

    /// Keeps only the largest white region; false when that breaks the symmetry.
    fn keep_largest_region(&mut self) -> bool {
        let regions = regions(&self.white, self.rows, self.cols);
        let Some(largest) = regions.iter().max_by_key(|r| r.len()) else { return true };
        let mut keep = vec![false; self.white.len()];
        for &cell in largest {
            keep[cell] = true;
        }
        if largest.iter().any(|&cell| !keep[self.partner(cell)]) {
            return false;
        }
        self.white = keep;
        true
    }

    fn is_connected(&self) -> bool {
        regions(&self.white, self.rows, self.cols).len() <= 1
    }
}

/// An all-white interior with a black first row and column.
fn interior(rows: usize, cols: usize) -> Vec<bool> {
    (0..rows * cols).map(|i| i / cols > 0 && i % cols > 0).collect()
}

/// Whether no maximal white stretch of `line` is a single cell.
fn no_lone_run(white: &[bool], line: impl Iterator<Item = usize>) -> bool {
    let mut length = 0;
    for i in line {
        if white[i] {
            length += 1;
        } else if length == 1 {
            return false;
        } else {
            length = 0;
        }
    }
    length != 1
}

/// The orthogonally connected regions of white cells.
pub fn regions(white: &[bool], rows: usize, cols: usize) -> Vec<Vec<usize>> {
    let mut seen = vec![false; white.len()];
    let mut out = Vec::new();
    for start in 0..white.len() {
        if !white[start] || seen[start] {
            continue;
        }
        seen[start] = true;
        let mut region = vec![start];
        let mut next = 0;
        while let Some(&cell) = region.get(next) {
            next += 1;
            for n in neighbours(cell, rows, cols) {
                if white[n] && !seen[n] {
                    seen[n] = true;
                    region.push(n);
                }
            }
        }
        out.push(region);
    }
    out
}

/// Every maximal run of white cells: whether it lies across, and its row-major indices.
/// Row runs first, then column runs; a white cell belongs to exactly one of each.
pub fn runs(white: &[bool], rows: usize, cols: usize) -> Vec<(bool, Vec<usize>)> {
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
pub struct RunIndex {
    /// Per cell, the id (index in `runs`) of its row run; `usize::MAX` for black cells.
    pub row_run: Vec<usize>,
    /// Per cell, the id of its column run; `usize::MAX` for black cells.
    pub col_run: Vec<usize>,
    /// The runs themselves, as [`runs`] lists them.
    pub runs: Vec<(bool, Vec<usize>)>,
}

/// Indexes the runs of a layout by cell.
pub fn run_index(white: &[bool], rows: usize, cols: usize) -> RunIndex {
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
pub fn run_lengths(white: &[bool], rows: usize, cols: usize) -> (Vec<usize>, Vec<usize>) {
    let RunIndex { row_run, col_run, runs: all } = run_index(white, rows, cols);
    let len = |id: usize| all.get(id).map_or(0, |(_, cells)| cells.len());
    (row_run.into_iter().map(len).collect(), col_run.into_iter().map(len).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn layout(rows: usize, cols: usize, black: f64, symmetry: Symmetry, seed: u64) -> Layout {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        Layout::publisher(rows, cols, black, symmetry, &mut rng).expect("a layout")
    }

    #[test]
    fn layouts_follow_the_publisher_rules() {
        for (rows, cols, black) in [(6, 6, 30.0), (15, 15, 40.0), (30, 45, 35.0), (60, 60, 45.0)] {
            for symmetry in Symmetry::ALL {
                for seed in 0..4 {
                    let l = layout(rows, cols, black, symmetry, seed);
                    assert!(l.is_legal(), "{rows}x{cols} {symmetry:?} seed {seed}");
                    assert!(
                        (0..cols).all(|c| !l.white[c]) && (0..rows).all(|r| !l.white[r * cols])
                    );
                    for cell in 0..l.white.len() {
                        if cell / cols > 0 && cell % cols > 0 {
                            assert_eq!(l.white[cell], l.white[l.partner(cell)], "{symmetry:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn a_black_cell_is_whitened_only_where_every_run_stays_legal() {
        // 7x7 with the border: a white interior but for two partner cells, (3,3) and (4,4).
        let mut layout = Layout {
            rows: 7,
            cols: 7,
            white: (0..49).map(|i| i / 7 > 0 && i % 7 > 0 && i != 24 && i != 32).collect(),
            symmetry: Symmetry::Rotational,
        };
        assert!(layout.is_legal());
        assert!(!layout.can_whiten(0), "the border stays black");
        assert!(!layout.can_whiten(8), "a white cell");
        assert!(layout.can_whiten(24));
        layout.whiten(24);
        assert!(layout.white[24] && layout.white[32] && layout.is_legal());
        // A cell whose whitening would leave it a one-cell run across stays black.
        let mut layout = Layout {
            rows: 4,
            cols: 5,
            white: (0..20).map(|i| (1..3).contains(&(i / 5)) && i % 5 > 0).collect(),
            symmetry: Symmetry::None,
        };
        assert!(layout.is_legal());
        assert!(!layout.can_whiten(16));
        // Joining two runs into one of 11 cells is too long; into one of 9, not.
        let row = |cols: usize| Layout {
            rows: 3,
            cols,
            white: (0..3 * cols).map(|i| i / cols > 0 && i % cols > 0).collect(),
            symmetry: Symmetry::None,
        };
        assert!(!row(12).runs_fit(18));
        assert!(row(10).runs_fit(15));
    }

    #[test]
    fn black_share_is_near_the_target() {
        let share = |black| {
            let l = layout(40, 40, black, Symmetry::Rotational, 3);
            100.0 * (1600 - l.white_count()) as f64 / 1600.0
        };
        for black in [25.0, 40.0] {
            assert!((share(black) - black).abs() < 6.0, "target {black}, got {}", share(black));
        }
        // Denser layouts run out of cells that keep every run 2 cells long.
        assert!(share(60.0) > 45.0);
    }

    #[test]
    fn blackening_keeps_the_rules() {
        let mut l = layout(20, 20, 35.0, Symmetry::Rotational, 9);
        let mut blackened = 0;
        for cell in 0..l.white.len() {
            if l.can_blacken(cell) {
                l.blacken(cell);
                blackened += 1;
                assert!(l.is_legal());
            }
        }
        assert!(blackened > 0);
    }
}
