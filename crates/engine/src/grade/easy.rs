//! The easy level: naked single, unique combination, crossing and hidden single, applied
//! to one run at a time until the run has nothing more to give. The level visits runs far
//! more often than the others, and most visits change little or nothing, so a visit reads
//! the run's tally and goes over its cells only to change them.

use super::journal::Journal;
use super::layout::RunSpec;
use super::lists::WorkLists;
use super::logic::Solver;
use super::masks::{ALL_DIGITS, ones, paired, several, sum};
use super::tally::Tally;
use super::{Technique, Uses};

/// The union and the intersection of the combinations in `combos` (9-bit masks) that hold
/// every `placed` digit and otherwise only `available` ones, as candidate masks without the
/// placed digits; `None` when there is no such combination. Branch-free over the
/// combinations, in their 9-bit form: a combination lives when it differs from the placed
/// digits in no digit that is placed or not allowed.
#[inline(always)]
pub(super) fn reduced(combos: &[u16], placed: u16, available: u16) -> Option<(u16, u16)> {
    let placed9 = placed >> 1;
    let test = placed9 | !((placed | available) >> 1);
    let (mut union, mut both) = (0u16, u16::MAX);
    for &combo in combos {
        let live = u16::from((combo ^ placed9) & test == 0).wrapping_neg();
        union |= combo & live;
        both &= combo | !live;
    }
    // Every combination of a run has a digit, so a live one leaves the union non-empty.
    (union != 0).then_some(((union << 1) & !placed, (both << 1) & !placed))
}

/// [`reduced`] for run `spec` with `open` open cells, answered without going over the
/// combinations when at most two cells are open: the open cells must then make the clue
/// less the placed digits, with one digit, or with a pair of distinct ones. (Always
/// inlined: the medium level calls it too, and a call would cost the easy level's loop.)
#[inline(always)]
pub(super) fn live(spec: &RunSpec, placed: u16, available: u16, open: u32) -> Option<(u16, u16)> {
    let Some(total) = spec.total else { return Some((ALL_DIGITS, 0)) };
    let rest = u32::from(total).checked_sub(sum(placed));
    match (open, rest) {
        (_, None) => None,
        (0, Some(rest)) => (rest == 0).then_some((0, 0)),
        (1, Some(rest)) => {
            let digit = if rest <= 9 { available & 1 << rest } else { 0 };
            (digit != 0).then_some((digit, digit))
        }
        (2, Some(rest)) => {
            let digits = paired(available, rest);
            let required = if ones(digits) == 2 { digits } else { 0 };
            (digits != 0).then_some((digits, required))
        }
        _ => reduced(spec.combos, placed, available),
    }
}

/// Progress of the easy techniques, one bit each: naked single, unique combination,
/// crossing, hidden single.
type Used = u8;

/// The techniques of [`Used`], in its order.
const EASY: [Technique; 4] = [
    Technique::NakedSingle,
    Technique::UniqueCombination,
    Technique::Crossing,
    Technique::HiddenSingle,
];

/// The cells a visit changed, by position in the run: bit `k` for cell `k`.
type Changes = u16;

/// The easy level's working state, moved out of the solver for the length of the level's
/// loop: as a local value whose methods are all inlined, the compiler keeps its parts in
/// registers, where the solver's fields behind `&mut self` would be reloaded after every
/// store.
struct Easy<'a> {
    runs: &'a [RunSpec],
    run_cells: &'a [u32],
    runs_of: &'a [[u32; 2]],
    cand: Vec<u16>,
    tallies: Vec<Tally>,
    lists: WorkLists,
    trail: Vec<(u32, u16)>,
    trailing: bool,
    /// The solver's count of changes and its runs' dates of their last (see
    /// [`Solver::changed_at`]).
    changes: u64,
    changed_at: Vec<u64>,
    open: usize,
    uses: Uses,
    empty_at_start: bool,
    /// The steps, when an explanation asks for them (not under a trial's assumption).
    journal: Option<Box<Journal>>,
}

impl Solver<'_> {
    /// The easy level: visits the runs on its work list until the list runs out or a
    /// contradiction shows; true when some visit made progress (the solver's contradiction
    /// is set when one showed).
    pub(super) fn easy_level(&mut self) -> bool {
        let layout = self.layout;
        let mut easy = Easy {
            runs: &layout.runs,
            run_cells: layout.run_cells,
            runs_of: layout.cell_runs,
            cand: std::mem::take(&mut self.cand),
            tallies: std::mem::take(&mut self.tallies),
            lists: std::mem::take(&mut self.lists),
            trail: std::mem::take(&mut self.trail),
            trailing: self.trailing,
            changes: self.changes,
            changed_at: std::mem::take(&mut self.changed_at),
            open: self.open,
            uses: self.uses,
            empty_at_start: self.empty_at_start,
            journal: if self.trailing { None } else { self.journal.take() },
        };
        let (mut progress, mut consistent) = (false, true);
        while consistent {
            let Some(r) = easy.lists.pop(0) else { break };
            let (changed, held) = easy.visit(r);
            (progress, consistent) = (progress || changed || !held, held);
        }
        self.contradiction |= !consistent;
        (self.cand, self.tallies, self.lists, self.trail) =
            (easy.cand, easy.tallies, easy.lists, easy.trail);
        if easy.journal.is_some() {
            self.journal = easy.journal;
        }
        (self.open, self.uses) = (easy.open, easy.uses);
        (self.changes, self.changed_at) = (easy.changes, easy.changed_at);
        progress
    }
}

impl Easy<'_> {
    /// Visits run `r`: takes it to its own fixed point in rounds (see [`Easy::round`]),
    /// then queues the runs of the cells that changed, in the run's order, and counts each
    /// technique that made progress once. Returns whether a cell changed, and whether the
    /// run stayed consistent.
    #[inline]
    fn visit(&mut self, r: usize) -> (bool, bool) {
        let runs = self.runs;
        let Some(spec) = runs.get(r) else { return (false, true) };
        let (start, len) = (spec.start as usize, spec.len as usize);
        let cells = self.run_cells.get(start..start + len).unwrap_or_default();
        let (mut changes, mut used): (Changes, Used) = (0, 0);
        let consistent = loop {
            let mut this_round = 0;
            let more = self.round((r, spec, cells), &mut changes, &mut this_round);
            used |= this_round;
            if let Some(journal) = &mut self.journal {
                journal.close_round(r as u32, this_round, &self.cand);
            }
            match more {
                Some(true) => continue,
                Some(false) => break true,
                None => break false,
            }
        };
        let mut rest = changes;
        while rest != 0 {
            let k = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if let Some(&cell) = cells.get(k) {
                self.book(cell, r);
            }
        }
        if used != 0 {
            for (k, technique) in EASY.into_iter().enumerate() {
                if used & 1 << k != 0 {
                    self.uses.add(technique);
                }
            }
        }
        (changes != 0, consistent)
    }

    /// One round of the easy techniques on run `r`, which reads the run's tally and goes
    /// over the cells only to change them: naked single takes the placed digits out of the
    /// open cells, unique combination or crossing keeps them to the digits of the
    /// combinations they can still make, hidden single places a needed digit that only one
    /// cell can hold. Notes in `used` what made progress. `None` on a contradiction, else
    /// whether another round may find more: only a new single can give it more, since
    /// without one the placed digits and the open cells' combinations stay the same.
    #[inline]
    fn round(
        &mut self,
        (r, spec, cells): (usize, &RunSpec, &[u32]),
        changes: &mut Changes,
        used: &mut Used,
    ) -> Option<bool> {
        let tally = self.tallies.get(r).copied()?;
        if tally.clash != 0 {
            return None;
        }
        let (placed, union) = (tally.placed, tally.union());
        let (envelope, required) = live(spec, placed, union & !placed, tally.open_cells)?;
        let (naked, narrowed) = (union & placed != 0, union & !placed & !envelope != 0);
        if naked || narrowed || self.empty_at_start {
            let keep = !placed & envelope;
            for (k, &cell) in cells.iter().enumerate() {
                let old = self.cand.get(cell as usize).copied().unwrap_or(1);
                if old.is_power_of_two() {
                    continue;
                }
                if old & !keep != 0 {
                    self.change(cell, k, old & keep, changes, false);
                }
                if old & keep == 0 {
                    return None;
                }
            }
        }
        // Clearing takes no needed digit from an open cell: the tally's holders stand.
        if required & !union != 0 {
            return None;
        }
        let mut hidden = false;
        let mut lone = required & tally.lone();
        while lone != 0 {
            let digit = lone & lone.wrapping_neg();
            lone &= !digit;
            let mask = |c: u32| self.cand.get(c as usize).copied().unwrap_or(0);
            let holder = cells.iter().enumerate().find(|&(_, &c)| mask(c) & digit != 0);
            if let Some((k, &cell)) = holder.filter(|&(_, &c)| mask(c) != digit) {
                let old = mask(cell);
                self.change(cell, k, old & digit, changes, true);
                hidden = true;
            }
        }
        let unique = ones(envelope) == tally.open_cells;
        *used |= u8::from(naked)
            | u8::from(narrowed && unique) << 1
            | u8::from(narrowed && !unique) << 2
            | u8::from(hidden) << 3;
        let open_now = self.tallies.get(r).map_or(0, |t| t.open_cells);
        Some(open_now < tally.open_cells)
    }

    /// Narrows cell `k` of the run under visit (white cell `cell`) to `new`: notes the cell
    /// as changed and its old candidates on the trail of a trial, counts it as placed when
    /// it is, and keeps its runs' tallies up to date.
    #[inline(always)]
    fn change(&mut self, cell: u32, k: usize, new: u16, changes: &mut Changes, hidden: bool) {
        let (Some(slot), Some(&runs)) =
            (self.cand.get_mut(cell as usize), self.runs_of.get(cell as usize))
        else {
            return;
        };
        let old = std::mem::replace(slot, new);
        *changes |= 1 << k;
        if self.trailing {
            self.trail.push((cell, old));
        } else if let Some(journal) = &mut self.journal {
            journal.change(cell, old, hidden);
        }
        self.open -= usize::from(several(old) && !several(new));
        self.changes += 1;
        for r in runs {
            if let Some(tally) = self.tallies.get_mut(r as usize) {
                tally.narrow(old, new);
            }
            if let Some(at) = self.changed_at.get_mut(r as usize) {
                *at = self.changes;
            }
        }
    }

    /// Books a change of `cell` by the visit of run `r`: queues its runs for every level,
    /// except run `r`, which has taken all it can from its own cells and waits for the
    /// higher levels only. (The trail of a trial and the count of open cells follow each
    /// change as it happens.)
    #[inline]
    fn book(&mut self, cell: u32, r: usize) {
        if let Some(&[across, down]) = self.runs_of.get(cell as usize) {
            let levels = |other: u32| if other as usize == r { 0b110 } else { 0b111 };
            self.lists.want(across as usize, levels(across));
            self.lists.want(down as usize, levels(down));
        }
    }
}
