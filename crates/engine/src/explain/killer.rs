//! A Killer Sudoku's path, from the journal of its logic (`grade::journal_killer`): the
//! Sudoku techniques on its houses, told as a Sudoku's are (`explain::sudoku`), and the
//! cage techniques told here. Killer Sudoku are not graded, so the path's `difficulty` is
//! `None`; each step keeps the level that orders its technique.

use super::{CageRef, House, Path, cell_list, digit_set};
use crate::grade::{self, SudokuEntry, Technique};
use crate::puzzle::{Cage, Grid, Killer};
use crate::solver::Budget;

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

/// `row 3`, or a run of neighbouring houses: `rows 3 and 4`, `columns 1 to 3`.
fn region_name(houses: &[House]) -> String {
    match houses {
        [] => String::new(),
        [one] => one.to_string(),
        [first, .., last] => {
            let kind = first.to_string();
            let kind = kind.split(' ').next().unwrap_or_default();
            let join = if houses.len() == 2 { "and" } else { "to" };
            format!("{kind}s {} {join} {}", first.index + 1, last.index + 1)
        }
    }
}

/// `cage r1c1 (15 in 3)`.
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
    let region = region_name(houses);
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
            "{region} add{} up to {}; the cages wholly inside ({}) leave {sum} for {cells}",
            if houses.len() == 1 { "s" } else { "" },
            house_sum(n) * houses.len(),
            match named.len() {
                0 => "none".to_string(),
                1..=4 => named.join(", "),
                many => format!(
                    "{many} cages adding up to {}",
                    house_sum(n) * houses.len() - sum as usize
                ),
            }
        ),
        Technique::Outies => format!(
            "the cages covering {region} ({}) add up to {sum} more: {cells} outside make {sum}",
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
