//! The logic solver's state and main loop: candidates, the per-run tallies, the per-level
//! work lists of runs, and trial with an undo trail. The techniques themselves live in
//! `easy` and `techniques`.

use super::journal::Journal;
use super::layout::{Layout, RunSpec};
use super::lists::WorkLists;
use super::masks::{ALL_DIGITS, ones, several};
use super::regions::Bands;
use super::tally::Tally;
use super::techniques::Tables;
use super::{Budget, Difficulty, Logic, Technique, Uses};

/// The run-local levels, each with its own work list (level `l` of [`WorkLists`]).
const LEVELS: [Difficulty; 3] = [Difficulty::Easy, Difficulty::Medium, Difficulty::Hard];

/// The logic solver's state.
pub(super) struct Solver<'a> {
    /// The puzzle's runs.
    pub(super) layout: &'a Layout<'a>,
    /// Candidates per white cell.
    pub(super) cand: Vec<u16>,
    /// Per run, the counts of its cells' digits.
    pub(super) tallies: Vec<Tally>,
    /// Per run-local level, the runs changed since that level last looked at them.
    pub(super) lists: WorkLists,
    /// Some cell or run has no candidate left.
    pub(super) contradiction: bool,
    /// Some cell had no candidate from the start: the easy level then goes over every
    /// run's cells, to find it where a visit of its run would.
    pub(super) empty_at_start: bool,
    /// White cells with more than one candidate.
    pub(super) open: usize,
    /// The hardest level that made progress.
    hardest: Option<Difficulty>,
    /// Progress per technique.
    pub(super) uses: Uses,
    /// Old candidates of the cells a trial changed, with the cells' numbers.
    pub(super) trail: Vec<(u32, u16)>,
    /// True while a trial records its changes.
    pub(super) trailing: bool,
    /// Tables for the medium and hard levels, made when first needed.
    pub(super) scratch: Option<Box<Scratch>>,
    /// The bands of region sums, made when first needed.
    pub(super) bands: Option<Box<Bands>>,
    /// Changes of candidates so far, which date them.
    pub(super) changes: u64,
    /// Per run, the date of its last change (empty until region sums first run, which
    /// skip the bands whose edges did not change since they gave nothing).
    pub(super) changed_at: Vec<u64>,
    /// The puzzle's one solution, digit per white cell, when it is known to have exactly
    /// one (else empty): trial never needs to assume a cell's own digit, which cannot lead
    /// to a contradiction then.
    solution: &'a [u32],
    /// When to give up ([`Solver::run`] looks at its first step and every [`BUDGET_STRIDE`]
    /// steps after).
    pub(super) budget: Budget<'a>,
    /// Steps taken, for the budget's stride.
    steps: u64,
    /// The budget ran out: the solve stopped before it finished or got stuck.
    pub(super) out_of_budget: bool,
    /// The steps, when an explanation asks for them.
    pub(super) journal: Option<Box<Journal>>,
}

/// Steps between two looks at the budget: a step is one level's pass over the runs waiting
/// for it (or one assumption of trial, whose own steps look too), so a look at the clock
/// every 64 costs nothing measurable and the budget is overrun by little.
const BUDGET_STRIDE: u64 = 64;

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
    pub(super) fn new(layout: &'a Layout<'a>, solution: &'a [u32]) -> Solver<'a> {
        let envelope = |r: u32| layout.runs.get(r as usize).map_or(0, |spec| spec.envelope);
        let cand: Vec<u16> = layout
            .cell_runs
            .iter()
            .map(|&[across, down]| envelope(across) & envelope(down))
            .collect();
        let mut uses = Uses::default();
        for spec in &layout.runs {
            if spec.total.is_some() && spec.envelope != ALL_DIGITS {
                uses.add(if spec.combos.len() == 1 {
                    Technique::UniqueCombination
                } else {
                    Technique::Crossing
                });
            }
        }
        let open = cand.iter().filter(|&&m| several(m)).count();
        let cand_empty = cand.contains(&0);
        let tallies = tallies(layout, &cand);
        // A clued run whose length and clue admit no combination cannot be filled, nor can
        // more than nine cells hold distinct digits; the techniques rely on runs of at most
        // nine cells.
        let contradiction = layout
            .runs
            .iter()
            .any(|spec| spec.total.is_some() && spec.combos.is_empty() || spec.len > 9);
        let hardest = (!uses.is_empty()).then_some(Difficulty::Easy);
        Solver {
            layout,
            cand,
            tallies,
            lists: WorkLists::new(layout.runs.len()),
            contradiction,
            empty_at_start: cand_empty,
            open,
            hardest,
            uses,
            trail: Vec::new(),
            trailing: false,
            scratch: None,
            bands: None,
            changes: 0,
            changed_at: Vec::new(),
            solution,
            budget: Budget::default(),
            steps: 0,
            out_of_budget: false,
            journal: None,
        }
    }

    /// The result, once [`Solver::run`] has returned.
    pub(super) fn into_logic(self) -> Logic {
        let mut candidates = vec![0u16; self.layout.size];
        for (&cell, &mask) in self.layout.white.iter().zip(&self.cand) {
            if let Some(slot) = candidates.get_mut(cell as usize) {
                *slot = mask;
            }
        }
        Logic {
            candidates,
            contradiction: self.contradiction,
            hardest: self.hardest,
            uses: self.uses,
        }
    }

    /// The outcome of [`Solver::run`] as a grade needs it: whether every white cell holds
    /// one digit with no contradiction (as [`Logic::solved`] says), the hardest level that
    /// made progress, and the counts of techniques.
    pub(super) fn outcome(&self) -> (bool, Option<Difficulty>, Uses) {
        (!self.contradiction && self.open == 0, self.hardest, self.uses)
    }

    /// Applies the levels up to `ceiling`, cheapest first and back to the cheapest after
    /// any progress, until nothing more follows, a contradiction shows or the budget runs
    /// out.
    pub(super) fn run(&mut self, ceiling: Difficulty) {
        while !self.contradiction && !self.out_of_budget {
            self.steps += 1;
            if self.steps % BUDGET_STRIDE == 1 && self.budget.spent() {
                self.out_of_budget = true;
                return;
            }
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
            self.lists.start(l);
            if l == 0 {
                if self.easy_level() {
                    return Some(level);
                }
                continue;
            }
            // First in, first out: a run waits while its cells gather more changes.
            while let Some(r) = self.lists.pop(l) {
                if let Some(journal) = &mut self.journal {
                    journal.focus = Some(r as u32);
                }
                let progress = if l == 1 { self.medium(r) } else { self.hard(r) };
                if progress || self.contradiction {
                    return Some(level);
                }
            }
        }
        // Every run-local level is stuck (and the ceiling is hard or more, else the loop
        // returned): the region sums, the last and dearest technique of the hard level.
        if self.region_sum() {
            return Some(Difficulty::Hard);
        }
        (ceiling == Difficulty::Expert && self.trial()).then_some(Difficulty::Expert)
    }

    /// Narrows `cell` to `mask`; true when that removed a candidate. Queues the cell's runs
    /// for every level, and notes a contradiction when nothing is left.
    pub(super) fn set(&mut self, cell: u32, mask: u16) -> bool {
        let old = self.cand[cell as usize];
        let new = old & mask;
        if new == old {
            return false;
        }
        self.assign(cell, new);
        self.contradiction |= new == 0;
        self.changed(cell, old);
        true
    }

    /// Narrows `cell` to the candidates `new`, keeping its runs' tallies up to date.
    #[inline]
    pub(super) fn assign(&mut self, cell: u32, new: u16) {
        let old = std::mem::replace(&mut self.cand[cell as usize], new);
        self.changes += 1;
        for r in self.layout.cell_runs[cell as usize] {
            self.tallies[r as usize].narrow(old, new);
            if let Some(at) = self.changed_at.get_mut(r as usize) {
                *at = self.changes;
            }
        }
    }

    /// Books a change of `cell` from `old` to its candidates now: notes it on the trail of a
    /// trial, counts the cell as placed when it is, and queues its runs for every level.
    #[inline]
    pub(super) fn changed(&mut self, cell: u32, old: u16) {
        if self.trailing {
            self.trail.push((cell, old));
        } else if let Some(journal) = &mut self.journal {
            journal.change(cell, old, false);
        }
        let new = self.cand[cell as usize];
        self.open -= usize::from(several(old) && !several(new));
        for r in self.layout.cell_runs[cell as usize] {
            self.lists.want(r as usize, 0b111);
        }
    }

    /// Counts progress by `technique` when `progress` is true; returns `progress`.
    #[inline]
    pub(super) fn note(&mut self, technique: Technique, progress: bool) -> bool {
        if progress {
            self.uses.add(technique);
            if let Some(journal) = self.journal.as_mut().filter(|_| !self.trailing) {
                let run = if technique == Technique::Trial { None } else { journal.focus };
                journal.close(technique, run, &self.cand);
            }
        }
        progress
    }

    /// Trial: for cells with two, then three candidates, assumes each candidate in turn and
    /// propagates with the levels up to hard; the first candidate that leads to a
    /// contradiction is removed. True when one was. A known solution's own digit is not
    /// assumed: every deduction is sound, so it leads nowhere.
    fn trial(&mut self) -> bool {
        for size in 2..=3 {
            for cell in 0..self.cand.len() as u32 {
                let mask = self.cand[cell as usize];
                if ones(mask) != size {
                    continue;
                }
                let own = match self.solution.get(cell as usize) {
                    Some(&digit @ 1..=9) => 1 << digit,
                    _ => 0,
                };
                let mut rest = mask & !own;
                while rest != 0 {
                    let digit = rest & rest.wrapping_neg();
                    rest &= !digit;
                    let refuted = self.refutes(cell, digit);
                    if self.out_of_budget {
                        return false;
                    }
                    if refuted {
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
    /// the levels up to hard. Leaves the state as it found it, in time proportional to what
    /// the assumption changed (the tallies of only the runs it touched are made anew); the
    /// work lists must be empty on entry (they are when trial is reached).
    fn refutes(&mut self, cell: u32, digit: u16) -> bool {
        let (uses, hardest, open) = (self.uses, self.hardest, self.open);
        self.trailing = true;
        self.set(cell, digit);
        self.run(Difficulty::Hard);
        let refuted = self.contradiction;
        for &(cell, old) in self.trail.iter().rev() {
            self.cand[cell as usize] = old;
        }
        let layout = self.layout;
        for (cell, _) in self.trail.drain(..) {
            for r in layout.cell_runs[cell as usize] {
                if let (Some(spec), Some(slot)) =
                    (layout.runs.get(r as usize), self.tallies.get_mut(r as usize))
                {
                    *slot = tally(layout, spec, &self.cand);
                }
            }
        }
        self.lists.clear();
        self.trailing = false;
        self.contradiction = false;
        (self.uses, self.hardest, self.open) = (uses, hardest, open);
        refuted
    }
}

/// The tallies of every run of `layout` with the candidates `cand`.
fn tallies(layout: &Layout, cand: &[u16]) -> Vec<Tally> {
    layout.runs.iter().map(|spec| tally(layout, spec, cand)).collect()
}

/// The tally of the run `spec` of `layout` with the candidates `cand`.
fn tally(layout: &Layout, spec: &RunSpec, cand: &[u16]) -> Tally {
    let mask = |&cell: &u32| cand.get(cell as usize).copied().unwrap_or(0);
    let start = spec.start as usize;
    let cells = layout.run_cells.get(start..start + spec.len as usize).unwrap_or_default();
    Tally::of(cells.iter().map(mask))
}
