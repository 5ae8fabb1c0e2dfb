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
//! waits while the SAT engine runs on the caller's, both going on from where they stopped
//! (the search's stack and the SAT engine's learnt clauses are kept). Each round of turns
//! is shared as the solutions each side found per second so far, each side having at
//! least a fifth: a side that finds none may still be the one to prove that no more exist.
//! Whichever settles the count first answers it and stops the other: where the faster
//! side is also the one that finds solutions faster, a count takes about 1.25 times what
//! it would alone, and at most five times.

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

/// The least share of a round each side has, whatever it found: a side that finds no
/// solution may still be the one to prove that no more exist.
const LEAST_SHARE: f64 = 0.2;

/// The longest round of turns: the rounds grow from the probe's time to this, so that
/// the shares follow what each side finds.
const MOST_ROUND: Duration = Duration::from_millis(200);

/// Counts the part `model` from its propagated `root` up to `goal.target`, the two engines
/// taking turns; the first round of turns lasts `first_turn` (what the probe took).
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
        let (mut shares, mut round, mut conflicts) = (Shares::default(), first_turn, 0u64);
        loop {
            let (search_turn, sat_turn) = shares.split(round);
            baton.pass(Side::Search, search_turn);
            let Some(search_took) = baton.wait(Side::Sat) else { break };
            shares.search = (shares.search.0 + search_took, shared.found());
            let (took, _) = shares.sat;
            let rate = if took.is_zero() {
                FIRST_CONFLICTS_PER_SECOND
            } else {
                conflicts as f64 / took.as_secs_f64()
            };
            conflicts += (sat_turn.as_secs_f64() * rate).max(1.0) as u64;
            let begun = Instant::now();
            let answer = solutions.next_until(Some(conflicts));
            shares.sat = (took + begun.elapsed(), answer.count);
            round = (round * 2).min(MOST_ROUND);
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

/// What each side found in the time it had, in all: the solutions it counted, which the
/// next turns are shared by.
#[derive(Default)]
struct Shares {
    search: (Duration, u64),
    sat: (Duration, u64),
}

impl Shares {
    /// The search's turn and the SAT engine's in a round of `round`: shared as the
    /// solutions each found per second so far (half each while neither found any), each
    /// at least [`LEAST_SHARE`] of it.
    fn split(&self, round: Duration) -> (Duration, Duration) {
        let rate = |(took, found): (Duration, u64)| {
            if took.is_zero() { 0.0 } else { found as f64 / took.as_secs_f64() }
        };
        let (search, sat) = (rate(self.search), rate(self.sat));
        let share = if search + sat > 0.0 {
            (sat / (search + sat)).clamp(LEAST_SHARE, 1.0 - LEAST_SHARE)
        } else {
            0.5
        };
        (round.mul_f64(1.0 - share), round.mul_f64(share))
    }
}

/// Whose turn it is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Side {
    Search,
    Sat,
}

/// The turn passed between the two sides: whose it is, with a time (for the search, how
/// long its turn may last; for the SAT engine, how long the search's turn took, from which
/// it gives itself its own), or that the count is over.
#[derive(Default)]
struct Baton {
    state: Mutex<Option<(Side, Duration)>>,
    over: AtomicBool,
    changed: Condvar,
}

impl Baton {
    /// Gives the turn to `side`, with the time it reads.
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

    /// Waits for `side`'s turn, and returns the time passed with it; `None` once the
    /// turns are over.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_round_goes_to_the_side_that_finds_solutions_faster_but_never_all_of_it() {
        let round = Duration::from_millis(100);
        let second = Duration::from_secs(1);
        let split = |search, sat| Shares { search, sat }.split(round);
        let (half, fifth) = (Duration::from_millis(50), Duration::from_millis(20));
        assert_eq!(split((second, 0), (second, 0)), (half, half));
        assert_eq!(split((second, 1_000), (second, 1_000)), (half, half));
        assert_eq!(split((second, 15_000), (second, 700)), (round - fifth, fifth));
        assert_eq!(split((second, 0), (second, 30)), (fifth, round - fifth));
        // A side that has had no turn yet counts as finding nothing.
        assert_eq!(split((Duration::ZERO, 0), (second, 5)), (fifth, round - fifth));
    }
}
