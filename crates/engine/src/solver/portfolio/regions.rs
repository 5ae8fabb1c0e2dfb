//! A large connected part cut into regions along its own structure, and solved in two
//! rounds, the pieces of each round side by side.
//!
//! A very large grid left open by the logic is one connected part, and a CDCL solver's
//! time on it grows faster than its size (about as the square on generated grids: its
//! backjumps undo work in places that had nothing to do with the conflict). Cut into
//! regions, each piece is small, and several run at once:
//!
//! 1. The open variables are ordered by breadth-first distance from a far end of the part
//!    (two sweeps), through the neighbours each constraint lists (a run's cells, in order),
//!    and cut into regions of about [`REGION_VARS`] variables, fewer in a smaller part
//!    ([`region_vars`]): bands across the grid (a part needs [`MIN_OPEN`] open variables
//!    to be cut).
//! 2. First round, the even regions (0, 2, 4, …), each with every constraint on its
//!    variables, the other variables of those constraints coming along free. A region
//!    without a solution proves that the whole has none: its constraints are the whole's.
//! 3. The even regions' variables are fixed to what the first round gave them, except
//!    within [`RELEASE_DEPTH`](super::graph::RELEASE_DEPTH) steps of an odd region (so
//!    that the second round may still move the boundary) and where two even regions meet.
//! 4. Second round: what is left open falls apart into independent pieces, each an odd
//!    region with the boundaries released around it ([`components::groups`]); each piece's
//!    solution is then one of the whole's, put together with the others'. A piece depends
//!    only on the even regions around it, and starts as soon as they are solved: the two
//!    rounds run as one [`pipeline`], not one after the other.
//! 5. A piece that the boundary leaves without a completion, or that does not finish
//!    within a small budget, is opened wider (the variables around it, ever further) and
//!    solved again with the pieces it then meets, with four times the budget each time and
//!    none at the last: most such pieces are refuted or finished within a few thousand
//!    nodes, and waiting for the hard ones costs more than widening them. These
//!    [`repair`](super::repair) rounds do not wait for a slow refutation either: a thread
//!    left without a piece starts the next round at once. Nor does the first round wait
//!    for the pipeline: a thread left without a task of it repairs a stuck piece at once
//!    where nothing unfinished lies near it ([`early`](super::early)), until the
//!    pipeline's last task is finished.
//!
//! Where a piece still cannot be completed, or the mode asks for a second solution and no
//! piece has one, the regions give up and the part is solved whole, as before: the
//! regions' time is lost, never the answer. The cut does not depend on the thread count,
//! nor does the solution found on one thread; on more, a speculative or early repair, or
//! the SAT engine raced beside a region, may give another. Whether a second solution is
//! found never depends on the threads: where the pieces show none, the part is solved
//! whole.

use super::graph::{Graph, MIN_REGIONS};
use super::parts;
use super::pipeline::{self, Cut, Ended};
use super::repair::{PIECE_CONFLICTS, Repaired, Repairs, Standing, piece_budget};
use super::{Crew, Scope, components, span};
use crate::model::{Domain, Model};
use crate::solver::goal::{Found, Goal};
use crate::solver::termination::Termination;
use crate::solver::{Engine, Stats, StopReason};
use std::time::{Duration, Instant};

/// About how many open variables a region of a large part holds. Smaller regions are
/// solved sooner and spread over more threads, but have more boundary for the second
/// round to complete.
const REGION_VARS: usize = 700;

/// The fewest open variables a region holds, about: a part too small for regions of
/// [`REGION_VARS`] is cut into regions of a [`SMALL_PART_REGIONS`]th of it, down to this.
const MIN_REGION_VARS: usize = 350;

/// How many regions, about, a part too small for regions of [`REGION_VARS`] is cut into.
/// Such a part (1,400 to 4,200 open variables: a 60x60 to 120x120 random filling, a
/// 101x31) left to the search alone often goes on to the SAT engine, which takes 100 to
/// 250 ms on it; its regions are mostly answered by the search, in a fraction of that,
/// and side by side.
const SMALL_PART_REGIONS: usize = 6;

/// About how many open variables a sub-region holds: a region the search alone could not
/// answer is cut again into pieces of this size (see [`solve_again`]).
const SUB_REGION_VARS: usize = 400;

/// The open variables a part needs to be cut into regions: below it, the probe and one
/// solver are quick on the whole.
pub(super) const MIN_OPEN: usize = MIN_REGION_VARS * MIN_REGIONS;

/// The open variables from which a problem is so large that it is cut at once: the whole
/// is not probed, and a part the cut declines is not tried by the search alone first.
pub(super) const LARGE_OPEN: usize = REGION_VARS * MIN_REGIONS;

/// About how many open variables each region of a part of `open` open variables holds.
fn region_vars(open: usize) -> usize {
    (open / SMALL_PART_REGIONS).clamp(MIN_REGION_VARS, REGION_VARS)
}

/// The answer for the part `model` at its propagated `domains`, from its regions; `None`
/// when it is too small to cut, or the regions gave up.
pub(super) fn solve(
    model: &Model,
    domains: &[Domain],
    crew: Crew<'_>,
    goal: Goal<'_>,
) -> Option<Found> {
    let region_vars = region_vars(components::open_count(domains));
    solve_cut(model, domains, crew, goal, region_vars, Scope::Region)
}

/// The answer for one region (or piece) that the search alone could not settle quickly,
/// from its own sub-regions of about [`SUB_REGION_VARS`], solved side by side: a round
/// lasts as long as its slowest region, and one the SAT engine must take on whole is the
/// slowest. `None` when it is too small to cut, or the sub-regions gave up. The region's
/// own budget is left to its sub-regions, each of which has one.
pub(super) fn solve_again(
    model: &Model,
    domains: &[Domain],
    crew: Crew<'_>,
    goal: Goal<'_>,
) -> Option<Found> {
    let termination = Termination { node_limit: None, ..goal.termination };
    let goal = Goal { termination, ..goal };
    solve_cut(model, domains, crew, goal, SUB_REGION_VARS, Scope::SubRegion)
}

/// Whether [`solve_again`] would cut a region at `domains` into sub-regions.
pub(super) fn cut_again(domains: &[Domain]) -> bool {
    components::open_count(domains) >= SUB_REGION_VARS * MIN_REGIONS
}

/// The goals of the pipeline for `goal`: one solution of each even region, and the
/// pieces' first budget. Each region and piece has a budget: one that is hard to complete
/// (or to refute) under the boundary it was given is reopened wider rather than fought.
pub(super) fn pipeline_goals(goal: Goal<'_>) -> (Goal<'_>, Goal<'_>) {
    let within =
        |node_limit| Goal { termination: Termination { node_limit, ..goal.termination }, ..goal };
    let once = Goal { target: 1, ..within(Some(PIECE_CONFLICTS)) };
    (once, within(piece_budget(0, goal.target)))
}

/// [`solve`] with regions of about `region_vars` variables, each solved as `scope` says.
fn solve_cut(
    model: &Model,
    domains: &[Domain],
    crew: Crew<'_>,
    goal: Goal<'_>,
    region_vars: usize,
    scope: Scope,
) -> Option<Found> {
    // Under the caller's node limit the whole is searched in order, as it counts.
    if goal.target > 2 || goal.termination.node_limit.is_some() {
        return None;
    }
    if components::open_count(domains) < region_vars * MIN_REGIONS {
        return None;
    }
    if let Some(reason) = parts::stopped_before(&goal) {
        return Some(Found { stopped: Some(reason), ..Found::default() });
    }
    let begun = Instant::now();
    let graph = Graph::new(model, domains);
    let graph_ms = span::ms(begun.elapsed());
    let regions = graph.regions(region_vars)?;
    let bands_ms = span::ms(begun.elapsed());
    let cut = Cut::new(&graph, regions, domains.len());
    let (regions, ms) = (cut.regions.len(), span::ms(begun.elapsed()));
    // The three steps' times, each from the beginning of the cut.
    tracing::debug!(?scope, regions, graph_ms, bands_ms, ms, "cut into regions");
    let outcome = pipeline::run(model, domains, &cut, crew, pipeline_goals(goal), scope);
    let mut stats = Stats::default();
    for found in outcome.evens.iter().chain(outcome.pieces.iter().map(|(_, f)| f)).flatten() {
        stats += found.stats;
        stats.regions += 1;
    }
    // The pieces' own slack is in the pipeline's; the early repairs ran beside it.
    stats.parallel_slack = outcome.slack;
    stats += Stats { parallel_slack: Duration::ZERO, ..outcome.repaired.stats };
    if goal.termination.abandoned() {
        // Abandoned from outside: what was not begun is not stuck, and is not repaired, nor
        // the part solved whole.
        let stopped = Some(StopReason::Cancelled);
        return Some(Found { stopped, stats, engine: engine(&stats), ..Found::default() });
    }
    match outcome.ended {
        // No solution of a region is none of the whole; the caller's limit stops the whole;
        // a region past its budget leaves the part to be solved whole.
        Some(Ended::Even(e)) => {
            let ended = outcome.evens[e].as_ref()?;
            if ended.stopped == Some(StopReason::NodeLimit) {
                return None;
            }
            return Some(Found { stats, engine: engine(&stats), ..ended.clone() });
        }
        Some(Ended::Piece(p)) => {
            let ended = outcome.pieces[p].1.as_ref()?;
            return Some(Found { stats, engine: engine(&stats), ..ended.clone() });
        }
        None => {}
    }
    let standing = outcome.standing();
    // The pieces without a completion open what lies around them, ever wider, and are
    // solved again with the pieces they then meet.
    let repairs = Repairs { model, domains, graph: &graph, crew, goal, scope };
    let (standing, repaired) = match repairs.run(standing) {
        Repaired::Ran(standing, repaired) => (standing, repaired),
        Repaired::Stopped(found) => {
            stats += found.stats;
            return Some(Found { stats, engine: engine(&stats), ..found });
        }
    };
    stats += repaired;
    if !standing.stuck.is_empty() {
        return None;
    }
    let Standing { fixed, seconds, .. } = standing;
    let values: Vec<u32> = fixed.iter().map(|d| d.value().unwrap_or(0)).collect();
    if !model.is_satisfied_by(&values) {
        return None;
    }
    let mut solutions = vec![values.clone()];
    // Another solution: a piece's second one, where the pieces settled after it left it
    // standing.
    let other = seconds.into_iter().find_map(|(vars, second)| {
        let mut other = values.clone();
        for (&v, &value) in vars.iter().zip(&second) {
            other[v] = value;
        }
        (other != values && model.is_satisfied_by(&other)).then_some(other)
    });
    solutions.extend(other);
    if goal.target > solutions.len() as u64 {
        return None;
    }
    let count = solutions.len() as u64;
    Some(Found { solutions, count, stopped: None, stats, engine: engine(&stats), yielded: false })
}

/// The engine that answered: the SAT engine if it answered any region or piece.
fn engine(stats: &Stats) -> Engine {
    if stats.sat_solvers > 0 { Engine::Sat } else { Engine::Search }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Constraint, VarId};
    use crate::solver::portfolio::tests::{Setup, random_grid};
    use crate::solver::{SolveOptions, portfolio};

    /// The regions' answer for `model`, cut into regions of `region_vars`, on `threads`.
    fn cut_answer(model: &Model, target: u64, threads: usize, region_vars: usize) -> Option<Found> {
        let setup = Setup::default();
        let (goal, crew) = (setup.goal(target), setup.crew(threads));
        solve_cut(model, &model.domains, crew, goal, region_vars, Scope::Region)
    }

    /// Checks a regions' answer for `target` solutions of `model`, if it has one.
    fn assert_answers(model: &Model, target: u64, found: Option<&Found>, case: &str) {
        let Some(found) = found else { return };
        assert_eq!(found.count, target, "{case}");
        assert!(found.solutions.iter().all(|s| model.is_satisfied_by(s)), "{case}");
        if target == 2 {
            assert_ne!(found.solutions[0], found.solutions[1], "{case}");
        }
    }

    #[test]
    fn regions_find_solutions_of_the_whole_at_every_thread_count() {
        let mut cut = 0;
        for seed in 1..=4 {
            let model = random_grid(60, seed);
            for target in [1, 2] {
                let one = cut_answer(&model, target, 1, 60);
                let case = format!("seed {seed}, target {target}");
                assert_answers(&model, target, one.as_ref(), &case);
                cut += usize::from(one.is_some());
                let again = cut_answer(&model, target, 1, 60);
                let answer = |found: &Option<Found>| found.as_ref().map(|f| f.solutions.clone());
                assert_eq!(answer(&one), answer(&again), "{case}: one thread, run after run");
                for threads in [2, 4] {
                    let other = cut_answer(&model, target, threads, 60);
                    let case = format!("{case}, {threads} threads");
                    // Other solutions may come from a speculative or early repair, or from
                    // the SAT engine beside a region; as many of them.
                    assert_answers(&model, target, other.as_ref(), &case);
                }
            }
        }
        assert!(cut >= 4, "the regions answered only {cut} of 8 solves");
    }

    #[test]
    fn a_region_without_a_solution_is_none_of_the_whole_and_nothing_false_is_claimed() {
        let mut model = random_grid(36, 2);
        // Two cells of one run made to add up to 1: no digits do, nowhere near the rest.
        let run = model
            .constraints
            .iter()
            .find_map(|c| match c {
                Constraint::Sum { vars, .. } if vars.len() >= 2 => Some(vars[..2].to_vec()),
                _ => None,
            })
            .unwrap();
        model.sum(run, 1);
        for threads in [1, 2] {
            if let Some(found) = cut_answer(&model, 1, threads, 60) {
                assert_eq!((found.count, found.stopped), (0, None), "claimed: {:?}", found.count);
            }
        }
        let whole = portfolio::solve(&model, &SolveOptions::default(), 2, Default::default());
        assert_eq!(whole.count, 0);
    }

    #[test]
    fn no_constraint_reaches_past_the_next_band_even_on_a_wide_grid() {
        // Small regions on a wide grid: a band of that many variables would be a few steps
        // across, and the second round would release it whole.
        let model = random_grid(60, 1);
        let graph = Graph::new(&model, &model.domains);
        let regions = graph.regions(40).unwrap();
        assert!(regions.len() >= MIN_REGIONS);
        let region_of = super::super::graph::region_of(&regions, model.domains.len());
        for constraint in &model.constraints {
            let touched: Vec<usize> = constraint
                .vars()
                .iter()
                .map(|&v| region_of[v])
                .filter(|&r| r != usize::MAX)
                .collect();
            let (low, high) = (touched.iter().min(), touched.iter().max());
            if let (Some(low), Some(high)) = (low, high) {
                assert!(high - low <= 1, "a constraint touches regions {low} and {high}");
            }
        }
    }

    #[test]
    fn the_largest_piece_is_cut_even_when_the_first_variable_lies_in_a_small_one() {
        // Two variables of their own first, as a region's propagation may leave them, then
        // a 60x60 grid: the sweeps must start in the grid.
        let grid = random_grid(60, 1);
        let mut model = Model::default();
        let pair = [model.new_var(Domain::range(1, 9)), model.new_var(Domain::range(1, 9))];
        model.sum(pair.to_vec(), 3);
        let offset = model.domains.len();
        for &domain in &grid.domains {
            model.new_var(domain);
        }
        let shifted = |vars: &[VarId]| vars.iter().map(|&v| v + offset).collect::<Vec<_>>();
        for constraint in &grid.constraints {
            model.constraints.push(match constraint {
                Constraint::Sum { vars, total } => {
                    Constraint::Sum { vars: shifted(vars), total: *total }
                }
                Constraint::AllDifferent { vars } => {
                    Constraint::AllDifferent { vars: shifted(vars) }
                }
            });
        }
        let graph = Graph::new(&model, &model.domains);
        let regions = graph.regions(40).expect("the grid is cut");
        assert!(regions.len() >= MIN_REGIONS);
        let placed: usize = regions.iter().map(Vec::len).sum();
        assert_eq!(placed, model.domains.len(), "every variable in one region");
        assert!(regions.iter().any(|r| pair.iter().all(|v| r.contains(v))));
    }

    #[test]
    fn a_part_of_a_few_thousand_open_variables_is_cut_into_smaller_regions() {
        assert_eq!(region_vars(MIN_OPEN), MIN_REGION_VARS);
        assert_eq!(region_vars(3_000), 500);
        assert_eq!(region_vars(100_000), REGION_VARS);
        // A random 60x60 filling, too small for regions of REGION_VARS, is cut all the same.
        let model = random_grid(60, 1);
        let open = components::open_count(&model.domains);
        assert!((MIN_OPEN..LARGE_OPEN).contains(&open), "{open} open variables");
        let setup = Setup::default();
        for threads in [1, 2] {
            let (goal, crew) = (setup.goal(1), setup.crew(threads));
            let found = solve(&model, &model.domains, crew, goal).expect("cut and answered");
            assert!(found.stats.regions >= MIN_REGIONS as u64, "{threads} threads");
            assert_answers(&model, 1, Some(&found), &format!("{threads} threads"));
        }
    }

    #[test]
    fn a_part_too_small_for_regions_is_left_whole() {
        let model = random_grid(12, 1);
        assert!(cut_answer(&model, 1, 2, MIN_REGION_VARS).is_none());
    }
}
