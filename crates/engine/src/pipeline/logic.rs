//! The first engine a Kakuro meets under the default algorithm (`mac`): the grader's logic
//! with the techniques of the levels below trial (easy, medium, hard).
//!
//! Every Kakuro that is solved is graded anyway, and most published ones need no search: the
//! logic places every digit. Every step of it is a sound deduction, so a grid it finishes is
//! the puzzle's only solution, which answers every mode (`first`, `unique`, `count`) at
//! once. The search would only find again what the logic already proved, so it runs only
//! where the logic gets stuck (or finds a contradiction). The other algorithms (`bt`, `fc`,
//! `sat`) always search, since they are chosen to see that technique at work.

use crate::grade::{self, Difficulty, Grading};
use crate::puzzle::{Compiled, Kakuro};
use crate::solver::goal::solution_target;
use crate::solver::{self, Algorithm, Budget, Control, Engine, Outcome, SolveOptions, Stats};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The variables from which, on more than one thread, the logic runs beside the search
/// instead of before it: on grids this large the logic takes tens of milliseconds (150 ms
/// on a 500x500) and, on most of them, stops short; below, it finishes most puzzles in
/// microseconds, and a search started beside it would be work thrown away.
const BESIDE_VARS: usize = 2_800;

/// Whether the logic runs beside the search ([`beside_search`]) for this model and these
/// options.
pub(super) fn runs_beside(compiled: &Compiled, options: &SolveOptions) -> bool {
    solver::effective_threads(options.threads) > 1 && beside_with_threads(compiled, options)
}

/// Whether the logic would run beside the search on more than one thread: then it is off
/// the search's span (see [`Stats::span`]).
pub(super) fn beside_with_threads(compiled: &Compiled, options: &SolveOptions) -> bool {
    options.algorithm == Algorithm::Mac && compiled.model.domains.len() >= BESIDE_VARS
}

/// The logic and the search at once: the search on the calling thread with its threads,
/// the logic on a thread of the pool that is free (after the search when none is). The
/// answer is the same as with the logic first: the logic's when it places every digit
/// (the search is then stopped), else the search's, and the logic's grade either way; only
/// the logic's time, which the search no longer waits for, is saved.
///
/// The search is stopped through a flag of its own, which a watcher raises when the logic
/// answers or the caller's cancel flag is raised, so that a cancel reaches it as before.
pub(super) fn beside_search(
    kakuro: &Kakuro,
    compiled: &Compiled,
    options: &SolveOptions,
    control: Control<'_>,
) -> (Outcome, Option<LogicFirst>) {
    let budget = Budget { deadline: control.deadline, cancel: control.cancel };
    let stop = Arc::new(AtomicBool::new(false));
    let searched = AtomicBool::new(false);
    let cancelled = || control.cancel.is_some_and(|flag| flag.load(Ordering::Relaxed));
    std::thread::scope(|scope| {
        // A thread of its own, not the pool's: it must run even when the pool is busy.
        scope.spawn(|| {
            while !searched.load(Ordering::Relaxed) && !stop.load(Ordering::Relaxed) {
                if cancelled() {
                    stop.store(true, Ordering::Relaxed);
                }
                std::thread::sleep(Duration::from_millis(1));
            }
        });
        let (outcome, first) = rayon::join(
            || {
                // Ends the watcher when the search returns, or unwinds.
                let _ended = Raised(&searched);
                let search = Control { cancel: Some(&stop), ..control };
                solver::solve_with(&compiled.model, options, search)
            },
            || {
                let first = answer(kakuro, compiled, options, budget);
                if first.as_ref().is_some_and(|f| f.answer.is_some()) {
                    stop.store(true, Ordering::Relaxed);
                }
                first
            },
        );
        (outcome, first)
    })
}

/// The answer and the grade, from what the logic found (`first`): its answer where it
/// finished the grid, else `search`'s, given the logic's time (zero where it did not run).
pub(super) fn settle(
    first: Option<LogicFirst>,
    search: impl FnOnce(Duration) -> Outcome,
) -> (Outcome, Option<Grading>) {
    match first {
        Some(LogicFirst { answer: Some(outcome), grading, .. }) => (outcome, grading),
        Some(LogicFirst { answer: None, grading, time }) => (search(time), grading),
        None => (search(Duration::ZERO), None),
    }
}

/// Raises its flag when dropped.
struct Raised<'a>(&'a AtomicBool);

impl Drop for Raised<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// What the logic that runs first found.
pub(super) struct LogicFirst {
    /// The answer, when the logic placed every digit.
    pub(super) answer: Option<Outcome>,
    /// The grade it decides: exact when it finished the grid, expert
    /// ([`GradedBy::LogicStuck`](grade::GradedBy::LogicStuck)) when it stopped short;
    /// `None` after a contradiction.
    pub(super) grading: Option<Grading>,
    /// What it cost, which is part of the answer's time when the search goes on from here.
    pub(super) time: Duration,
}

/// The logic's run on `kakuro` (compiled as `compiled`): its answer when it places every
/// digit, and the grade it decides either way; `None` when it does not run (the other
/// algorithms, or no solution asked for). The statistics of an answer count the root as
/// the one node and each deduction that made progress as a propagation.
///
/// The logic stops with the job's `budget` (on a 500x500 grid it takes a few hundred
/// milliseconds): then there is no answer and no grade, and the search that follows stops
/// at once.
pub(super) fn answer(
    kakuro: &Kakuro,
    compiled: &Compiled,
    options: &SolveOptions,
    budget: Budget<'_>,
) -> Option<LogicFirst> {
    if options.algorithm != Algorithm::Mac || solution_target(options) == 0 {
        return None;
    }
    let started = Instant::now();
    let runs = compiled.runs.as_ref()?;
    let Some(logic) = grade::solve_runs_within(kakuro, runs, Difficulty::Hard, budget) else {
        return Some(LogicFirst { answer: None, grading: None, time: started.elapsed() });
    };
    let grading = logic.grade_up_to_hard();
    let values: Option<Vec<u32>> =
        compiled.cell_of_var.iter().map(|&cell| logic.value(cell)).collect();
    let time = started.elapsed();
    tracing::debug!(ms = time.as_millis() as u64, finished = logic.solved(), "logic");
    let answer = grading.filter(|_| logic.solved()).zip(values).map(|(grading, values)| {
        let stats = Stats {
            nodes: 1,
            propagations: grading.uses.iter().map(|(_, count)| u64::from(count)).sum(),
            solutions: 1,
            subproblems: 1,
            largest_subproblem_nodes: 1,
            solve_time: time,
            ..Stats::default()
        };
        Outcome {
            solutions: vec![values],
            count: 1,
            complete: true,
            stopped: None,
            stats,
            engine: Engine::Logic,
        }
    });
    Some(LogicFirst { answer, grading, time })
}

#[cfg(test)]
pub(super) mod tests {
    use crate::format::solution::read_sol;
    use crate::pipeline::{PipelineOptions, process};
    use crate::report::{Body, PuzzleReport, Status, Uniqueness};
    use crate::solver::{Engine, Mode, SolveOptions};

    const EASY: &str = include_str!("../../../../tests/fixtures/kakuro/1_10x12.txt");
    const EASY_SOL: &str = include_str!("../../../../tests/fixtures/kakuro/1_10x12.sol");
    /// A published puzzle with two solutions.
    const TWO: &str = include_str!("../../../../tests/fixtures/kakuro/257_24x28.txt");

    /// The report of the one puzzle in `text`, solved with `solve` (the grading tests use
    /// it too).
    pub(in crate::pipeline) fn solve(text: &str, solve: SolveOptions) -> PuzzleReport {
        let options = PipelineOptions { solve, ..PipelineOptions::default() };
        match process("k.txt", text.as_bytes(), &options, None).body {
            Body::Single(report) => *report,
            other => panic!("not a single puzzle: {other:?}"),
        }
    }

    #[test]
    fn the_logic_answers_a_kakuro_it_finishes_in_every_mode() {
        let expected = read_sol(EASY_SOL).expect("readable .sol");
        for (mode, uniqueness) in [
            (Mode::First, Uniqueness::NotChecked),
            (Mode::Unique, Uniqueness::Unique),
            (Mode::Count, Uniqueness::Unique),
        ] {
            let report = solve(EASY, SolveOptions { mode, ..SolveOptions::default() });
            assert_eq!((report.status, report.uniqueness), (Status::Solved, uniqueness));
            assert_eq!(report.solutions_found, 1);
            assert_eq!(report.grid.as_ref(), Some(&expected), "{mode:?}");
            let statistics = &report.statistics;
            assert_eq!((statistics.engine, statistics.threads), (Engine::Logic, 1));
            assert_eq!((statistics.search.nodes, statistics.search.solutions), (1, 1));
            assert!(statistics.search.propagations > 0);
        }
    }

    #[test]
    fn a_kakuro_the_logic_cannot_finish_is_searched() {
        let report = solve(TWO, SolveOptions { mode: Mode::Count, ..SolveOptions::default() });
        assert_ne!(report.statistics.engine, Engine::Logic);
        assert_eq!((report.uniqueness, report.solutions_found), (Uniqueness::Multiple, 2));
        // No sound deduction finishes it: expert, graded without trial.
        assert_eq!(report.difficulty, Some(crate::grade::Difficulty::Expert));
        let techniques = report.techniques.expect("graded");
        assert!(!techniques.is_empty());
        assert_eq!(techniques.get(crate::grade::Technique::Trial), 0);
    }

    /// The puzzle of `text`, a Kakuro.
    fn kakuro_of(text: &str) -> crate::puzzle::Kakuro {
        let document = crate::format::read(text, None).expect("readable");
        match document.entries.into_iter().next() {
            Some(Ok(parsed)) => match parsed.puzzle {
                crate::puzzle::Puzzle::Kakuro(kakuro) => kakuro,
                other => panic!("not a Kakuro: {other:?}"),
            },
            other => panic!("no puzzle: {other:?}"),
        }
    }

    #[test]
    fn beside_the_search_a_logic_that_finishes_answers_and_stops_the_search() {
        let kakuro = kakuro_of(EASY);
        let compiled = crate::puzzle::Puzzle::Kakuro(kakuro.clone()).compile();
        let options = SolveOptions { threads: 2, ..SolveOptions::default() };
        let (_, first) = super::beside_search(&kakuro, &compiled, &options, Default::default());
        let answer = first.and_then(|f| f.answer).expect("the logic finishes it");
        assert_eq!(answer.solutions.len(), 1);
        assert_eq!(answer.engine, Engine::Logic);
    }

    #[test]
    fn beside_the_search_the_answer_and_grade_are_those_of_the_logic_first() {
        // A random filling with many solutions, large enough for the logic to run beside
        // the search: the logic stops short, the search answers, the grade is the logic's.
        let kakuro = crate::generate::any_solution(80, 80, 35.0, 1);
        let text = crate::generate::to_text(&crate::puzzle::Puzzle::Kakuro(kakuro));
        let reports: Vec<PuzzleReport> = [1, 2]
            .map(|threads| solve(&text, SolveOptions { threads, ..SolveOptions::default() }))
            .into();
        for report in &reports {
            assert_eq!(report.status, Status::Solved);
            assert_ne!(report.statistics.engine, Engine::Logic);
        }
        assert_eq!(reports[0].difficulty, reports[1].difficulty);
        assert_eq!(reports[0].graded_by, reports[1].graded_by);
        assert!(reports[1].difficulty.is_some());
    }

    #[test]
    fn beside_the_search_a_cancel_stops_the_logic_and_the_search() {
        let kakuro = crate::generate::any_solution(80, 80, 35.0, 2);
        let compiled = crate::puzzle::Puzzle::Kakuro(kakuro.clone()).compile();
        assert!(super::runs_beside(
            &compiled,
            &SolveOptions { threads: 2, ..SolveOptions::default() }
        ));
        let options = SolveOptions { threads: 2, ..SolveOptions::default() };
        let cancel = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
        let control = crate::solver::Control::from(Some(&cancel));
        let (searched, first) = super::beside_search(&kakuro, &compiled, &options, control);
        assert_eq!(searched.stopped, Some(crate::solver::StopReason::Cancelled));
        assert!(first.is_none_or(|f| f.answer.is_none()));
    }
}
