//! Independent parts of one problem (see [`components`]), solved one after the other,
//! each with all threads, and put together into the answer for the whole.

use super::{Crew, components};
use crate::model::{Domain, Model};
use crate::solver::goal::{Found, Goal};
use crate::solver::{Engine, Stats};

/// Solves the independent parts one after the other and puts the answers together: the
/// whole has as many solutions as the product of the parts' counts, capped at the target.
pub(super) fn solve(
    model: &Model,
    crew: Crew<'_>,
    goal: Goal<'_>,
    domains: &[Domain],
    parts: &[components::Component],
) -> Found {
    let mut base: Vec<u32> = domains.iter().map(|d| d.value().unwrap_or(0)).collect();
    let mut stats = Stats::default();
    let mut engine = Engine::Search;
    // `second` keeps another solution of the whole once one part has shown two.
    let mut second: Option<(usize, Vec<u32>)> = None;
    for (index, part) in parts.iter().enumerate() {
        let target = if second.is_some() { 1 } else { goal.target };
        let part_goal = Goal { target, termination: goal.termination.after(stats.nodes), ..goal };
        let found = super::solve_model(&part.model, crew, part_goal, false);
        stats += found.stats;
        if found.engine == Engine::Sat {
            engine = Engine::Sat;
        }
        if found.stopped.is_some() || found.count == 0 {
            let stopped = found.stopped;
            return Found {
                solutions: Vec::new(),
                count: 0,
                stopped,
                stats,
                engine,
                yielded: false,
            };
        }
        components::place(part, &found.solutions[0], &mut base);
        if second.is_none() && found.count > 1 {
            second = found.solutions.get(1).map(|s| (index, s.clone()));
        }
    }
    let mut solutions = vec![base.clone()];
    if let Some((index, values)) = second {
        let mut other = base;
        components::place(&parts[index], &values, &mut other);
        solutions.push(other);
    }
    debug_assert!(solutions.iter().all(|s| model.is_satisfied_by(s)));
    Found { count: solutions.len() as u64, solutions, stopped: None, stats, engine, yielded: false }
}
