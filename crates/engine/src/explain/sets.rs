//! The text of the Sudoku techniques on sets of cells (`grade::sudoku`'s `uniqueness`,
//! `suedecoq`, `als` and `colors`), named as HoDoKu names them: the rectangle or sets the step
//! reasons from, and why the digits it removes cannot stay.

use super::{cell_list, cell_name, digit_set};
use crate::grade::{SudokuEntry, Technique};

/// The step's name and text, `candidates` as they stand after it, `removed` the digits it
/// removed.
pub(super) fn describe(
    entry: &SudokuEntry,
    n: usize,
    candidates: &[u32],
    removed: u32,
) -> (&'static str, String) {
    let cells = &entry.cells;
    let digit = digit_set(removed);
    let name = entry.technique.name();
    // The sets, as `r1c1, r1c2 {1,2,3}`.
    let mut sets = Vec::new();
    let mut at = 0;
    for &size in &entry.sets {
        let set = cells.get(at..at + size).unwrap_or_default();
        let held = set.iter().fold(0, |u, &c| u | candidates[c]);
        sets.push(format!("{} {}", cell_list(set, n), digit_set(held)));
        at += size;
    }
    let set = |i: usize| sets.get(i).cloned().unwrap_or_default();
    let text = match entry.technique {
        Technique::BugPlusOne => {
            let cell = cells.first().map(|&c| cell_name(c, n)).unwrap_or_default();
            format!(
                "every open cell but {cell} holds two digits, and every digit two places per \
                 house but one, three in {cell}'s row, column and box: without it there, the \
                 grid would have no solution or several, so {cell} keeps only that digit"
            )
        }
        Technique::AvoidableRectangle1 | Technique::AvoidableRectangle2 => format!(
            "{} were placed by the logic, not given: were the rectangle {} to hold their two \
             digits crosswise, they could swap and make a second solution, so {digit} goes",
            cell_list(cells.get(..2).unwrap_or_default(), n),
            cell_list(cells, n)
        ),
        Technique::HiddenRectangle
        | Technique::UniqueRectangle1
        | Technique::UniqueRectangle2
        | Technique::UniqueRectangle3
        | Technique::UniqueRectangle4
        | Technique::UniqueRectangle5
        | Technique::UniqueRectangle6 => {
            // The corners' digits before the step.
            let before = |c: usize| {
                let lost = entry.removed.iter().filter(|&&(at, _)| at == c);
                lost.fold(candidates[c], |m, &(_, digits)| m | digits)
            };
            let pair = cells.iter().fold(!0, |u, &c| u & before(c));
            let pair = if pair.count_ones() >= 2 { digit_set(pair) } else { "two digits".into() };
            format!(
                "the rectangle {} holds {pair} in two rows, columns and boxes: were its cells \
                 only those, crosswise, they could swap and make a second solution, so {digit} \
                 goes",
                cell_list(cells, n)
            )
        }
        Technique::SueDeCoq => format!(
            "the crossing cells {} share their digits with {} in the line and {} in the box: \
             together they hold as many digits as cells, each placed in them, so those \
             digits leave the rest of the line and the box",
            set(0),
            set(1),
            set(2)
        ),
        Technique::AlsXz if entry.linked.count_ones() == 2 => format!(
            "almost locked sets {} and {}, joined by both {}, which one of them at most holds \
             each: both sets are locked, so {digit} leaves the cells that see all its places \
             in a set or in both",
            set(0),
            set(1),
            digit_set(entry.linked)
        ),
        Technique::AlsXz => format!(
            "almost locked sets {} and {}, joined by {}, which one of them at most holds: \
             one of them holds {digit}, which leaves the cells that see all its places in both",
            set(0),
            set(1),
            digit_set(entry.linked)
        ),
        Technique::AlsXyWing => format!(
            "almost locked sets {} and {}, each joined to {} by its own digit of {}: one of \
             them holds {digit}, which leaves the cells that see all its places in both",
            set(0),
            set(1),
            set(2),
            digit_set(entry.linked)
        ),
        Technique::MultiColors2 | Technique::MultiColors1 => {
            let sides = |i: usize| {
                let size = |k: usize| entry.sets.get(k).copied().unwrap_or(0);
                let from: usize = (0..i).map(size).sum();
                cell_list(cells.get(from..from + size(i)).unwrap_or_default(), n)
            };
            let (a, b) = (format!("{} against {}", sides(0), sides(1)), sides(2));
            let b = format!("{b} against {}", sides(3));
            let why = match entry.technique {
                Technique::MultiColors2 => {
                    "a colour of the first that sees both colours of                      the second cannot hold it"
                }
                _ => {
                    "a colour of each that see each other are not both true, so one of                      the other two is, and a cell that sees both cannot hold it"
                }
            };
            format!(
                "{digit}'s conjugate pairs colour {a} and {b}, one colour of each holding                  {digit}: {why}"
            )
        }
        _ => format!("{digit} goes"),
    };
    (name, text)
}

#[cfg(test)]
mod tests {
    use crate::explain::sudoku_of;
    use crate::explain::tests::solved_path_of;
    use crate::grade::{self, Technique};
    use crate::solver::Budget;

    /// Per technique, a puzzle of its section in HoDoKu's exemplar library 1.0
    /// (`exemplars-1.0.txt`, as shipped in the tests of the hodoku-py package), with the
    /// section's number: HoDoKu's own path through it uses that technique.
    const EXEMPLARS: &[(&str, &str, &str)] = &[
        (
            "0600",
            "unique_rectangle_1",
            "...3..1.8.5.4...9.39..6...7.342..............96..3...1..871...5.....2....4.6.8...",
        ),
        (
            "0601",
            "unique_rectangle_2",
            ".9...2...6..4....3..5..628....8....4.1...........27........341...65.43.2..9.1..76",
        ),
        (
            "0602",
            "unique_rectangle_3",
            "3.......7...98...3.5.....2...1.....5.968.12......237....4.....9...71..5.......36.",
        ),
        (
            "0603",
            "unique_rectangle_4",
            "............3.9........7149.......31.2...89.4.96.7...8..8.......326........9..72.",
        ),
        (
            "0604",
            "unique_rectangle_5",
            ".24.6..18............93.........63...624....1..7.5.......89.7....6.4..85..1.....3",
        ),
        (
            "0605",
            "unique_rectangle_6",
            ".73..........3......8...2.1...7..8.6...6284.32....4.5.5.9.......4..........5123..",
        ),
        (
            "0606",
            "hidden_rectangle",
            ".9...21.....73..2.52......81.3.47.......6..3.8.......57.68.4...9..........1.....4",
        ),
        (
            "0607",
            "avoidable_rectangle_1",
            ".86.4....2........1...76.9....4.7...8...9......9683.7....752..8.......457..3..1..",
        ),
        (
            "0607",
            "avoidable_rectangle_2",
            "9.....6....1..6.387.6.8...........76..41......5.947.2.2.......5...25........9...1",
        ),
        (
            "0610",
            "bug_plus_1",
            "....13......2....93.184.2..968....2..379...1......4...........8..9.35.7..1..6....",
        ),
        (
            "0901",
            "als_xz",
            ".24.6....5.74.9.1..............9..7.4....85.3..8..7.6........46..6..3..7.5.7..1..",
        ),
        (
            "0902",
            "als_xy_wing",
            "....43.......5...8.721......9.........5....1.18.3..........1.67..7..91..3...6592.",
        ),
        (
            "1101",
            "sue_de_coq",
            "..4....9765.....2191...73.42.1.3....5.32.6...............6........1746..7...9..1.",
        ),
        (
            "0110",
            "locked_pair",
            "6.......8..2....7.94.........15.98..79....5.2.....4..916...5.2......2..5..3961...",
        ),
        (
            "0111",
            "locked_triple",
            "....4.3...8...1429..15......76.....8.....2.....9.5..7...8......3.........9.1.863.",
        ),
    ];

    #[test]
    fn each_exemplar_uses_its_technique_and_every_step_keeps_the_solution() {
        let mut wrong = Vec::new();
        for &(section, technique, line) in EXEMPLARS {
            let (_, solution, path) = solved_path_of(line);
            let used = path.steps.iter().filter(|s| s.technique == technique).count();
            if used == 0 {
                let names: Vec<&str> = path.steps.iter().map(|s| s.technique).collect();
                wrong.push(format!("{section} {technique}: not used in {names:?}"));
            }
            for step in &path.steps {
                let keeps = step.eliminate.iter().all(|&[r, c, d]| solution[r * 9 + c] != d);
                let places = step.place.iter().all(|&[r, c, d]| solution[r * 9 + c] == d);
                if !keeps || !places {
                    wrong.push(format!("{section}: {} removes the solution", step.text));
                }
                let unique =
                    Technique::ALL.iter().any(|t| t.name() == step.technique && t.assumes_unique());
                let said = step.text.contains("assumes the puzzle has one solution");
                if step.assumes_unique != unique || said != unique {
                    wrong.push(format!("{section}: {} not marked as it should", step.text));
                }
            }
        }
        assert!(wrong.is_empty(), "{wrong:#?}");
    }

    #[test]
    fn a_puzzle_not_proved_to_have_one_solution_gets_no_uniqueness_step() {
        let unique = |entries: &[grade::SudokuEntry]| {
            entries.iter().filter(|e| e.technique.assumes_unique()).count()
        };
        let sudoku = sudoku_of(EXEMPLARS[0].2);
        assert!(grade::proved_unique(&sudoku));
        let journal = grade::journal_sudoku(&sudoku, Budget::default());
        assert!(unique(&journal.entries) > 0);
        // Without uniqueness, the logic alone (the generator's proof) never assumes it.
        let plain = grade::solve_sudoku(&sudoku, grade::Difficulty::Extreme);
        assert!(plain.uses.iter().all(|(t, _)| !t.assumes_unique()));
        // One given fewer: a second solution, and no step may assume there is one.
        let mut several = None;
        for cell in (0..81).filter(|&c| sudoku.givens[c] != 0) {
            let mut fewer = sudoku.clone();
            fewer.givens[cell] = 0;
            if !grade::proved_unique(&fewer) {
                several = Some(fewer);
                break;
            }
        }
        let several = several.expect("a given whose loss makes a second solution");
        let journal = grade::journal_sudoku(&several, Budget::default());
        assert_eq!(unique(&journal.entries), 0);
        let grading = grade::grade_sudoku(&several);
        assert!(grading.uses.iter().all(|(t, _)| !t.assumes_unique()));
    }
}
