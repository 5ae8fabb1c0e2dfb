//! The depth-first search and the SAT engine taking turns on one thread's worth of time,
//! for a count.
//!
//! On more than one thread the two engines race a part's count side by side (see
//! [`race::both`]). On one, which engine counts a part sooner is not
//! known beforehand: the search meets a dense part's solutions every few nodes, where the
//! SAT engine pays a solve for each; on a part whose few solutions lie deep in the
//! search's tree, the search can spend minutes between two of them, and the SAT engine,
//! which learns, finds them in a fraction of a second. The probe does not tell them apart:
//! a part of 46 open cells whose first 10,000 nodes met no solution was counted to 100,000
//! by the search alone in 7 s, and the SAT engine alone had found 23,000 after 30 s.
//!
//! So the two take turns, and never run at once: the search on a thread of its own that
//! waits while the SAT engine runs on the caller's, each turn as long as the last one of
//! the other, and both going on from where they stopped (the search's stack and the SAT
//! engine's learnt clauses are kept). Whichever settles the count first answers it and
//! stops the other: a count takes about twice what the faster engine alone would take.

use super::race;
use super::shared::Shared;
use crate::model::Model;
use crate::solver::goal::{Found, Goal};
use crate::solver::search::{Driver, Search, Subproblem};
use crate::solver::termination::Termination;
use crate::solver::{Progress, SolveOptions, StopReason, sat};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// The SAT engine's conflicts per second assumed for its first turn, before its own rate
/// is known (about its rate on Kakuro parts of a few hundred cells).
const FIRST_CONFLICTS_PER_SECOND: f64 = 20_000.0;

/// Counts the part `model` from its propagated `root` up to `goal.target`, the two engines
/// taking turns; the search's first turn lasts `first_turn` (what the probe took).
pub(super) fn count(
    model: &Model,
    options: &SolveOptions,
    goal: Goal<'_>,
    root: Subproblem,
    first_turn: Duration,
) -> Found {
    if goal.termination.node_limit.is_some() {
        // The caller's node limit counts the SAT engine's conflicts, alone.
        let crew = super::Crew { options, threads: 1, waiting: None };
        return race::both(model, crew, goal, root);
    }
    let cnf = sat::encode(model, &root.domains);
    // Raised by the side that settles the count, and by the SAT engine on the caller's
    // cancel flag and deadline: either way the other side stops.
    let stop = Arc::new(AtomicBool::new(false));
    // The caller's thread, which never gives itself back to waiting work (nor does the
    // search's, which stands for it while the caller's waits).
    let termination = Termination { rival: Some(&stop), waiting: None, ..goal.termination };
    let goal = Goal { termination, ..goal };
    let baton = Baton::default();
    let shared = Shared::new(goal);
    let mut winner = None;
    let searched = std::thread::scope(|scope| {
        let search = scope.spawn(|| {
            let turn = baton.wait(Side::Search)?;
            let mut search = Search::new(model, options);
            let begun = Instant::now();
            let mut driver = TurnDriver { shared: &shared, baton: &baton, begun, turn };
            let end = search.run(root, &mut driver);
            let settled = end.is_none() && !stop.swap(true, Ordering::SeqCst);
            baton.end();
            Some((search.stats(), settled))
        });
        let mut solutions = sat::Solutions::new(&cnf, goal, &stop, 0);
        let (mut conflicts, mut sat_took, mut turn) = (0u64, Duration::ZERO, first_turn);
        loop {
            baton.pass(Side::Search, turn);
            let Some(search_took) = baton.wait(Side::Sat) else { break };
            let rate = if sat_took.is_zero() {
                FIRST_CONFLICTS_PER_SECOND
            } else {
                conflicts as f64 / sat_took.as_secs_f64()
            };
            conflicts += (search_took.as_secs_f64() * rate).max(1.0) as u64;
            let begun = Instant::now();
            let answer = solutions.next_until(Some(conflicts));
            turn = begun.elapsed();
            sat_took += turn;
            match answer.stopped {
                Some(StopReason::NodeLimit) => {}
                // Settled, unless the search settled it first and stopped this side.
                None if stop.swap(true, Ordering::SeqCst) => break,
                // Settled, or stopped by the caller's cancel flag or deadline.
                _ => {
                    winner = Some(answer);
                    break;
                }
            }
        }
        baton.end();
        let searched = search.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (searched.unwrap_or_default(), solutions.stats())
    });
    let ((search_stats, search_settled), sat_stats) = searched;
    let mut found = match winner {
        Some(found) if !search_settled => found,
        _ => shared.into_found(),
    };
    found.stats = super::counted(search_stats);
    found.stats += sat_stats;
    found
}

/// Whose turn it is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Side {
    Search,
    Sat,
}

/// The turn passed between the two sides: whose it is and how long it may last (the last
/// turn of the other side), or that the count is over.
#[derive(Default)]
struct Baton {
    state: Mutex<Option<(Side, Duration)>>,
    over: AtomicBool,
    changed: Condvar,
}

impl Baton {
    /// Gives the turn to `side`, for about `turn`.
    fn pass(&self, side: Side, turn: Duration) {
        *self.state.lock().unwrap_or_else(PoisonError::into_inner) = Some((side, turn));
        self.changed.notify_all();
    }

    /// Ends the turns: both sides stop waiting.
    fn end(&self) {
        self.over.store(true, Ordering::SeqCst);
        let _state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        self.changed.notify_all();
    }

    /// Waits for `side`'s turn, and returns how long it may last; `None` once the turns
    /// are over.
    fn wait(&self, side: Side) -> Option<Duration> {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        loop {
            if self.over.load(Ordering::SeqCst) {
                return None;
            }
            if let Some((turn_side, turn)) = *state
                && turn_side == side
            {
                return Some(turn);
            }
            state = self.changed.wait(state).unwrap_or_else(PoisonError::into_inner);
        }
    }
}

/// The search's driver: the shared counter and checks, and the turn's end, when it passes
/// the turn to the SAT engine and waits for its next one.
struct TurnDriver<'s, 'a> {
    shared: &'s Shared<'a>,
    baton: &'s Baton,
    begun: Instant,
    turn: Duration,
}

impl Driver for TurnDriver<'_, '_> {
    fn on_solution(&mut self, values: &[u32]) -> bool {
        self.shared.record(values)
    }

    fn poll(&mut self, nodes: u64) -> Option<StopReason> {
        if let Some(reason) = self.shared.check(nodes) {
            return Some(reason);
        }
        let took = self.begun.elapsed();
        if took < self.turn {
            return None;
        }
        self.baton.pass(Side::Sat, took);
        let Some(turn) = self.baton.wait(Side::Search) else {
            return Some(StopReason::Cancelled);
        };
        (self.begun, self.turn) = (Instant::now(), turn);
        self.shared.check(nodes)
    }

    fn progress(&self) -> Option<&Progress> {
        self.shared.progress()
    }
}
