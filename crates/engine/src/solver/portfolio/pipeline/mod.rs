//! The regions' first two rounds as one pipeline: a piece of the second round starts as
//! soon as the even regions around it are solved, not once every even region is.
//!
//! A round lasts as long as its slowest region, and on many threads most of them wait for
//! it. But a piece of the second round (an odd region with the boundaries released around
//! it) depends only on the even regions its constraints reach: its model is built from
//! their values, and from nothing else that the first round decides. So each piece is
//! handed to the threads when its own even regions are done, while the others still run.
//! The pieces and what they depend on are fixed before anything is solved, and each is
//! solved from the same values whenever it starts, so the answer does not depend on the
//! thread count or on which region finished first.

mod workers;

use super::components::{self, Component, Group};
use super::early::{self, Early};
use super::graph::Graph;
use super::repair::{Repairs, Standing};
use super::span::{self, TaskSpans};
use super::{Crew, Scope};
use crate::model::{Domain, Model, VarId};
use crate::solver::goal::{Found, Goal};
use crate::solver::termination::{Abandon, Termination};
use std::collections::VecDeque;
use std::sync::{Condvar, Mutex, PoisonError, RwLock};
use std::time::{Duration, Instant};
use workers::{Queue, Task, Workers};

/// The cut of a part into regions, and the pieces of its second round.
pub(super) struct Cut<'g> {
    pub graph: &'g Graph<'g>,
    /// The regions, in band order: the even ones are solved first.
    pub regions: Vec<Vec<VarId>>,
    /// Each variable's region (`usize::MAX` for none).
    pub region_of: Vec<usize>,
    /// The even regions' variables that their pieces leave open again.
    pub released: Vec<VarId>,
}

impl<'g> Cut<'g> {
    /// The cut of `graph`'s part into `regions`, with what the second round releases.
    pub(super) fn new(graph: &'g Graph<'g>, regions: Vec<Vec<VarId>>, vars: usize) -> Cut<'g> {
        let region_of = super::graph::region_of(&regions, vars);
        let released = graph.released(&regions, &region_of);
        Cut { graph, regions, region_of, released }
    }
}

/// What the pipeline gave: the answers of the even regions and of the pieces, in their
/// order, and the one that ended the pipeline, if any.
pub(super) struct Outcome {
    /// The first round's answer for each even region (only those solved, when one failed).
    pub evens: Vec<Option<Found>>,
    /// The pieces of the second round: their variables, and their answers.
    pub pieces: Vec<(Vec<VarId>, Option<Found>)>,
    /// The domains with every even region fixed to its answer, its released variables
    /// left as they were.
    pub fixed: Vec<Domain>,
    /// What ended the pipeline early: an even region without a solution or stopped, or a
    /// piece stopped by the caller.
    pub ended: Option<Ended>,
    /// What the early repairs of stuck pieces gave.
    pub repaired: early::Results,
    /// The pipeline's wall time beyond its longest chain (see [`span`]):
    /// the work before the first task, then an even region and a piece that waits for it.
    pub slack: Duration,
}

impl Outcome {
    /// Where the repair rounds start: the even regions' values, each piece's where it has
    /// them, the early repairs' after them; the pieces neither completed nor repaired
    /// early are stuck.
    pub(super) fn standing(&self) -> Standing {
        let mut standing = Standing { fixed: self.fixed.clone(), ..Standing::default() };
        let pieces = self.pieces.iter().enumerate();
        let open = pieces.filter(|(p, _)| !self.repaired.covered.get(*p).is_some_and(|&c| c));
        standing.settle(open.map(|(_, (vars, found))| (vars.as_slice(), found.as_ref())));
        for (vars, values) in &self.repaired.values {
            for (&v, &value) in vars.iter().zip(values) {
                standing.fixed[v] = Domain::single(value);
            }
        }
        standing
    }
}

/// Which task ended the pipeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Ended {
    Even(usize),
    Piece(usize),
}

/// Runs the first round (`first`, one solution per even region) and the second (`second`,
/// each piece within its budget), as the module docs say.
pub(super) fn run(
    model: &Model,
    domains: &[Domain],
    cut: &Cut<'_>,
    crew: Crew<'_>,
    (first, second): (Goal<'_>, Goal<'_>),
    scope: Scope,
) -> Outcome {
    let begun = Instant::now();
    let evens: Vec<usize> = (0..cut.regions.len()).step_by(2).collect();
    let region_of = &cut.region_of;
    let mut is_released = vec![false; domains.len()];
    for &v in &cut.released {
        is_released[v] = true;
    }
    // The second round's pieces: what stays open once the even regions are fixed.
    let mut shape = domains.to_vec();
    for &r in &evens {
        for &v in cut.regions[r].iter().filter(|&&v| !is_released[v]) {
            shape[v] = Domain::single(1);
        }
    }
    let groups = components::groups(model, &shape);
    // Each piece waits for the even regions of the fixed variables its constraints reach.
    let mut dependents: Vec<Vec<usize>> = vec![Vec::new(); cut.regions.len()];
    let mut waiting_for = Vec::with_capacity(groups.len());
    // Per piece, the even regions it waits for, by their index among the even ones.
    let mut needs_evens = Vec::with_capacity(groups.len());
    for (p, group) in groups.iter().enumerate() {
        let mut needs: Vec<usize> = group
            .constraints
            .iter()
            .flat_map(|&c| model.constraints[c].vars())
            .map(|&v| region_of[v])
            .filter(|&r| r != usize::MAX && r % 2 == 0)
            .collect();
        needs.sort_unstable();
        needs.dedup();
        // A released variable of an even region is the piece's own, not a dependency; a
        // piece that reaches an even region only through released variables still waits
        // for it, which costs nothing but a little overlap.
        for &r in &needs {
            dependents[r].push(p);
        }
        waiting_for.push(needs.len());
        needs_evens.push(needs.iter().map(|r| r / 2).collect::<Vec<usize>>());
    }
    let mut ready: VecDeque<Task> = (0..evens.len()).map(Task::Even).collect();
    ready.extend((0..groups.len()).filter(|&p| waiting_for[p] == 0).map(Task::Piece));
    let queue = Mutex::new(Queue {
        ready,
        waiting_for,
        unfinished: evens.len() + groups.len(),
        running: 0,
        workers: 0,
    });
    let changed = Condvar::new();
    let fixed = RwLock::new(domains.to_vec());
    let abandon = Abandon::within(first.termination.abandon);
    let ended: Mutex<Option<Ended>> = Mutex::new(None);
    let even_answers: Vec<Mutex<Option<Found>>> = evens.iter().map(|_| Mutex::new(None)).collect();
    let piece_answers: Vec<Mutex<Option<Found>>> =
        groups.iter().map(|_| Mutex::new(None)).collect();
    let goals = [first, second].map(|goal| {
        let termination = Termination { abandon: Some(&abandon), ..goal.termination };
        Goal { termination, ..goal }
    });
    let repairs = Repairs { model, domains, graph: cut.graph, crew, goal: goals[1], scope };
    let piece_vars: Vec<&[VarId]> = groups.iter().map(|g| g.vars.as_slice()).collect();
    let early = Early::new(repairs, &piece_vars, crew.threads > 1);
    let end = |task: Ended| {
        if !abandon.raise() {
            *ended.lock().unwrap_or_else(PoisonError::into_inner) = Some(task);
        }
    };
    let spans = TaskSpans::new(evens.len() + groups.len());
    let solve_even = |e: usize| {
        let started = Instant::now();
        let vars = &cut.regions[evens[e]];
        let constraints = cut.graph.constraints_of_all(vars);
        let region = components::build(model, domains, vars.clone(), &constraints);
        let answer = super::solve_model(&region.model, crew, goals[0], scope);
        if answer.stopped.is_some() || answer.count == 0 {
            end(Ended::Even(e));
        } else if let Some(solution) = answer.solutions.first() {
            let mut fixed = fixed.write().unwrap_or_else(PoisonError::into_inner);
            let values = region.vars[..region.open].iter().copied().zip(solution.iter().copied());
            let kept: Vec<(VarId, u32)> = values.filter(|&(v, _)| !is_released[v]).collect();
            for &(v, value) in &kept {
                fixed[v] = Domain::single(value);
            }
            early.even_solved(kept.into_iter());
        }
        spans.record(e, started, &answer.stats);
        log_task("even region", e, vars.len(), begun, started, &answer);
        *even_answers[e].lock().unwrap_or_else(PoisonError::into_inner) = Some(answer);
        dependents[evens[e]].as_slice()
    };
    let solve_piece = |p: usize| {
        let started = Instant::now();
        let group: &Group = &groups[p];
        let piece: Component = {
            let fixed = fixed.read().unwrap_or_else(PoisonError::into_inner);
            components::build(model, &fixed, group.vars.clone(), &group.constraints)
        };
        let answer = super::solve_model(&piece.model, crew, goals[1], scope);
        // Only the caller's stop ends the rest: a piece without a completion, or past its
        // budget, is opened wider afterwards.
        if answer.stopped.is_some_and(|reason| reason != crate::solver::StopReason::NodeLimit) {
            end(Ended::Piece(p));
        }
        let solution = answer.solutions.first().filter(|_| answer.count >= 1);
        early.piece_answered(p, &group.vars, solution.map(Vec::as_slice));
        spans.record(evens.len() + p, started, &answer.stats);
        log_task("piece", p, group.vars.len(), begun, started, &answer);
        *piece_answers[p].lock().unwrap_or_else(PoisonError::into_inner) = Some(answer);
    };
    // A task the caller stopped before it was begun: answered as stopped, and the end.
    let stop_before = |task: Task| -> bool {
        let Some(reason) = super::parts::stopped_before(&goals[0]) else { return false };
        let stopped = Some(Found { stopped: Some(reason), ..Found::default() });
        let (slot, task) = match task {
            Task::Even(e) => (&even_answers[e], Ended::Even(e)),
            Task::Piece(p) => (&piece_answers[p], Ended::Piece(p)),
        };
        *slot.lock().unwrap_or_else(PoisonError::into_inner) = stopped;
        end(task);
        true
    };
    let run_task = |task: Task| -> Option<&[usize]> {
        if stop_before(task) {
            return None;
        }
        Some(match task {
            Task::Even(e) => solve_even(e),
            Task::Piece(p) => {
                solve_piece(p);
                &[]
            }
        })
    };
    let workers = Workers {
        queue: &queue,
        changed: &changed,
        abandon: &abandon,
        early: &early,
        crew,
        run_task: &run_task,
    };
    let helpers = crew.threads.min(evens.len() + groups.len()).max(1) - 1;
    queue.lock().unwrap_or_else(PoisonError::into_inner).workers = 1 + helpers;
    let before_tasks = begun.elapsed();
    rayon::scope(|scope| {
        workers.spawn_helpers(scope, helpers);
        workers.work(scope, false);
    });
    let chain = before_tasks + longest_chain(&spans.into_inner(), evens.len(), &needs_evens);
    tracing::debug!(
        ?scope,
        evens = evens.len(),
        pieces = groups.len(),
        before_ms = span::ms(before_tasks),
        chain_ms = span::ms(chain),
        ms = span::ms(begun.elapsed()),
        "pipeline"
    );
    let into =
        |answer: Mutex<Option<Found>>| answer.into_inner().unwrap_or_else(PoisonError::into_inner);
    Outcome {
        evens: even_answers.into_iter().map(into).collect(),
        pieces: groups
            .into_iter()
            .map(|g| g.vars)
            .zip(piece_answers.into_iter().map(into))
            .collect(),
        fixed: fixed.into_inner().unwrap_or_else(PoisonError::into_inner),
        ended: ended.into_inner().unwrap_or_else(PoisonError::into_inner),
        repaired: early.into_results(),
        slack: span::slack(begun, chain),
    }
}

/// Logs a task of the pipeline begun at `begun` as the task ends: when it started
/// (`started`), from the pipeline's beginning, and how long it took.
fn log_task(
    task: &str,
    index: usize,
    vars: usize,
    begun: Instant,
    started: Instant,
    answer: &Found,
) {
    tracing::debug!(
        task,
        index,
        vars,
        begun_ms = span::ms(started.saturating_duration_since(begun)),
        ms = span::ms(started.elapsed()),
        nodes = answer.stats.nodes,
        sat = answer.stats.sat_solvers > 0,
        solved = answer.count > 0,
        thread = ?rayon::current_thread_index(),
    );
}

/// The pipeline's longest chain, from the tasks' `spans` (the even regions', then the
/// pieces'): an even region, or a piece after the last of the even regions it `needs`.
fn longest_chain(spans: &[Duration], evens: usize, needs: &[Vec<usize>]) -> Duration {
    let (even_spans, piece_spans) = spans.split_at(evens.min(spans.len()));
    let pieces = piece_spans.iter().zip(needs).map(|(&piece, needs)| {
        let ready = needs.iter().filter_map(|&e| even_spans.get(e)).max();
        ready.copied().unwrap_or_default() + piece
    });
    even_spans.iter().copied().chain(pieces).max().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::portfolio::tests::{Setup, random_grid};

    #[test]
    fn the_longest_chain_is_an_even_region_or_a_piece_after_the_slowest_it_waits_for() {
        let ms = Duration::from_millis;
        // Two even regions (10 and 30 ms); a piece of 5 ms after both, one of 25 after the
        // first alone, one of 2 after none.
        let spans = [ms(10), ms(30), ms(5), ms(25), ms(2)];
        let needs = [vec![0, 1], vec![0], vec![]];
        assert_eq!(longest_chain(&spans, 2, &needs), ms(35));
        let spans = [ms(10), ms(30), ms(5), ms(45), ms(2)];
        assert_eq!(longest_chain(&spans, 2, &needs), ms(55));
        assert_eq!(longest_chain(&[ms(40)], 1, &[]), ms(40));
    }

    #[test]
    fn the_pieces_built_from_their_even_regions_alone_fit_together_into_a_solution() {
        let mut whole = 0;
        for seed in 1..=3 {
            let model = random_grid(60, seed);
            let graph = Graph::new(&model, &model.domains);
            let regions = graph.regions(60).expect("a 60x60 grid is cut");
            let cut = Cut::new(&graph, regions, model.domains.len());
            let setup = Setup::default();
            let (goal, crew) = (setup.goal(1), setup.crew(2));
            let outcome = run(&model, &model.domains, &cut, crew, (goal, goal), Scope::Region);
            assert_eq!(outcome.ended, None, "seed {seed}");
            assert!(outcome.evens.iter().all(|f| f.as_ref().is_some_and(|f| f.count == 1)));
            let mut values: Vec<u32> =
                outcome.fixed.iter().map(|d| d.value().unwrap_or(0)).collect();
            let mut stuck = false;
            for (vars, found) in &outcome.pieces {
                let found = found.as_ref().expect("every piece is solved");
                match found.solutions.first() {
                    Some(solution) if found.count >= 1 => {
                        for (&v, &value) in vars.iter().zip(solution) {
                            values[v] = value;
                        }
                    }
                    _ => stuck = true,
                }
            }
            if !stuck {
                assert!(model.is_satisfied_by(&values), "seed {seed}");
                whole += 1;
            }
        }
        assert!(whole >= 1, "every seed left a piece without a completion");
    }
}
