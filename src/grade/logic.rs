//! The logic solver's state and main loop: candidates, live combinations, the per-level
//! work lists of runs, and trial with an undo trail. The techniques themselves live in
//! `techniques`.

use super::{Difficulty, Logic, Technique, Uses};
use crate::puzzle::{Kakuro, KakuroCell};
use crate::solver::combos;

/// Every digit 1..=9 as a candidate mask (bit `d` for digit `d`).
pub(super) const ALL_DIGITS: u16 = 0x3FE;
/// Marks a run, rather than a cell, in a trail entry.
const RUN_ENTRY: u32 = 1 << 31;
/// No run: the entry of a black cell in [`Layout::cell_runs`].
const NO_RUN: u32 = u32::MAX;
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

/// The runs of a puzzle and which runs each cell is in, built once per solve.
#[derive(Clone, Debug)]
pub(super) struct Layout {
    /// Cells of every run, run after run.
    run_cells: Vec<usize>,
    /// Every run, rows first, then columns.
    pub(super) runs: Vec<RunSpec>,
    /// Per cell of the grid: its across and down run, [`NO_RUN`] where there is none.
    cell_runs: Vec<[u32; 2]>,
    /// Row-major indices of the white cells.
    white: Vec<usize>,
}

impl Layout {
    /// The layout of `puzzle`.
    pub(super) fn new(puzzle: &Kakuro) -> Layout {
        let mut layout = Layout {
            run_cells: Vec::new(),
            runs: Vec::new(),
            cell_runs: vec![[NO_RUN; 2]; puzzle.cells.len()],
            white: (0..puzzle.cells.len())
                .filter(|&i| puzzle.cells[i] == KakuroCell::White)
                .collect(),
        };
        layout.run_cells.reserve(2 * layout.white.len());
        puzzle.for_each_run(|run| {
            let index = layout.runs.len() as u32;
            let side = usize::from(run.direction == crate::puzzle::Direction::Down);
            for &cell in &run.cells {
                layout.cell_runs[cell][side] = index;
            }
            // A clue above 45 or a run over 9 cells has no combination at all.
            let total = run.total.map(|t| t.min(u32::from(u8::MAX)) as u8);
            let combos = total.map_or(&[][..], |t| combos::list(run.cells.len(), u32::from(t)));
            layout.runs.push(RunSpec {
                start: layout.run_cells.len() as u32,
                len: run.cells.len() as u32,
                total,
                combos,
            });
            layout.run_cells.extend_from_slice(&run.cells);
        });
        layout
    }

    /// The cells of run `r`, in order.
    #[inline]
    pub(super) fn cells(&self, r: usize) -> &[usize] {
        let spec = &self.runs[r];
        let start = spec.start as usize;
        &self.run_cells[start..start + spec.len as usize]
    }
}

/// The logic solver's state.
pub(super) struct Solver<'a> {
    /// The puzzle's runs.
    pub(super) layout: &'a Layout,
    /// Candidates per grid cell (0 for black cells).
    pub(super) cand: Vec<u16>,
    /// Per run: bit `j` set when combination `j` of its `combos` is still live.
    pub(super) live: Vec<u16>,
    /// Per run-local level, the runs changed since that level last looked at them.
    queues: [Vec<u32>; 3],
    /// Per run: bit `l` set when the run is in `queues[l]`.
    queued: Vec<u8>,
    /// Some cell or run has no candidate left.
    pub(super) contradiction: bool,
    /// The hardest level that made progress.
    hardest: Option<Difficulty>,
    /// Progress per technique.
    uses: Uses,
    /// Old values of what changed during a trial: a cell index, or a run index with
    /// [`RUN_ENTRY`] set, and its previous mask.
    trail: Vec<(u32, u16)>,
    /// True while a trial records its changes.
    trailing: bool,
}

impl<'a> Solver<'a> {
    /// Every white cell may hold any digit, every combination is live, and every run waits
    /// for every level.
    pub(super) fn new(layout: &'a Layout) -> Solver<'a> {
        let mut cand = vec![0u16; layout.cell_runs.len()];
        for &cell in &layout.white {
            cand[cell] = ALL_DIGITS;
        }
        let mut contradiction = false;
        let live = layout
            .runs
            .iter()
            .map(|spec| {
                // A clued run whose length and clue admit no combination cannot be filled,
                // nor can more than nine cells hold distinct digits; the techniques rely on
                // runs of at most nine cells.
                contradiction |= spec.total.is_some() && spec.combos.is_empty() || spec.len > 9;
                ((1u32 << spec.combos.len()) - 1) as u16
            })
            .collect();
        let all: Vec<u32> = (0..layout.runs.len() as u32).collect();
        Solver {
            layout,
            cand,
            live,
            queues: [all.clone(), all.clone(), all],
            queued: vec![0b111; layout.runs.len()],
            contradiction,
            hardest: None,
            uses: Uses::default(),
            trail: Vec::new(),
            trailing: false,
        }
    }

    /// The result, once [`Solver::run`] has returned.
    pub(super) fn into_logic(self) -> Logic {
        Logic {
            candidates: self.cand,
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

    /// One step of progress at the cheapest level that makes any; `None` when stuck.
    fn step(&mut self, ceiling: Difficulty) -> Option<Difficulty> {
        for (l, level) in LEVELS.into_iter().enumerate() {
            if level > ceiling {
                return None;
            }
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
    pub(super) fn set(&mut self, cell: usize, mask: u16) -> bool {
        let old = self.cand[cell];
        let new = old & mask;
        if new == old {
            return false;
        }
        if self.trailing {
            self.trail.push((cell as u32, old));
        }
        self.cand[cell] = new;
        self.contradiction |= new == 0;
        for r in self.layout.cell_runs[cell] {
            if r != NO_RUN && self.queued[r as usize] != 0b111 {
                for l in 0..LEVELS.len() {
                    if self.queued[r as usize] & (1 << l) == 0 {
                        self.queues[l].push(r);
                    }
                }
                self.queued[r as usize] = 0b111;
            }
        }
        true
    }

    /// Narrows run `r`'s live combinations to `live`; true when that removed one.
    pub(super) fn set_live(&mut self, r: usize, live: u16) -> bool {
        let old = self.live[r];
        let new = old & live;
        if new == old {
            return false;
        }
        if self.trailing {
            self.trail.push((r as u32 | RUN_ENTRY, old));
        }
        self.live[r] = new;
        self.contradiction |= new == 0;
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
        let layout = self.layout;
        for size in 2..=3 {
            for &cell in &layout.white {
                let mask = self.cand[cell];
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
    fn refutes(&mut self, cell: usize, digit: u16) -> bool {
        let (uses, hardest) = (self.uses, self.hardest);
        self.trailing = true;
        self.set(cell, digit);
        self.run(Difficulty::Hard);
        let refuted = self.contradiction;
        while let Some((index, old)) = self.trail.pop() {
            if index & RUN_ENTRY != 0 {
                self.live[(index & !RUN_ENTRY) as usize] = old;
            } else {
                self.cand[index as usize] = old;
            }
        }
        for queue in &mut self.queues {
            for &r in queue.iter() {
                self.queued[r as usize] = 0;
            }
            queue.clear();
        }
        self.trailing = false;
        self.contradiction = false;
        (self.uses, self.hardest) = (uses, hardest);
        refuted
    }
}
