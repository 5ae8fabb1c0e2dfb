//! The text of forcing chains and nets (`grade::sudoku`'s `forcing`): each chain told as
//! the implications a player follows from its premise, then why together they force the
//! step. A net's implication that does not follow from the one just before says what it
//! follows from: a cell's last digit, a digit's last place in a house, or an earlier one.

use super::{House, HouseKind, cell_name};
use crate::grade::{SudokuEntry, Technique};

/// A chain's node: cell, digit, and whether the digit is there.
type Node = (usize, u32, bool);

/// The step's name and text; `after` holds the candidates once the step is applied.
pub(super) fn describe(
    entry: &SudokuEntry,
    n: usize,
    houses: &[House],
    after: &[u32],
) -> (&'static str, String) {
    let mut before = after.to_vec();
    for &(cell, mask) in &entry.removed {
        if let Some(c) = before.get_mut(cell) {
            *c |= mask;
        }
    }
    let is = |&(cell, d, holds): &Node| {
        format!("{} {} {d}", cell_name(cell, n), if holds { "is" } else { "is not" })
    };
    let told: Vec<String> = entry
        .implications
        .iter()
        .map(|chain| {
            let links: Vec<String> = chain
                .iter()
                .enumerate()
                .map(|(k, node)| match reason(&chain[..k], node, n, &before) {
                    Some(why) => format!("{} ({why})", is(node)),
                    None => is(node),
                })
                .collect();
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
    let (contradiction, verity) = match entry.technique {
        Technique::ForcingNetContradiction | Technique::ForcingNetVerity => {
            ("forcing_net_contradiction", "forcing_net_verity")
        }
        _ => ("forcing_chain_contradiction", "forcing_chain_verity"),
    };
    match (entry.technique, starts.first(), ends.first()) {
        (
            Technique::ForcingChainContradiction | Technique::ForcingNetContradiction,
            Some(&(cell, d, holds)),
            Some(&end),
        ) => {
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
            (contradiction, text)
        }
        (
            Technique::ForcingChainVerity | Technique::ForcingNetVerity,
            Some(&(cell, d, _)),
            Some(end),
        ) => {
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
            (verity, text)
        }
        _ => (contradiction, chains),
    }
}

/// Why `node` follows from the implications `earlier` (the premise first), where that
/// is not the one just before it along one link: `None` where it is, or for the premise.
fn reason(earlier: &[Node], node: &Node, n: usize, before: &[u32]) -> Option<String> {
    let last = earlier.last()?;
    if linked(last, node, n, before) {
        return None;
    }
    let &(cell, d, holds) = node;
    let known = |c: usize, e: u32, h: bool| earlier.contains(&(c, e, h));
    let candidates = |c: usize| before.get(c).copied().unwrap_or(0);
    if holds {
        let others = (1..=n as u32).filter(|&e| e != d && candidates(cell) & 1 << e != 0);
        if others.clone().all(|e| known(cell, e, false)) {
            return Some("its last digit".to_string());
        }
        for house in houses_of(cell, n) {
            let places = house_cells(&house, n).filter(|&c| {
                c != cell && candidates(c) & 1 << d != 0 && !candidates(c).is_power_of_two()
            });
            if places.clone().all(|c| known(c, d, false)) {
                return Some(format!("the last place for {d} in {house}"));
            }
        }
    }
    let from = earlier.iter().rev().find(|a| linked(a, node, n, before))?;
    let (c, e, h) = *from;
    Some(format!("as {} {} {e}", cell_name(c, n), if h { "is" } else { "is not" }))
}

/// Whether `b` follows from `a` along one link, on the candidates `before` the step: a
/// digit there clears the cell's other digits and its peers' copies; a digit not there
/// puts the other digit of a cell of two, or the digit's other place in a house of two.
fn linked(a: &Node, b: &Node, n: usize, before: &[u32]) -> bool {
    let candidates = |c: usize| before.get(c).copied().unwrap_or(0);
    let open = |c: usize, d: u32| candidates(c) & 1 << d != 0 && !candidates(c).is_power_of_two();
    let same = a.0 == b.0;
    let shared = houses_of(a.0, n).into_iter().filter(|h| !same && houses_of(b.0, n).contains(h));
    match (a.2, b.2) {
        (true, false) => same && a.1 != b.1 || a.1 == b.1 && shared.count() > 0,
        (false, true) if same => candidates(a.0) == 1 << a.1 | 1 << b.1 && a.1 != b.1,
        (false, true) => {
            a.1 == b.1
                && shared
                    .into_iter()
                    .any(|h| house_cells(&h, n).filter(|&c| open(c, a.1)).count() == 2)
        }
        _ => false,
    }
}

/// The row, column and box of `cell`.
fn houses_of(cell: usize, n: usize) -> [House; 3] {
    let side = n.isqrt().max(1);
    let (row, column) = (cell / n.max(1), cell % n.max(1));
    [
        House { kind: HouseKind::Row, index: row },
        House { kind: HouseKind::Column, index: column },
        House { kind: HouseKind::Box, index: row / side * side + column / side },
    ]
}

/// The cells of `house`.
fn house_cells(house: &House, n: usize) -> impl Iterator<Item = usize> + Clone + use<> {
    let (kind, index) = (house.kind, house.index);
    let side = n.isqrt().max(1);
    (0..n).map(move |k| match kind {
        HouseKind::Row => index * n + k,
        HouseKind::Column => k * n + index,
        HouseKind::Box => {
            let (top, left) = (index / side * side, index % side * side);
            (top + k / side) * n + left + k % side
        }
    })
}

#[cfg(test)]
mod tests {
    use crate::explain::sudoku_of;
    use crate::explain::tests::solved_path_of;
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
            let (_, solution, path) = solved_path_of(line);
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

    #[test]
    fn a_net_says_what_an_implication_follows_from_where_it_is_not_the_one_before() {
        // top1465 (magictour), puzzle 745: HoDoKu's path needs forcing nets.
        let line =
            "....7..9......8..4.42..1.7...4.....88..2.5..95.....7...7.6..13.2..8......6..3....";
        let (_, solution, path) = solved_path_of(line);
        assert!(path.solved && path.steps.iter().all(|s| s.technique != "trial"));
        let nets: Vec<_> =
            path.steps.iter().filter(|s| s.technique.starts_with("forcing_net")).collect();
        assert!(!nets.is_empty());
        for step in &path.steps {
            assert!(step.eliminate.iter().all(|&[r, c, d]| solution[r * 9 + c] != d));
            assert!(step.place.iter().all(|&[r, c, d]| solution[r * 9 + c] == d));
        }
        for step in nets {
            assert!(step.text.starts_with("if "), "{}", step.text);
            assert!(!step.because.implications.is_empty());
            let told = ["(its last digit)", "(the last place for ", "(as r"];
            assert!(told.iter().any(|t| step.text.contains(t)), "{}", step.text);
        }
    }
}
