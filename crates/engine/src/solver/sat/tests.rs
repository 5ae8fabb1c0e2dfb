//! The encoding against brute force, and the SAT engine against the depth-first search, on
//! random small models.

use super::{encode, solve};
use crate::model::Domain;
use crate::model::Model;
use crate::solver::goal::Goal;
use crate::solver::{self, Algorithm, Mode, SolveOptions, Termination};
use proptest::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicUsize};

/// A random model: up to six variables with domains within 1..=6, and up to four
/// constraints: sums, all-differents, and sums paired with an all-different over the same
/// variables (as a Kakuro run).
fn models() -> impl Strategy<Value = Model> {
    (2usize..=6).prop_flat_map(|n| {
        let domains = proptest::collection::vec(1u32..64, n);
        let constraint = (0u8..3, proptest::collection::vec(0..n, 1..=n), 1u32..30);
        (domains, proptest::collection::vec(constraint, 1..=4)).prop_map(|(bits, cs)| {
            let domains = bits.into_iter().map(|b| Domain(b << 1)).collect();
            let mut model = Model { domains, constraints: Vec::new() };
            for (kind, mut vars, total) in cs {
                vars.sort_unstable();
                vars.dedup();
                let total = total % (6 * vars.len() as u32 + 1);
                match kind {
                    0 => model.sum(vars, total),
                    1 => model.all_different(vars),
                    _ => {
                        model.sum(vars.clone(), total);
                        model.all_different(vars);
                    }
                }
            }
            model
        })
    })
}

/// Every solution of `model`, by trying every assignment.
fn brute_force(model: &Model) -> Vec<Vec<u32>> {
    let mut out = Vec::new();
    let mut values = vec![0u32; model.num_vars()];
    fn extend(model: &Model, i: usize, values: &mut Vec<u32>, out: &mut Vec<Vec<u32>>) {
        if i == values.len() {
            if model.is_satisfied_by(values) {
                out.push(values.clone());
            }
            return;
        }
        for value in model.domains[i].iter() {
            values[i] = value;
            extend(model, i + 1, values, out);
        }
    }
    extend(model, 0, &mut values, &mut out);
    out
}

/// Every solution the SAT solver enumerates from the encoding of the unpropagated model.
fn sat_solutions(model: &Model) -> Vec<Vec<u32>> {
    let live = AtomicUsize::new(0);
    let goal = Goal::new(u64::MAX, Termination::default(), &live);
    let cnf = encode(model, &model.domains);
    let found = solve(&cnf, goal, 0);
    assert!(found.stopped.is_none());
    // `Found` keeps two solutions; count them all by blocking each found one.
    let mut all = Vec::new();
    let mut cnf = cnf;
    loop {
        let one = Goal { target: 1, ..goal };
        let found = solve(&cnf, one, 0);
        let Some(values) = found.solutions.into_iter().next() else { break };
        cnf.clauses.push(cnf.forbidding(&values, 0..values.len()));
        all.push(values);
    }
    assert_eq!(all.len() as u64, found.count);
    all.sort();
    all
}

fn options(algorithm: Algorithm, mode: Mode) -> SolveOptions {
    SolveOptions { algorithm, mode, count_limit: Some(1_000), ..SolveOptions::default() }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn the_encoding_has_exactly_the_models_solutions(model in models()) {
        prop_assert_eq!(sat_solutions(&model), brute_force(&model));
    }

    #[test]
    fn the_sat_engine_agrees_with_the_search(model in models()) {
        for mode in [Mode::First, Mode::Unique, Mode::Count] {
            let sat = solver::solve(&model, &options(Algorithm::Sat, mode), None);
            let search = solver::solve(&model, &options(Algorithm::Bt, mode), None);
            prop_assert_eq!(sat.count, search.count, "{:?}", mode);
            prop_assert!(sat.complete && sat.stopped.is_none());
            for values in &sat.solutions {
                prop_assert!(model.is_satisfied_by(values));
            }
        }
    }
}

#[test]
fn a_blank_sudoku_reports_a_second_solution() {
    let mut model = Model::default();
    for _ in 0..16 {
        model.new_var(Domain::range(1, 4));
    }
    for i in 0..4 {
        model.all_different((0..4).map(|j| i * 4 + j).collect());
        model.all_different((0..4).map(|j| j * 4 + i).collect());
        let (r, c) = (i / 2 * 2, i % 2 * 2);
        model.all_different(vec![r * 4 + c, r * 4 + c + 1, r * 4 + c + 4, r * 4 + c + 5]);
    }
    let outcome = solver::solve(&model, &options(Algorithm::Sat, Mode::Count), None);
    assert_eq!(outcome.count, 288, "the 4x4 Sudoku grids");
    assert_eq!(outcome.engine, solver::Engine::Sat);
    assert!(outcome.stats.sat_conflicts + outcome.stats.sat_decisions > 0);
}

/// The `n` x `n` Latin squares: far too many to count.
pub(super) fn latin_square(n: usize) -> Model {
    let mut model = Model::default();
    for _ in 0..n * n {
        model.new_var(Domain::range(1, n as u32));
    }
    for i in 0..n {
        model.all_different((0..n).map(|j| i * n + j).collect());
        model.all_different((0..n).map(|j| j * n + i).collect());
    }
    model
}

#[test]
fn a_passed_deadline_stops_the_sat_engine_with_a_timeout() {
    let model = latin_square(9);
    let mut options = options(Algorithm::Sat, Mode::Count);
    options.count_limit = None;
    options.timeout = Some(std::time::Duration::from_millis(200));
    let outcome = solver::solve(&model, &options, None);
    assert_eq!(outcome.stopped, Some(solver::StopReason::Timeout));
    assert!(!outcome.complete);
}

#[test]
fn the_callers_cancel_flag_stops_the_sat_engine() {
    let model = latin_square(9);
    let mut options = options(Algorithm::Sat, Mode::Count);
    options.count_limit = None;
    let cancel = std::sync::Arc::new(AtomicBool::new(false));
    let outcome = std::thread::scope(|scope| {
        let solving = scope.spawn(|| solver::solve(&model, &options, Some(&cancel)));
        std::thread::sleep(std::time::Duration::from_millis(100));
        cancel.store(true, std::sync::atomic::Ordering::SeqCst);
        solving.join().expect("the solve ends")
    });
    assert_eq!(outcome.stopped, Some(solver::StopReason::Cancelled));
}
