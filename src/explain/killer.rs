//! A Killer Sudoku's path, from the journal of its logic (`grade::journal_killer`): the
//! Sudoku techniques on its houses, told as a Sudoku's are (`explain::sudoku`), and the
//! cage techniques told here. Killer Sudoku are not graded, so the path's `difficulty` is
//! `None`; each step keeps the level that orders its technique.

use super::{CageRef, House, Path, cell_list, digit_set};
use crate::grade::{self, Budget, SudokuEntry, Technique};
use crate::puzzle::{Cage, Grid, Killer};

/// The path of `killer` from its givens and the digits of `progress`.
pub(super) fn explain(
    killer: &Killer,
    solution: &Grid,
    progress: Option<&Grid>,
    budget: Budget<'_>,
) -> Path {
    let mut start = killer.clone();
    super::sudoku::with_progress(&mut start.givens, progress);
    let journal = grade::journal_killer(&start, budget);
    let steps = super::sudoku::path(&journal, start.n, &start.givens, &start.cages, solution);
    // Not graded: no difficulty, whatever the hardest step.
    Path::ended(steps, None, journal.logic.solved(), journal.out_of_budget, budget)
}

/// A cage as the `because` of a step.
pub(super) fn cage(cage: &Cage, n: usize) -> CageRef {
    let n = n.max(1);
    CageRef { sum: cage.total, cells: cage.cells.iter().map(|&c| [c / n, c % n]).collect() }
}

/// `cage r0c0 (15 in 3)`.
fn cage_name(cage: &Cage, n: usize) -> String {
    let first = cage.cells.first().map_or_else(String::new, |&c| super::cell_name(c, n));
    format!("cage {first} ({} in {})", cage.total, cage.cells.len())
}

/// The name and text of a cage technique's step: `held` is what its cells hold after it,
/// `removed` the digits it removed, `houses` the houses it reasons on.
pub(super) fn describe(
    entry: &SudokuEntry,
    technique: Technique,
    cages: &[Cage],
    n: usize,
    held: u32,
    removed: u32,
    houses: &[House],
) -> (&'static str, String) {
    let named: Vec<String> =
        entry.cages.iter().filter_map(|&k| cages.get(k)).map(|c| cage_name(c, n)).collect();
    let first = named.first().cloned().unwrap_or_default();
    let house = houses.first().map(House::to_string).unwrap_or_default();
    let (cells, sum) = (cell_list(&entry.cells, n), entry.sum.unwrap_or(0));
    let text = match technique {
        Technique::CageCombination => format!(
            "the combinations {first} has left hold only {}: its cells keep those digits",
            digit_set(held)
        ),
        Technique::CageHiddenSingle => format!(
            "every combination of {first} holds {}, and only {cells} can hold it",
            digit_set(held)
        ),
        Technique::CagePointing => format!(
            "{first} needs {}, and its places in the cage lie in {house}: it leaves the rest of {house}",
            digit_set(removed)
        ),
        Technique::Innies => format!(
            "{house} adds up to {}; the cages wholly inside it ({}) leave {sum} for {cells}",
            house_sum(n),
            if named.is_empty() { "none".to_string() } else { named.join(", ") }
        ),
        Technique::Outies => format!(
            "the cages covering {house} ({}) add up to {sum} more than it: {cells} outside it make {sum}",
            named.join(", ")
        ),
        Technique::CageConsistency => format!(
            "no distinct digits adding up to the sum of {first} put {} where it was",
            digit_set(removed)
        ),
        other => other.name().replace('_', " "),
    };
    (technique.name(), text)
}

/// The sum of a house's digits.
fn house_sum(n: usize) -> usize {
    n * (n + 1) / 2
}
