//! One CaDiCaL solver on an encoded model: it finds the solutions one after another,
//! forbidding each found one by a clause and solving again (incrementally, so what it
//! learned is kept), until the goal's target is met or the formula is unsatisfiable.
//!
//! CaDiCaL polls a terminator, which must own what it reads: it holds the caller's cancel
//! flag and the termination's rival flag (raised here too when the deadline passes, so the
//! whole race stops), both shared handles, the deadline and the shared count of waiting
//! work.

use super::encode::Cnf;
use crate::solver::goal::{Found, Goal};
use crate::solver::termination::Abandon;
use crate::solver::{Engine, Stats, StopReason};
use cadical_sys::{CaDiCal, Status, Terminator};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

/// The terminator reads the clock once in this many calls.
const CLOCK_EVERY: u32 = 64;

/// Clauses loaded between two checks of the terminator's conditions.
const LOAD_BATCH: usize = 4096;

/// The terminator: the caller's cancel flag, the stop flag, the deadline passed, or (for a
/// helper) work waiting.
struct StopCheck {
    cancel: Option<Arc<AtomicBool>>,
    abandon: Option<Abandon>,
    stop: Arc<AtomicBool>,
    deadline: Option<Instant>,
    waiting: Option<Arc<AtomicUsize>>,
    yielded: Arc<AtomicBool>,
    calls: u32,
}

impl Terminator for StopCheck {
    fn terminated(&mut self) -> bool {
        if self.stop.load(Ordering::Relaxed) {
            return true;
        }
        if self.abandon.as_ref().is_some_and(Abandon::is_raised) {
            return true;
        }
        if self.cancel.as_ref().is_some_and(|cancel| cancel.load(Ordering::Relaxed)) {
            // The whole race stops, as on a deadline.
            self.stop.store(true, Ordering::Relaxed);
            return true;
        }
        if self.waiting.as_ref().is_some_and(|count| count.load(Ordering::Relaxed) > 0) {
            self.yielded.store(true, Ordering::Relaxed);
            return true;
        }
        self.calls = self.calls.wrapping_add(1);
        if self.calls.is_multiple_of(CLOCK_EVERY)
            && let Some(deadline) = self.deadline
            && Instant::now() >= deadline
        {
            self.stop.store(true, Ordering::Relaxed);
            return true;
        }
        false
    }
}

/// Finds up to `goal.target` solutions of `cnf`; stops early when the termination says so:
/// its rival flag raised (another engine finished), its deadline or cancel flag, work
/// waiting (for a helper given the count), or as many conflicts as its node limit. `seed`
/// 0 keeps CaDiCaL's order; others set this seed and shuffle the variable order (a
/// member of a portfolio).
pub(crate) fn solve(cnf: &Cnf, goal: Goal<'_>, seed: u32) -> Found {
    let stop = goal.termination.rival.cloned().unwrap_or_default();
    let conflicts = goal.termination.node_limit;
    let mut solutions = Solutions::new(cnf, goal, &stop, seed);
    let mut found = Found::default();
    let reason = loop {
        match solutions.next(conflicts) {
            Ok(Some(values)) => {
                found.count += 1;
                if found.solutions.len() < 2 {
                    found.solutions.push(values);
                }
                if found.count >= goal.target {
                    break None;
                }
            }
            Ok(None) => break None,
            Err(reason) => break Some(reason),
        }
    };
    found.stopped = reason;
    found.yielded = solutions.session.yielded();
    found.engine = Engine::Sat;
    found.stats = solutions.stats();
    found.stats.solutions = found.count;
    found
}

/// The solutions of one solver, found one after another, each forbidden before the next
/// solve, with what the solver learnt kept from one solve to the next.
pub(crate) struct Solutions<'c> {
    session: Session<'c>,
    /// The variables whose values a found solution's clause forbids: all when `None`.
    projection: Option<Vec<usize>>,
}

impl<'c> Solutions<'c> {
    /// A solver for `cnf`, stopped as [`solve`] says (but for the node limit, which each
    /// call gives).
    pub fn new(cnf: &'c Cnf, goal: Goal<'_>, stop: &Arc<AtomicBool>, seed: u32) -> Self {
        Solutions { session: Session::new(cnf, goal, stop, seed), projection: None }
    }

    /// Forbids, with each solution found, every assignment that gives `vars` the same
    /// values, so that the solutions found are the distinct values of `vars` that some
    /// solution takes.
    pub fn projected(mut self, vars: Vec<usize>) -> Self {
        self.projection = Some(vars);
        self
    }

    /// The next solution, forbidden from now on (with its projection, if any); `None` when
    /// none is left, or why the solver stopped: `conflicts` (in all; then the node limit),
    /// or a reason of the caller's.
    pub fn next(&mut self, conflicts: Option<u64>) -> Result<Option<Vec<u32>>, StopReason> {
        let Some(values) = self.session.solve(&[], conflicts)? else { return Ok(None) };
        let cnf = self.session.cnf;
        let clause = match &self.projection {
            Some(vars) => cnf.forbidding(&values, vars.iter().copied()),
            None => cnf.forbidding(&values, 0..values.len()),
        };
        self.session.forbid(&clause);
        Ok(Some(values))
    }

    /// The solver's figures so far.
    pub fn stats(&self) -> Stats {
        self.session.stats()
    }
}

/// One CaDiCaL solver loaded with an encoded model.
struct Session<'c> {
    solver: CaDiCal,
    cnf: &'c Cnf,
    /// Whether every clause was loaded: a solver stopped while loading answers nothing.
    loaded: bool,
    goal_deadline: Option<Instant>,
    stop: Arc<AtomicBool>,
    yielded: Arc<AtomicBool>,
}

impl<'c> Session<'c> {
    /// A solver for `cnf`, stopped by `stop`, the goal's deadline and (for a helper) the
    /// termination's waiting work.
    pub fn new(cnf: &'c Cnf, goal: Goal<'_>, stop: &Arc<AtomicBool>, seed: u32) -> Self {
        let mut solver = CaDiCal::new();
        configure(&mut solver, seed);
        let yielded = Arc::new(AtomicBool::new(false));
        let mut check = StopCheck {
            cancel: goal.termination.budget.cancel.cloned(),
            abandon: goal.termination.abandon.cloned(),
            stop: Arc::clone(stop),
            deadline: goal.termination.budget.deadline,
            waiting: goal.termination.waiting.cloned(),
            yielded: Arc::clone(&yielded),
            calls: 0,
        };
        solver.resize(cnf.num_vars);
        // Loading a large formula takes tens of milliseconds (160,000 clauses of a piece of
        // a 150x150 grid: 60 ms), which CaDiCaL cannot be stopped in: the same checks stop
        // it between batches of clauses.
        let mut loaded = true;
        for batch in cnf.clauses.chunks(LOAD_BATCH) {
            if check.terminated() {
                loaded = false;
                break;
            }
            for clause in batch {
                solver.clause6(clause);
            }
        }
        solver.connect_terminator(check);
        Session {
            solver,
            cnf,
            loaded,
            goal_deadline: goal.termination.budget.deadline,
            stop: Arc::clone(stop),
            yielded,
        }
    }

    /// Solves under `assumptions` (literals), within `conflicts` conflicts in all: a
    /// solution, `None` when there is none, or why the solver gave up.
    pub fn solve(
        &mut self,
        assumptions: &[i32],
        conflicts: Option<u64>,
    ) -> Result<Option<Vec<u32>>, StopReason> {
        if !self.loaded {
            return Err(self.why_stopped(conflicts));
        }
        if let Some(limit) = conflicts {
            let left = limit.saturating_sub(statistic(&self.solver, "conflicts"));
            if left == 0 {
                return Err(StopReason::NodeLimit);
            }
            self.solver.limit("conflicts", i32::try_from(left).unwrap_or(i32::MAX));
        }
        for &lit in assumptions {
            self.solver.assume(lit);
        }
        match self.solver.solve() {
            Status::SATISFIABLE => Ok(Some(self.cnf.decode(|var| self.solver.val(var) > 0))),
            Status::UNSATISFIABLE => Ok(None),
            Status::UNKNOWN => Err(self.why_stopped(conflicts)),
        }
    }

    /// Adds `clause`, which forbids solutions, from now on.
    pub fn forbid(&mut self, clause: &[i32]) {
        self.solver.clause6(clause);
    }

    /// Whether the solver stopped to give its thread to waiting work.
    pub fn yielded(&self) -> bool {
        self.yielded.load(Ordering::Relaxed)
    }

    /// The solver's figures so far.
    pub fn stats(&self) -> Stats {
        Stats {
            sat_solvers: 1,
            sat_conflicts: statistic(&self.solver, "conflicts"),
            sat_decisions: statistic(&self.solver, "decisions"),
            sat_propagations: statistic(&self.solver, "propagations"),
            sat_learned: statistic(&self.solver, "redundant"),
            ..Stats::default()
        }
    }

    /// Why the solver gave up before an answer.
    fn why_stopped(&self, conflicts: Option<u64>) -> StopReason {
        if self.goal_deadline.is_some_and(|d| Instant::now() >= d) {
            StopReason::Timeout
        } else if conflicts.is_some_and(|limit| statistic(&self.solver, "conflicts") >= limit)
            && !self.stop.load(Ordering::Relaxed)
        {
            StopReason::NodeLimit
        } else {
            StopReason::Cancelled
        }
    }
}

/// Sets a portfolio member's options (while the solver is still being configured).
fn configure(solver: &mut CaDiCal, seed: u32) {
    // A grid's formula is large (a variable per cell and digit, a selector per run and
    // combination) while the hard part of a puzzle is a few small regions, so whatever
    // CaDiCaL does to the whole formula costs more than it gains. Measured on generated
    // 80x80 to 150x150 grids (see docs/solving.md): without pre- and inprocessing ("plain"),
    // 2x to 6x sooner; focused mode only (no stable phases), 2x to 3x; restarts and clause
    // database reductions 1000 conflicts apart, each of which touches the whole trail or
    // formula, and no rephasing, up to 2x again.
    solver.configure("plain");
    solver.set("stabilize", 0);
    solver.set("restartint", 1000);
    solver.set("reduceint", 1000);
    solver.set("rephase", 0);
    if seed > 0 {
        solver.set("seed", seed as i32);
        solver.set("shuffle", 1);
        solver.set("shufflerandom", 1);
    }
}

/// A CaDiCaL statistic (0 when it is not kept).
fn statistic(solver: &CaDiCal, name: &str) -> u64 {
    u64::try_from(solver.get_statistic_value(name)).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::termination::{Abandon, Termination};

    #[test]
    fn an_abandoned_part_stops_loading_its_formula_and_answers_nothing() {
        // A 9x9 Latin square: more than one batch of clauses.
        let model = super::super::tests::latin_square(9);
        let cnf = super::super::encode(&model, &model.domains);
        assert!(cnf.clauses.len() > LOAD_BATCH);
        let live = std::sync::atomic::AtomicUsize::new(0);
        let abandon = Abandon::within(None);
        let termination = Termination { abandon: Some(&abandon), ..Termination::default() };
        let goal = Goal::new(1, termination, &live);
        let stop = Arc::new(AtomicBool::new(false));
        assert!(Session::new(&cnf, goal, &stop, 0).loaded);
        abandon.raise();
        let mut session = Session::new(&cnf, goal, &stop, 0);
        assert!(!session.loaded);
        assert_eq!(session.solve(&[], None), Err(StopReason::Cancelled));
    }
}
