//! The search state: current domains, the trail that undoes their changes on backtrack, and
//! the queue of propagators waiting to run.
//!
//! Every domain change goes through [`State::set`], which records the old domain on the
//! trail and queues the propagators watching the variable, so backtracking is "undo the
//! trail down to a mark" and nothing else.

use super::domain::Domain;

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
    /// Propagators watching each variable: `watch_list[watch_start[v]..watch_start[v + 1]]`.
    watch_start: Vec<u32>,
    watch_list: Vec<u32>,
    /// FIFO of propagators to run, as a ring buffer of capacity `in_queue.len()`.
    queue: Vec<u32>,
    head: usize,
    len: usize,
    in_queue: Vec<bool>,
    /// The propagator now running; it is not requeued by its own changes (each propagator
    /// runs to its own fixed point).
    running: u32,
}

impl State {
    /// A state with `domains`, where `watchers[v]` lists the propagators of variable `v`.
    pub fn new(domains: Vec<Domain>, watchers: &[Vec<u32>], num_props: usize) -> State {
        let mut watch_start = Vec::with_capacity(domains.len() + 1);
        let mut watch_list = Vec::new();
        for list in watchers {
            watch_start.push(watch_list.len() as u32);
            watch_list.extend_from_slice(list);
        }
        watch_start.push(watch_list.len() as u32);
        State {
            domains,
            trail: Vec::new(),
            watch_start,
            watch_list,
            queue: vec![0; num_props.max(1)],
            head: 0,
            len: 0,
            in_queue: vec![false; num_props],
            running: u32::MAX,
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
    }

    /// Narrows `var` to `new` (a subset of its domain), trailing the old domain and queuing
    /// its watchers. Fails when `new` is empty.
    #[inline]
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
        let (start, end) = (self.watch_start[var] as usize, self.watch_start[var + 1] as usize);
        for i in start..end {
            let p = self.watch_list[i];
            if p != self.running {
                self.enqueue(p);
            }
        }
        Ok(())
    }

    /// Position on the trail, to backtrack to later.
    #[inline]
    pub fn mark(&self) -> usize {
        self.trail.len()
    }

    /// Undoes every change made after `mark`.
    pub fn undo(&mut self, mark: usize) {
        while self.trail.len() > mark {
            if let Some((var, old)) = self.trail.pop() {
                self.domains[var as usize] = old;
            }
        }
    }

    /// The domains as they were at `mark`, leaving this state unchanged.
    pub fn domains_at(&self, mark: usize) -> Vec<Domain> {
        let mut domains = self.domains.clone();
        for &(var, old) in self.trail[mark..].iter().rev() {
            domains[var as usize] = old;
        }
        domains
    }

    /// The propagators watching `var`.
    pub fn watchers(&self, var: usize) -> &[u32] {
        &self.watch_list[self.watch_start[var] as usize..self.watch_start[var + 1] as usize]
    }

    /// Queues propagator `p` unless it is queued already.
    #[inline]
    pub fn enqueue(&mut self, p: u32) {
        if !self.in_queue[p as usize] {
            self.in_queue[p as usize] = true;
            let cap = self.queue.len();
            self.queue[(self.head + self.len) % cap] = p;
            self.len += 1;
        }
    }

    /// Takes the next queued propagator and marks it as running.
    #[inline]
    pub fn dequeue(&mut self) -> Option<u32> {
        if self.len == 0 {
            self.running = u32::MAX;
            return None;
        }
        let p = self.queue[self.head];
        self.head = (self.head + 1) % self.queue.len();
        self.len -= 1;
        self.in_queue[p as usize] = false;
        self.running = p;
        Some(p)
    }

    /// Empties the queue (after a conflict).
    pub fn clear_queue(&mut self) {
        while let Some(p) = self.dequeue() {
            self.in_queue[p as usize] = false;
        }
        self.running = u32::MAX;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state() -> State {
        State::new(vec![Domain::range(1, 9); 3], &[vec![0], vec![0, 1], vec![1]], 2)
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
