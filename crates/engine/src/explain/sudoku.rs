//! A Sudoku's path, from the journal of its grader (`grade::journal_sudoku`). The
//! grader's technique families are told by their usual names: locked candidates as
//! `pointing` (from a box) or `claiming` (from a row or column), subsets as pairs and
//! triples, fish as `x_wing` and `swordfish`. A Killer's steps are told here too, their
//! cage techniques by `explain::killer`.

use super::{Because, House, HouseKind, Path, Step, cell_list, cell_name, digit_set, digits};
use crate::grade::{self, SudokuEntry, Technique};
use crate::puzzle::{Cage, Grid, Sudoku};
use crate::solver::Budget;

/// The path of `sudoku` from its givens and the digits of `progress`.
pub(super) fn explain(
    sudoku: &Sudoku,
    solution: &Grid,
    progress: Option<&Grid>,
    budget: Budget<'_>,
) -> Path {
    let mut start = sudoku.clone();
    with_progress(&mut start.givens, progress);
    let journal = grade::journal_sudoku(&start, budget);
    let steps = path(&journal, start.n, &start.givens, &[], solution);
    let graded = Some(journal.logic.grade().difficulty);
    Path::ended(steps, graded, journal.logic.solved(), journal.out_of_budget, budget)
}

/// `givens` with the digits of `progress` added.
pub(super) fn with_progress(givens: &mut [u32], progress: Option<&Grid>) {
    if let Some(progress) = progress {
        for (given, digit) in givens.iter_mut().zip(&progress.cells) {
            if let (0, Some(digit)) = (*given, *digit) {
                *given = digit;
            }
        }
    }
}

/// The steps of a journaled solve from `givens` (a Killer's `cages` aside), closed with a
/// search step when logic got stuck.
pub(super) fn path(
    journal: &grade::SudokuJournal,
    n: usize,
    givens: &[u32],
    cages: &[Cage],
    solution: &Grid,
) -> Vec<Step> {
    let all = ((1u64 << (n + 1)) - 2) as u32;
    let mut candidates: Vec<u32> =
        givens.iter().map(|&g| if g == 0 { all } else { 1 << g }).collect();
    // A given (or a digit of the player's grid) spreading to its peers is where the path
    // starts from, not a step, unless that leaves a cell one candidate.
    let given = |entry: &SudokuEntry| {
        entry.technique == Technique::NakedSingle
            && entry.cells.iter().all(|&c| givens.get(c).is_some_and(|&g| g != 0))
    };
    let mut steps: Vec<Step> = journal
        .entries
        .iter()
        .filter_map(|entry| {
            let step = step(entry, n, cages, &mut candidates);
            (!(given(entry) && step.place.is_empty())).then_some(step)
        })
        .collect();
    if !journal.logic.solved() && !journal.out_of_budget {
        let open: Vec<usize> = (0..n * n).filter(|&c| !candidates[c].is_power_of_two()).collect();
        steps.push(super::search_step(&open, solution));
    }
    steps
}

/// One journal entry as a step, applied to `candidates`.
fn step(entry: &SudokuEntry, n: usize, cages: &[Cage], candidates: &mut [u32]) -> Step {
    let at = |cell: usize| (cell / n, cell % n);
    let (mut place, mut eliminate) = (Vec::new(), Vec::new());
    let mut removed_digits = 0;
    for &(cell, mask) in &entry.removed {
        let (row, col) = at(cell);
        let was = candidates[cell];
        candidates[cell] &= !mask;
        removed_digits |= mask;
        eliminate.extend(digits(mask).map(|d| [row, col, d]));
        let now = candidates[cell];
        if !was.is_power_of_two() && now.is_power_of_two() {
            place.push([row, col, now.trailing_zeros() as usize]);
        }
    }
    let houses: Vec<House> = entry.units.iter().map(|&u| house(u, n)).collect();
    let cells = &entry.cells;
    let held = cells.iter().fold(0, |u, &c| u | candidates[c]);
    let named = |list: &[House]| list.iter().map(House::to_string).collect::<Vec<_>>().join(", ");
    let first = houses.first().map(House::to_string).unwrap_or_default();
    let (technique, mut text) = match entry.technique {
        Technique::NakedSingle => {
            let digit = digit_set(held);
            let cell = cell_list(cells, n);
            let peers = if entry.cages.is_empty() {
                "row, column and box"
            } else {
                "row, column, box and cage"
            };
            // The cells it fills come first, as a player reads a single.
            let spread = digits(held).map(|d| d.to_string()).collect::<Vec<_>>().join(",");
            let filled: Vec<String> = place
                .iter()
                .map(|&[r, c, d]| format!("{} = {d}", cell_name(r * n + c, n)))
                .collect();
            let text = match filled.len() {
                0 => format!("{cell} holds only {digit}: it leaves its {peers}"),
                1 => format!(
                    "{}: the only digit left in the cell once {cell}'s {spread} leaves its {peers}",
                    filled[0]
                ),
                _ => format!(
                    "{}: the only digits left in those cells once {cell}'s {spread} leaves its \
                     {peers}",
                    filled.join(", ")
                ),
            };
            ("naked_single", text)
        }
        Technique::HiddenSingle => {
            let digit = digit_set(held);
            let cell = cell_list(cells, n);
            ("hidden_single", format!("{digit} has one place left in {first}: {cell}"))
        }
        Technique::LockedCandidates => {
            let name = match houses.first().map(|h| h.kind) {
                Some(HouseKind::Box) => "pointing",
                _ => "claiming",
            };
            let target = houses.get(1).map(House::to_string).unwrap_or_default();
            let digit = digit_set(removed_digits);
            (
                name,
                format!(
                    "in {first}, {digit} lies only in {target}: it leaves the rest of {target}"
                ),
            )
        }
        Technique::NakedSubset
        | Technique::NakedQuad
        | Technique::LockedPair
        | Technique::LockedTriple => {
            let name = match entry.technique {
                Technique::LockedPair => "locked_pair",
                Technique::LockedTriple => "locked_triple",
                _ => ["naked_pair", "naked_triple", "naked_quad"][cells.len().clamp(2, 4) - 2],
            };
            let (list, set) = (cell_list(cells, n), digit_set(held));
            // Every house the cells share loses the digits, in one step.
            let all = houses.iter().map(House::to_string).collect::<Vec<_>>().join(" and ");
            (name, format!("{list} hold only {set} between them: those leave the rest of {all}"))
        }
        Technique::HiddenSubset | Technique::HiddenQuad => {
            let name = ["hidden_pair", "hidden_triple", "hidden_quad"][cells.len().clamp(2, 4) - 2];
            let (list, set) = (cell_list(cells, n), digit_set(held));
            (name, format!("{set} fit only {list} in {first}: those cells keep no other digit"))
        }
        Technique::Fish => {
            let lines = houses.len() / 2;
            let name = ["x_wing", "swordfish", "jellyfish"][lines.clamp(2, 4) - 2];
            let (base, cover) = houses.split_at(lines);
            let digit = digit_set(removed_digits);
            let (base, cover) = (named(base), named(cover));
            (name, format!("in {base}, {digit} lies only in {cover}: it leaves the rest of them"))
        }
        Technique::Skyscraper
        | Technique::TwoStringKite
        | Technique::TurbotFish
        | Technique::EmptyRectangle
        | Technique::WWing
        | Technique::XyWing
        | Technique::XyzWing
        | Technique::FinnedXWing
        | Technique::FinnedFish
        | Technique::SimpleColors
        | Technique::RemotePair
        | Technique::XChain
        | Technique::XyChain
        | Technique::Aic
        | Technique::ContinuousNiceLoop
        | Technique::GroupedContinuousNiceLoop
        | Technique::GroupedAic => super::patterns::describe(entry, n, candidates, &houses),
        Technique::BugPlusOne
        | Technique::UniqueRectangle1
        | Technique::UniqueRectangle2
        | Technique::UniqueRectangle3
        | Technique::UniqueRectangle4
        | Technique::UniqueRectangle5
        | Technique::UniqueRectangle6
        | Technique::HiddenRectangle
        | Technique::AvoidableRectangle1
        | Technique::AvoidableRectangle2
        | Technique::SueDeCoq
        | Technique::AlsXz
        | Technique::AlsXyWing
        | Technique::MultiColors1
        | Technique::MultiColors2 => super::sets::describe(entry, n, candidates, removed_digits),
        Technique::ForcingChainContradiction
        | Technique::ForcingChainVerity
        | Technique::ForcingNetContradiction
        | Technique::ForcingNetVerity => super::forcing::describe(entry, n, &houses, candidates),
        Technique::Trial => {
            let cell = cell_list(cells, n);
            let digit = digit_set(removed_digits);
            ("trial", format!("{cell} = {digit} leads to a contradiction: {digit} goes"))
        }
        other => super::killer::describe(entry, other, cages, n, held, removed_digits, &houses),
    };
    // The cells an elimination clears, as `r5c7 ≠ 4` (a single's own are its peers, or the
    // other digits of the cell it fills, which its text says).
    if !eliminate.is_empty() && !technique.ends_with("single") {
        text.push_str(&format!("; {}", cleared(&eliminate, n)));
    }
    if !place.is_empty() && technique != "naked_single" {
        let placed: Vec<String> =
            place.iter().map(|&[r, c, d]| format!("{}={d}", cell_name(r * n + c, n))).collect();
        text.push_str(&format!("; places {}", placed.join(", ")));
    }
    let because = Because {
        houses,
        runs: Vec::new(),
        cages: entry
            .cages
            .iter()
            .filter_map(|&k| cages.get(k))
            .map(|c| super::killer::cage(c, n))
            .collect(),
        cells: cells.iter().map(|&c| [c / n, c % n]).collect(),
        implications: entry
            .implications
            .iter()
            .map(|chain| {
                let at = |(c, d, holds): (usize, u32, bool)| super::Implication {
                    cell: [c / n, c % n],
                    digit: d as usize,
                    holds,
                };
                chain.iter().map(|&node| at(node)).collect()
            })
            .collect(),
    };
    let assumes_unique = entry.technique.assumes_unique();
    if assumes_unique {
        text.push_str(" (assumes the puzzle has one solution, as proved before the path)");
    }
    let level = Some(entry.technique.sudoku_level());
    Step { technique, level, place, eliminate, because, text, assumes_unique }
}

/// Eliminations as `r5c7 ≠ 4, r5c8 ≠ 4,6`: each cell once, in the order first met, with
/// the digits it loses.
fn cleared(eliminate: &[[usize; 3]], n: usize) -> String {
    let mut cells: Vec<(usize, Vec<String>)> = Vec::new();
    for &[r, c, d] in eliminate {
        let cell = r * n + c;
        match cells.iter_mut().find(|(at, _)| *at == cell) {
            Some((_, lost)) => lost.push(d.to_string()),
            None => cells.push((cell, vec![d.to_string()])),
        }
    }
    let named: Vec<String> = cells
        .iter()
        .map(|(cell, lost)| format!("{} ≠ {}", cell_name(*cell, n), lost.join(",")))
        .collect();
    named.join(", ")
}

/// Unit `u` of the grader (rows, then columns, then boxes) as a house.
fn house(u: usize, n: usize) -> House {
    let kind = match u / n.max(1) {
        0 => HouseKind::Row,
        1 => HouseKind::Column,
        _ => HouseKind::Box,
    };
    House { kind, index: u % n.max(1) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explain::sudoku_of;

    /// Replays `path` from the givens: no step removes the solution's digit, every
    /// placement is the solution's, and at the end every cell is placed.
    fn check(sudoku: &Sudoku, solution: &[u32], path: &Path) {
        let n = sudoku.n;
        let mut placed: Vec<bool> = sudoku.givens.iter().map(|&g| g != 0).collect();
        for step in &path.steps {
            for &[r, c, d] in &step.eliminate {
                assert_ne!(solution[r * n + c] as usize, d, "{}", step.text);
            }
            for &[r, c, d] in &step.place {
                assert_eq!(solution[r * n + c] as usize, d, "{}", step.text);
                assert!(!placed[r * n + c], "placed twice: {}", step.text);
                placed[r * n + c] = true;
            }
        }
        assert!(placed.iter().all(|&p| p), "cells left open");
    }

    /// The verified solution, from the solver.
    fn solved(text: &str) -> Grid {
        let options = crate::pipeline::PipelineOptions::default();
        let report = crate::pipeline::process("x", text.as_bytes(), &options, None);
        match report.body {
            crate::report::Body::Single(r) => r.grid.unwrap(),
            crate::report::Body::Batch { mut puzzles, .. } => puzzles.remove(0).grid.unwrap(),
            other => panic!("{other:?}"),
        }
    }

    fn digits_of(grid: &Grid) -> Vec<u32> {
        grid.cells.iter().map(|c| c.unwrap()).collect()
    }

    #[test]
    fn an_easy_sudoku_is_explained_by_singles_and_its_grade() {
        let line =
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
        let sudoku = sudoku_of(line);
        let grid = solved(line);
        let solution = digits_of(&grid);
        let path = super::explain(&sudoku, &grid, None, Budget::default());
        assert!(path.solved);
        assert_eq!(path.difficulty, Some(grade::grade_sudoku(&sudoku).difficulty));
        check(&sudoku, &solution, &path);
        assert!(path.steps.iter().all(|s| s.technique.ends_with("single")));
        let first = &path.steps[0];
        assert!(!first.text.is_empty() && !first.because.cells.is_empty());
    }

    #[test]
    fn a_hard_line_needs_more_than_singles_and_stays_sound() {
        // The first puzzle of top1465.
        let line =
            "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
        let sudoku = sudoku_of(line);
        let grid = solved(line);
        let solution = digits_of(&grid);
        let path = super::explain(&sudoku, &grid, None, Budget::default());
        check(&sudoku, &solution, &path);
        let hardest = path.steps.iter().filter_map(|s| s.level).max();
        assert_eq!(hardest, path.difficulty);
        assert!(hardest > Some(grade::Difficulty::Easy), "{hardest:?}");
    }

    #[test]
    fn a_path_the_logic_cannot_finish_is_graded_as_the_grader_grades_the_puzzle() {
        // Golden Nugget, one of the hardest published 9x9: the logic stops on it.
        let line =
            ".......39.....1..5..3.5.8....8.9...6.7...2...1..4.......9.8..5..2....6..4..7.....";
        let sudoku = sudoku_of(line);
        let grid = solved(line);
        let path = super::explain(&sudoku, &grid, None, Budget::default());
        assert!(!path.solved);
        assert_eq!(path.steps.last().map(|s| s.technique), Some("search"));
        assert_eq!(path.difficulty, Some(grade::Difficulty::Extreme));
        assert_eq!(path.difficulty, Some(grade::grade_sudoku(&sudoku).difficulty));
    }

    #[test]
    fn the_text_counts_rows_columns_and_boxes_from_1_and_the_json_from_0() {
        // The first puzzle of top1465, whose path names houses.
        let line =
            "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
        let sudoku = sudoku_of(line);
        let path = super::explain(&sudoku, &solved(line), None, Budget::default());
        for step in &path.steps {
            for &[r, c, d] in &step.place {
                let (named, spaced) =
                    (format!("r{}c{}={d}", r + 1, c + 1), format!("r{}c{} = {d}", r + 1, c + 1));
                assert!(
                    step.text.contains(&named) || step.text.contains(&spaced),
                    "{named} not in {}",
                    step.text
                );
            }
        }
        // An elimination names the cells it clears.
        let mut clears = 0;
        for step in path.steps.iter().filter(|s| !s.technique.ends_with("single")) {
            for &[r, c, _] in &step.eliminate {
                let named = format!("r{}c{} ≠ ", r + 1, c + 1);
                assert!(step.text.contains(&named), "{named} not in {}", step.text);
                clears += 1;
            }
        }
        assert!(clears > 0);
        // Every house a text names is one of 1..=9, and the ninth is named somewhere.
        let mut named = Vec::new();
        for step in &path.steps {
            for kind in ["row ", "column ", "box "] {
                for (at, _) in step.text.match_indices(kind) {
                    let rest = &step.text[at + kind.len()..];
                    let number: String = rest.chars().take_while(char::is_ascii_digit).collect();
                    if let Ok(number) = number.parse::<usize>() {
                        named.push(number);
                    }
                }
            }
        }
        assert!(named.iter().all(|n| (1..=9).contains(n)), "{named:?}");
        assert!(named.contains(&9), "{named:?}");
        assert!(!path.steps.iter().any(|s| s.text.contains("r0") || s.text.contains("c0")));
    }

    #[test]
    fn givens_are_never_steps_and_a_single_names_the_cell_it_fills_first() {
        let line =
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
        let sudoku = sudoku_of(line);
        let grid = solved(line);
        let path = super::explain(&sudoku, &grid, None, Budget::default());
        check(&sudoku, &digits_of(&grid), &path);
        // No given spreads as a step of its own, and a single that fills cells starts with
        // the first of them.
        let n = sudoku.n;
        let mut spread_placed = 0;
        for step in path.steps.iter().filter(|s| s.technique == "naked_single") {
            let [r, c] = step.because.cells[0];
            match step.place.first() {
                None => assert_eq!(sudoku.givens[r * n + c], 0, "{}", step.text),
                Some(&[pr, pc, d]) => {
                    let lead = format!("r{}c{} = {d}", pr + 1, pc + 1);
                    assert!(step.text.starts_with(&lead), "{}", step.text);
                    spread_placed += 1;
                }
            }
        }
        assert!(spread_placed > 0);
    }
}
