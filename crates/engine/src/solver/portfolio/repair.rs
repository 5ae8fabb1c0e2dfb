//! The repair rounds of the regions: the pieces that the second round left without a
//! completion open what lies around them, ever wider, and are solved again with the pieces
//! they then meet (step 5 of [`regions`](super::regions)).
//!
//! A round lasts as long as its slowest piece, and a piece whose boundary leaves it no
//! completion can take longer to refute than the next, wider round takes to solve it: on
//! a 300x300 grid one piece of 266 variables took 140 ms to refute, alone on its thread,
//! and the round after it 9 ms. So on more than one thread, a thread that finds
//! no piece left in a round does not wait for the others: it *speculates*, running the
//! next round at once as if every piece still running had no completion.
//! - When the speculative round completes every piece first, its values are taken and the
//!   pieces still running are stopped.
//! - When every piece it assumed stuck is indeed stuck, it is exactly the next round, with
//!   a head start, and its result is taken.
//! - When one of them has a completion after all, the speculation is stopped and thrown
//!   away, and a thread left without a piece begins another, assuming stuck the pieces
//!   running then. On more threads than pieces the first begins at once, assuming every
//!   piece stuck, and the first piece completed stops it: on 16 threads (of 2 cores) the
//!   ladder's 300x300 then refuted a 266-variable piece for 127 ms while nothing else
//!   ran, where the round after it took 10.
//!
//! Every piece's values are a completion of the fixed values around it, so the whole is a
//! solution either way, and a second solution that a piece shows is checked in the whole
//! put together. Which solutions they are may then depend on the thread count, as `first`
//! and `unique` allow; whether there are one or two does not, as a whole without a second
//! one among its pieces is solved whole.

use super::components::{self, Component};
use super::graph::{Graph, RELEASE_DEPTH};
use super::span::{self, TaskSpans};
use super::{Crew, Scope, parts, side_by_side_on};
use crate::model::{Domain, Model, VarId};
use crate::solver::goal::{Found, Goal};
use crate::solver::termination::{Abandon, Termination, work_waits};
use crate::solver::{Stats, StopReason};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::Instant;

/// The conflicts (or search nodes) one region or piece may take before it counts as one
/// that cannot be completed: a boundary that leaves a piece no solution can be as hard to
/// refute as the whole, and a wider one is cheaper.
pub(super) const PIECE_CONFLICTS: u64 = 20_000;

/// The budget of a piece of the second round at its first attempt, when one solution is
/// asked for (see [`piece_budget`]).
const FIRST_PIECE_CONFLICTS: u64 = 2_000;

/// How many times the second round opens more around the pieces it could not complete.
const REPAIRS: u32 = 3;

/// The node budget of a piece of the second round, at the given attempt, when `target`
/// solutions are asked for; none at the last attempt. For one solution it is small at
/// first, so that a boundary that leaves a piece no completion is found out and opened
/// wider soon, and four times larger at each attempt. For two it stays at
/// [`PIECE_CONFLICTS`]: a piece whose second solution lies past a small budget counts as
/// having one, and when no piece shows a second the regions give up on the whole.
pub(super) fn piece_budget(attempt: u32, target: u64) -> Option<u64> {
    let budget = match target {
        1 => FIRST_PIECE_CONFLICTS << (2 * attempt),
        _ => PIECE_CONFLICTS,
    };
    (attempt < REPAIRS).then_some(budget)
}

/// Where the rounds stand.
#[derive(Clone, Default)]
pub(super) struct Standing {
    /// The part's domains, every settled piece fixed to its values.
    pub fixed: Vec<Domain>,
    /// The variables of the pieces left without a completion (none, or past the budget).
    pub stuck: Vec<VarId>,
    /// Second solutions that pieces showed, one per round at most: their variables and
    /// values.
    pub seconds: Vec<(Vec<VarId>, Vec<u32>)>,
}

impl Standing {
    /// Writes each piece's solution into `fixed`, keeps the first second solution shown
    /// (the pieces beside it may or may not have looked for one, as the threads came), and
    /// adds the variables of the pieces left without a solution to `stuck`.
    pub(super) fn settle<'p>(
        &mut self,
        pieces: impl Iterator<Item = (&'p [VarId], Option<&'p Found>)>,
    ) {
        let mut second_kept = false;
        for (own, found) in pieces {
            match found.and_then(|f| f.solutions.first().filter(|_| f.count >= 1)) {
                Some(solution) => {
                    for (&v, &value) in own.iter().zip(solution) {
                        self.fixed[v] = Domain::single(value);
                    }
                    let other = found.and_then(|f| f.solutions.get(1)).filter(|_| !second_kept);
                    if let Some(other) = other {
                        self.seconds.push((own.to_vec(), other[..own.len()].to_vec()));
                        second_kept = true;
                    }
                }
                None => self.stuck.extend_from_slice(own),
            }
        }
    }
}

/// What the repair rounds need of the regions: the part and its cut, and how to solve.
pub(super) struct Repairs<'a> {
    pub model: &'a Model,
    /// The part's propagated domains, which a reopened variable gets back.
    pub domains: &'a [Domain],
    pub graph: &'a Graph<'a>,
    pub crew: Crew<'a>,
    /// The caller's goal; each round sets its pieces' node limit.
    pub goal: Goal<'a>,
    pub scope: Scope,
}

/// How the repair rounds ended.
pub(super) enum Repaired {
    /// Every round that was needed ran: the standing after the last (some variables may
    /// still be stuck), and the statistics of every piece solved.
    Ran(Standing, Stats),
    /// A piece was stopped by the caller's deadline or cancel: its answer, with the
    /// statistics of every piece solved.
    Stopped(Found),
}

/// How one round (or a round and the speculative one after it) ended.
enum RoundEnd {
    /// The standing after the round, and how many rounds that is (two when the
    /// speculative round after it was taken).
    Done { standing: Standing, rounds: u32 },
    /// A piece stopped by the caller: its answer.
    Stopped(Found),
}

/// The pieces of one round and what has become of them.
struct Board {
    answers: Vec<Option<Found>>,
    /// The speculation under way: the pieces it assumed stuck (those still running when
    /// it began), and the flag that stops it once one of them is completed after all.
    assumed: Option<(Vec<usize>, Abandon)>,
}

/// A speculation's result worth keeping: complete, or not stopped by a piece it assumed
/// stuck; with the pieces it assumed stuck.
struct Speculated {
    end: RoundEnd,
    assumed: Vec<usize>,
}

impl Repairs<'_> {
    /// The goal of a piece in the round `attempt`: that round's budget, stopped when
    /// `abandon` is raised.
    pub(super) fn piece_goal<'g>(&'g self, attempt: u32, abandon: Option<&'g Abandon>) -> Goal<'g> {
        let termination = Termination {
            node_limit: piece_budget(attempt, self.goal.target),
            abandon,
            ..self.goal.termination
        };
        Goal { termination, ..self.goal }
    }

    /// Runs the repair rounds from `standing` until nothing is stuck or the rounds run out.
    pub(super) fn run(&self, mut standing: Standing) -> Repaired {
        let mut stats = Stats::default();
        let mut attempt = 1;
        while !standing.stuck.is_empty() && attempt <= REPAIRS {
            let speculates = self.crew.threads > 1 && attempt < REPAIRS;
            let abandon = Abandon::within(self.goal.termination.abandon);
            match self.round(attempt, &standing, &abandon, speculates, &mut stats) {
                RoundEnd::Done { standing: next, rounds } => {
                    standing = next;
                    attempt += rounds;
                }
                RoundEnd::Stopped(found) => {
                    return Repaired::Stopped(Found { stats, ..found });
                }
            }
        }
        Repaired::Ran(standing, stats)
    }

    /// One round: opens what lies around the stuck variables, `RELEASE_DEPTH << attempt`
    /// steps deep, and solves the pieces that then stand open side by side, each within
    /// the attempt's budget and stopped when `abandon` is raised. When `speculates`, the
    /// first thread left without a piece runs the next round speculatively (see the
    /// module docs).
    fn round(
        &self,
        attempt: u32,
        before: &Standing,
        abandon: &Abandon,
        speculates: bool,
        stats: &mut Stats,
    ) -> RoundEnd {
        let begun = Instant::now();
        let fixed = before.fixed.clone();
        let mut opened = Standing { fixed, stuck: Vec::new(), seconds: before.seconds.clone() };
        for v in self.graph.around(&before.stuck, RELEASE_DEPTH << attempt) {
            opened.fixed[v] = self.domains[v];
        }
        let pieces = components::split(self.model, &opened.fixed);
        let goal = self.piece_goal(attempt, Some(abandon));
        let next = AtomicUsize::new(0);
        let answers = pieces.iter().map(|_| None).collect();
        let board = Mutex::new(Board { answers, assumed: None });
        let stopped_by: Mutex<Option<usize>> = Mutex::new(None);
        let spec: Mutex<Option<Speculated>> = Mutex::new(None);
        let spec_stats: Mutex<Stats> = Mutex::new(Stats::default());
        // Each piece's span, and the speculation's (the last of them) beside them.
        let spans = TaskSpans::new(pieces.len() + 1);
        let work = |helper: bool| {
            loop {
                if abandon.is_raised() || (helper && work_waits(self.crew.waiting)) {
                    return;
                }
                let index = next.fetch_add(1, Ordering::SeqCst);
                let Some(piece) = pieces.get(index) else { break };
                let started = Instant::now();
                let answer = match parts::stopped_before(&goal) {
                    // Past the deadline or cancelled: the piece is not begun.
                    Some(reason) => Found { stopped: Some(reason), ..Found::default() },
                    None => super::solve_model(&piece.model, self.crew, goal, self.scope),
                };
                spans.record(index, started, &answer.stats);
                // Only the caller's stop ends the round: a piece without a completion, or
                // past its budget, is opened wider in the next.
                let ended = answer.stopped.is_some_and(|reason| reason != StopReason::NodeLimit);
                if ended && !abandon.raise() {
                    *stopped_by.lock().unwrap_or_else(PoisonError::into_inner) = Some(index);
                }
                let mut board = board.lock().unwrap_or_else(PoisonError::into_inner);
                let completes = answer.count >= 1;
                board.answers[index] = Some(answer);
                // A piece assumed stuck has a completion: the speculation is not needed, and
                // a thread left without a piece may begin another.
                let assumed = board.assumed.as_ref().is_some_and(|(a, _)| a.contains(&index));
                if assumed
                    && completes
                    && let Some((_, flag)) = board.assumed.take()
                {
                    flag.raise();
                }
            }
            // A helper gives its thread back rather than speculate while other work waits.
            let yields = helper && work_waits(self.crew.waiting);
            if !speculates || yields {
                return;
            }
            // Another speculation begins where one was stopped, with the pieces still
            // running then: on more threads than pieces the first begins at once, assuming
            // every piece stuck, and the first piece completed stops it, where the one
            // piece of the round that cannot be completed may take a hundred times longer
            // to refute than the next round takes to widen it. Each begins with fewer
            // pieces running, so there are at most as many as pieces.
            while let Some((assumed, flag)) = assume_stuck(&board, &pieces, &opened, abandon) {
                let (started, mut stats) = (Instant::now(), Stats::default());
                let end = self.round(attempt + 1, &assumed, &flag, false, &mut stats);
                spans.record(pieces.len(), started, &stats);
                *spec_stats.lock().unwrap_or_else(PoisonError::into_inner) += stats;
                let complete =
                    matches!(&end, RoundEnd::Done { standing, .. } if standing.stuck.is_empty());
                if complete {
                    // Every piece completed: the pieces still running are not needed.
                    abandon.raise();
                }
                // Whether it still stands, seen under the lock that a piece completed after
                // all takes to stop it. It then stays on the board, so that no other begins.
                let board = board.lock().unwrap_or_else(PoisonError::into_inner);
                if complete || !flag.is_raised() {
                    let assumed = board.assumed.as_ref().map(|(a, _)| a.clone());
                    let assumed = assumed.unwrap_or_default();
                    *spec.lock().unwrap_or_else(PoisonError::into_inner) =
                        Some(Speculated { end, assumed });
                    return;
                }
                drop(board);
                if helper && work_waits(self.crew.waiting) {
                    return;
                }
            }
        };
        // One more thread than pieces may speculate while the last of them runs.
        let workers = self.crew.threads.min(pieces.len() + usize::from(speculates)).max(1);
        let before_pieces = begun.elapsed();
        side_by_side_on(workers, work);
        let board = board.into_inner().unwrap_or_else(PoisonError::into_inner);
        let spec = spec.into_inner().unwrap_or_else(PoisonError::into_inner);
        let mut own = spec_stats.into_inner().unwrap_or_else(PoisonError::into_inner);
        for found in board.answers.iter().flatten() {
            own += found.stats;
            own.regions += 1;
        }
        // The round's longest chain: the work before its pieces, then its slowest piece
        // (or the speculation, where it ran longer).
        let longest = spans.longest();
        own.parallel_slack = span::slack(begun, before_pieces + longest);
        tracing::debug!(
            attempt,
            pieces = pieces.len(),
            speculates,
            before_ms = span::ms(before_pieces),
            longest_ms = span::ms(longest),
            ms = span::ms(begun.elapsed()),
            "repair round"
        );
        *stats += own;
        let stopped_by = stopped_by.into_inner().unwrap_or_else(PoisonError::into_inner);
        let mut taken = None;
        if let Some(Speculated { end, assumed }) = spec {
            // Whether every piece the speculation assumed stuck was.
            let held = assumed
                .iter()
                .all(|&p| board.answers[p].as_ref().is_none_or(|found| found.count == 0));
            if let RoundEnd::Done { standing, .. } = end {
                // Complete, it is taken whatever the pieces it assumed stuck did; else
                // only where it is the round that came.
                let complete = standing.stuck.is_empty();
                if complete || (held && stopped_by.is_none()) {
                    taken = Some(standing);
                }
            }
        }
        if let Some(standing) = taken {
            return RoundEnd::Done { standing, rounds: 2 };
        }
        if let Some(index) = stopped_by {
            let found = board.answers.into_iter().nth(index).flatten().unwrap_or_default();
            return RoundEnd::Stopped(found);
        }
        let mut standing = opened;
        // Every piece is answered: only a stopped round leaves one unanswered.
        standing.settle(settled(&pieces, &board.answers));
        RoundEnd::Done { standing, rounds: 1 }
    }
}

/// The standing a speculation starts from, and the flag that stops it (within the round's
/// `abandon`): the pieces answered so far settled, those still running assumed stuck (and
/// recorded on the board as such); `None` when none is running, the round is abandoned,
/// or a speculation is under way or has answered.
fn assume_stuck(
    board: &Mutex<Board>,
    pieces: &[Component],
    opened: &Standing,
    abandon: &Abandon,
) -> Option<(Standing, Abandon)> {
    let mut board = board.lock().unwrap_or_else(PoisonError::into_inner);
    let running: Vec<usize> = (0..pieces.len()).filter(|&p| board.answers[p].is_none()).collect();
    if running.is_empty() || board.assumed.is_some() || abandon.is_raised() {
        return None;
    }
    let mut assumed = opened.clone();
    assumed.settle(settled(pieces, &board.answers));
    let flag = Abandon::within(Some(abandon));
    board.assumed = Some((running, flag.clone()));
    Some((assumed, flag))
}

/// Each piece's open variables, with its answer if it has one.
fn settled<'p>(
    pieces: &'p [Component],
    answers: &'p [Option<Found>],
) -> impl Iterator<Item = (&'p [VarId], Option<&'p Found>)> {
    pieces.iter().zip(answers).map(|(piece, found)| (&piece.vars[..piece.open], found.as_ref()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::portfolio::pipeline::{self, Cut};
    use crate::solver::portfolio::tests::{Setup, random_grid};

    /// The repair rounds after the pipeline on `model`, cut into regions of `region_vars`,
    /// at `threads`: the standing after them, whether it is a solution, and whether the
    /// pipeline (with its early repairs) left a piece stuck; `None` when the part is not cut.
    fn repaired(
        model: &Model,
        region_vars: usize,
        threads: usize,
    ) -> Option<(Standing, bool, bool)> {
        let setup = Setup::default();
        let (goal, crew) = (setup.goal(1), setup.crew(threads));
        let graph = Graph::new(model, &model.domains);
        let cut = Cut::new(&graph, graph.regions(region_vars)?, model.domains.len());
        let goals = setup.pipeline_goals();
        let outcome = pipeline::run(model, &model.domains, &cut, crew, goals, Scope::Region);
        let standing = outcome.standing();
        let solution = |standing: &Standing| {
            let values: Vec<u32> = standing.fixed.iter().map(|d| d.value().unwrap_or(0)).collect();
            standing.stuck.is_empty() && model.is_satisfied_by(&values)
        };
        if standing.stuck.is_empty() {
            let solved = solution(&standing);
            return Some((standing, solved, false));
        }
        let repairs = Repairs {
            model,
            domains: &model.domains,
            graph: &graph,
            crew,
            goal,
            scope: Scope::Region,
        };
        match repairs.run(standing) {
            Repaired::Ran(standing, _) => {
                let solved = solution(&standing);
                Some((standing, solved, true))
            }
            Repaired::Stopped(found) => panic!("stopped without a limit: {:?}", found.stopped),
        }
    }

    #[test]
    fn repair_rounds_complete_the_whole_with_a_solution_at_every_thread_count() {
        let (mut repaired_grids, mut completed) = (0, 0);
        for seed in 1..=6 {
            let model = random_grid(60, seed);
            let Some((one, solved, stuck)) = repaired(&model, 40, 1) else { continue };
            if !stuck {
                continue;
            }
            repaired_grids += 1;
            completed += usize::from(one.stuck.is_empty());
            assert!(solved || !one.stuck.is_empty(), "seed {seed}: a completion, no solution");
            // Eight threads: more than most rounds have pieces, so that a speculation
            // begins at once and another where the first is stopped.
            for threads in [2, 4, 8] {
                // The pipeline is the same at every thread count, but on more than one
                // thread its early repairs may complete the stuck pieces before it ends.
                let (other, solved, _) = repaired(&model, 40, threads).expect("the part is cut");
                // Every completion is a solution, the speculative rounds' and the early
                // repairs' included. Which grids complete may differ: a speculation's
                // values are another solution.
                assert!(solved || !other.stuck.is_empty(), "seed {seed}, {threads} threads");
            }
        }
        assert!(repaired_grids >= 3, "only {repaired_grids} of 6 grids left a piece stuck");
        assert!(completed >= 1, "the rounds completed none of {repaired_grids} grids");
    }
}
