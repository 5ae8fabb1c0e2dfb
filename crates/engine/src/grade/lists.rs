//! The work lists of the run-local levels: per level, the runs whose cells changed since
//! that level last looked at them, first in, first out, so that a run waits while its
//! cells gather more changes.

/// A first-in, first-out list of runs, each in it at most once (the `queued` bits of
/// [`WorkLists`] see to that), so a ring of one slot per run never overflows.
#[derive(Default)]
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
    fn push(&mut self, r: usize) {
        let mask = self.ring.len().wrapping_sub(1);
        if let Some(slot) = self.ring.get_mut((self.head + self.len) & mask) {
            *slot = r as u32;
            self.len += 1;
        }
    }

    #[inline]
    fn pop(&mut self) -> Option<usize> {
        if self.len == 0 {
            return None;
        }
        let r = self.ring.get(self.head).copied();
        self.head = (self.head + 1) & self.ring.len().wrapping_sub(1);
        self.len -= 1;
        r.map(|r| r as usize)
    }

    /// The entries, first to last.
    fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        let mask = self.ring.len().wrapping_sub(1);
        (0..self.len)
            .filter_map(move |k| self.ring.get((self.head + k) & mask))
            .map(|&r| r as usize)
    }
}

/// The work lists of the easy, medium and hard levels (levels 0, 1 and 2).
#[derive(Default)]
pub(super) struct WorkLists {
    /// Per level, its list.
    lists: [Fifo; 3],
    /// Per run: bit `l` set when the run is in list `l`.
    queued: Vec<u8>,
    /// Per level: false until the level first runs, when every run joins its list (most
    /// puzzles never get past easy, so they never pay for the higher lists).
    started: [bool; 3],
}

impl WorkLists {
    /// Every one of `runs` runs waits for the easy level; the others have not started.
    pub(super) fn new(runs: usize) -> WorkLists {
        let mut easy = Fifo::new(runs);
        (0..runs).for_each(|r| easy.push(r));
        WorkLists {
            lists: [easy, Fifo::new(runs), Fifo::new(runs)],
            queued: vec![0b001; runs],
            started: [true, false, false],
        }
    }

    /// Starts level `l` if it has not started: every run not in its list joins it.
    pub(super) fn start(&mut self, l: usize) {
        if self.started[l] {
            return;
        }
        self.started[l] = true;
        for (r, queued) in self.queued.iter_mut().enumerate() {
            if *queued & 1 << l == 0 {
                *queued |= 1 << l;
                self.lists[l].push(r);
            }
        }
    }

    /// The next run for level `l`, taken off its list.
    #[inline]
    pub(super) fn pop(&mut self, l: usize) -> Option<usize> {
        let r = self.lists[l].pop()?;
        if let Some(queued) = self.queued.get_mut(r) {
            *queued &= !(1 << l);
        }
        Some(r)
    }

    /// Puts run `r` on the lists of the levels in `levels` (bit `l` for level `l`) that it
    /// is not on yet.
    #[inline]
    pub(super) fn want(&mut self, r: usize, levels: u8) {
        let Some(queued) = self.queued.get_mut(r) else { return };
        let missing = levels & !*queued;
        if missing == 0 {
            return;
        }
        *queued |= missing;
        for (l, list) in self.lists.iter_mut().enumerate() {
            if missing & 1 << l != 0 {
                list.push(r);
            }
        }
    }

    /// Empties every list (the levels stay started).
    pub(super) fn clear(&mut self) {
        for list in &mut self.lists {
            for r in list.iter() {
                if let Some(queued) = self.queued.get_mut(r) {
                    *queued = 0;
                }
            }
            list.len = 0;
        }
    }
}
