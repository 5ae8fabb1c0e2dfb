//! Tests of the grid propagator against separate all-different propagators and fresh runs.

use super::hall::{ones, unit_hall_sets};
use super::tables::{BAND, NEVER};
use super::*;
use crate::puzzle::sudoku::Sudoku;
use crate::solver::propagators::contract::Conflict;
use crate::solver::propagators::{self, Propagator, Propagators, run_alone};
use proptest::prelude::*;
use wide::u16x8;

/// The units of a 9x9 Sudoku, as lists of variables.
fn sudoku_units() -> Vec<Vec<usize>> {
    Sudoku::units(9, 3)
}

fn family(units: &[Vec<usize>], values: Domain) -> Option<Bands> {
    let refs: Vec<&[usize]> = units.iter().map(Vec::as_slice).collect();
    Bands::new(&refs, values)
}

fn grid() -> Propagator {
    Propagator::Bands(family(&sudoku_units(), Domain::range(1, 9)).expect("a 9x9 grid"))
}

/// The grid propagator alone, for the search's side of the contract.
fn alone() -> Propagators {
    Propagators::new(vec![grid()])
}

/// A fresh grid propagator's fixed point of `domains`, or `None` when it fails.
fn run(domains: &[Domain]) -> Option<Vec<Domain>> {
    run_alone(&mut grid(), domains)
}

/// The same domains through separate all-different propagators, one per unit (the
/// reference).
fn run_separately(domains: &[Domain]) -> Option<Vec<Domain>> {
    let props: Vec<Propagator> = sudoku_units()
        .iter()
        .map(|u| Propagator::AllDifferent(propagators::AllDifferent::new(u, domains)))
        .collect();
    let mut props = Propagators::new(props);
    let mut state = props.state(domains.to_vec());
    props.propagate_all(&mut state, &mut 0).ok()?;
    Some(state.domains().to_vec())
}

/// A 9x9 solution: the classic shifted pattern with its digits relabelled.
fn solution(labels: &[u32]) -> Vec<u32> {
    (0..81).map(|i| labels[(i / 9 * 3 + i / 27 + i % 9) % 9]).collect()
}

/// Domains holding `solution`: given where `given` says, else the solution value plus
/// the extra candidates in `extra`.
fn planted(solution: &[u32], given: &[bool], extra: &[u32]) -> Vec<Domain> {
    (0..81)
        .map(|i| {
            let value = Domain::single(solution[i]);
            if given[i] { value } else { Domain(value.bits() | extra[i] << 1) }
        })
        .collect()
}

/// Checks what a run of the grid propagator left: `after` is narrower than `before`,
/// keeps `solution`, and separate all-different propagators find nothing more to do.
fn check_fixed_point(before: &[Domain], after: &[Domain], solution: &[u32]) {
    for ((d, b), &value) in after.iter().zip(before).zip(solution) {
        assert!(d.contains(value), "{after:?}");
        assert_eq!(d.without(*b), Domain::EMPTY);
    }
    assert_eq!(run_separately(after).as_deref(), Some(after));
}

#[test]
fn the_rows_columns_and_boxes_of_a_grid_are_recognised_in_any_order() {
    let values = Domain::range(1, 9);
    let mut units = sudoku_units();
    assert!(family(&units, values).is_some());
    units.reverse();
    units.iter_mut().for_each(|u| u.reverse());
    assert!(family(&units, values).is_some());
    let shifted: Vec<Vec<usize>> =
        units.iter().map(|u| u.iter().map(|v| v + 5).collect()).collect();
    assert!(family(&shifted, values).is_some());
    // Not a grid: a unit missing, a box replaced by a diagonal, other values, a
    // 4x4 or 16x16 grid.
    assert!(family(&units[1..], values).is_none());
    let mut diagonal = sudoku_units();
    diagonal[26] = (0..9).map(|i| 10 * i).collect();
    assert!(family(&diagonal, values).is_none());
    assert!(family(&sudoku_units(), Domain::range(2, 10)).is_none());
    assert!(family(&Sudoku::units(4, 2), Domain::range(1, 4)).is_none());
    assert!(family(&Sudoku::units(16, 4), Domain::range(1, 16)).is_none());
}

#[test]
fn givens_keep_the_solution_and_reach_a_fixed_point_of_the_units() {
    let solution = solution(&[3, 1, 4, 5, 9, 2, 6, 8, 7]);
    for step in [2, 3, 5, 7] {
        let given: Vec<bool> = (0..81).map(|i| i % step == 0).collect();
        let before = planted(&solution, &given, &[511; 81]);
        let after = run(&before).expect("consistent");
        check_fixed_point(&before, &after, &solution);
    }
}

#[test]
fn a_value_twice_in_a_unit_fails() {
    let mut domains = vec![Domain::range(1, 9); 81];
    domains[0] = Domain::single(3);
    domains[80] = Domain::single(3);
    assert!(run(&domains).is_some());
    for clash in [8, 72, 20] {
        let mut domains = domains.clone();
        domains[clash] = Domain::single(3);
        assert_eq!(run(&domains), None, "cell {clash}");
    }
}

#[test]
fn a_naked_pair_leaves_its_row_and_box() {
    let mut domains = vec![Domain::range(1, 9); 81];
    domains[0] = Domain::range(1, 2);
    domains[1] = Domain::range(1, 2);
    let after = run(&domains).expect("consistent");
    for cell in (2..9).chain([9, 10, 11, 18, 19, 20]) {
        assert_eq!(after[cell], Domain::range(3, 9), "cell {cell}");
    }
    assert_eq!(after[27], Domain::range(1, 9));
}

#[test]
fn a_value_locked_in_a_line_of_its_box_leaves_the_rest_of_the_line() {
    // In the top-left box, 1 can only go in the top row, and 2 only in the left
    // column; the same again after the domains are loaded afresh.
    let mut domains = vec![Domain::range(1, 9); 81];
    for cell in [9, 10, 11, 18, 19, 20] {
        domains[cell] = domains[cell].remove(1);
    }
    for cell in [1, 2, 10, 11, 19, 20] {
        domains[cell] = domains[cell].remove(2);
    }
    let mut props = alone();
    let mut state = props.state(domains.clone());
    for _ in 0..2 {
        props.load(&mut state, &domains);
        props.propagate_all(&mut state, &mut 0).expect("consistent");
        assert!((3..9).all(|cell| !state.dom(cell).contains(1)), "{:?}", state.domains());
        assert!((3..9).all(|row| !state.dom(9 * row).contains(2)), "{:?}", state.domains());
        assert!(state.dom(27).contains(1) && state.dom(4).contains(2));
    }
}

#[test]
fn a_value_with_one_place_in_a_column_goes_there() {
    let mut domains = vec![Domain::range(1, 9); 81];
    for row in 1..9 {
        domains[9 * row + 4] = domains[9 * row + 4].remove(7);
    }
    let after = run(&domains).expect("consistent");
    assert_eq!(after[4], Domain::single(7));
    assert!(!after[5].contains(7) && !after[13].contains(7));
}

/// The grid propagator, run once on an empty grid.
fn empty_grid_run() -> (Propagators, State) {
    let mut props = alone();
    let mut state = props.state(vec![Domain::range(1, 9); 81]);
    props.propagate_all(&mut state, &mut 0).expect("consistent");
    (props, state)
}

/// Runs the grid propagator in `props` on `state` and checks the result against a fresh propagator's; cell 0
/// must be open again.
fn run_matches_a_fresh_one(props: &mut Propagators, state: &mut State) -> Vec<Domain> {
    props.propagate_all(state, &mut 0).expect("consistent");
    let after = state.domains().to_vec();
    assert_eq!(after[0], Domain::range(1, 9));
    assert_eq!(run(&after), Some(after.clone()));
    after
}

#[test]
fn a_saved_grid_that_is_no_longer_the_state_is_not_used() {
    let (mut props, mut state) = empty_grid_run();
    let root = state.mark();
    state.set(0, Domain::single(1)).expect("a value of the domain");
    props.propagate_all(&mut state, &mut 0).expect("consistent");
    let decided = state.mark();
    // Back to the root, then as long a trail again by other changes, without a run.
    props.undo(&mut state, root);
    state.set(80, Domain::single(5)).expect("a value of the domain");
    for cell in (30..80).take(decided - root - 1) {
        state.set(cell, state.dom(cell).remove(cell as u32 % 9 + 1)).expect("values left");
    }
    assert_eq!(state.mark(), decided);
    props.undo(&mut state, decided);
    let after = run_matches_a_fresh_one(&mut props, &mut state);
    assert!(!after[8].contains(5));
}

#[test]
fn a_grid_left_by_a_failed_run_is_not_used() {
    let (mut props, mut state) = empty_grid_run();
    let root = state.mark();
    // Two cells of the first row fixed to 1 fail, and leave the propagator's grid
    // behind them; one backtrack goes back to exactly where the good run ended.
    state.set(0, Domain::single(1)).expect("a value of the domain");
    state.set(1, Domain::single(1)).expect("a value of the domain");
    assert_eq!(props.propagate_all(&mut state, &mut 0), Err(Conflict));
    props.undo(&mut state, root);
    state.set(80, Domain::single(5)).expect("a value of the domain");
    run_matches_a_fresh_one(&mut props, &mut state);
}

#[test]
fn a_backtrack_to_loaded_fixed_point_brings_an_old_grid_up_to_it() {
    // The board holds the empty grid's fixed point; then propagated domains are loaded
    // and the search backtracks to them before its first decision, as it does when it
    // starts on a subproblem.
    let (mut props, mut state) = empty_grid_run();
    let solution = solution(&[2, 7, 1, 8, 4, 5, 9, 3, 6]);
    let given: Vec<bool> = (0..81).map(|i| i % 3 == 0).collect();
    let loaded = run(&planted(&solution, &given, &[511; 81])).expect("consistent");
    props.load(&mut state, &loaded);
    props.undo(&mut state, 0);
    let open = (0..81).find(|&c| !loaded[c].is_fixed()).expect("an open cell");
    state.set(open, Domain::single(solution[open])).expect("a value of the domain");
    props.propagate_all(&mut state, &mut 0).expect("consistent");
    let after = state.domains().to_vec();
    assert_eq!(run(&after), Some(after.clone()));
    check_fixed_point(&loaded, &after, &solution);
}

proptest! {
    /// The vector test in front of the Hall set rule changes nothing it would do.
    #[test]
    fn unit_hall_sets_agree_with_the_rule(
        masks in proptest::array::uniform9(1u32..512),
        small in proptest::array::uniform9(proptest::bool::weighted(0.6)),
    ) {
        // Domains of digits 1..9 (bits 1..9), many of them small enough to matter.
        let mut doms = masks.map(|m| m << 1);
        for (dom, &small) in doms.iter_mut().zip(&small) {
            while small && dom.count_ones() > 3 {
                *dom &= *dom - 1;
            }
        }
        let open = doms.iter().filter(|d| !distinct::single(**d)).count() as u32;
        let mut expected = doms;
        let expected_result = distinct::hall_sets_among(&mut expected, open, true);
        let result = unit_hall_sets(&mut doms, open);
        prop_assert_eq!(result, expected_result);
        if result.is_ok() {
            prop_assert_eq!(doms, expected);
        }
    }

    #[test]
    fn ones_counts_the_bits_of_each_lane(lanes in proptest::array::uniform8(any::<u16>())) {
        let counts = ones(u16x8::new(lanes)).to_array();
        for (count, lane) in counts.iter().zip(lanes) {
            prop_assert_eq!(u32::from(*count), lane.count_ones());
        }
    }

    /// The columns the stacks' rule holds for a digit are where its places are left,
    /// and the rule run again from scratch on them takes nothing more.
    #[test]
    fn the_columns_held_are_a_fixed_point_of_the_stacks_rule(
        places in proptest::array::uniform3(0u32..1 << 27),
    ) {
        let mut memory = Board::new();
        for (c, dom) in memory.grid.doms.iter_mut().enumerate() {
            let holds_1 = places[c / 27] >> (c % 27) & 1;
            *dom = 0x3FC | holds_1 << 1;
        }
        memory.grid.places = [[BAND; 3]; 9];
        memory.grid.places[0] = places;
        if memory.columns(0).is_err() {
            return Ok(()); // no permutation left in some stack
        }
        let left = memory.grid.places[0];
        let reach = left.map(|p| (p | p >> 9 | p >> 18) & 0x1FF);
        prop_assert_eq!(memory.grid.columns_held[0], reach[0] | reach[1] << 9 | reach[2] << 18);
        memory.grid.columns_held[0] = NEVER;
        prop_assert!(memory.columns(0).is_ok());
        prop_assert_eq!(memory.grid.places[0], left);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// One propagator reloaded with a series of unrelated domains (as a search that
    /// narrows, fails and starts over would) gives what a fresh one gives each time, keeps the
    /// planted values and leaves a fixed point of the units.
    #[test]
    fn what_it_remembers_never_hides_a_change(
        labels in Just((1..=9u32).collect::<Vec<_>>()).prop_shuffle(),
        rounds in proptest::collection::vec(
            (
                proptest::collection::vec(proptest::bool::weighted(0.3), 81),
                proptest::collection::vec(0u32..512, 81),
            ),
            1..6,
        ),
    ) {
        let solution = solution(&labels);
        let mut prop = grid();
        for (given, extra) in &rounds {
            let before = planted(&solution, given, extra);
            let after = run_alone(&mut prop, &before).expect("the planted solution survives");
            prop_assert_eq!(run(&before), Some(after.clone()));
            check_fixed_point(&before, &after, &solution);
        }
    }

    /// Driven as a search drives it (decide, propagate, backtrack to the mark, where it
    /// catches up from the trail or a saved grid; now and then start over from the
    /// root domains, as a new subproblem does), it leaves after every step a fixed
    /// point that a fresh propagator and separate all-different propagators agree is
    /// one, and decisions that follow the planted solution never fail.
    #[test]
    fn a_search_through_it_always_reaches_a_fixed_point(
        labels in Just((1..=9u32).collect::<Vec<_>>()).prop_shuffle(),
        given in proptest::collection::vec(proptest::bool::weighted(0.25), 81),
        steps in proptest::collection::vec(
            (0usize..81, proptest::bool::ANY, proptest::bool::weighted(0.1), 0usize..3),
            1..40,
        ),
    ) {
        let solution = solution(&labels);
        let mut props = alone();
        let domains = planted(&solution, &given, &[511; 81]);
        let mut state = props.state(domains.clone());
        prop_assert!(props.propagate_all(&mut state, &mut 0).is_ok());
        let root = state.domains().to_vec();
        let mut marks = vec![state.mark()];
        for &(cell, follow, restart, back) in &steps {
            if restart {
                props.load(&mut state, &root);
                marks = vec![state.mark()];
                prop_assert!(props.propagate_all(&mut state, &mut 0).is_ok());
                prop_assert_eq!(state.domains(), &root[..]);
            }
            let dom = state.dom(cell);
            let other = dom.remove(solution[cell]).min();
            let value = match (follow, other) {
                (false, Some(other)) if !dom.is_fixed() => other,
                _ => solution[cell],
            };
            let mark = state.mark();
            let fine = state.set(cell, Domain::single(value)).is_ok()
                && props.propagate_all(&mut state, &mut 0).is_ok();
            prop_assert!(fine || value != solution[cell], "the planted path failed");
            if fine {
                let after = state.domains().to_vec();
                prop_assert_eq!(run(&after), Some(after.clone()));
                prop_assert_eq!(run_separately(&after), Some(after.clone()));
                marks.push(state.mark());
            } else {
                props.undo(&mut state, mark);
            }
            // Back to a fixed point taken earlier (or to this one, as a search does
            // before its first value): always off a wrong decision.
            let levels = if fine && value != solution[cell] { back.max(1) } else { back };
            let keep = marks.len().saturating_sub(levels).max(1);
            marks.truncate(keep);
            props.undo(&mut state, marks[keep - 1]);
        }
    }
}
