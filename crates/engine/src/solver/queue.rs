//! The queue of propagators waiting to run: one FIFO per priority level, each propagator at
//! most once. Cheap, strong propagators (two-cell runs) sit at the front, so the expensive
//! ones (long runs, all-different) tend to run once the cheap ones have already narrowed
//! their domains, and run fewer times.

/// Number of priority levels; level 0 runs first.
pub const LEVELS: usize = 3;

/// Deduplicating FIFO queues of propagator ids, one per priority level.
#[derive(Clone, Debug)]
pub struct PropagatorQueue {
    /// Ring buffers, one per level, each with a power-of-two capacity of at least
    /// `queued.len()` (so wrapping around is a mask, not a division).
    rings: [Vec<u32>; LEVELS],
    heads: [usize; LEVELS],
    lens: [usize; LEVELS],
    /// Priority level of each propagator.
    level: Vec<u8>,
    /// Whether each propagator is queued now.
    queued: Vec<bool>,
}

impl PropagatorQueue {
    /// An empty queue for propagators with the given priority levels (clamped to `LEVELS`).
    pub fn new(levels: Vec<u8>) -> PropagatorQueue {
        let n = levels.len().max(1);
        let capacity = n.next_power_of_two();
        PropagatorQueue {
            rings: std::array::from_fn(|_| vec![0; capacity]),
            heads: [0; LEVELS],
            lens: [0; LEVELS],
            level: levels.into_iter().map(|l| l.min(LEVELS as u8 - 1)).collect(),
            queued: vec![false; n],
        }
    }

    /// Queues `p` unless it is queued already.
    #[inline]
    pub fn push(&mut self, p: u32) {
        if !self.queued[p as usize] {
            self.queued[p as usize] = true;
            let l = self.level[p as usize] as usize;
            let ring = &mut self.rings[l];
            let slot = (self.heads[l] + self.lens[l]) & (ring.len() - 1);
            ring[slot] = p;
            self.lens[l] += 1;
        }
    }

    /// Takes the oldest propagator of the most urgent non-empty level.
    #[inline]
    pub fn pop(&mut self) -> Option<u32> {
        let l = (0..LEVELS).find(|&l| self.lens[l] > 0)?;
        let p = self.rings[l][self.heads[l]];
        self.heads[l] = (self.heads[l] + 1) & (self.rings[l].len() - 1);
        self.lens[l] -= 1;
        self.queued[p as usize] = false;
        Some(p)
    }

    /// Empties the queue.
    pub fn clear(&mut self) {
        while self.pop().is_some() {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urgent_levels_first_then_first_in_first_out_and_no_duplicates() {
        let mut q = PropagatorQueue::new(vec![2, 0, 2, 1]);
        for p in [0, 2, 3, 1, 0, 1] {
            q.push(p);
        }
        let order: Vec<u32> = std::iter::from_fn(|| q.pop()).collect();
        assert_eq!(order, vec![1, 3, 0, 2]);
        assert_eq!(q.pop(), None);
    }
}
