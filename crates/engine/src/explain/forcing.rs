//! The text of forcing chains (`grade::sudoku`'s `forcing`): each chain told as the
//! implications a player follows from its premise, then why together they force the step.

use super::{House, cell_name};
use crate::grade::{SudokuEntry, Technique};

/// A chain's node: cell, digit, and whether the digit is there.
type Node = (usize, u32, bool);

/// The step's name and text.
pub(super) fn describe(entry: &SudokuEntry, n: usize, houses: &[House]) -> (&'static str, String) {
    let is = |&(cell, d, holds): &Node| {
        format!("{} {} {d}", cell_name(cell, n), if holds { "is" } else { "is not" })
    };
    let told: Vec<String> = entry
        .implications
        .iter()
        .map(|chain| {
            let links: Vec<String> = chain.iter().map(is).collect();
            match links.split_first() {
                Some((first, [])) => format!("if {first}"),
                Some((first, rest)) => format!("if {first}, then {}", rest.join(", then ")),
                None => String::new(),
            }
        })
        .collect();
    let starts: Vec<Node> = entry.implications.iter().filter_map(|c| c.first().copied()).collect();
    let ends: Vec<Node> = entry.implications.iter().filter_map(|c| c.last().copied()).collect();
    let house = houses.first().map(House::to_string).unwrap_or_default();
    let chains = told.join("; ");
    match (entry.technique, starts.first(), ends.first()) {
        (Technique::ForcingChainContradiction, Some(&(cell, d, holds)), Some(&end)) => {
            let why = match ends.as_slice() {
                [a, b] if a.0 == b.0 && a.1 == b.1 => {
                    format!("{} would both be and not be {}", cell_name(a.0, n), a.1)
                }
                [a, b] if a.0 == b.0 && a.2 && b.2 => {
                    format!("{} would hold both {} and {}", cell_name(a.0, n), a.1, b.1)
                }
                _ if ends.iter().all(|e| e.2) => format!("{house} would hold {} twice", end.1),
                _ if ends.iter().all(|e| e.0 == end.0) => {
                    format!("{} would have no digit left", cell_name(end.0, n))
                }
                _ => format!("{house} would have no place left for {}", end.1),
            };
            let text = format!("{chains}: {why}, so {}", is(&(cell, d, !holds)));
            ("forcing_chain_contradiction", text)
        }
        (Technique::ForcingChainVerity, Some(&(cell, d, _)), Some(end)) => {
            let one_of = match starts.as_slice() {
                [a, b] if a.0 == b.0 && a.1 == b.1 => {
                    format!("{} is {d} or is not", cell_name(cell, n))
                }
                _ if starts.iter().all(|s| s.0 == cell) => {
                    let digits: Vec<String> = starts.iter().map(|s| s.1.to_string()).collect();
                    format!("{} is one of {}", cell_name(cell, n), digits.join(", "))
                }
                _ => {
                    let places: Vec<String> = starts.iter().map(|s| cell_name(s.0, n)).collect();
                    format!("{house} holds {d} in one of {}", places.join(", "))
                }
            };
            let text = format!("{chains}: {one_of}, and each leads to {}, so it holds", is(end));
            ("forcing_chain_verity", text)
        }
        _ => ("forcing_chain_contradiction", chains),
    }
}

#[cfg(test)]
mod tests {
    use crate::explain::sudoku_of;
    use crate::report::Body;
    use crate::solver::Budget;

    /// Puzzles of section 1202 (Forcing Chain Verity) of HoDoKu's exemplar library 1.0:
    /// HoDoKu's path needs a forcing chain.
    const EXEMPLARS: &[&str] = &[
        ".7..96.....352.68...6..47.248.....2..........51..............7.....3.5.9168.....3",
        ".3.174...6..........4...3.....61.27...1.9...8..9.........8..5.42.8....37....5..92",
        "8...........8..53.5...2.6..............5..81..46..2.......3...5..9.41.7.6.3....29",
    ];

    /// Whether `b` follows from `a` along one link: a digit there clears the cell's other
    /// digits and its peers' copies; a digit not there puts the other digit of the cell,
    /// or the digit's other place in a house they share.
    fn follows(a: &super::super::Implication, b: &super::super::Implication) -> bool {
        let (ra, ca) = (a.cell[0], a.cell[1]);
        let (rb, cb) = (b.cell[0], b.cell[1]);
        let same = a.cell == b.cell;
        let sees = !same && (ra == rb || ca == cb || (ra / 3, ca / 3) == (rb / 3, cb / 3));
        match (a.holds, b.holds) {
            (true, false) => same && a.digit != b.digit || sees && a.digit == b.digit,
            (false, true) => same && a.digit != b.digit || sees && a.digit == b.digit,
            _ => false,
        }
    }

    #[test]
    fn forcing_chains_are_told_link_by_link_and_keep_the_solution() {
        let mut wrong = Vec::new();
        for line in EXEMPLARS {
            let sudoku = sudoku_of(line);
            let options = crate::pipeline::PipelineOptions::default();
            let grid = match crate::pipeline::process("x", line.as_bytes(), &options, None).body {
                Body::Single(r) => r.grid.unwrap(),
                Body::Batch { mut puzzles, .. } => puzzles.remove(0).grid.unwrap(),
                other => panic!("{other:?}"),
            };
            let solution: Vec<usize> = grid.cells.iter().map(|c| c.unwrap() as usize).collect();
            let path = super::super::sudoku::explain(&sudoku, &grid, None, Budget::default());
            let forcing: Vec<_> =
                path.steps.iter().filter(|s| s.technique.starts_with("forcing_chain")).collect();
            if !path.solved
                || forcing.is_empty()
                || path.steps.iter().any(|s| s.technique == "trial")
            {
                wrong.push(format!(
                    "{line}: solved {}, {} forcing chains",
                    path.solved,
                    forcing.len()
                ));
            }
            for step in &path.steps {
                let keeps = step.eliminate.iter().all(|&[r, c, d]| solution[r * 9 + c] != d);
                let places = step.place.iter().all(|&[r, c, d]| solution[r * 9 + c] == d);
                if !keeps || !places {
                    wrong.push(format!("{line}: {} removes the solution", step.text));
                }
            }
            for step in forcing {
                let chains = &step.because.implications;
                let linked = chains.iter().all(|c| c.windows(2).all(|w| follows(&w[0], &w[1])));
                if chains.is_empty() || !linked || !step.text.starts_with("if ") {
                    wrong.push(format!("{line}: {} {chains:?}", step.text));
                }
            }
        }
        assert!(wrong.is_empty(), "{wrong:#?}");
    }

    #[test]
    fn a_puzzle_the_patterns_finish_takes_no_forcing_chain() {
        // The skyscraper of HoDoKu's exemplar library (section 0400), which the levels
        // up to hard finish.
        let line =
            "...28.754.9.4.38............397..28.84......3.5.....7...8..1.9......5..23.6......";
        let journal = crate::grade::journal_sudoku(&sudoku_of(line), Budget::default());
        assert!(journal.logic.solved());
        let forcing = journal.entries.iter().filter(|e| !e.implications.is_empty()).count();
        assert_eq!(forcing, 0);
    }
}
