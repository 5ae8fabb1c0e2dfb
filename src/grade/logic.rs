//! The logic solver's state and main loop: candidates, the per-level work lists of runs,
//! and trial with an undo trail. The techniques themselves live in `easy` and
//! `techniques`.
//!
//! Cells are numbered by their rank among the white cells (row-major), so that the state
//! is a dense array and a run's cells are small indices into it.

use super::techniques::Tables;
use super::{Difficulty, Logic, Technique, Uses};
use crate::puzzle::{Kakuro, KakuroCell};
use crate::solver::combos;

/// Every digit 1..=9 as a candidate mask (bit `d` for digit `d`).
pub(super) const ALL_DIGITS: u16 = 0x3FE;
/// A black cell's entry in [`Layout::new`]'s map from grid cells to white cells.
const BLACK: u32 = u32::MAX;
/// The run-local levels, each with its own work list.
const LEVELS: [Difficulty; 3] = [Difficulty::Easy, Difficulty::Medium, Difficulty::Hard];

/// One run, as the solver sees it.
#[derive(Clone, Copy, Debug)]
pub(super) struct RunSpec {
    /// Offset of its cells in [`Layout::run_cells`].
    start: u32,
    /// Number of cells.
    pub(super) len: u32,
    /// The clue; `None` for a run that only needs distinct digits.
    pub(super) total: Option<u8>,
    /// The combinations of its length and clue, as 9-bit masks (bit `d - 1` for digit `d`).
    pub(super) combos: &'static [u16],
}

/// The runs of a puzzle and which runs each white cell is in, built once per solve.
#[derive(Clone, Debug)]
pub(super) struct Layout {
    /// Cells of every run (as white-cell numbers), run after run.
    run_cells: Vec<u32>,
    /// Every run, rows first, then columns.
    pub(super) runs: Vec<RunSpec>,
    /// Per white cell: its across and down run (every white cell has both, if only of one
    /// cell).
    cell_runs: Vec<[u32; 2]>,
    /// Per white cell, its row-major index in the grid.
    white: Vec<u32>,
    /// Cells of the grid, black ones included.
    size: usize,
}

impl Layout {
    /// The layout of `puzzle`: runs across, row by row, then down, column by column.
    pub(super) fn new(puzzle: &Kakuro) -> Layout {
        let (rows, cols, size) = (puzzle.rows, puzzle.cols, puzzle.cells.len());
        let mut rank = vec![BLACK; size];
        let mut white = Vec::with_capacity(size);
        for (cell, kind) in puzzle.cells.iter().enumerate() {
            if *kind == KakuroCell::White {
                rank[cell] = white.len() as u32;
                white.push(cell as u32);
            }
        }
        let mut layout = Layout {
            run_cells: Vec::with_capacity(2 * white.len()),
            runs: Vec::with_capacity(white.len()),
            cell_runs: vec![[0; 2]; white.len()],
            white,
            size,
        };
        for row in 0..rows {
            layout.add_line(puzzle, &rank, (row * cols, 1, cols), 0);
        }
        for col in 0..cols {
            layout.add_line(puzzle, &rank, (col, cols, rows), 1);
        }
        layout
    }

    /// Adds the runs of one line of the grid, given as (first cell, step, length);
    /// `side` 0 for across and 1 for down. A run's clue is in the black cell before it.
    fn add_line(
        &mut self,
        puzzle: &Kakuro,
        rank: &[u32],
        (first, step, len): (usize, usize, usize),
        side: usize,
    ) {
        let mut clue = None;
        let mut open = false;
        for cell in (0..len).map(|k| first + k * step) {
            match (rank.get(cell).copied(), puzzle.cells.get(cell)) {
                (Some(white), _) if white != BLACK => {
                    if !open {
                        self.begin_run(clue);
                        open = true;
                    }
                    self.cell_runs[white as usize][side] = (self.runs.len() - 1) as u32;
                    self.run_cells.push(white);
                }
                (_, Some(KakuroCell::Black { down, right })) => {
                    self.end_run(std::mem::take(&mut open));
                    clue = if side == 0 { *right } else { *down };
                }
                _ => self.end_run(std::mem::take(&mut open)),
            }
        }
        self.end_run(open);
    }

    /// Starts a run at the end of [`Layout::run_cells`], with the clue `total`.
    fn begin_run(&mut self, total: Option<u32>) {
        // A clue above 45 has no combination at all; neither has a run over 9 cells.
        let total = total.map(|t| t.min(u32::from(u8::MAX)) as u8);
        self.runs.push(RunSpec { start: self.run_cells.len() as u32, len: 0, total, combos: &[] });
    }

    /// Ends the last run, when `open` says one is being built.
    fn end_run(&mut self, open: bool) {
        let (true, Some(spec)) = (open, self.runs.last_mut()) else { return };
        spec.len = self.run_cells.len() as u32 - spec.start;
        spec.combos = spec.total.map_or(&[], |t| combos::list(spec.len as usize, u32::from(t)));
    }

    /// The cells of run `r`, in order.
    #[inline]
    pub(super) fn cells(&self, r: usize) -> &[u32] {
        let spec = &self.runs[r];
        let start = spec.start as usize;
        &self.run_cells[start..start + spec.len as usize]
    }
}

/// A first-in, first-out list of runs, each in it at most once (the solver's `queued`
/// bits see to that), so a ring of one slot per run never overflows.
struct Fifo {
    /// The ring, its length a power of two.
    ring: Vec<u32>,
    /// Position of the first entry.
    head: usize,
    /// Number of entries.
    len: usize,
}

impl Fifo {
    /// An empty list for `runs` runs.
    fn new(runs: usize) -> Fifo {
        Fifo { ring: vec![0; runs.next_power_of_two()], head: 0, len: 0 }
    }

    #[inline]
    fn push(&mut self, r: u32) {
        let mask = self.ring.len() - 1;
        self.ring[(self.head + self.len) & mask] = r;
        self.len += 1;
    }

    #[inline]
    fn pop(&mut self) -> Option<u32> {
        if self.len == 0 {
            return None;
        }
        let r = self.ring[self.head];
        self.head = (self.head + 1) & (self.ring.len() - 1);
        self.len -= 1;
        Some(r)
    }

    /// The entries, first to last.
    fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        let mask = self.ring.len() - 1;
        (0..self.len).map(move |k| self.ring[(self.head + k) & mask])
    }

    fn clear(&mut self) {
        self.len = 0;
    }
}

/// The logic solver's state.
pub(super) struct Solver<'a> {
    /// The puzzle's runs.
    pub(super) layout: &'a Layout,
    /// Candidates per white cell.
    pub(super) cand: Vec<u16>,
    /// Per run-local level, the runs changed since that level last looked at them.
    queues: [Fifo; 3],
    /// Per run: bit `l` set when the run is in `queues[l]`.
    queued: Vec<u8>,
    /// Per level: false until the level first runs, when every run joins its list (most
    /// puzzles never get past easy, so they never pay for the higher lists).
    started: [bool; 3],
    /// Some cell or run has no candidate left.
    pub(super) contradiction: bool,
    /// White cells with more than one candidate.
    open: usize,
    /// The hardest level that made progress.
    hardest: Option<Difficulty>,
    /// Progress per technique.
    pub(super) uses: Uses,
    /// Old candidates of the cells a trial changed, with the cells' numbers.
    trail: Vec<(u32, u16)>,
    /// True while a trial records its changes.
    trailing: bool,
    /// Tables for the medium and hard levels, made when first needed.
    pub(super) scratch: Option<Box<Scratch>>,
}

/// Work tables of the medium and hard levels, kept between runs so that no visit clears
/// kilobytes of tables it barely uses (each entry is written before it is read).
pub(super) struct Scratch {
    /// Naked subset: the union of the candidates of each subset of open cells.
    pub(super) unions: [u16; 512],
    /// Hidden subset: the cells holding, and the set of, each subset of needed digits.
    pub(super) pairs: [(u16, u16); 512],
    /// Run consistency: which digit subsets the first and the last open cells can take.
    pub(super) spread: Tables,
}

impl Default for Box<Scratch> {
    fn default() -> Self {
        Box::new(Scratch {
            unions: [0; 512],
            pairs: [(0, 0); 512],
            spread: Tables { first: [false; 512], last: [false; 512] },
        })
    }
}

impl<'a> Solver<'a> {
    /// Every white cell may hold the digits of its runs' combinations (the first round of
    /// unique combination and crossing, done here at once rather than run by run), and
    /// every run waits for every level.
    pub(super) fn new(layout: &'a Layout) -> Solver<'a> {
        let mut cand = vec![ALL_DIGITS; layout.white.len()];
        let mut uses = Uses::default();
        for (r, spec) in layout.runs.iter().enumerate() {
            if spec.total.is_none() {
                continue;
            }
            let envelope = spec.combos.iter().fold(0, |e, &combo| e | combo << 1);
            if envelope != ALL_DIGITS {
                uses.add(if spec.combos.len() == 1 {
                    Technique::UniqueCombination
                } else {
                    Technique::Crossing
                });
            }
            for &cell in layout.cells(r) {
                cand[cell as usize] &= envelope;
            }
        }
        let open = cand.iter().filter(|&&m| m.count_ones() > 1).count();
        // A clued run whose length and clue admit no combination cannot be filled, nor can
        // more than nine cells hold distinct digits; the techniques rely on runs of at most
        // nine cells.
        let contradiction = layout
            .runs
            .iter()
            .any(|spec| spec.total.is_some() && spec.combos.is_empty() || spec.len > 9);
        let hardest = (!uses.is_empty()).then_some(Difficulty::Easy);
        let runs = layout.runs.len();
        let mut easy = Fifo::new(runs);
        (0..runs as u32).for_each(|r| easy.push(r));
        Solver {
            layout,
            cand,
            queues: [easy, Fifo::new(runs), Fifo::new(runs)],
            queued: vec![0b001; runs],
            started: [true, false, false],
            contradiction,
            open,
            hardest,
            uses,
            trail: Vec::new(),
            trailing: false,
            scratch: None,
        }
    }

    /// The result, once [`Solver::run`] has returned.
    pub(super) fn into_logic(self) -> Logic {
        let mut candidates = vec![0u16; self.layout.size];
        for (&cell, &mask) in self.layout.white.iter().zip(&self.cand) {
            candidates[cell as usize] = mask;
        }
        Logic {
            candidates,
            contradiction: self.contradiction,
            hardest: self.hardest,
            uses: self.uses,
        }
    }

    /// Applies the levels up to `ceiling`, cheapest first and back to the cheapest after
    /// any progress, until nothing more follows or a contradiction shows.
    pub(super) fn run(&mut self, ceiling: Difficulty) {
        while !self.contradiction {
            match self.step(ceiling) {
                Some(level) => self.hardest = self.hardest.max(Some(level)),
                None => return,
            }
        }
    }

    /// One step of progress at the cheapest level that makes any; `None` when stuck, or
    /// when every cell holds one digit and the easy level has checked every changed run.
    fn step(&mut self, ceiling: Difficulty) -> Option<Difficulty> {
        for (l, level) in LEVELS.into_iter().enumerate() {
            if level > ceiling || (l > 0 && self.open == 0) {
                return None;
            }
            if !self.started[l] {
                self.started[l] = true;
                for r in 0..self.layout.runs.len() {
                    if self.queued[r] & (1 << l) == 0 {
                        self.queued[r] |= 1 << l;
                        self.queues[l].push(r as u32);
                    }
                }
            }
            // First in, first out: a run waits while its cells gather more changes.
            while let Some(r) = self.queues[l].pop() {
                let r = r as usize;
                self.queued[r] &= !(1 << l);
                let progress = match level {
                    Difficulty::Easy => self.easy(r),
                    Difficulty::Medium => self.medium(r),
                    _ => self.hard(r),
                };
                if progress || self.contradiction {
                    return Some(level);
                }
            }
        }
        (ceiling == Difficulty::Expert && self.trial()).then_some(Difficulty::Expert)
    }

    /// Narrows `cell` to `mask`; true when that removed a candidate. Queues the cell's runs
    /// for every level, and notes a contradiction when nothing is left.
    #[inline]
    pub(super) fn set(&mut self, cell: u32, mask: u16) -> bool {
        self.narrow(cell, mask, usize::MAX)
    }

    /// [`Solver::set`], from the easy level's work on run `origin`, which has taken all it
    /// can from its own cells: that run is queued again for the higher levels only.
    #[inline]
    pub(super) fn narrow(&mut self, cell: u32, mask: u16, origin: usize) -> bool {
        let old = self.cand[cell as usize];
        let new = old & mask;
        if new == old {
            return false;
        }
        if self.trailing {
            self.trail.push((cell, old));
        }
        self.cand[cell as usize] = new;
        self.contradiction |= new == 0;
        self.open -= usize::from(old.count_ones() > 1 && new.count_ones() <= 1);
        for r in self.layout.cell_runs[cell as usize] {
            let r = r as usize;
            let wanted = if r == origin { 0b110 } else { 0b111 };
            let missing = wanted & !self.queued[r];
            if missing != 0 {
                for (l, queue) in self.queues.iter_mut().enumerate() {
                    if missing & (1 << l) != 0 {
                        queue.push(r as u32);
                    }
                }
                self.queued[r] |= missing;
            }
        }
        true
    }

    /// Counts progress by `technique` when `progress` is true; returns `progress`.
    #[inline]
    pub(super) fn note(&mut self, technique: Technique, progress: bool) -> bool {
        if progress {
            self.uses.add(technique);
        }
        progress
    }

    /// Trial: for cells with two, then three candidates, assumes each candidate in turn and
    /// propagates with the levels up to hard; the first candidate that leads to a
    /// contradiction is removed. True when one was.
    fn trial(&mut self) -> bool {
        for size in 2..=3 {
            for cell in 0..self.cand.len() as u32 {
                let mask = self.cand[cell as usize];
                if mask.count_ones() != size {
                    continue;
                }
                let mut rest = mask;
                while rest != 0 {
                    let digit = rest & rest.wrapping_neg();
                    rest &= !digit;
                    if self.refutes(cell, digit) {
                        self.set(cell, !digit);
                        self.note(Technique::Trial, true);
                        return true;
                    }
                }
            }
        }
        false
    }

    /// True when placing `digit` (a one-bit mask) in `cell` leads to a contradiction with
    /// the levels up to hard. Leaves the state as it found it; the work lists must be empty
    /// on entry (they are when trial is reached).
    fn refutes(&mut self, cell: u32, digit: u16) -> bool {
        let (uses, hardest, open) = (self.uses, self.hardest, self.open);
        self.trailing = true;
        self.set(cell, digit);
        self.run(Difficulty::Hard);
        let refuted = self.contradiction;
        while let Some((cell, old)) = self.trail.pop() {
            self.cand[cell as usize] = old;
        }
        for queue in &mut self.queues {
            for r in queue.iter() {
                self.queued[r as usize] = 0;
            }
            queue.clear();
        }
        self.trailing = false;
        self.contradiction = false;
        (self.uses, self.hardest, self.open) = (uses, hardest, open);
        refuted
    }
}
