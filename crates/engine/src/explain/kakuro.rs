//! A Kakuro's path, from the journal of its grader (`grade::journal_kakuro`). It opens
//! with what the runs alone allow: each clued run keeps its cells to the digits of its
//! combinations (`unique_combination` where there is one, `crossing` otherwise), which is
//! where the grader starts.

use super::{Because, Path, Run, Step, cell_name, digit_set, digits};
use crate::grade::{self, KakuroEntry, Technique};
use crate::puzzle::{Grid, Kakuro, RunTable};
use crate::solver::Budget;
use crate::solver::combos;

/// Every digit, 1 to 9, as a bit set.
const ALL: u32 = 0x3fe;

/// The path of `kakuro` from its clues and the digits of `progress`.
pub(super) fn explain(
    kakuro: &Kakuro,
    solution: &Grid,
    progress: Option<&Grid>,
    budget: Budget<'_>,
) -> Path {
    let table = kakuro.run_table();
    let grid = Coordinates { table: &table, cols: kakuro.cols };
    let placed: Vec<u32> = table
        .white
        .iter()
        .map(|&g| progress.and_then(|p| p.cells.get(g as usize).copied().flatten()).unwrap_or(0))
        .collect();
    let mut candidates: Vec<u32> =
        placed.iter().map(|&d| if (1..=9).contains(&d) { 1 << d } else { ALL }).collect();
    let mut steps: Vec<Step> =
        (0..table.runs.len()).filter_map(|r| opening(&grid, r, &mut candidates)).collect();
    let journal = grade::journal_kakuro(kakuro, &table, &placed, budget);
    steps.extend(journal.entries.iter().filter_map(|entry| step(&grid, entry, &mut candidates)));
    let solved = journal.logic.solved();
    if !solved && !journal.out_of_budget {
        let open: Vec<usize> = (0..candidates.len())
            .filter(|&w| !candidates[w].is_power_of_two())
            .map(|w| table.white[w] as usize)
            .collect();
        steps.push(super::search_step(&open, solution));
    }
    let graded = Some(crate::grade::Difficulty::reached(solved, journal.logic.hardest));
    Path::ended(steps, graded, solved, journal.out_of_budget, budget)
}

/// Where the runs and white cells of a puzzle lie in its grid.
struct Coordinates<'a> {
    table: &'a RunTable,
    cols: usize,
}

impl Coordinates<'_> {
    /// The grid index of white cell `w`.
    fn grid(&self, w: u32) -> usize {
        self.table.white.get(w as usize).map_or(0, |&g| g as usize)
    }

    fn at(&self, w: u32) -> [usize; 2] {
        let g = self.grid(w);
        [g / self.cols.max(1), g % self.cols.max(1)]
    }

    /// The white cells of run `r`.
    fn cells(&self, r: usize) -> &[u32] {
        let run = &self.table.runs[r];
        let start = run.start as usize;
        self.table.cells.get(start..start + run.len as usize).unwrap_or_default()
    }

    /// Run `r` as its clue cell, direction, sum and length.
    fn run(&self, r: usize) -> Run {
        let cells = self.cells(r);
        let first = cells.first().copied().unwrap_or(0);
        let across =
            self.table.cell_runs.get(first as usize).is_some_and(|runs| runs[0] as usize == r);
        let g = self.grid(first);
        let clue = if across { g.saturating_sub(1) } else { g.saturating_sub(self.cols) };
        Run {
            clue: [clue / self.cols.max(1), clue % self.cols.max(1)],
            direction: if across { "across" } else { "down" },
            sum: self.table.runs[r].total.unwrap_or(0),
            cells: cells.len(),
        }
    }

    /// "run r3c4 across (23 in 3)".
    fn run_name(&self, r: usize) -> String {
        let run = self.run(r);
        let [row, col] = run.clue;
        format!("run r{}c{} {} ({} in {})", row + 1, col + 1, run.direction, run.sum, run.cells)
    }
}

/// The opening step of run `r`: its cells keep the digits of its combinations.
fn opening(grid: &Coordinates<'_>, r: usize, candidates: &mut [u32]) -> Option<Step> {
    let run = &grid.table.runs[r];
    let total = run.total?;
    let list = combos::list(run.len as usize, total);
    let envelope = list.iter().fold(0u32, |e, &c| e | u32::from(c) << 1);
    let technique =
        if list.len() == 1 { Technique::UniqueCombination } else { Technique::Crossing };
    let changes: Vec<(u32, u32)> =
        grid.cells(r).iter().map(|&w| (w, candidates[w as usize] & envelope)).collect();
    let mut step = apply(grid, technique, Some(r), &changes, candidates)?;
    let combos: Vec<String> = list.iter().map(|&c| digit_set(u32::from(c) << 1)).collect();
    step.text = format!(
        "{} can only be {}: its cells keep {}{}",
        grid.run_name(r),
        combos.join(" or "),
        digit_set(envelope),
        step.text
    );
    Some(step)
}

/// One journal entry as a step, applied to `candidates`; `None` when it places and
/// eliminates nothing there (a hidden single whose digit an earlier step placed already).
fn step(grid: &Coordinates<'_>, entry: &KakuroEntry, candidates: &mut [u32]) -> Option<Step> {
    let run = entry.run.map(|r| r as usize);
    let changes: Vec<(u32, u32)> =
        entry.changes.iter().map(|&(w, _, new)| (w, u32::from(new))).collect();
    let mut step = apply(grid, entry.technique, run, &changes, candidates)?;
    let name = run.map(|r| grid.run_name(r)).unwrap_or_default();
    let removed = step.eliminate.iter().fold(0u32, |m, &[_, _, d]| m | 1 << d);
    let lead = match entry.technique {
        Technique::UniqueCombination => {
            format!("{name} has one combination left for its open cells: they keep its digits")
        }
        Technique::Crossing => {
            format!("{name}'s combinations left allow its open cells only their digits")
        }
        Technique::NakedSingle => format!("the digits placed in {name} leave its other cells"),
        Technique::HiddenSingle => {
            let placed =
                step.place.first().map(|&[r, c, d]| (cell_name(r * grid.cols + c, grid.cols), d));
            match placed {
                Some((cell, digit)) => format!("{name} needs {digit}, and only {cell} can hold it"),
                None => format!("{name} needs a digit only one of its cells can hold"),
            }
        }
        Technique::Bounds => format!(
            "in {name}, the other cells' smallest and largest digits cannot make the sum with {}",
            digit_set(removed)
        ),
        Technique::NakedSubset => format!(
            "in {name}, as many cells as digits hold {} no other cell of the run can keep",
            digit_set(removed)
        ),
        Technique::HiddenSubset => format!(
            "{name} needs digits that only as many of its cells can hold: those cells keep no other"
        ),
        Technique::RunConsistency => format!(
            "in {name}, no combination spread over its cells in distinct digits allows {}",
            digit_set(removed)
        ),
        Technique::RegionSum => match &entry.region {
            Some(region) => region_text(grid, region),
            None => "a region's clues leave its cells sticking in or out a known sum".to_string(),
        },
        Technique::Trial => match step.eliminate.first() {
            Some(&[r, c, d]) => format!(
                "{} = {d} leads to a contradiction: {d} goes",
                cell_name(r * grid.cols + c, grid.cols)
            ),
            None => "an assumption leads to a contradiction".to_string(),
        },
        other => other.name().replace('_', " "),
    };
    step.text = format!("{lead}{}", step.text);
    Some(step)
}

/// "rows 3 to 5 summed by their across clues and by their down runs leave r6c2 + r6c3 = 11
/// (r2c4 - r6c2: an innie less an outie)": what a region sum reads off its band.
fn region_text(grid: &Coordinates<'_>, region: &grade::Region) -> String {
    let (lines, along, crossing) =
        if region.rows { ("rows", "across", "down") } else { ("columns", "down", "across") };
    let [first, last] = region.lines;
    let band = if first == last {
        format!("{} {}", &lines[..lines.len() - 1], first + 1)
    } else {
        format!("{lines} {} to {}", first + 1, last + 1)
    };
    // Outies alone read better added up: -r5c7 = -5 is r5c7 = 5. Added cells go first.
    let flip = if region.cells.iter().all(|&(_, sign)| sign < 0) { -1 } else { 1 };
    let mut cells: Vec<(u32, i8)> = region.cells.iter().map(|&(w, s)| (w, s * flip)).collect();
    cells.sort_by_key(|&(_, sign)| -sign);
    let mut sum = String::new();
    for (k, &(w, sign)) in cells.iter().enumerate() {
        let name = cell_name(grid.grid(w), grid.cols);
        sum.push_str(match (k, sign < 0) {
            (0, false) => "",
            (0, true) => "-",
            (_, false) => " + ",
            (_, true) => " - ",
        });
        sum.push_str(&name);
    }
    format!(
        "{band}: their {along} clues and their {crossing} runs (whole where they stick out \
         less, else cell by cell) add up alike, which leaves {sum} = {}",
        region.total * i32::from(flip)
    )
}

/// The step that narrows each white cell of `changes` to its candidates there: what it
/// eliminates and places, from what, and the tail of its text (`; r1c2 loses {3}; places
/// r1c3=5`). `None` when it changes nothing.
fn apply(
    grid: &Coordinates<'_>,
    technique: Technique,
    run: Option<usize>,
    changes: &[(u32, u32)],
    candidates: &mut [u32],
) -> Option<Step> {
    let (mut place, mut eliminate, mut lost) = (Vec::new(), Vec::new(), Vec::new());
    for &(w, new) in changes {
        let Some(slot) = candidates.get_mut(w as usize) else { continue };
        let (was, now) = (*slot, *slot & new);
        if was == now {
            continue;
        }
        *slot = now;
        let [row, col] = grid.at(w);
        eliminate.extend(digits(was & !now).map(|d| [row, col, d]));
        lost.push(format!(
            "{} loses {}",
            cell_name(grid.grid(w), grid.cols),
            digit_set(was & !now)
        ));
        if !was.is_power_of_two() && now.is_power_of_two() {
            place.push([row, col, now.trailing_zeros() as usize]);
        }
    }
    if eliminate.is_empty() {
        return None;
    }
    let mut text = format!("; {}", lost.join(", "));
    if !place.is_empty() {
        let placed: Vec<String> = place
            .iter()
            .map(|&[r, c, d]| format!("{}={d}", cell_name(r * grid.cols + c, grid.cols)))
            .collect();
        text.push_str(&format!("; places {}", placed.join(", ")));
    }
    let because = match run {
        Some(r) => Because {
            runs: vec![grid.run(r)],
            cells: grid.cells(r).iter().map(|&w| grid.at(w)).collect(),
            ..Because::default()
        },
        None => Because {
            cells: changes.iter().map(|&(w, _)| grid.at(w)).collect(),
            ..Because::default()
        },
    };
    Some(Step {
        technique: technique.name(),
        level: Some(technique.level()),
        place,
        eliminate,
        because,
        text,
        assumes_unique: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format;
    use crate::puzzle::Puzzle;

    fn fixture(name: &str) -> (Kakuro, Grid) {
        let path = format!(
            "{}/tests/fixtures/kakuro/{name}",
            concat!(env!("CARGO_MANIFEST_DIR"), "/../..")
        );
        let text = std::fs::read_to_string(&path).unwrap();
        let Puzzle::Kakuro(kakuro) =
            format::read(&text, None).unwrap().entries.remove(0).unwrap().puzzle
        else {
            panic!("not a Kakuro")
        };
        let sol = std::fs::read_to_string(path.replace(".txt", ".sol")).unwrap();
        let solution = format::solution::read_sol(&sol).unwrap();
        (kakuro, solution)
    }

    /// Replays `path`: no step removes the solution's digit, each placement is the
    /// solution's, and at the end every white cell is placed once.
    fn check(kakuro: &Kakuro, solution: &Grid, path: &Path) {
        let cols = kakuro.cols;
        let mut placed = vec![false; kakuro.cells.len()];
        for step in &path.steps {
            for &[r, c, d] in &step.eliminate {
                assert_ne!(solution.cells[r * cols + c], Some(d as u32), "{}", step.text);
            }
            for &[r, c, d] in &step.place {
                assert_eq!(solution.cells[r * cols + c], Some(d as u32), "{}", step.text);
                assert!(!placed[r * cols + c], "placed twice: {}", step.text);
                placed[r * cols + c] = true;
            }
        }
        let whites = kakuro.run_table().white;
        assert!(whites.iter().all(|&g| placed[g as usize]), "cells left open");
    }

    #[test]
    fn fixtures_are_explained_soundly_to_their_grade() {
        for name in ["1_10x12.txt", "241_9x9.txt", "281_6x6.txt", "301_14x14.txt", "251_20x30.txt"]
        {
            let (kakuro, solution) = fixture(name);
            let path = explain(&kakuro, &solution, None, Budget::default());
            check(&kakuro, &solution, &path);
            let grade = grade::grade(&kakuro);
            assert_eq!(path.solved, grade.solved_by_logic, "{name}");
            if path.solved {
                assert_eq!(path.difficulty, Some(grade.difficulty), "{name}");
                let hardest = path.steps.iter().filter_map(|s| s.level).max();
                assert_eq!(hardest, Some(grade.difficulty), "{name}");
            }
        }
    }
}
