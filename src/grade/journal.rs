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
}

/// The entries so far and the changes not yet grouped.
#[derive(Clone, Debug, Default)]
pub(super) struct Journal {
    pub(super) entries: Vec<KakuroEntry>,
    /// Changes since the last entry: white cell and its candidates before.
    pending: Vec<(u32, u16)>,
    /// The run the current level works on.
    pub(super) focus: Option<u32>,
}

impl Journal {
    /// Notes that `cell` changed from `old`.
    #[inline]
    pub(super) fn change(&mut self, cell: u32, old: u16) {
        self.pending.push((cell, old));
    }

    /// Groups the changes since the last entry under `technique` on `run`, with the
    /// candidates they left in `cand`; nothing when there were none.
    pub(super) fn close(&mut self, technique: Technique, run: Option<u32>, cand: &[u16]) {
        if self.pending.is_empty() {
            return;
        }
        let mut changes: Vec<(u32, u16, u16)> = Vec::with_capacity(self.pending.len());
        for (cell, old) in self.pending.drain(..) {
            if !changes.iter().any(|&(c, _, _)| c == cell) {
                let new = cand.get(cell as usize).copied().unwrap_or(0);
                changes.push((cell, old, new));
            }
        }
        self.entries.push(KakuroEntry { technique, run, changes });
    }
}
