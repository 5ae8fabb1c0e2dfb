//! The easy level: naked single, unique combination, crossing and hidden single, applied
//! to one run at a time on a copy of its candidates, until the run has nothing more to
//! give. The level visits runs far more often than the others, so a visit makes few passes
//! over the run's cells and touches the shared state only to write back what changed.

use super::Technique;
use super::logic::{ALL_DIGITS, RunSpec, Solver};

/// The union and the intersection of the combinations in `combos` (9-bit masks) that hold
/// every `placed` digit and otherwise only `available` ones, as candidate masks without the
/// placed digits; `None` when there is no such combination.
#[inline]
pub(super) fn reduced(combos: &[u16], placed: u16, available: u16) -> Option<(u16, u16)> {
    let allowed = placed | available;
    let (mut union, mut both, mut any) = (0u16, ALL_DIGITS, false);
    for &combo in combos {
        let digits = combo << 1;
        if digits & placed == placed && digits & !allowed == 0 {
            union |= digits;
            both &= digits;
            any = true;
        }
    }
    any.then_some((union & !placed, both & !placed))
}

/// What is left of a run once its placed digits are taken out.
#[derive(Clone, Copy)]
pub(super) struct Remainder {
    /// The digits placed.
    pub(super) placed: u16,
    /// Cells still open.
    pub(super) open: usize,
    /// The candidates of the open cells together.
    pub(super) union: u16,
}

/// The placed digits and open cells of the candidates `mask`; `None` when two cells hold
/// the same digit.
#[inline]
pub(super) fn remainder(mask: &[u16]) -> Option<Remainder> {
    let (mut placed, mut union, mut open, mut twice) = (0u16, 0u16, 0usize, 0u16);
    for &m in mask {
        if m.is_power_of_two() {
            twice |= placed & m;
            placed |= m;
        } else {
            union |= m;
            open += 1;
        }
    }
    (twice == 0).then_some(Remainder { placed, open, union })
}

/// Progress of the easy techniques, one flag each: naked single, unique combination,
/// crossing, hidden single.
type Used = [bool; 4];

/// One round of the easy techniques on the candidates `mask` of a run: the placed digits
/// leave the open cells (naked single), which keep to the digits of the combinations they
/// can still make (unique combination or crossing), then a needed digit only one cell can
/// hold is placed there (hidden single). `None` on a contradiction, else what made
/// progress and whether another round may find more: only a new single can give it more,
/// since without one the placed digits and the open cells' combinations stay the same.
#[inline]
fn round(spec: &RunSpec, mask: &mut [u16]) -> Option<(Used, bool)> {
    let rest = remainder(mask)?;
    let (envelope, required) = match spec.total {
        Some(_) => reduced(spec.combos, rest.placed, rest.union & !rest.placed)?,
        None => (ALL_DIGITS, 0),
    };
    let (mut naked, mut narrowed) = (false, false);
    // Each digit's holders, counted up to two, and the cells left open.
    let (mut once, mut twice, mut open) = (0u16, 0u16, 0usize);
    for m in mask.iter_mut() {
        if !m.is_power_of_two() {
            naked |= *m & rest.placed != 0;
            let kept = *m & !rest.placed;
            narrowed |= kept & !envelope != 0;
            *m = kept & envelope;
            if *m == 0 {
                return None;
            }
            open += usize::from(!m.is_power_of_two());
        }
        twice |= once & *m;
        once |= *m;
    }
    if required & !once != 0 {
        return None;
    }
    let mut hidden = false;
    let mut lone = required & !twice;
    while lone != 0 {
        let digit = lone & lone.wrapping_neg();
        lone &= !digit;
        if let Some(m) = mask.iter_mut().find(|m| **m & digit != 0).filter(|m| **m != digit) {
            *m = digit;
            hidden = true;
            open -= 1;
        }
    }
    let unique = envelope.count_ones() as usize == rest.open;
    Some(([naked, narrowed && unique, narrowed && !unique, hidden], open < rest.open))
}

/// The techniques of [`Used`], in its order.
const EASY: [Technique; 4] = [
    Technique::NakedSingle,
    Technique::UniqueCombination,
    Technique::Crossing,
    Technique::HiddenSingle,
];

impl Solver<'_> {
    /// The easy level on run `r`, taken to the run's own fixed point; each technique is
    /// counted once per visit when it made progress.
    pub(super) fn easy(&mut self, r: usize) -> bool {
        let layout = self.layout;
        let (spec, cells) = (&layout.runs[r], layout.cells(r));
        let mut mask = [0u16; 9];
        let n = cells.len().min(9);
        for (m, &cell) in mask.iter_mut().zip(cells) {
            *m = self.cand[cell as usize];
        }
        let mut used = [false; 4];
        let consistent = loop {
            let Some((progress, again)) = round(spec, &mut mask[..n]) else { break false };
            used.iter_mut().zip(progress).for_each(|(u, p)| *u |= p);
            if !again {
                break true;
            }
        };
        self.contradiction |= !consistent;
        let mut progress = !consistent;
        for (&m, &cell) in mask.iter().zip(cells) {
            if m != self.cand[cell as usize] {
                progress |= self.narrow(cell, m, r);
            }
        }
        for (technique, used) in EASY.into_iter().zip(used) {
            self.note(technique, used);
        }
        progress
    }
}
