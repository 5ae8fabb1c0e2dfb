use super::*;
use crate::generate::full_sudoku_grid;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn sudoku(givens: Vec<u32>) -> Sudoku {
    Sudoku { n: 9, box_size: 3, givens }
}

/// An empty 9x9 grid's state, with `cells` kept to `digits` (bit sets).
fn open_grid(kept: &[(usize, u32)]) -> (Shape, State) {
    let puzzle = sudoku(vec![0; 81]);
    let shape = Shape::new(puzzle.n, puzzle.box_size, &[]);
    let mut state = State::new(&shape, &puzzle.givens);
    for &(cell, digits) in kept {
        state.logic.candidates[cell] = digits;
    }
    (shape, state)
}

const ONE: u32 = 1 << 1;

#[test]
fn locked_candidates_point_out_of_a_box() {
    // Digit 1 of the top-left box only in its first row.
    let kept: Vec<_> = [9, 10, 11, 18, 19, 20].iter().map(|&c| (c, 0x3FC)).collect();
    let (shape, mut state) = open_grid(&kept);
    assert!(state.locked_candidates(&shape));
    assert!((3..9).all(|c| state.logic.candidates[c] & ONE == 0));
    assert!((0..3).all(|c| state.logic.candidates[c] & ONE != 0));
    assert_eq!(state.logic.uses.get(Technique::LockedCandidates), 1);
}

#[test]
fn a_naked_pair_leaves_the_rest_of_its_row() {
    let (shape, mut state) = open_grid(&[(0, 0b110), (5, 0b110)]);
    assert!(!state.naked_subsets(&shape, 2, true), "across boxes: no locked pair");
    assert!(state.naked_subsets(&shape, 2, false));
    let row: Vec<u32> = (0..9).map(|c| state.logic.candidates[c]).collect();
    assert!(row.iter().enumerate().all(|(c, &m)| c == 0 || c == 5 || m & 0b110 == 0));
}

#[test]
fn a_locked_pair_clears_its_box_and_its_row_in_one_step() {
    // r1c1 and r1c2 hold only {1,2}: both leave row 1 and box 1 at once.
    let (shape, mut state) = open_grid(&[(0, 0b110), (1, 0b110)]);
    assert!(!state.naked_subsets(&shape, 2, false), "a locked pair is no naked pair");
    assert!(state.naked_subsets(&shape, 2, true));
    let cleared = [2, 5, 8, 9, 10, 11, 20];
    assert!(cleared.iter().all(|&c| state.logic.candidates[c] & 0b110 == 0));
    assert_ne!(state.logic.candidates[27] & 0b110, 0, "column 1 below the box keeps them");
    assert_eq!(state.logic.uses.get(Technique::LockedPair), 1);
    assert_eq!(state.logic.score, 40);
}

#[test]
fn a_pair_of_one_box_and_row_that_clears_only_the_row_is_a_naked_pair() {
    // r1c1 and r1c2 hold {1,2}; the rest of box 1 holds neither already.
    let mut kept = vec![(0, 0b110), (1, 0b110)];
    kept.extend([2, 9, 10, 11, 18, 19, 20].map(|c| (c, 0x3F8)));
    let (shape, mut state) = open_grid(&kept);
    assert!(!state.naked_subsets(&shape, 2, true));
    assert!(state.naked_subsets(&shape, 2, false));
    assert!((3..9).all(|c| state.logic.candidates[c] & 0b110 == 0));
    assert_eq!((state.logic.uses.get(Technique::NakedSubset), state.logic.score), (1, 60));
}

#[test]
fn a_naked_triple_scores_as_hodoku_scores_it() {
    let (shape, mut state) = open_grid(&[(0, 0b110), (4, 0b1100), (8, 0b1010)]);
    assert!(state.naked_subsets(&shape, 3, false));
    assert_eq!(state.logic.score, 80);
}

#[test]
fn a_hidden_pair_keeps_its_cells_to_its_digits() {
    // Digits 1 and 2 of the first row only in cells 2 and 7.
    let kept: Vec<_> = (0..9).filter(|&c| c != 2 && c != 7).map(|c| (c, 0x3FE & !0b110)).collect();
    let (shape, mut state) = open_grid(&kept);
    assert!(state.hidden_subsets(&shape, 2));
    assert_eq!((state.logic.candidates[2], state.logic.candidates[7]), (0b110, 0b110));
}

#[test]
fn an_x_wing_clears_its_columns() {
    // Digit 1 in rows 0 and 4 only in columns 1 and 6.
    let kept: Vec<_> = [0usize, 4]
        .iter()
        .flat_map(|&r| (0..9).filter(|&c| c != 1 && c != 6).map(move |c| (r * 9 + c, 0x3FC)))
        .collect();
    let (shape, mut state) = open_grid(&kept);
    assert!(state.fish(&shape, 2));
    for r in (0..9).filter(|&r| r != 0 && r != 4) {
        assert_eq!(state.logic.candidates[r * 9 + 1] & ONE, 0, "row {r}");
        assert_eq!(state.logic.candidates[r * 9 + 6] & ONE, 0, "row {r}");
    }
    assert_ne!(state.logic.candidates[1] & ONE, 0);
}

#[test]
fn an_easy_puzzle_needs_singles_only() {
    let line = "003020600900305001001806400008102900700000008006708200002609500800203009005010300";
    let givens = line.bytes().map(|b| u32::from(b - b'0')).collect();
    let grading = grade_sudoku(&sudoku(givens));
    assert_eq!((grading.difficulty, grading.solved_by_logic), (Difficulty::Easy, true));
}

/// Every deduction is sound: on random puzzles cut from full grids, the logic never
/// removes a digit of the grid, and a grid it finishes is that grid.
#[test]
fn the_logic_never_removes_a_digit_of_the_solution() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for round in 0..60 {
        let solution = full_sudoku_grid(9, 3, &mut rng);
        let mut givens = solution.clone();
        let mut cells: Vec<usize> = (0..81).collect();
        cells.shuffle(&mut rng);
        let removed = rng.random_range(40..62);
        cells.iter().take(removed).for_each(|&c| givens[c] = 0);
        let logic = solve_sudoku(&sudoku(givens), Difficulty::Extreme);
        assert!(!logic.contradiction, "round {round}");
        for (cell, &digit) in solution.iter().enumerate() {
            assert_ne!(logic.candidates[cell] & 1 << digit, 0, "round {round}, cell {cell}");
        }
        if logic.solved() {
            assert_eq!(logic.values(), solution);
        }
    }
}

#[test]
fn clashing_givens_are_a_contradiction() {
    let mut givens = vec![0; 81];
    givens[0] = 5;
    givens[1] = 5;
    let logic = solve_sudoku(&sudoku(givens), Difficulty::Extreme);
    assert!(logic.contradiction && !logic.solved());
    assert_eq!(grade_sudoku(&sudoku(vec![1; 80])).difficulty, Difficulty::Extreme);
}

/// A 4x4 Killer's shape: cage `[0, 1]` adds up to 3, cage `[2, 3, 6]` to 9.
fn small_killer() -> (Shape, State) {
    let cages = vec![Cage { total: 3, cells: vec![0, 1] }, Cage { total: 9, cells: vec![2, 3, 6] }];
    let shape = Shape::new(4, 2, &cages);
    let state = State::new(&shape, &[0; 16]);
    (shape, state)
}

#[test]
fn a_cage_keeps_the_digits_of_its_sums_combinations() {
    let (shape, mut state) = small_killer();
    assert!(state.cage_combinations(&shape));
    assert_eq!((state.logic.candidates[0], state.logic.candidates[1]), (0b110, 0b110));
    assert_eq!(state.logic.uses.get(Technique::CageCombination), 1);
}

#[test]
fn innies_give_the_rest_of_a_house_its_sum() {
    // Row 0 adds up to 10; the cage of 3 inside it leaves 7 for r0c2 and r0c3: {3,4}.
    let (shape, mut state) = small_killer();
    assert!(state.innies(&shape));
    assert_eq!((state.logic.candidates[2], state.logic.candidates[3]), (0b11000, 0b11000));
    assert_eq!(state.logic.candidates[6], 0b11110, "outside the row, untouched");
}

/// The givens of a 9x9 line, `.` for an open cell.
fn givens_of(line: &str) -> Vec<u32> {
    line.bytes().map(|b| if b == b'.' { 0 } else { u32::from(b - b'0') }).collect()
}

/// The state of `line` (HoDoKu's regression library grid notation, givens only) with
/// each given's digit cleared from its peers, nothing more: the candidates HoDoKu's
/// library starts its cases from.
fn library_state(line: &str) -> (Shape, State) {
    let givens = givens_of(line);
    let shape = Shape::new(9, 3, &[]);
    let mut state = State::new(&shape, &givens);
    for (cell, &g) in givens.iter().enumerate().filter(|&(_, &g)| g != 0) {
        for &peer in shape.peers(cell) {
            state.remove(peer, 1 << g);
        }
    }
    (shape, state)
}

/// The candidates `before` had and `after` lost, as (cell, digit).
fn lost(before: &State, after: &State) -> Vec<(usize, u32)> {
    let pairs = before.logic.candidates.iter().zip(&after.logic.candidates).enumerate();
    pairs
        .flat_map(|(c, (&b, &a))| {
            (1..=9).filter(move |d| (b & !a) & 1 << d != 0).map(move |d| (c, d))
        })
        .collect()
}

#[test]
fn multi_colors_of_hodokus_regression_library() {
    // reglib-1.3 (hodoku-py's tests/reglib), case 0503: Multi-Colors 2 on 8 clears
    // r2c4 and r3c2; case 0502 on another grid: Multi-Colors 1 on 2 clears r4c5.
    let grid = "......58779..52..15.41..932.......2.2.6.3.1.5.5.......947.182.....76..1961.......";
    let (shape, before) = library_state(grid);
    let mut state = before.clone();
    assert!(state.multi_colors(&shape));
    assert_eq!(state.logic.uses.get(Technique::MultiColors2), 1);
    assert_eq!(lost(&before, &state), vec![(12, 8), (19, 8)]);
    let grid = ".9..4187678.3..15441.8..329..91...6.1...6.9..674..851.967485231.4..12.95521......";
    let (shape, before) = library_state(grid);
    let mut state = before.clone();
    assert!(state.multi_colors(&shape));
    assert_eq!(state.logic.uses.get(Technique::MultiColors1), 1);
    assert_eq!(lost(&before, &state), vec![(31, 2)]);
    assert_eq!(state.logic.score, 200);
}

#[test]
fn without_conjugate_pairs_there_are_no_colours_and_no_forcing_chains() {
    let (shape, mut state) = open_grid(&[]);
    assert!(!state.multi_colors(&shape) && !state.simple_colors(&shape));
    assert!(!state.forcing_chains(&shape) && !state.forcing_nets(&shape));
    assert!(state.logic.uses.is_empty());
}

#[test]
fn a_forcing_chain_of_hodokus_exemplars_keeps_the_solution() {
    // HoDoKu's exemplar library 1.0, section 1202 (Forcing Chain Verity), its first
    // puzzle: singles, then a forcing chain, then singles finish it.
    let line = ".7..96.....352.68...6..47.248.....2..........51..............7.....3.5.9168.....3";
    let givens = givens_of(line);
    let outcome = sudoku9::solve(&givens, &SolveOptions::DEFAULT, Control::default());
    let solution = outcome.solutions.into_iter().next().expect("the exemplar has a solution");
    let shape = Shape::new(9, 3, &[]);
    let mut state = State::new(&shape, &givens);
    state.journal = Some(Journal::default());
    state.run(&shape, Difficulty::Easy, Budget::default());
    assert!(!state.logic.solved(), "singles alone finish it");
    assert!(state.forcing_chains(&shape));
    let step = state.journal.as_ref().and_then(|j| j.steps.last()).expect("a step");
    assert!(matches!(
        step.technique,
        Technique::ForcingChainContradiction | Technique::ForcingChainVerity
    ));
    assert!(!step.implications.is_empty());
    for (cell, &digit) in solution.iter().enumerate() {
        assert_ne!(state.logic.candidates[cell] & 1 << digit, 0, "cell {cell}");
    }
    // Each chain starts at a premise the step names.
    for chain in &step.implications {
        let (first, _, _) = chain[0];
        assert!(step.cells.contains(&first), "{chain:?}");
    }
    state.run(&shape, Difficulty::Extreme, Budget::default());
    assert!(state.logic.solved() && state.logic.uses.get(Technique::Trial) == 0);
}

/// Whether `node` follows from the implications `earlier` on the candidates `before`: a
/// digit not there because an earlier one holds its cell or a peer, a digit there because
/// its cell's other digits, or its other places in a house, are all gone.
fn follows_in_net(
    shape: &Shape,
    before: &[u32],
    earlier: &[(usize, u32, bool)],
    node: (usize, u32, bool),
) -> bool {
    let (cell, d, holds) = node;
    let known = |c: usize, e: u32, h: bool| earlier.contains(&(c, e, h));
    let units = shape.cell_units[cell];
    if !holds {
        let peers = units.iter().flat_map(|&u| shape.units[u].iter().copied());
        let by_cell = (1..=9).any(|e| e != d && known(cell, e, true));
        return by_cell || peers.filter(|&c| c != cell).any(|c| known(c, d, true));
    }
    let last_digit =
        (1..=9).filter(|&e| e != d && before[cell] & 1 << e != 0).all(|e| known(cell, e, false));
    let last_place = units.iter().any(|&u| {
        shape.units[u]
            .iter()
            .filter(|&&c| c != cell && before[c] & 1 << d != 0)
            .all(|&c| known(c, d, false))
    });
    last_digit || last_place
}

#[test]
fn a_forcing_net_where_chains_fail_is_told_implication_by_implication() {
    // top1465 (magictour), puzzle 745: HoDoKu's path needs forcing nets. Its first net
    // comes where the levels below and forcing chains are stuck.
    let line = "....7..9......8..4.42..1.7...4.....88..2.5..95.....7...7.6..13.2..8......6..3....";
    let givens = givens_of(line);
    let outcome = sudoku9::solve(&givens, &SolveOptions::DEFAULT, Control::default());
    let solution = outcome.solutions.into_iter().next().expect("the puzzle has a solution");
    let shape = Shape::new(9, 3, &[]);
    let mut state = State::new(&shape, &givens);
    state.journal = Some(Journal::default());
    loop {
        state.run(&shape, Difficulty::Unfair, Budget::default());
        assert!(!state.logic.solved(), "the levels below and forcing chains finish it");
        if !state.forcing_chains(&shape) {
            break;
        }
    }
    let before = state.logic.candidates.clone();
    assert!(state.forcing_nets(&shape));
    let step = state.journal.as_ref().and_then(|j| j.steps.last()).expect("a step");
    assert!(matches!(
        step.technique,
        Technique::ForcingNetContradiction | Technique::ForcingNetVerity
    ));
    assert!(!step.implications.is_empty());
    for net in &step.implications {
        assert!(step.cells.contains(&net[0].0), "{net:?}");
        for (k, &node) in net.iter().enumerate().skip(1) {
            assert!(follows_in_net(&shape, &before, &net[..k], node), "{node:?} in {net:?}");
        }
    }
    for (cell, &digit) in solution.iter().enumerate() {
        assert_ne!(state.logic.candidates[cell] & 1 << digit, 0, "cell {cell}");
    }
    state.run(&shape, Difficulty::Extreme, Budget::default());
    assert!(state.logic.solved() && state.logic.uses.get(Technique::Trial) == 0);
    assert!(state.logic.uses.get(Technique::ForcingNetContradiction) > 0);
}
