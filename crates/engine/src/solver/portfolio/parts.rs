//! Independent parts of one problem (see [`components`]), solved and put together into the
//! answer for the whole.
//!
//! On more than one thread the parts are solved side by side, one thread each (more when
//! there are fewer parts than threads), largest first: each thread takes the next part as
//! it finishes one, so the threads divide the work between them, which racing copies of
//! one search cannot do. A part without a
//! solution, or one stopped by a limit, abandons the others at once. A thread other than
//! the caller's gives itself back between parts while other work waits (the daemon's
//! queue), so a lone large input takes every idle core and many inputs share them.
//!
//! With a node limit the parts are solved one after the other, each with every thread: the
//! limit counts the nodes of the whole, in order.

use super::span::{self, TaskSpans};
use super::{Crew, components, regions, side_by_side_on};
use crate::model::{Domain, Model};
use crate::solver::goal::{Found, Goal};
use crate::solver::termination::{Abandon, Termination, work_waits};
use crate::solver::{Engine, Stats, StopReason};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

/// Solves the independent parts and puts the answers together: the whole has as many
/// solutions as the product of the parts' counts, capped at the target.
///
/// The parts of a region (`scope` [`Scope::SubRegion`](super::Scope::SubRegion)) are always
/// solved side by side, each within the region's own budget.
pub(super) fn solve(
    model: &Model,
    crew: Crew<'_>,
    goal: Goal<'_>,
    domains: &[Domain],
    parts: &[components::Component],
    scope: super::Scope,
) -> Found {
    let answers = solve_each(crew, goal, parts, scope, Targets::ForTheWhole);
    let (stats, engine) = answers.summed();
    if let Some(failed) = answers.failed {
        let stopped = answers.found[failed].stopped;
        return Found { solutions: Vec::new(), count: 0, stopped, stats, engine, yielded: false };
    }
    let solutions = together(domains, parts.iter().zip(&answers.found));
    debug_assert!(solutions.iter().all(|s| model.is_satisfied_by(s)));
    Found { count: solutions.len() as u64, solutions, stopped: None, stats, engine, yielded: false }
}

/// The whole's first solution, every part's first in place over the fixed `domains`, and,
/// when a part showed two, a second: the first such part's second in place. Every part
/// must have a solution.
pub(super) fn together<'p>(
    domains: &[Domain],
    answers: impl Iterator<Item = (&'p components::Component, &'p Found)> + Clone,
) -> Vec<Vec<u32>> {
    let mut base: Vec<u32> = domains.iter().map(|d| d.value().unwrap_or(0)).collect();
    for (part, found) in answers.clone() {
        components::place(part, &found.solutions[0], &mut base);
    }
    let second = answers.into_iter().find(|(_, found)| found.count > 1);
    let mut solutions = vec![base.clone()];
    if let Some((part, found)) = second {
        let mut other = base;
        components::place(part, &found.solutions[1], &mut other);
        solutions.push(other);
    }
    solutions
}

/// How many solutions each part is asked for.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Targets {
    /// The target, except that once a part has shown two solutions, the parts after it
    /// are asked for one: the whole has two then, whichever part shows them.
    ForTheWhole,
    /// The target, each part: a count needs every part's own.
    Each,
}

/// Solves each part, as [`solve`] says, stopping at the first that fails.
pub(super) fn solve_each(
    crew: Crew<'_>,
    goal: Goal<'_>,
    parts: &[components::Component],
    scope: super::Scope,
    targets: Targets,
) -> Answers {
    let side_by_side = scope == super::Scope::SubRegion
        || (crew.threads > 1 && parts.len() > 1 && goal.termination.node_limit.is_none());
    if side_by_side {
        self::side_by_side(crew, goal, parts, scope, targets)
    } else {
        one_after_another(crew, goal, parts, targets)
    }
}

/// What the parts gave: their answers, in the order of the parts (only as many as were
/// solved when one failed, or when the level around them was abandoned), and the one that
/// failed (no solution, or stopped), if any.
pub(super) struct Answers {
    pub found: Vec<Found>,
    pub failed: Option<usize>,
    /// Their wall time beyond the slowest part (see [`span`]), where they are independent:
    /// not under a node limit, which counts their nodes in order.
    pub slack: Option<Duration>,
}

impl Answers {
    /// The parts' statistics summed, with the slack of their running side by side, and the
    /// engine that answered (the SAT engine, if it answered any part).
    pub(super) fn summed(&self) -> (Stats, Engine) {
        let (mut stats, mut engine) = (Stats::default(), Engine::Search);
        for found in &self.found {
            add(&mut stats, &mut engine, found);
        }
        if let Some(slack) = self.slack {
            stats.parallel_slack = slack;
        }
        (stats, engine)
    }
}

/// Adds `found`'s statistics to `stats`, and its engine to `engine` where it is the SAT
/// engine's answer: the engine that answered a whole put together from parts.
pub(super) fn add(stats: &mut Stats, engine: &mut Engine, found: &Found) {
    *stats += found.stats;
    if found.engine == Engine::Sat {
        *engine = Engine::Sat;
    }
}

/// The caller's reason to stop before a part is begun: its deadline passed or its cancel
/// flag raised (a part's own engines check them too, but only once they run).
pub(super) fn stopped_before(goal: &Goal<'_>) -> Option<crate::solver::StopReason> {
    let termination = Termination { node_limit: None, ..goal.termination };
    match termination.check(0) {
        Some(crate::solver::termination::Stop::Limit(reason)) => Some(reason),
        _ => None,
    }
}

/// A part's answer that ends the whole: no solution, or stopped before one.
fn fails(found: &Found) -> bool {
    found.stopped.is_some() || found.count == 0
}

/// The parts one after the other, each with every thread; stops at the first that fails.
/// Without a node limit, more threads would solve them side by side: their span is the
/// slowest part's.
fn one_after_another(
    crew: Crew<'_>,
    goal: Goal<'_>,
    parts: &[components::Component],
    targets: Targets,
) -> Answers {
    let (begun, mut slowest) = (Instant::now(), Duration::ZERO);
    let slack =
        |slowest| goal.termination.node_limit.is_none().then(|| span::slack(begun, slowest));
    let mut found = Vec::with_capacity(parts.len());
    let mut nodes = 0;
    // Once a part has shown two solutions, one of each other part is enough for the whole.
    let mut second_known = false;
    for part in parts {
        let one = second_known && targets == Targets::ForTheWhole;
        let target = if one { 1 } else { goal.target };
        let part_goal = Goal { target, termination: goal.termination.after(nodes), ..goal };
        let started = Instant::now();
        let answer = super::solve_model(&part.model, crew, part_goal, super::Scope::Part);
        slowest = slowest.max(span::of_task(started, &answer.stats));
        nodes += answer.stats.nodes;
        second_known |= answer.count > 1;
        let failed = fails(&answer);
        found.push(answer);
        if failed {
            return Answers { failed: Some(found.len() - 1), found, slack: slack(slowest) };
        }
    }
    Answers { found, failed: None, slack: slack(slowest) }
}

/// The parts side by side, one thread each (or the threads shared out among fewer parts),
/// in their order (largest first, as they come from the split), on up to `crew.threads`
/// threads of the pool, each solved as `scope` says; a part without a solution, or
/// stopped, ends the rest.
fn side_by_side(
    crew: Crew<'_>,
    goal: Goal<'_>,
    parts: &[components::Component],
    scope: super::Scope,
    targets: Targets,
) -> Answers {
    let next = AtomicUsize::new(0);
    let abandon = Abandon::within(goal.termination.abandon);
    // The first part, in order, that showed two solutions: the parts after it need one
    // each, those before it still look for two, so that which part's second solution is
    // reported does not depend on the order in which the parts finish.
    let first_two = AtomicUsize::new(usize::MAX);
    let failed: Mutex<Option<usize>> = Mutex::new(None);
    let answers: Vec<Mutex<Option<Found>>> = parts.iter().map(|_| Mutex::new(None)).collect();
    let (begun, spans) = (Instant::now(), TaskSpans::new(parts.len()));
    let termination = Termination { abandon: Some(&abandon), ..goal.termination };
    // Fewer parts than threads: the threads left over go to the parts' own engines.
    let workers = crew.threads.min(parts.len());
    let each = Crew { threads: crew.threads / workers, ..crew };
    // One thread's loop: the next part until none is left or one has failed; a helper
    // also stops between parts while other work waits for its thread.
    let work = |helper: bool| {
        // A helper gives its thread back between parts while other work waits for one.
        let over = || abandon.is_raised() || (helper && work_waits(crew.waiting));
        while !over() {
            let index = next.fetch_add(1, Ordering::SeqCst);
            let Some(part) = parts.get(index) else { break };
            if let Some(reason) = stopped_before(&goal) {
                // Past the deadline or cancelled: the part is not begun.
                let answer = Found { stopped: Some(reason), ..Found::default() };
                if !abandon.raise() {
                    *failed.lock().unwrap_or_else(PoisonError::into_inner) = Some(index);
                }
                *answers[index].lock().unwrap_or_else(PoisonError::into_inner) = Some(answer);
                break;
            }
            // A region looks for as many solutions as asked, whatever the others found:
            // the search alone finds its first solution by restarts when asked for one and
            // by the plain search when asked for two, so a target that depended on which
            // regions had finished would make the answer depend on the thread count.
            let regional = matches!(scope, super::Scope::Region | super::Scope::SubRegion);
            let after_two = !regional && index > first_two.load(Ordering::SeqCst);
            let target = if after_two && targets == Targets::ForTheWhole { 1 } else { goal.target };
            let part_goal = Goal { target, termination, ..goal };
            // A part large enough to be cut into regions takes every thread: its regions
            // go to the pool, where the threads that run out of parts take them up. So
            // does a region, for the sub-regions it may be cut into; its own engines run
            // on one thread.
            let crew = match scope {
                super::Scope::Part if part.open >= regions::MIN_OPEN => crew,
                super::Scope::Region | super::Scope::SubRegion => crew,
                _ => each,
            };
            let started = Instant::now();
            let answer = super::solve_model(&part.model, crew, part_goal, scope);
            spans.record(index, started, &answer.stats);
            if answer.count > 1 {
                first_two.fetch_min(index, Ordering::SeqCst);
            }
            if fails(&answer) && !abandon.raise() {
                // The first to fail says why the whole failed; the parts it stops fail
                // only because of it.
                *failed.lock().unwrap_or_else(PoisonError::into_inner) = Some(index);
            }
            *answers[index].lock().unwrap_or_else(PoisonError::into_inner) = Some(answer);
        }
    };
    side_by_side_on(workers, work);
    let failed = failed.into_inner().unwrap_or_else(PoisonError::into_inner);
    let mut found = Vec::with_capacity(parts.len());
    let mut failed_at = None;
    // A part not taken: one failed, which the answers then say, or the level around the
    // parts was abandoned.
    for (index, answer) in answers.into_iter().enumerate() {
        let answer = answer.into_inner().unwrap_or_else(PoisonError::into_inner);
        if let Some(answer) = answer {
            if failed == Some(index) {
                failed_at = Some(found.len());
            }
            found.push(answer);
        }
    }
    if failed_at.is_none() && found.len() < parts.len() {
        // Abandoned from outside before every part was solved: the parts solved are not
        // the whole, which is stopped, not solved.
        found.push(Found { stopped: Some(StopReason::Cancelled), ..Found::default() });
        failed_at = Some(found.len() - 1);
    }
    Answers { found, failed: failed_at, slack: Some(span::slack(begun, spans.longest())) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::SolveOptions;
    use crate::solver::portfolio::Scope;

    /// Four independent pairs, each adding up to 3.
    fn pairs() -> Model {
        let mut model = Model::default();
        for _ in 0..4 {
            let pair = vec![model.new_var(Domain::range(1, 9)), model.new_var(Domain::range(1, 9))];
            model.sum(pair, 3);
        }
        model
    }

    #[test]
    fn parts_abandoned_from_outside_are_stopped_and_never_claim_a_solution() {
        let model = pairs();
        let parts = components::split(&model, &model.domains);
        assert_eq!(parts.len(), 4);
        let options = SolveOptions::default();
        let live = AtomicUsize::new(0);
        for (scope, threads) in [(Scope::SubRegion, 1), (Scope::SubRegion, 2), (Scope::Part, 2)] {
            let crew = Crew { options: &options, threads, waiting: None };
            let outer = Abandon::within(None);
            let termination = Termination { abandon: Some(&outer), ..Termination::default() };
            let goal = Goal::new(1, termination, &live);
            let solved = solve(&model, crew, goal, &model.domains, &parts, scope);
            assert_eq!(solved.count, 1, "{threads} threads");
            assert!(model.is_satisfied_by(&solved.solutions[0]));
            outer.raise();
            let abandoned = solve(&model, crew, goal, &model.domains, &parts, scope);
            let answer = (abandoned.count, abandoned.solutions.len(), abandoned.stopped);
            assert_eq!(answer, (0, 0, Some(StopReason::Cancelled)), "{threads} threads");
        }
    }
}
