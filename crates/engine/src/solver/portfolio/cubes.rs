//! Counting a part in cubes, where the search meets its solutions rarely and more are
//! needed than the SAT engine could block one by one.
//!
//! The part's last third of open cells (in the model's order: a band of the grid) is
//! pinned. The SAT engine finds a solution; the cube of all assignments that give the
//! pinned cells the same values is counted as any count is (root propagation, independent
//! parts, the search and the SAT engine), with the pinned cells fixed; then one clause over
//! the pinned cells forbids the cube to the SAT engine, which finds the next cube's
//! solution, until the count is reached or no solution is left. The cubes are disjoint
//! (they differ on the pinned cells), so their counts add up.
//!
//! The search's trouble with such a part is its first decisions, which lead into subtrees
//! with no solution; with a third of the cells pinned to a solution's values it meets
//! solutions at nearly every node. A 60x31 filling (seed 108) whose part of 1,220 open
//! cells showed no solution in the search's first 10,000 nodes: with the last third of
//! those cells pinned, the search met 2.5 million solutions in 3 million nodes. And one
//! clause of a third of the open cells forbids a whole cube, where blocking each solution
//! costs a clause over every open cell.

use super::components::Component;
use super::{Crew, Scope};
use crate::model::Domain;
use crate::solver::goal::{Found, Goal};
use crate::solver::sat;
use crate::solver::search::Subproblem;
use crate::solver::termination::Termination;
use crate::solver::{Engine, Stats};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// The share of the part's open cells pinned in each cube: the last third.
const PINNED_SHARE: usize = 3;

/// Counts `part`, propagated to `root`, up to `goal.target`, cube by cube (see the module
/// docs). Stopped, the count is a lower bound.
pub(super) fn count(part: &Component, crew: Crew<'_>, goal: Goal<'_>, root: &Subproblem) -> Found {
    let open: Vec<usize> =
        (0..root.domains.len()).filter(|&v| !root.domains[v].is_fixed()).collect();
    // At least one cell, so that each cube has fewer open cells than the part.
    let pinned = open[open.len() - open.len().div_ceil(PINNED_SHARE)..].to_vec();
    let cnf = sat::encode(&part.model, &root.domains);
    // The cubes' solver stops on the caller's cancel flag and deadline only.
    let stop = Arc::new(AtomicBool::new(false));
    let termination = Termination { rival: None, waiting: None, ..goal.termination };
    let sat_goal = Goal { target: u64::MAX, termination, ..goal };
    let mut cubes = sat::Solutions::new(&cnf, sat_goal, &stop, 0).projected(pinned.clone());
    let mut model = part.model.clone();
    let mut found = Found { engine: Engine::Sat, ..Found::default() };
    let mut stats = Stats::default();
    let mut opened = 0u64;
    // The live count is the whole's; a cube's own count would replace it.
    let termination = Termination { progress: None, ..goal.termination };
    while found.count < goal.target {
        let values = match cubes.next(None) {
            Ok(Some(values)) => values,
            // Every cube counted: the count is exact.
            Ok(None) => break,
            Err(reason) => {
                found.stopped = Some(reason);
                break;
            }
        };
        opened += 1;
        model.domains.clone_from(&root.domains);
        for &var in &pinned {
            model.domains[var] = Domain::single(values[var]);
        }
        let cube_goal = Goal { target: goal.target - found.count, termination, ..goal };
        let cube = super::solve_model(&model, crew, cube_goal, Scope::Whole);
        stats += cube.stats;
        found.count += cube.count;
        let room = 2usize.saturating_sub(found.solutions.len());
        found.solutions.extend(cube.solutions.into_iter().take(room));
        if cube.stopped.is_some() {
            found.stopped = cube.stopped;
            break;
        }
    }
    tracing::debug!(
        open = open.len(),
        pinned = pinned.len(),
        opened,
        count = found.count,
        "a part counted in cubes"
    );
    stats += cubes.stats();
    stats.solutions = found.count;
    found.stats = stats;
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::portfolio::components;
    use crate::solver::portfolio::tests::random_grid;
    use crate::solver::search::{self, Search};
    use crate::solver::{Mode, SolveOptions};
    use std::sync::atomic::AtomicUsize;

    #[test]
    fn cubes_count_each_solution_once_as_the_plain_search_does() {
        let options = SolveOptions { mode: Mode::Count, ..SolveOptions::default() };
        // Parts with more solutions than this are left out: counted cube by cube, each cube
        // a few of them, they would take the test too long.
        let most = SolveOptions { count_limit: Some(5_000), ..options.clone() };
        let live = AtomicUsize::new(0);
        let mut counted = 0;
        for seed in 0..40 {
            let model = random_grid(6, seed);
            let Some(largest) = components::split(&model, &model.domains).into_iter().next() else {
                continue;
            };
            let plain = search::solve(&largest.model, &most, None);
            if plain.count >= 5_000 {
                continue;
            }
            let Some(root) = Search::new(&largest.model, &options).root() else { continue };
            let crew = Crew { options: &options, threads: 2, waiting: None };
            for target in [u64::MAX, 7] {
                let goal = Goal::new(target, Termination::default(), &live);
                let found = count(&largest, crew, goal, &root);
                let said = format!("seed {seed}, target {target}");
                assert_eq!((found.count, found.stopped), (plain.count.min(target), None), "{said}");
                assert!(found.solutions.iter().all(|s| largest.model.is_satisfied_by(s)), "{said}");
            }
            counted += plain.count;
        }
        assert!(counted > 2_000, "the grids have {counted} solutions in all");
    }
}
