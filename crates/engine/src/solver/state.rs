//! The search state: current domains, the trail that undoes their changes on backtrack, and
//! the queue of propagators waiting to run.
//!
//! Every domain change goes through [`State::set`], which records the old domain on the
//! trail and queues the propagators watching the variable, so backtracking is "undo the
//! trail down to a mark" and nothing else. Marks are taken at fixed points of
//! propagation, so after an undo nothing needs to run. The state knows nothing of what
//! the propagators are: it holds their ids (see the contract in
//! [`propagators::contract`](super::propagators::contract)).

use super::queue::PropagatorQueue;
use crate::model::Domain;

/// A change would have left a variable without values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EmptyDomain;

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
}

impl State {
    /// A state with `domains`, whose changes wake the propagators in `watches`; `levels`
    /// gives each propagator's priority (see [`PropagatorQueue`]).
    pub fn new(domains: Vec<Domain>, watches: Watches, levels: Vec<u8>) -> State {
        // Room for every variable to narrow a few times before the trail grows.
        let trail = Vec::with_capacity(4 * domains.len());
        State { domains, trail, watches, queue: PropagatorQueue::new(levels), running: u32::MAX }
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

    /// Replaces every domain (starting a subproblem); clears trail and queue. The search
    /// calls it through [`Propagators::load`](super::propagators::Propagators::load), which
    /// tells the propagators.
    pub fn load(&mut self, domains: &[Domain]) {
        self.domains.copy_from_slice(domains);
        self.trail.clear();
        self.clear_queue();
    }

    /// Narrows `var` to `new` (a subset of its domain), trailing the old domain and queuing
    /// its watchers. Fails when `new` is empty.
    #[inline(always)]
    pub fn set(&mut self, var: usize, new: Domain) -> Result<(), EmptyDomain> {
        let old = self.domains[var];
        if new == old {
            return Ok(());
        }
        debug_assert_eq!(new.without(old), Domain::EMPTY, "domains only shrink");
        if new.is_empty() {
            return Err(EmptyDomain);
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
    pub fn remove_value(&mut self, var: usize, value: u32) -> Result<(), EmptyDomain> {
        self.set(var, self.domains[var].remove(value))
    }

    /// Position on the trail, to backtrack to later.
    #[inline]
    pub fn mark(&self) -> usize {
        self.trail.len()
    }

    /// Undoes every change made after `mark`, which must have been taken at a fixed point
    /// of propagation. The search calls it through
    /// [`Propagators::undo`](super::propagators::Propagators::undo), which tells the
    /// propagators.
    pub fn undo(&mut self, mark: usize) {
        while self.trail.len() > mark {
            if let Some((var, old)) = self.trail.pop() {
                self.domains[var as usize] = old;
            }
        }
    }

    /// The changes made after `mark`: `(variable, domain before the change)`, oldest
    /// first. A propagator that keeps its own view of the domains catches up from here.
    pub fn changes_since(&self, mark: usize) -> &[(u32, Domain)] {
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

    /// A state with `domains` watched by one propagator over `vars` (for unit tests).
    #[cfg(test)]
    pub fn for_test(domains: &[Domain], vars: &[u32]) -> State {
        let watches = Watches::new(domains.len(), &[vars]);
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

    /// The ids of the propagators watching `var`.
    #[inline]
    pub fn watchers(&self, var: usize) -> &[u32] {
        self.watches.of(var)
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

/// For each variable, the ids of the propagators over it, in one flat array.
#[derive(Clone, Debug, Default)]
pub struct Watches {
    /// `list[start[v]..start[v + 1]]` watch variable `v`.
    start: Vec<u32>,
    list: Vec<u32>,
}

impl Watches {
    /// The watch lists of `num_vars` variables, where propagator `id` watches
    /// `watched[id]`.
    pub fn new(num_vars: usize, watched: &[&[u32]]) -> Watches {
        // Count the watchers of each variable, turn the counts into where each variable's
        // list ends, and fill the lists from the back: the ends become the starts.
        let mut end = vec![0u32; num_vars + 1];
        for &v in watched.iter().copied().flatten() {
            end[v as usize] += 1;
        }
        let mut total = 0;
        for end in &mut end {
            total += *end;
            *end = total;
        }
        let mut list = vec![0u32; total as usize];
        for (id, vars) in watched.iter().enumerate().rev() {
            for &v in vars.iter().rev() {
                end[v as usize] -= 1;
                list[end[v as usize] as usize] = id as u32;
            }
        }
        Watches { start: end, list }
    }

    /// The propagators watching `var`.
    #[inline]
    pub fn of(&self, var: usize) -> &[u32] {
        &self.list[self.start[var] as usize..self.start[var + 1] as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state() -> State {
        State::new(vec![Domain::range(1, 9); 3], Watches::new(3, &[&[0, 1], &[1, 2]]), vec![0, 0])
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
        assert_eq!(s.set(2, Domain::EMPTY), Err(EmptyDomain));
    }
}
