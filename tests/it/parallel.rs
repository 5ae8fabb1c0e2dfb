//! The parallel search gives the same answers at every thread count, stops promptly, and
//! leaves no work running when it returns.

use kakurod_engine::generate;
use kakurod_engine::model::Domain;
use kakurod_engine::model::Model;
use kakurod_engine::puzzle::{Kakuro, KakuroCell, Puzzle};
use kakurod_engine::solver::portfolio;
use kakurod_engine::solver::{self, Mode, Outcome, SolveOptions, StopReason};
use kakurod_engine::verify;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

fn generated(rows: usize, cols: usize, black: f64, seed: u64) -> Kakuro {
    generate::any_solution(rows, cols, black, seed)
}

fn options(mode: Mode, threads: usize) -> SolveOptions {
    SolveOptions { mode, threads, ..SolveOptions::default() }
}

/// Counts `puzzle` up to `limit` at `threads`, checked as [`solve_checked`] does, and
/// checks that the count reached `limit` within `seconds`: the time limit only keeps a
/// count that does not end from hanging the suite.
fn count_to_limit(puzzle: &Kakuro, limit: u64, threads: usize, seconds: u64) -> Outcome {
    let opts = SolveOptions {
        count_limit: Some(limit),
        timeout: Some(Duration::from_secs(seconds)),
        ..options(Mode::Count, threads)
    };
    let counted = solve_checked(puzzle, &opts);
    let answer = (counted.count, counted.complete, counted.stopped);
    assert_eq!(answer, (limit, true, None), "{threads} threads");
    counted
}

/// Solves at `threads` and checks that every reported solution verifies against the clues.
fn solve_checked(puzzle: &Kakuro, options: &SolveOptions) -> Outcome {
    let puzzle = Puzzle::Kakuro(puzzle.clone());
    let compiled = puzzle.compile();
    let outcome = solver::solve(&compiled.model, options, None);
    for values in &outcome.solutions {
        let grid = puzzle.grid_from_values(&compiled, values);
        assert_eq!(verify::check(&puzzle, &grid), Ok(()), "a reported solution must verify");
    }
    outcome
}

/// The part of an outcome that must not depend on the thread count.
fn answer(outcome: &Outcome) -> (u64, bool, Option<StopReason>) {
    (outcome.count, outcome.complete, outcome.stopped)
}

/// A problem with no solution that propagation alone does not refute: eight variables over
/// 1..=7, pairwise different through two-variable constraints (pigeonhole), so the search
/// must try every partial colouring (thousands of nodes, enough to be split).
fn pigeonhole() -> Model {
    let mut model = Model::default();
    for _ in 0..8 {
        model.new_var(Domain::range(1, 7));
    }
    for a in 0..8 {
        for b in a + 1..8 {
            model.all_different(vec![a, b]);
        }
    }
    model
}

#[test]
fn count_mode_gives_the_same_exact_count_at_1_2_and_4_threads() {
    let mut split_somewhere = false;
    for seed in [2, 4] {
        let k = generated(6, 6, 40.0, seed);
        let one = solve_checked(&k, &options(Mode::Count, 1));
        assert!(one.complete && one.count > 1, "seed {seed}: {one:?}");
        // The plain search enumerates the whole, where the solver multiplies the counts of
        // its independent parts.
        let compiled = Puzzle::Kakuro(k.clone()).compile();
        let whole = solver::search::solve(&compiled.model, &options(Mode::Count, 1), None);
        assert_eq!(answer(&whole), answer(&one), "seed {seed}");
        for threads in [2, 4] {
            let many = solve_checked(&k, &options(Mode::Count, threads));
            assert_eq!(answer(&many), answer(&one), "seed {seed}, {threads} threads");
            split_somewhere |= many.stats.subproblems > 1;
        }
        // A count limit is met exactly, whichever branch finds the solutions.
        let limit = one.count / 2 + 1;
        for threads in [1, 2, 4] {
            let opts = SolveOptions { count_limit: Some(limit), ..options(Mode::Count, threads) };
            let limited = solve_checked(&k, &opts);
            assert_eq!((limited.count, limited.complete), (limit, true), "{threads} threads");
        }
    }
    assert!(split_somewhere, "the sample is too easy to exercise the split");
}

#[test]
fn a_count_on_a_large_grid_reaches_its_limit_through_its_parts_at_1_2_and_4_threads() {
    // 100x100: one large open part and 53 small ones. Counting the whole by the
    // search alone did not end within 20 s; each part asked for two solutions reaches 1,000.
    let large = generated(100, 100, 35.0, 1);
    for threads in [1, 2, 4] {
        let opts = SolveOptions { count_limit: Some(1_000), ..options(Mode::Count, threads) };
        let counted = solve_checked(&large, &opts);
        assert_eq!((counted.count, counted.complete), (1_000, true), "{threads} threads");
        assert_eq!(counted.solutions.len(), 2, "{threads} threads");
        assert_ne!(counted.solutions[0], counted.solutions[1]);
    }
}

#[test]
fn a_count_the_search_alone_does_not_finish_is_answered_with_the_sat_engine() {
    // A 40x31 filling whose largest part (811 open cells) hides its solutions from the
    // search: after two found by the engines of `unique`, counting it on to the third the
    // search alone did not end within 30 s at 1, 2 or 4 threads. The time limit only keeps
    // a failure from hanging the suite; the answer takes a tenth of a second.
    let grid = generated(40, 31, 30.0, 28);
    for threads in [1, 2, 4] {
        let counted = count_to_limit(&grid, 30, threads, 60);
        assert_eq!(counted.solutions.len(), 2, "{threads} threads");
    }
}

#[test]
fn a_count_too_large_to_block_solution_by_solution_is_counted_in_cubes() {
    // A 60x31 filling whose part of 1,220 open cells showed no solution in the probe's
    // 10,000 nodes; a count to 100,000 needs 8,334 of its solutions. Blocking each with a
    // clause over every open cell would take 10 million literals, and the search alone did
    // not end within minutes at 1 or 2 threads. Counted in cubes it takes a quarter of a
    // second. The time limit only keeps a failure from hanging the suite.
    let grid = generated(60, 31, 30.0, 108);
    for threads in [1, 2, 4] {
        let counted = count_to_limit(&grid, 100_000, threads, 60);
        assert_eq!(counted.solutions.len(), 2, "{threads} threads");
        assert_ne!(counted.solutions[0], counted.solutions[1], "{threads} threads");
    }
}

#[test]
fn a_part_the_probe_met_no_solution_of_is_counted_by_the_search_in_cubes_the_sat_engine_finds() {
    // An 8x8 filling whose largest part (46 open cells) showed no solution in the probe's
    // 10,000 nodes, yet the search meets one every 22 nodes after: the SAT engine alone,
    // which pays a solve for each, took 9.5 s and 74,568 conflicts to count it to 10,000.
    // In cubes the SAT engine finds a few cubes and the search counts their solutions.
    let grid = generated(8, 8, 30.0, 1);
    for threads in [1, 2] {
        let counted = count_to_limit(&grid, 10_000, threads, 120);
        let stats = counted.stats;
        assert!(
            stats.nodes > 10_000 && stats.sat_conflicts < 10_000,
            "{threads} threads: {stats:?}"
        );
    }
}

#[test]
fn unique_and_first_verdicts_agree_at_1_2_and_4_threads() {
    let several = generated(12, 12, 30.0, 5);
    let none = pigeonhole();
    let plain = solver::search::solve(&none, &options(Mode::Count, 1), None);
    assert!(plain.complete && plain.count == 0 && plain.stats.nodes > 2_000, "{plain:?}");
    for threads in [1, 2, 4] {
        let multiple = solve_checked(&several, &options(Mode::Unique, threads));
        assert_eq!((multiple.count, multiple.complete), (2, true), "{threads} threads");
        assert_eq!(multiple.solutions.len(), 2);
        assert_ne!(multiple.solutions[0], multiple.solutions[1]);
        let first = solve_checked(&several, &options(Mode::First, threads));
        assert_eq!((first.count, first.complete, first.solutions.len()), (1, true, 1));
        for mode in [Mode::First, Mode::Unique, Mode::Count] {
            let outcome = solver::solve(&none, &options(mode, threads), None);
            assert_eq!(answer(&outcome), (0, true, None), "{mode:?}, {threads} threads");
            assert!(outcome.solutions.is_empty());
        }
    }
}

#[test]
fn first_mode_solves_a_heavy_tailed_grid_at_1_2_and_4_threads() {
    // The plain depth-first search runs for minutes on this grid (a wrong early choice
    // leaves it in a huge failing subtree); randomized restarts find a solution at once.
    let heavy = generated(30, 30, 35.0, 3);
    for threads in [1, 2, 4] {
        let first = solve_checked(&heavy, &options(Mode::First, threads));
        assert_eq!((first.count, first.complete, first.solutions.len()), (1, true, 1));
    }
}

/// A long first-mode search on several workers, stopped by `stop`; no worker may be left
/// running when `solve` returns.
fn assert_stops_cleanly(
    model: &Model,
    opts: &SolveOptions,
    cancel: Option<&Arc<AtomicBool>>,
) -> Outcome {
    let live = AtomicUsize::new(0);
    let outcome = portfolio::solve_observed(model, opts, opts.threads, cancel.into(), &live);
    assert_eq!(live.load(Ordering::SeqCst), 0, "a worker outlived the solve");
    outcome
}

#[test]
fn limits_and_cancellation_stop_every_worker_before_solve_returns() {
    let k = generated(9, 9, 25.0, 3);
    let compiled = Puzzle::Kakuro(k).compile();
    // A node limit ends a count that would run far longer.
    let opts = SolveOptions { node_limit: Some(50_000), ..options(Mode::Count, 4) };
    let outcome = assert_stops_cleanly(&compiled.model, &opts, None);
    assert_eq!(outcome.stopped, Some(StopReason::NodeLimit));
    assert!(!outcome.complete);
    // The caller's cancel flag, raised while the workers run.
    let cancel = Arc::new(AtomicBool::new(false));
    let outcome = std::thread::scope(|scope| {
        scope.spawn(|| {
            std::thread::sleep(Duration::from_millis(200));
            cancel.store(true, Ordering::SeqCst);
        });
        assert_stops_cleanly(&compiled.model, &options(Mode::Count, 4), Some(&cancel))
    });
    assert_eq!(outcome.stopped, Some(StopReason::Cancelled));
    // The first solution found stops the other branches.
    let outcome = assert_stops_cleanly(&compiled.model, &options(Mode::First, 4), None);
    assert_eq!((outcome.count, outcome.complete), (1, true));
}

#[test]
fn with_work_waiting_a_search_borrows_no_threads_and_gives_the_same_answer() {
    let k = generated(6, 6, 40.0, 2);
    let compiled = Puzzle::Kakuro(k.clone()).compile();
    let free = solve_checked(&k, &options(Mode::Count, 4));
    let alone = solve_checked(&k, &options(Mode::Count, 1));
    assert!(free.stats.subproblems > alone.stats.subproblems, "an idle pool splits the count");
    // One file waits for a worker: the count splits nothing off, and still counts all.
    let waiting = std::sync::Arc::new(AtomicUsize::new(1));
    let control = solver::Control { waiting: Some(&waiting), ..solver::Control::default() };
    let busy = solver::solve_with(&compiled.model, &options(Mode::Count, 4), control);
    assert_eq!(answer(&busy), answer(&free));
    // The probe and one unsplit search of each independent part, as on one thread.
    assert_eq!(busy.stats.subproblems, alone.stats.subproblems);
    // A find-first grid past the probe is answered on the caller's thread: its parts by
    // the search alone, or by the SAT engine alone, never by a race.
    let heavy = Puzzle::Kakuro(generated(30, 30, 35.0, 3)).compile();
    let first = solver::solve_with(&heavy.model, &options(Mode::First, 4), control);
    assert_eq!((first.count, first.complete), (1, true));
    assert!(heavy.model.is_satisfied_by(&first.solutions[0]));
    assert!(first.stats.sat_solvers <= 1, "SAT solvers raced: {:?}", first.stats);
}

#[test]
fn a_grid_cut_into_regions_gets_verified_answers_and_the_same_verdict_at_1_2_and_4_threads() {
    // 130x130: one open part of about 8,000 cells, cut into regions solved side by side.
    let large = generated(130, 130, 35.0, 2);
    let mut first_answers = Vec::new();
    for threads in [1, 1, 2, 4] {
        let first = solve_checked(&large, &options(Mode::First, threads));
        assert_eq!((first.count, first.complete), (1, true), "first at {threads}");
        assert!(first.stats.regions >= 4, "not cut at {threads}: {:?}", first.stats);
        first_answers.push(first.solutions);
        let unique = solve_checked(&large, &options(Mode::Unique, threads));
        assert_eq!((unique.count, unique.complete), (2, true), "unique at {threads}");
        assert_ne!(unique.solutions[0], unique.solutions[1]);
    }
    // On one thread the solution found is the same run after run. On more, a thread left
    // without a piece of a repair round may complete the next round first, with another
    // solution (verified above), as `first` allows.
    assert_eq!(first_answers[0], first_answers[1]);
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 4, ..Default::default() })]

    /// Random grids large enough to be cut, with one clue made impossible in some of them:
    /// first, unique and the verdict without a solution agree at 1 and 2 threads.
    #[test]
    fn verdicts_on_grids_cut_into_regions_agree_at_1_and_2_threads(
        seed in 1u64..1_000,
        spoil in proptest::bool::ANY,
    ) {
        let mut grid = generated(112, 112, 35.0, seed);
        if spoil {
            spoil_a_run(&mut grid, seed);
        }
        for mode in [Mode::First, Mode::Unique] {
            let one = solve_checked(&grid, &options(mode, 1));
            let two = solve_checked(&grid, &options(mode, 2));
            proptest::prop_assert_eq!(answer(&one), answer(&two), "{:?}", mode);
            proptest::prop_assert!(one.complete);
        }
    }
}

/// Changes the clue of one run of `grid` by one (up where the run's digits allow it, else
/// down), which may leave the grid with solutions or with none.
fn spoil_a_run(grid: &mut Kakuro, seed: u64) {
    let runs: Vec<_> = grid.runs().into_iter().filter(|r| r.total.is_some()).collect();
    let run = &runs[seed as usize % runs.len()];
    let (Some(at), Some(total)) = (run.clue_cell, run.total) else { return };
    let len = run.cells.len() as u32;
    let most = (10 - len..=9).sum::<u32>();
    let changed = if total < most { total + 1 } else { total - 1 };
    if let KakuroCell::Black { down, right } = &mut grid.cells[at] {
        let clue = match run.direction {
            kakurod_engine::puzzle::Direction::Down => down,
            kakurod_engine::puzzle::Direction::Right => right,
        };
        *clue = Some(changed);
    }
}

#[test]
fn a_large_grid_past_the_probe_gets_the_same_verdict_at_1_2_and_4_threads() {
    // The depth-first search stalls on this grid; the SAT engine answers it.
    let large = generated(80, 80, 35.0, 1);
    for threads in [1, 2, 4] {
        let first = solve_checked(&large, &options(Mode::First, threads));
        assert_eq!((first.count, first.complete), (1, true), "first at {threads}");
        let unique = solve_checked(&large, &options(Mode::Unique, threads));
        assert_eq!((unique.count, unique.complete), (2, true), "unique at {threads}");
        assert!(unique.stats.sat_solvers > 0, "the SAT engine joined at {threads}");
    }
}

#[test]
fn live_progress_counts_every_solution_at_1_2_and_4_threads() {
    let k = Puzzle::Kakuro(generated(6, 6, 40.0, 2));
    let compiled = k.compile();
    for threads in [1, 2, 4] {
        let progress = solver::Progress::default();
        let control = solver::Control { progress: Some(&progress), ..solver::Control::default() };
        let outcome = solver::solve_with(&compiled.model, &options(Mode::Count, threads), control);
        let counts = progress.counts();
        assert!(outcome.complete && outcome.count > 1, "{outcome:?}");
        assert_eq!(counts.solutions, outcome.count, "{threads} threads");
        assert!(counts.nodes > 0 && counts.nodes <= outcome.stats.nodes, "{threads} threads");
    }
}

#[test]
fn a_time_limit_during_a_search_cut_into_regions_ends_the_real_binary_promptly() {
    // The limit falls well inside the regions' search: this 300x300 takes 0.31 s and more
    // on two threads (`unique`, the default), and is cut within its first 50 ms. (A
    // 200x200 with a limit of 0.25 s was once answered in 0.23 s, before the limit.)
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("large.txt");
    crate::common::random_filling(&file, 300, 1);
    let limit = 0.15;
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kakurod"))
        .args(["solve", "--threads", "2", "--grade", "off", "--timeout", &limit.to_string()])
        .arg(&file)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains(": timeout "), "{stderr}");
    let solve_ms: f64 = stderr
        .split_whitespace()
        .find_map(|t| t.strip_prefix("solve_ms="))
        .and_then(|ms| ms.parse().ok())
        .unwrap();
    // Every region's solver polls the deadline; what is left after it is the region each
    // thread was beginning (tens of milliseconds here). The bound is wide for a loaded
    // 2-core machine: it catches a search that runs on, not a slow poll.
    assert!(solve_ms < limit * 1e3 + 1_000.0, "stopped {solve_ms} ms after the start");
}

#[test]
fn a_large_grid_on_more_threads_than_cores_is_answered_and_no_thread_waits_on_itself() {
    // More threads than cores: a thread waiting for the sub-regions of one region of the
    // pipeline takes up the pipeline's own helpers, which the cores have not started yet.
    // A helper that then waited for the pipeline's unfinished tasks would wait for the one
    // beneath it on its own stack, for ever: the ladder's 300x300 did on 8 and 16 threads
    // of 2 cores, every time. `unique` runs the same early repairs and speculative rounds,
    // and `count` asks the grid's parts for their first two solutions the same way.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("large.txt");
    let puzzle = crate::common::random_filling(&file, 300, 1);
    let count = ["count", "--count-limit", "1000"];
    for (mode, verdict, solutions) in [
        (&["first"][..], "solved not_checked", 1),
        (&["unique"][..], "solved multiple", 2),
        (&count[..], "solved multiple", 1000),
    ] {
        for threads in ["8", "16"] {
            let case = format!("{mode:?} on {threads} threads");
            // Files, not pipes: a grid this large fills a pipe nobody reads before the end.
            let (out_path, err_path) = (dir.path().join("out.txt"), dir.path().join("err.txt"));
            let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_kakurod"))
                .args(["solve", "--threads", threads, "--grade", "off", "--mode"])
                .args(mode)
                .arg(&file)
                .env("RAYON_NUM_THREADS", threads)
                .stdout(std::fs::File::create(&out_path).unwrap())
                .stderr(std::fs::File::create(&err_path).unwrap())
                .spawn()
                .unwrap();
            // About a second here when it works; a minute is a thread waiting on itself.
            let deadline = std::time::Instant::now() + Duration::from_secs(60);
            while child.try_wait().unwrap().is_none() {
                if std::time::Instant::now() > deadline {
                    child.kill().unwrap();
                    panic!("the 300x300, {case}, was not answered within a minute");
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            let status = child.wait().unwrap();
            let stderr = std::fs::read_to_string(&err_path).unwrap();
            assert_eq!(status.code(), Some(0), "{case}: {stderr}");
            assert!(stderr.contains(&format!(": {verdict} ")), "{case}: {stderr}");
            assert!(stderr.contains(&format!("threads={threads} ")), "{case}: {stderr}");
            assert!(stderr.contains(&format!(" solutions={solutions} ")), "{case}: {stderr}");
            let answer = std::fs::read_to_string(&out_path).unwrap();
            crate::common::assert_solves(&puzzle, &answer, &case);
        }
    }
}

#[test]
fn the_statistics_line_gives_the_span_of_a_grid_cut_into_regions_and_not_of_a_small_one() {
    let dir = tempfile::tempdir().unwrap();
    let figure = |line: &str, key: &str| -> Option<f64> {
        let word = line.split(' ').find_map(|w| w.strip_prefix(key))?;
        Some(word.parse().unwrap())
    };
    for (size, cut) in [(100, true), (12, false)] {
        let file = dir.path().join(format!("{size}.txt"));
        let puzzle = crate::common::random_filling(&file, size, 1);
        let solved = std::process::Command::new(env!("CARGO_BIN_EXE_kakurod"))
            .args(["solve", "--threads", "1", "--grade", "off"])
            .arg(&file)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&solved.stderr);
        assert!(solved.status.success(), "{stderr}");
        crate::common::assert_solves(&puzzle, &String::from_utf8_lossy(&solved.stdout), "");
        let solve_ms = figure(&stderr, "solve_ms=").expect("solve_ms");
        match figure(&stderr, "span_ms=") {
            // On one thread every task ran alone: the span is the longest chain of them.
            Some(span_ms) => assert!(cut && span_ms > 0.0 && span_ms < solve_ms, "{stderr}"),
            None => assert!(!cut, "no span for a grid cut into regions: {stderr}"),
        }
    }
}

#[test]
fn the_debug_log_shows_where_a_cut_grid_spent_its_time_and_is_silent_by_default() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("100.txt");
    let puzzle = crate::common::random_filling(&file, 100, 1);
    for log in [Some("kakurod_engine=debug"), None] {
        let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_kakurod"));
        command.args(["solve", "--threads", "2", "--grade", "off"]).arg(&file);
        match log {
            Some(filter) => command.env("RUST_LOG", filter),
            None => command.env_remove("RUST_LOG"),
        };
        let solved = command.output().unwrap();
        let stderr = String::from_utf8_lossy(&solved.stderr);
        assert!(solved.status.success(), "{stderr}");
        crate::common::assert_solves(&puzzle, &String::from_utf8_lossy(&solved.stdout), "");
        let phases = ["root propagation", "cut into regions", "task=\"even region\"", "pipeline"];
        for phase in phases {
            assert_eq!(stderr.contains(phase), log.is_some(), "{phase}: {stderr}");
        }
        // Apart from the statistics line, nothing is written without RUST_LOG.
        if log.is_none() {
            assert_eq!(stderr.lines().count(), 1, "{stderr}");
        }
    }
}
