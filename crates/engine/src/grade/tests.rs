use super::*;
use crate::format;
use crate::puzzle::{Grid, KakuroCell, Puzzle};
use crate::solver::Budget;
use crate::verify;

/// Reads a Kakuro in the janko text format.
fn kakuro(text: &str) -> Kakuro {
    let document = format::read(text, None).expect("readable puzzle");
    match document.entries.into_iter().next() {
        Some(Ok(parsed)) => match parsed.puzzle {
            Puzzle::Kakuro(k) => k,
            other => panic!("not a Kakuro: {other:?}"),
        },
        other => panic!("no puzzle: {other:?}"),
    }
}

/// The grid of digits the logic placed; panics unless it placed every one.
fn solution(puzzle: &Kakuro, logic: &Logic) -> Grid {
    assert!(logic.solved(), "not solved: {logic:?}");
    let cells = (0..puzzle.cells.len()).map(|i| logic.value(i)).collect();
    Grid { rows: puzzle.rows, cols: puzzle.cols, cells }
}

/// Checks that `text` needs exactly `level`: the ladder cut one level lower gets stuck, the
/// ladder up to `level` solves it to a grid that keeps every clue, and the grade agrees.
fn needs_exactly(text: &str, level: Difficulty) -> Logic {
    let puzzle = kakuro(text);
    let logic = solve(&puzzle, level);
    let grid = solution(&puzzle, &logic);
    assert_eq!(verify::check(&Puzzle::Kakuro(puzzle.clone()), &grid), Ok(()));
    assert_eq!(logic.hardest, Some(level), "{logic:?}");
    if let Some(lower) = Difficulty::ALL.into_iter().rev().find(|&d| d < level) {
        let stuck = solve(&puzzle, lower);
        assert!(!stuck.solved() && !stuck.contradiction, "{lower:?} suffices: {stuck:?}");
        // What the lower levels deduce stays true at the higher level.
        for (cell, &kept) in stuck.candidates.iter().enumerate() {
            assert_eq!(kept & logic.candidates[cell], logic.candidates[cell], "cell {cell}");
        }
    }
    let graded = grade(&puzzle);
    assert_eq!((graded.difficulty, graded.solved_by_logic), (level, true));
    logic
}

/// Solved by combinations, crossings and singles alone.
const EASY: &str = "7 6
- - 7, 39, 17, 5,
- 33,26 0 0 0 0
,4 0 7,10 0 0 11,
,30 0 0 0 0 0
,19 0 0 0 6,1 0
,9 0 4,12 0 0 0
,18 0 0 0 0 0
";

/// Needs bounds once.
const MEDIUM: &str = "7 5
- 27, 10, 14, 5,
,15 0 0 0 0
,21 0 0 0 20,
,4 0 - 4,5 0
,5 0 13,10 0 0
,9 0 0 7,7 0
,24 0 0 0 0
";

/// Needs run consistency once.
const HARD: &str = "6 5
- 28, 6, 26, 3,
,10 0 0 0 0
,15 0 0 0 5,
,16 0 0 0 0
,2 0 ,9 0 0
,7 0 ,9 0 -
";

/// Needs trial twice (the pipeline's grading tests use it too).
pub(crate) const EXPERT: &str = "7 5
- 24, - 18, 6,
,5 0 35,9 0 0
,18 0 0 0 10,
,11 0 0 0 0
,21 0 0 0 0
,14 0 0 5,4 0
,16 0 0 0 0
";

#[test]
fn a_solve_within_a_spent_budget_gives_up_and_one_within_time_finishes() {
    let puzzle = kakuro(EASY);
    let runs = puzzle.run_table();
    let cancel = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let spent = Budget { deadline: None, cancel: Some(&cancel) };
    assert!(solve_runs_within(&puzzle, &runs, Difficulty::Hard, spent).is_none());
    let open = Budget::default();
    let logic = solve_runs_within(&puzzle, &runs, Difficulty::Hard, open).expect("within budget");
    assert!(logic.solved());
}

#[test]
fn an_easy_puzzle_is_solved_by_the_easy_level() {
    let logic = needs_exactly(EASY, Difficulty::Easy);
    assert!(logic.uses.get(Technique::UniqueCombination) > 0, "{:?}", logic.uses);
    assert!(logic.uses.iter().all(|(t, _)| t.level() == Difficulty::Easy));
}

#[test]
fn a_medium_puzzle_needs_the_medium_level() {
    let logic = needs_exactly(MEDIUM, Difficulty::Medium);
    assert_eq!(logic.uses.get(Technique::Bounds), 1, "{:?}", logic.uses);
}

#[test]
fn a_hard_puzzle_needs_run_consistency() {
    let logic = needs_exactly(HARD, Difficulty::Hard);
    assert!(logic.uses.get(Technique::RunConsistency) > 0, "{:?}", logic.uses);
}

#[test]
fn an_expert_puzzle_needs_trial() {
    let logic = needs_exactly(EXPERT, Difficulty::Expert);
    assert!(logic.uses.get(Technique::Trial) > 0, "{:?}", logic.uses);
}

#[test]
fn contradictory_clues_are_found_out() {
    // Across 3 is {1,2} and down 4 is {1,3}: the corner is 1; down 4 in the second column
    // makes its top cell 1 as well.
    let logic = solve(&kakuro("3 3\n- 4, 4,\n,3 0 0\n,4 0 0\n"), Difficulty::Expert);
    assert!(logic.contradiction && !logic.solved(), "{logic:?}");
    let logic = solve(&kakuro("3 3\n- 4, 3,\n,3 0 0\n,4 0 0\n"), Difficulty::Easy);
    assert_eq!(
        (0..9).map(|c| logic.value(c)).collect::<Vec<_>>(),
        [None, None, None, None, Some(1), Some(2), None, Some(3), Some(1)]
    );
}

#[test]
fn a_lone_unclued_cell_keeps_every_digit() {
    let logic = solve(&kakuro("2 3\n- - 3,\n0 - 0\n"), Difficulty::Expert);
    assert_eq!(logic.candidates, [0, 0, 0, 0x3FE, 0, 0b1000]);
    assert_eq!(logic.open_cells().collect::<Vec<_>>(), [3]);
    assert!(!logic.solved() && !logic.contradiction);
    assert_eq!(grade(&kakuro("2 3\n- - 3,\n0 - 0\n")).difficulty, Difficulty::Expert);
}

#[test]
fn uses_serialise_as_an_object_of_the_techniques_used_in_ladder_order() {
    let mut uses = Uses::default();
    uses.add(Technique::Trial);
    uses.add(Technique::NakedSingle);
    uses.add(Technique::NakedSingle);
    assert_eq!(serde_json::to_string(&uses).unwrap(), r#"{"naked_single":2,"trial":1}"#);
    assert_eq!(serde_json::to_string(&Uses::default()).unwrap(), "{}");
    assert!(Technique::ALL.windows(2).all(|w| w[0].level() <= w[1].level()));
    for difficulty in Difficulty::ALL {
        assert_eq!(Difficulty::from_name(difficulty.name()), Some(difficulty));
    }
}

/// A small xorshift generator for the search below.
fn next(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

/// Fills the white cells of `shape` with random digits, distinct in every run, and puts
/// the sums in as clues.
fn random_fill(shape: &Kakuro, rng: &mut u64) -> Option<Kakuro> {
    let runs = shape.runs();
    let white: Vec<usize> =
        (0..shape.cells.len()).filter(|&i| shape.cells[i] == KakuroCell::White).collect();
    let mut digit = vec![0u32; shape.cells.len()];
    fn place(
        k: usize,
        white: &[usize],
        runs: &[crate::puzzle::Run],
        digit: &mut [u32],
        rng: &mut u64,
    ) -> bool {
        let Some(&cell) = white.get(k) else { return true };
        let start = (next(rng) % 9) as u32;
        for i in 0..9 {
            let d = (start + i) % 9 + 1;
            let clash = runs
                .iter()
                .filter(|r| r.cells.contains(&cell))
                .any(|r| r.cells.iter().any(|&c| c != cell && digit[c] == d));
            if clash {
                continue;
            }
            digit[cell] = d;
            if place(k + 1, white, runs, digit, rng) {
                return true;
            }
            digit[cell] = 0;
        }
        false
    }
    if !place(0, &white, &runs, &mut digit, rng) {
        return None;
    }
    let mut puzzle = shape.clone();
    for run in &runs {
        let sum: u32 = run.cells.iter().map(|&c| digit[c]).sum();
        let clue = run.clue_cell?;
        if let KakuroCell::Black { down, right } = &mut puzzle.cells[clue] {
            match run.direction {
                crate::puzzle::Direction::Down => *down = Some(sum),
                crate::puzzle::Direction::Right => *right = Some(sum),
            }
        }
    }
    Some(puzzle)
}

#[test]
fn search_small_puzzles_of_each_grade() {
    if std::env::var_os("KAKUROD_GRADE_SEARCH").is_none() {
        return;
    }
    let mut found = [0usize; 4];
    let mut rng = 0x9E37_79B9_7F4A_7C15u64;
    for seed in 0..3000u64 {
        let (rows, cols) = (5 + (seed % 3) as usize, 5 + (seed / 3 % 3) as usize);
        let black = [25.0, 30.0, 35.0][(seed / 9 % 3) as usize];
        let shape = crate::generate::any_solution(rows, cols, black, seed);
        if shape.runs().iter().any(|r| r.cells.len() > 1 && r.total.is_none()) {
            continue;
        }
        for _ in 0..30 {
            let Some(p) = random_fill(&shape, &mut rng) else { break };
            let g = grade(&p);
            if !g.solved_by_logic {
                continue;
            }
            let level = g.difficulty as usize;
            if found[level] < 3 {
                found[level] += 1;
                println!("{:?} {:?}\n{}", g.difficulty, g.uses, crate::generate::to_janko(&p));
            }
        }
    }
    println!("found {found:?}");
}

/// The text of the fixture `name` of tests/fixtures/kakuro and its published solution.
fn fixture(name: &str) -> (String, Grid) {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/kakuro");
    let text = std::fs::read_to_string(format!("{dir}/{name}.txt")).expect("fixture");
    let sol = std::fs::read_to_string(format!("{dir}/{name}.sol")).expect("solution");
    (text, format::solution::read_sol(&sol).expect("readable .sol"))
}

#[test]
fn region_sums_finish_janko_301_without_trial() {
    // janko.de Kakuro 301: the run-local levels get stuck, trial used to go on.
    let (text, expected) = fixture("301_14x14");
    let (puzzle, logic) = (kakuro(&text), needs_exactly(&text, Difficulty::Hard));
    assert_eq!(solution(&puzzle, &logic), expected);
    assert!(logic.uses.get(Technique::RegionSum) > 0, "{:?}", logic.uses);
    // The first region sum comes where every run-local technique is stuck, and its
    // equation holds for the published solution.
    let runs = puzzle.run_table();
    let journal = journal_kakuro(&puzzle, &runs, &[], Budget::default());
    let entries = &journal.entries;
    let at =
        entries.iter().position(|e| e.technique == Technique::RegionSum).expect("a region sum");
    assert!(entries[..at].iter().all(|e| e.technique.level() <= Difficulty::Hard));
    let region = entries[at].region.as_ref().expect("the region of a region sum");
    let digit = |w: u32| expected.cells[runs.white[w as usize] as usize].unwrap_or(0) as i32;
    let sum: i32 = region.cells.iter().map(|&(w, sign)| i32::from(sign) * digit(w)).sum();
    assert_eq!(sum, region.total, "{region:?}");
    for &(w, old, new) in &entries[at].changes {
        assert!(old & !new & 1 << digit(w) == 0, "cell {w} lost its digit");
    }
}

#[test]
fn region_sums_leave_a_grid_with_two_solutions_open() {
    // Hand-made: a 2x2 block whose bands only restate the clues (4 and 6 across, 5 and 5
    // down: 13/42 and 31/24 both fit).
    let logic = solve(&kakuro("3 3\n- 5, 5,\n,4 0 0\n,6 0 0\n"), Difficulty::Expert);
    assert!(!logic.solved() && !logic.contradiction, "{logic:?}");
    assert_eq!(logic.uses.get(Technique::RegionSum), 0, "{:?}", logic.uses);
}

#[test]
fn region_sums_skip_only_the_bands_that_would_give_nothing_again() {
    // A generated grid whose logic takes many region sums, 301, which needs them, and a
    // random filling (many solutions), where the logic gets stuck after many passes that
    // find nothing. Looking at every band in every pass takes the very same steps.
    let generated = include_str!("../../../../tests/fixtures/generated/kakuro_40x40.txt");
    let grids = [
        kakuro(generated),
        kakuro(&fixture("301_14x14").0),
        crate::generate::any_solution(60, 60, 35.0, 1),
    ];
    let mut region_sums = 0;
    for puzzle in &grids {
        let runs = puzzle.run_table();
        let dated = journal_kakuro(puzzle, &runs, &[], Budget::default());
        regions::EVERY_BAND.with(|every| every.set(true));
        let every = journal_kakuro(puzzle, &runs, &[], Budget::default());
        regions::EVERY_BAND.with(|every| every.set(false));
        assert_eq!(dated.entries, every.entries);
        region_sums += dated.entries.iter().filter(|e| e.technique == Technique::RegionSum).count();
    }
    assert!(region_sums >= 20, "region sums made progress {region_sums} times");
}
