//! Counting by parts. Independent parts multiply: the whole has as many solutions as the
//! product of its parts' counts, so the search meets the sum of their counts where a
//! search of the whole meets the product. And a count with a limit rarely needs any
//! part's count in full:
//! 1. every part but the largest is first asked for two solutions (one, for a limit of
//!    one) side by side, by the engines of `unique` and `first` (under `mac`, the SAT
//!    engine and the regions, which find a large part's solutions where the counting
//!    search cannot); a part that shows fewer is counted exactly;
//! 2. then the largest, for one solution when the others already reach the limit (2 times
//!    2 and so on), for two otherwise;
//! 3. when the parts that showed two are not enough to reach the limit, they are counted
//!    by the search, smallest first, each only up to what the limit still needs of it,
//!    given the others; under `mac` a part the search is slow to count is counted in cubes
//!    that the SAT engine finds (see [`count_part`]).
//!
//! A count without a limit is capped at the largest count the statistics hold (2^64 - 1),
//! as if that were its limit. The count is exact and the same at every thread count; which
//! solutions are shown may depend on the threads, as in `first` and `unique`.

use super::components::Component;
use super::parts::{self, Targets, add};
use super::{Crew, Scope, cubes, race};
use crate::model::Domain;
use crate::solver::goal::{Found, Goal};
use crate::solver::search::Search;
use crate::solver::technique::Engines;
use crate::solver::{Mode, SolveOptions};

/// The plain search's budget on a part counted to a few solutions before the SAT engine
/// may join it.
const COUNT_PROBE_NODES: u64 = 10_000;

/// Under a node limit, the most literals of the clauses that block the solutions the SAT
/// engine counts of one part (40 MB), each over the part's open variables: past that the
/// search counts alone.
const SAT_COUNT_LITERALS: u64 = 10_000_000;

/// The search's nodes per solution, at most, where it goes on counting alone after its
/// budget.
const SEARCH_NODES_PER_SOLUTION: u64 = 100;

/// Counts the whole made of `parts` (none empty) over the fixed values of `domains`, up to
/// `goal.target`, as the module docs say.
pub(super) fn solve(
    crew: Crew<'_>,
    goal: Goal<'_>,
    domains: &[Domain],
    parts: &[Component],
) -> Found {
    let found = by_parts(crew, goal, domains, parts);
    // The live count showed the parts' solutions, which multiply.
    if let Some(progress) = goal.termination.progress {
        progress.settle_solutions(found.count);
    }
    found
}

/// [`solve`], before the live count is settled.
fn by_parts(crew: Crew<'_>, goal: Goal<'_>, domains: &[Domain], parts: &[Component]) -> Found {
    let Some((largest, smaller)) = parts.split_first() else {
        return Found::default();
    };
    let few = Goal { target: goal.target.min(2), ..goal };
    let options = fewer(crew.options, few.target);
    let answers = parts::solve_each(
        Crew { options: &options, ..crew },
        few,
        smaller,
        Scope::Part,
        Targets::Each,
    );
    let (mut stats, mut engine) = answers.summed();
    if let Some(failed) = answers.failed {
        let stopped = answers.found[failed].stopped;
        return Found { stopped, stats, engine, ..Found::default() };
    }
    // Each part's count: exact below two, at least two where it showed two; the largest
    // needs only one solution when the others reach the target without it.
    let mut counts: Vec<u64> = answers.found.iter().map(|found| found.count).collect();
    let target = if product(&counts) >= goal.target { 1 } else { few.target };
    let options = fewer(crew.options, target);
    let termination = goal.termination.after(stats.nodes);
    let large_goal = Goal { target, termination, ..goal };
    let large = super::solve_model(
        &largest.model,
        Crew { options: &options, ..crew },
        large_goal,
        Scope::Part,
    );
    add(&mut stats, &mut engine, &large);
    if large.count == 0 {
        return Found { stopped: large.stopped, stats, engine, ..Found::default() };
    }
    counts.push(large.count);
    // Stopped, the counts are lower bounds, and so is their product.
    let mut stopped = large.stopped;
    // The smaller parts come last in `counts`, the largest after them: smallest first.
    for index in (0..smaller.len()).rev().chain([smaller.len()]) {
        let whole = product(&counts);
        if whole >= goal.target || stopped.is_some() {
            break;
        }
        if counts[index] < 2 {
            continue;
        }
        // The others' product is below half the target here, so more than two are needed.
        let need = goal.target.div_ceil(whole / counts[index]);
        let part = smaller.get(index).unwrap_or(largest);
        let termination = goal.termination.after(stats.nodes);
        let part_goal = Goal { target: need, termination, ..goal };
        let found = count_part(part, crew, part_goal);
        tracing::debug!(open = part.open, need, count = found.count, "a part counted");
        add(&mut stats, &mut engine, &found);
        counts[index] = found.count.max(2);
        stopped = found.stopped;
    }
    let answered = smaller.iter().zip(&answers.found).chain([(largest, &large)]);
    Found {
        count: product(&counts).min(goal.target),
        solutions: parts::together(domains, answered),
        stopped,
        stats,
        engine,
        yielded: false,
    }
}

/// Counts `part` up to `goal.target`. Under `mac`, a count is first tried by the plain
/// search within [`COUNT_PROBE_NODES`]; where that does not settle it and found few
/// solutions on its way, the part is counted in [`cubes`]: the search alone can spend
/// minutes on a part whose solutions lie deep in its tree, and the SAT engine alone pays a
/// solve for each solution. Under a node limit, which the cubes do not keep, the SAT
/// engine races the search instead, within [`SAT_COUNT_LITERALS`]. Otherwise, and under
/// the other algorithms, the search counts alone.
fn count_part(part: &Component, crew: Crew<'_>, goal: Goal<'_>) -> Found {
    let limited = goal.termination.node_limit.is_some();
    let literals = goal.target.saturating_mul(part.open as u64);
    if !learning(crew.options) || (limited && literals > SAT_COUNT_LITERALS) {
        return super::solve_model(&part.model, crew, goal, Scope::Part);
    }
    let mut search = Search::new(&part.model, crew.options);
    let Some(root) = search.root() else {
        return Found { stats: super::counted(search.stats()), ..Found::default() };
    };
    let (settled, mut stats) = super::probe(&mut search, root.clone(), goal, COUNT_PROBE_NODES);
    if let Some(found) = settled {
        return found;
    }
    let goal = Goal { termination: goal.termination.after(stats.nodes), ..goal };
    tracing::debug!(open = part.open, found = stats.solutions, "a part probed for its count");
    let mut found = if stats.solutions >= COUNT_PROBE_NODES / SEARCH_NODES_PER_SOLUTION {
        race::run(&part.model, crew, goal, root)
    } else if limited {
        race::both(&part.model, crew, goal, root)
    } else {
        cubes::count(part, crew, goal, &root)
    };
    stats += found.stats;
    found.stats = stats;
    found
}

/// Whether `options` run the learning engine beside the search (`mac`).
fn learning(options: &SolveOptions) -> bool {
    options.algorithm.engines(Mode::First) == Engines::SearchAndSat
}

/// The options that ask a part for `target` (one or two) solutions: the engines of `first`
/// or `unique` under `mac`, the counting search under the other algorithms.
fn fewer(options: &SolveOptions, target: u64) -> SolveOptions {
    let mode = match target {
        _ if !learning(options) => Mode::Count,
        1 => Mode::First,
        _ => Mode::Unique,
    };
    SolveOptions { mode, ..options.clone() }
}

/// The product of `counts`, saturating.
fn product(counts: &[u64]) -> u64 {
    counts.iter().fold(1, |product: u64, &count| product.saturating_mul(count))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Model;
    use crate::solver::StopReason;
    use crate::solver::portfolio::components;
    use crate::solver::termination::Termination;
    use std::sync::atomic::AtomicUsize;

    /// Independent pairs, each adding up to its sum: a pair adding up to 5 has four
    /// solutions, one adding up to 3 two, one adding up to 1 none.
    fn pairs(sums: &[u32]) -> Model {
        let mut model = Model::default();
        for &sum in sums {
            let pair = vec![model.new_var(Domain::range(1, 9)), model.new_var(Domain::range(1, 9))];
            model.sum(pair, sum);
        }
        model
    }

    fn count(model: &Model, options: &SolveOptions, threads: usize, target: u64) -> Found {
        let parts = components::split(model, &model.domains);
        let live = AtomicUsize::new(0);
        let goal = Goal::new(target, Termination::default(), &live);
        let crew = Crew { options, threads, waiting: None };
        solve(crew, goal, &model.domains, &parts)
    }

    #[test]
    fn parts_multiply_up_to_the_target_and_show_verified_solutions() {
        // 4 x 4 x 2 x 4 = 128 solutions.
        let model = pairs(&[5, 5, 3, 5]);
        let mac = SolveOptions::default();
        let bt = SolveOptions { algorithm: crate::solver::Algorithm::Bt, ..mac.clone() };
        for (options, threads) in [(&mac, 1), (&mac, 2), (&mac, 4), (&bt, 1), (&bt, 2)] {
            let at = |target| count(&model, options, threads, target);
            for (target, expected) in [(1, 1), (2, 2), (3, 3), (100, 100), (128, 128), (500, 128)] {
                let found = at(target);
                let said = format!("target {target}, {threads} threads, {:?}", options.algorithm);
                assert_eq!((found.count, found.stopped), (expected, None), "{said}");
                assert_eq!(found.solutions.len(), expected.min(2) as usize, "{said}");
                assert!(found.solutions.iter().all(|s| model.is_satisfied_by(s)), "{said}");
            }
            assert_eq!(at(u64::MAX).count, 128);
        }
    }

    #[test]
    fn a_part_without_a_solution_leaves_none_and_a_count_past_the_statistics_stops_there() {
        let options = SolveOptions::default();
        let none = count(&pairs(&[5, 1, 5]), &options, 2, u64::MAX);
        assert_eq!((none.count, none.stopped, none.solutions.len()), (0, None, 0));
        // 4^40 solutions, past the 2^64 - 1 a count holds.
        let many = count(&pairs(&[5; 40]), &options, 2, u64::MAX);
        assert_eq!((many.count, many.stopped), (u64::MAX, None));
    }

    #[test]
    fn a_count_cancelled_is_stopped_and_claims_no_more_than_it_knows() {
        let model = pairs(&[5, 5, 3, 5]);
        let parts = components::split(&model, &model.domains);
        let live = AtomicUsize::new(0);
        let cancel = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
        let control = crate::solver::Control::from(Some(&cancel));
        let options = SolveOptions::default();
        let termination = Termination::new(&options, std::time::Instant::now(), control);
        let goal = Goal::new(100, termination, &live);
        let crew = Crew { options: &options, threads: 2, waiting: None };
        let found = solve(crew, goal, &model.domains, &parts);
        assert_eq!(found.stopped, Some(StopReason::Cancelled));
        assert!(found.count < 100, "{found:?}");
    }
}
