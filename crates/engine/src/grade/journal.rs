//! The steps of a Kakuro logic solve, kept only when an explanation asks for them
//! ([`super::journal_kakuro`]): every change of candidates, grouped by the use of the
//! technique that made it. Changes made under a trial's assumption are not kept; the
//! trial's own removal is.

use super::Technique;

/// One use of a technique.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KakuroEntry {
    /// The technique.
    pub technique: Technique,
    /// The run it worked on (an index into the puzzle's run table); none for trial.
    pub run: Option<u32>,
    /// What changed: per white cell (its rank among the white cells), the candidates
    /// before and after, as bit sets (bit `d` for digit `d`).
    pub changes: Vec<(u32, u16, u16)>,
    /// The band and equation of a region sum (none for the other techniques).
    pub region: Option<Box<super::Region>>,
}

/// The entries so far and the changes not yet grouped.
#[derive(Clone, Debug, Default)]
pub(super) struct Journal {
    pub(super) entries: Vec<KakuroEntry>,
    /// Changes since the last entry: white cell, its candidates before, and whether the
    /// easy level's hidden single made it.
    pending: Vec<(u32, u16, bool)>,
    /// The run the current level works on.
    pub(super) focus: Option<u32>,
}

impl Journal {
    /// Notes that `cell` changed from `old`. Out of line, so that the solve that keeps no
    /// journal (every answer's) is compiled as if there were none.
    #[cold]
    #[inline(never)]
    pub(super) fn change(&mut self, cell: u32, old: u16, hidden: bool) {
        self.pending.push((cell, old, hidden));
    }

    /// Groups the changes of one round of the easy level on `run`: a hidden single's
    /// apart, the others under the technique `used` names first (its bits: naked single,
    /// unique combination, crossing, hidden single).
    #[cold]
    #[inline(never)]
    pub(super) fn close_round(&mut self, run: u32, used: u8, cand: &[u16]) {
        let kept = match used {
            u if u & 0b10 != 0 => Technique::UniqueCombination,
            u if u & 0b100 != 0 => Technique::Crossing,
            _ => Technique::NakedSingle,
        };
        let (hidden, others): (Vec<_>, Vec<_>) = self.pending.drain(..).partition(|c| c.2);
        self.pending = others;
        self.close(kept, Some(run), cand);
        self.pending = hidden;
        self.close(Technique::HiddenSingle, Some(run), cand);
    }

    /// Groups the changes since the last entry under `technique` on `run`, with the
    /// candidates they left in `cand`; nothing when there were none.
    #[cold]
    #[inline(never)]
    pub(super) fn close(&mut self, technique: Technique, run: Option<u32>, cand: &[u16]) {
        if self.pending.is_empty() {
            return;
        }
        let mut changes: Vec<(u32, u16, u16)> = Vec::with_capacity(self.pending.len());
        for (cell, old, _) in self.pending.drain(..) {
            if !changes.iter().any(|&(c, _, _)| c == cell) {
                let new = cand.get(cell as usize).copied().unwrap_or(0);
                changes.push((cell, old, new));
            }
        }
        self.entries.push(KakuroEntry { technique, run, changes, region: None });
    }
}
