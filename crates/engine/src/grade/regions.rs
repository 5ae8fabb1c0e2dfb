//! Region sums, the rule of 45 of Kakuro books carried over to a band of whole rows (or
//! columns): the across clues of the band add up to the sum of its cells, and so do its
//! down runs, counted whole where they are included and cell by cell where they are not.
//! A down run sticking out of the band is either included, its cells outside the band then
//! subtracted (outies), or left out, its cells inside the band then added (innies),
//! whichever leaves fewer open cells. When at most [`MOST`] open cells remain, their sum
//! (signed) is known, and each keeps only the digits some assignment of the others, with
//! distinct digits in a shared run, completes to it.
//!
//! Tried only when every run-local level is stuck, as the last step of the hard level: it
//! looks at every band, which costs more than a visit of one run, and most puzzles never
//! get there.

use super::Technique;
use super::layout::Layout;
use super::logic::Solver;

/// Most open cells a region's equation may have for the exact check.
const MOST: usize = 4;

/// The band of lines a region sum used, and its equation, for an explanation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Region {
    /// True for a band of rows (its across runs summed against its down runs), false for
    /// a band of columns.
    pub rows: bool,
    /// The first and last line of the band, from 0.
    pub lines: [u32; 2],
    /// The open cells of the equation with their signs: +1 an innie (a band cell whose
    /// crossing run was left out), -1 an outie (a cell of an included crossing run outside
    /// the band).
    pub cells: Vec<(u32, i8)>,
    /// What the signed sum of those cells must make.
    pub total: i32,
}

/// Per direction, what the bands need of the clues, which never change: made once, when
/// region sums are first tried.
pub(super) struct Bands {
    dirs: [Direction; 2],
    /// Per direction and band (`first * lines + last`), the date the next change had when
    /// the band last gave nothing (0: never looked at): a band's equation is made of the
    /// runs on its two edges alone, so it gives nothing again until one of them changes.
    fruitless: [Vec<u64>; 2],
}

/// The bands of one direction: rows (direction 0: across runs summed against down runs) or
/// columns (1: the other way round).
struct Direction {
    /// Number of lines.
    lines: usize,
    /// Per line `k`, the sum of the clues of the runs along lines before `k`, and how many
    /// of them have no clue (such a band cannot be summed).
    along: Vec<(i32, u32)>,
    /// Per band `first * lines + last`, the clues of the crossing runs wholly inside it,
    /// and how many of them have no clue.
    inside: Vec<(i32, u32)>,
    /// Per line `k`, the crossing runs with cells on both line `k - 1` and line `k`.
    edges: Vec<Vec<u32>>,
    /// Per run, the first and last line of its cells across the lines (crossing runs only).
    span: Vec<[u32; 2]>,
}

impl Direction {
    /// The bands of `layout` in direction `dir`.
    fn new(layout: &Layout, dir: usize) -> Direction {
        let line = |cell: u32| {
            let g = layout.white.get(cell as usize).map_or(0, |&g| g as usize);
            let cols = layout.cols.max(1);
            (if dir == 0 { g / cols } else { g % cols }) as u32
        };
        let lines = if dir == 0 { layout.size / layout.cols.max(1) } else { layout.cols };
        let mut along_at = vec![(0i32, 0u32); lines];
        let mut span = vec![[0u32; 2]; layout.runs.len()];
        let mut inside = vec![(0i32, 0u32); lines * lines];
        let mut edges = vec![Vec::new(); lines];
        for (r, spec) in layout.runs.iter().enumerate() {
            let cells = layout.cells(r);
            let Some(&first) = cells.first() else { continue };
            let clue = (spec.total.map_or(0, i32::from), u32::from(spec.total.is_none()));
            let lo = line(first);
            let hi = cells.last().map_or(lo, |&c| line(c));
            if layout.cell_runs[first as usize][dir] == r as u32 {
                if let Some(slot) = along_at.get_mut(lo as usize) {
                    *slot = (slot.0 + clue.0, slot.1 + clue.1);
                }
                continue;
            }
            span[r] = [lo, hi];
            if let Some(slot) = inside.get_mut(lo as usize * lines + hi as usize) {
                *slot = (slot.0 + clue.0, slot.1 + clue.1);
            }
            for k in lo + 1..=hi {
                if let Some(edge) = edges.get_mut(k as usize) {
                    edge.push(r as u32);
                }
            }
        }
        // Runs wholly inside [first, last]: those of exactly that span, of [first, last - 1]
        // and of [first + 1, last], less those of both, counted twice.
        for first in (0..lines).rev() {
            for last in first..lines {
                let mut sum = inside[first * lines + last];
                if first < last {
                    let shorter = inside[first * lines + last - 1];
                    let later = inside[(first + 1) * lines + last];
                    sum = (sum.0 + shorter.0 + later.0, sum.1 + shorter.1 + later.1);
                }
                if first + 1 < last {
                    let both = inside[(first + 1) * lines + last - 1];
                    sum = (sum.0 - both.0, sum.1 - both.1);
                }
                inside[first * lines + last] = sum;
            }
        }
        let mut along = Vec::with_capacity(lines + 1);
        let mut total = (0, 0);
        along.push(total);
        for &(clue, missing) in &along_at {
            total = (total.0 + clue, total.1 + missing);
            along.push(total);
        }
        Direction { lines, along, inside, edges, span }
    }
}

impl Bands {
    pub(super) fn new(layout: &Layout) -> Bands {
        let dirs = [Direction::new(layout, 0), Direction::new(layout, 1)];
        let fruitless = [0, 1].map(|d| vec![0; dirs[d].lines * dirs[d].lines]);
        Bands { dirs, fruitless }
    }
}

#[cfg(test)]
thread_local! {
    /// Set by a test on its thread: every pass looks at every band, dated or not.
    pub(super) static EVERY_BAND: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether region sums look at every band in every pass: only where a test says so.
fn every_band() -> bool {
    #[cfg(test)]
    return EVERY_BAND.with(std::cell::Cell::get);
    #[cfg(not(test))]
    false
}

/// The open cells of a band's equation so far and what they must make.
struct Equation {
    cells: [(u32, i8); MOST],
    len: usize,
    total: i32,
}

impl Solver<'_> {
    /// Region sums over the bands of rows, then of columns, in order, skipping those that
    /// gave nothing and whose edges have not changed since; true when one removed a
    /// candidate.
    pub(super) fn region_sum(&mut self) -> bool {
        let mut bands = self.bands.take().unwrap_or_else(|| Box::new(Bands::new(self.layout)));
        if self.changed_at.len() != self.layout.runs.len() {
            // From now on each run's last change is dated.
            self.changed_at = vec![0; self.layout.runs.len()];
        }
        // A band that gives nothing is dated, except under a trial, whose changes are undone.
        let now = (!self.trailing).then_some(self.changes + 1);
        let Bands { dirs, fruitless } = &mut *bands;
        let mut progress = false;
        'dirs: for (dir, (bands, fruitless)) in dirs.iter().zip(fruitless).enumerate() {
            // Per line, the last change of a run across it (on the edge of the bands
            // that begin or end there). On a large grid this skips nearly every band of a
            // pass, where each pass looked at all of them, lines squared, each with the
            // runs of its edges.
            let changed: Vec<u64> = (bands.edges.iter())
                .map(|edge| edge.iter().map(|&r| self.changed_at[r as usize]).max().unwrap_or(0))
                .collect();
            for first in 0..bands.lines {
                for last in first..bands.lines {
                    let top = if first > 0 { changed[first] } else { 0 };
                    let bottom = changed.get(last + 1).copied().unwrap_or(0);
                    let since = &mut fruitless[first * bands.lines + last];
                    if top.max(bottom) < *since && !every_band() {
                        continue;
                    }
                    if self.band(dir, bands, first, last) {
                        progress = true;
                        break 'dirs;
                    }
                    if let Some(now) = now {
                        *since = now;
                    }
                }
            }
        }
        self.bands = Some(bands);
        progress
    }

    /// The region sum of the band of lines `first..=last` in direction `dir`.
    fn band(&mut self, dir: usize, bands: &Direction, first: usize, last: usize) -> bool {
        let (from, to) = (bands.along[first], bands.along[last + 1]);
        let inner = bands.inside[first * bands.lines + last];
        if to.1 != from.1 || inner.1 != 0 || to.0 == from.0 {
            return false;
        }
        let mut eq = Equation { cells: [(0, 0); MOST], len: 0, total: to.0 - from.0 - inner.0 };
        let no_edge: &[u32] = &[];
        let top = if first > 0 { &bands.edges[first][..] } else { no_edge };
        let bottom = bands.edges.get(last + 1).map_or(no_edge, |e| &e[..]);
        // A run on both edges spans the band: it is met on the top edge only.
        let runs = top
            .iter()
            .chain(bottom.iter().filter(|&&r| bands.span[r as usize][0] as usize >= first));
        for &r in runs {
            if !self.sticking_out(r as usize, bands.span[r as usize], first, last, &mut eq) {
                return false;
            }
        }
        if eq.len == 0 {
            return false;
        }
        self.solve_equation(dir, [first as u32, last as u32], &eq)
    }

    /// Adds to `eq` the run `r` (lines `span`) that sticks out of the band `first..=last`:
    /// included, its cells outside as outies, or left out, its cells inside as innies,
    /// whichever has fewer open cells. False when the equation gets too many.
    fn sticking_out(
        &self,
        r: usize,
        span: [u32; 2],
        first: usize,
        last: usize,
        eq: &mut Equation,
    ) -> bool {
        let cells = self.layout.cells(r);
        let lo = span[0] as usize;
        let inside = first.max(lo) - lo..=last.min(span[1] as usize) - lo;
        let open = |c: &&u32| !self.cand[**c as usize].is_power_of_two();
        let open_in = cells
            .iter()
            .enumerate()
            .filter(|(k, _)| inside.contains(k))
            .map(|(_, c)| c)
            .filter(open)
            .count();
        let open_out = cells.iter().filter(open).count() - open_in;
        let total = self.layout.runs[r].total;
        let include = total.is_some() && open_out <= open_in;
        if include {
            eq.total -= total.map_or(0, i32::from);
        }
        for (k, &cell) in cells.iter().enumerate() {
            let sign: i8 = match (include, inside.contains(&k)) {
                (true, false) => -1,
                (false, true) => 1,
                _ => continue,
            };
            let mask = self.cand[cell as usize];
            if mask.is_power_of_two() {
                eq.total -= i32::from(sign) * mask.trailing_zeros() as i32;
            } else if eq.len == MOST {
                return false;
            } else {
                eq.cells[eq.len] = (cell, sign);
                eq.len += 1;
            }
        }
        true
    }

    /// Keeps each cell of `eq` to the digits some assignment of them all, distinct where
    /// two share a run, makes its total with; true when one lost a candidate.
    fn solve_equation(&mut self, dir: usize, lines: [u32; 2], eq: &Equation) -> bool {
        let cells = &eq.cells[..eq.len];
        let mut support = [0u16; MOST];
        let mut chosen = [0u16; MOST];
        self.assign_from(cells, 0, eq.total, &mut chosen, &mut support);
        let mut changed = false;
        for (&(cell, _), &keep) in cells.iter().zip(&support) {
            changed |= self.set(cell, keep);
        }
        if changed {
            if let Some(journal) = &mut self.journal {
                journal.focus = None;
            }
            self.note(Technique::RegionSum, true);
            let journal = self.journal.as_mut().filter(|_| !self.trailing);
            if let Some(entry) = journal.and_then(|j| j.entries.last_mut()) {
                let region =
                    Region { rows: dir == 0, lines, cells: cells.to_vec(), total: eq.total };
                entry.region = Some(Box::new(region));
            }
        }
        changed
    }

    /// Tries every digit of cell `k` and on; adds to `support` the digits of every full
    /// assignment that makes `left`.
    fn assign_from(
        &self,
        cells: &[(u32, i8)],
        k: usize,
        left: i32,
        chosen: &mut [u16; MOST],
        support: &mut [u16; MOST],
    ) -> bool {
        let Some(&(cell, sign)) = cells.get(k) else {
            return left == 0;
        };
        let runs = self.layout.cell_runs[cell as usize];
        let mut taken = 0u16;
        for (j, &(other, _)) in cells[..k].iter().enumerate() {
            let theirs = self.layout.cell_runs[other as usize];
            if theirs[0] == runs[0] || theirs[1] == runs[1] {
                taken |= chosen[j];
            }
        }
        let mut any = false;
        let mut rest = self.cand[cell as usize] & !taken;
        while rest != 0 {
            let digit = rest & rest.wrapping_neg();
            rest &= !digit;
            chosen[k] = digit;
            let value = i32::from(sign) * digit.trailing_zeros() as i32;
            if self.assign_from(cells, k + 1, left - value, chosen, support) {
                support[k] |= digit;
                any = true;
            }
        }
        any
    }
}
