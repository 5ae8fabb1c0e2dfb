//! The search state: current domains, the trail that undoes their changes on backtrack, and
//! the queue of propagators waiting to run.
//!
//! Every domain change goes through [`State::set`], which records the old domain on the
//! trail and queues the propagators watching the variable, so backtracking is "undo the
//! trail down to a mark" and nothing else. Marks are taken at fixed points of
//! propagation, so after an undo nothing needs to run, and the changes made since the
//! last undo ([`State::settled`]) are all an incremental propagator has to look at.

use super::domain::Domain;
use super::propagators::Watches;
use super::queue::PropagatorQueue;

/// A propagation failed: some domain became empty or a constraint cannot hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Conflict;

/// Result of a propagation step.
pub type PropResult = Result<(), Conflict>;

/// Domains, trail, watch lists and propagation queue.
#[derive(Clone, Debug)]
pub struct State {
    /// Current domain of every variable.
    domains: Vec<Domain>,
    /// `(variable, domain before the change)`, newest last.
    trail: Vec<(u32, Domain)>,
    /// Propagators watching each variable.
    watches: Watches,
    /// Propagators waiting to run.
    queue: PropagatorQueue,
    /// The propagator now running; it is not requeued by its own changes (each propagator
    /// runs to its own fixed point).
    running: u32,
    /// Trail length at the last undo, where the domains were a fixed point of every
    /// propagator; `None` after a load, until the next undo.
    settled: Option<usize>,
    /// Counts undos and loads: a trail position read in another epoch may be gone.
    epoch: u64,
}

impl State {
    /// A state with `domains`, whose changes wake the propagators in `watches`; `levels`
    /// gives each propagator's priority (see [`PropagatorQueue`]).
    pub fn new(domains: Vec<Domain>, watches: Watches, levels: Vec<u8>) -> State {
        // Room for every variable to narrow a few times before the trail grows.
        let trail = Vec::with_capacity(4 * domains.len());
        State {
            domains,
            trail,
            watches,
            queue: PropagatorQueue::new(levels),
            running: u32::MAX,
            settled: None,
            epoch: 0,
        }
    }

    /// The domain of `var`.
    #[inline]
    pub fn dom(&self, var: usize) -> Domain {
        self.domains[var]
    }

    /// All current domains.
    pub fn domains(&self) -> &[Domain] {
        &self.domains
    }

    /// Replaces every domain (starting a subproblem); clears trail and queue.
    pub fn load(&mut self, domains: &[Domain]) {
        self.domains.copy_from_slice(domains);
        self.trail.clear();
        self.clear_queue();
        self.settled = None;
        self.epoch += 1;
    }

    /// Narrows `var` to `new` (a subset of its domain), trailing the old domain and queuing
    /// its watchers. Fails when `new` is empty.
    #[inline(always)]
    pub fn set(&mut self, var: usize, new: Domain) -> PropResult {
        let old = self.domains[var];
        if new == old {
            return Ok(());
        }
        debug_assert_eq!(new.without(old), Domain::EMPTY, "domains only shrink");
        if new.is_empty() {
            return Err(Conflict);
        }
        self.trail.push((var as u32, old));
        self.domains[var] = new;
        let State { watches, queue, running, .. } = self;
        for &p in watches.of(var) {
            if p != *running {
                queue.push(p);
            }
        }
        Ok(())
    }

    /// Takes `value` out of the domain of `var`; fails when nothing is left.
    #[inline]
    pub fn remove_value(&mut self, var: usize, value: u32) -> PropResult {
        self.set(var, self.domains[var].remove(value))
    }

    /// Position on the trail, to backtrack to later.
    #[inline]
    pub fn mark(&self) -> usize {
        self.trail.len()
    }

    /// Undoes every change made after `mark`, which must have been taken at a fixed point
    /// of propagation (see [`State::settled`]).
    pub fn undo(&mut self, mark: usize) {
        while self.trail.len() > mark {
            if let Some((var, old)) = self.trail.pop() {
                self.domains[var as usize] = old;
            }
        }
        self.settled = Some(self.trail.len());
        self.epoch += 1;
    }

    /// The trail position of the last undo: the domains there were a fixed point of every
    /// propagator, and everything changed since is on the trail after it. `None` when the
    /// domains were loaded since (nothing is known of them).
    pub fn settled(&self) -> Option<usize> {
        self.settled
    }

    /// Changes on every undo and load: a trail position read in an earlier epoch may no
    /// longer mean the same changes.
    pub fn epoch(&self) -> u64 {
        self.epoch
    }

    /// The trail after `mark`: `(variable, domain before the change)`, oldest first.
    pub fn trail_since(&self, mark: usize) -> &[(u32, Domain)] {
        self.trail.get(mark..).unwrap_or_default()
    }

    /// The domains as they were at `mark`, leaving this state unchanged.
    pub fn domains_at(&self, mark: usize) -> Vec<Domain> {
        let mut domains = self.domains.clone();
        for &(var, old) in self.trail[mark..].iter().rev() {
            domains[var as usize] = old;
        }
        domains
    }

    /// A state with `domains` watched by the single propagator `prop` (for unit tests).
    #[cfg(test)]
    pub fn for_test(domains: &[Domain], prop: &super::propagators::Propagator) -> State {
        let watches = Watches::new(domains.len(), std::slice::from_ref(prop));
        State::new(domains.to_vec(), watches, vec![0])
    }

    /// Variables that became fixed after `mark`, each once.
    pub fn fixed_since(&self, mark: usize) -> Vec<usize> {
        let mut fixed: Vec<usize> = self.trail[mark..]
            .iter()
            .filter(|&&(var, old)| !old.is_fixed() && self.domains[var as usize].is_fixed())
            .map(|&(var, _)| var as usize)
            .collect();
        fixed.sort_unstable();
        fixed.dedup();
        fixed
    }

    /// Queues propagator `p` unless it is queued already.
    #[inline]
    pub fn enqueue(&mut self, p: u32) {
        self.queue.push(p);
    }

    /// Takes the next queued propagator and marks it as running.
    #[inline]
    pub fn dequeue(&mut self) -> Option<u32> {
        let next = self.queue.pop();
        self.running = next.unwrap_or(u32::MAX);
        next
    }

    /// Empties the queue (after a conflict).
    pub fn clear_queue(&mut self) {
        self.queue.clear();
        self.running = u32::MAX;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::propagators::{AllDifferent, Propagator};

    fn state() -> State {
        let props = [
            Propagator::AllDifferent(AllDifferent::new(&[0, 1], &[Domain::range(1, 9); 3])),
            Propagator::AllDifferent(AllDifferent::new(&[1, 2], &[Domain::range(1, 9); 3])),
        ];
        State::new(vec![Domain::range(1, 9); 3], Watches::new(3, &props), vec![0, 0])
    }

    #[test]
    fn undo_restores_domains_in_reverse_order() {
        let mut s = state();
        let mark = s.mark();
        s.set(0, Domain::range(1, 5)).expect("non-empty");
        s.set(0, Domain::single(3)).expect("non-empty");
        s.set(2, Domain::range(2, 3)).expect("non-empty");
        assert_eq!(s.domains_at(mark), vec![Domain::range(1, 9); 3]);
        s.undo(mark);
        assert_eq!(s.domains(), &[Domain::range(1, 9); 3]);
    }

    #[test]
    fn a_change_queues_each_watcher_once_and_an_empty_domain_fails() {
        let mut s = state();
        s.set(1, Domain::range(1, 5)).expect("non-empty");
        s.set(0, Domain::range(1, 4)).expect("non-empty");
        assert_eq!(s.dequeue(), Some(0));
        assert_eq!(s.dequeue(), Some(1));
        assert_eq!(s.dequeue(), None);
        assert_eq!(s.set(2, Domain::EMPTY), Err(Conflict));
    }
}
