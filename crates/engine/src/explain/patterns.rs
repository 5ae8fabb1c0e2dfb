//! The text of the Sudoku patterns past plain fish (`grade::sudoku`'s `links`, `wings` and
//! `finned`), named as HoDoKu names them: what the pattern is made of, and why a cell that
//! sees its ends cannot hold the digit.

use super::{House, HouseKind, cell_list, cell_name, digit_set};
use crate::grade::{SudokuEntry, Technique};

/// The step's name and text for one of the patterns, `candidates` as they stand after it.
pub(super) fn describe(
    entry: &SudokuEntry,
    n: usize,
    candidates: &[u32],
    houses: &[House],
) -> (&'static str, String) {
    let removed = entry.removed.iter().fold(0, |u, &(_, m)| u | m);
    let digit = digit_set(removed);
    let cells = &entry.cells;
    let name = |c: usize| cell_name(c, n);
    let with = |c: usize| format!("{} {}", name(c), digit_set(candidates[c]));
    let house = |i: usize| houses.get(i).map(House::to_string).unwrap_or_default();
    match (entry.technique, cells.as_slice()) {
        (
            Technique::Skyscraper | Technique::TwoStringKite | Technique::TurbotFish,
            &[f1, n1, n2, f2],
        ) => {
            let kind = match entry.technique {
                Technique::Skyscraper => "skyscraper",
                Technique::TwoStringKite => "two_string_kite",
                _ => "turbot_fish",
            };
            let text = format!(
                "{digit} lies only at {} or {} in {}, and at {} or {} in {}; {} and {} see \
                 each other, so {} or {} holds {digit}: it leaves the cells that see both",
                name(f1),
                name(n1),
                house(0),
                name(n2),
                name(f2),
                house(1),
                name(n1),
                name(n2),
                name(f1),
                name(f2)
            );
            (kind, text)
        }
        (Technique::EmptyRectangle, [in_box @ .., e1, e2]) => {
            let text = format!(
                "in {}, {digit} lies only on one row and one column ({}); in {} only at {} or \
                 {}: the cell that would leave {} no place for {digit} loses it",
                house(0),
                cell_list(in_box, n),
                house(1),
                name(*e1),
                name(*e2),
                house(0)
            );
            ("empty_rectangle", text)
        }
        (Technique::WWing, &[a, e1, e2, b]) => {
            let link = digit_set(candidates[e1] & candidates[a] & !removed);
            let text = format!(
                "{} and {} hold only {}; {link} lies only at {} or {} in {}, which see them, so \
                 one of {} and {} is {digit}: it leaves the cells that see both",
                name(a),
                name(b),
                digit_set(candidates[a]),
                name(e1),
                name(e2),
                house(0),
                name(a),
                name(b)
            );
            ("w_wing", text)
        }
        (Technique::XyWing | Technique::XyzWing, &[pivot, a, b]) => {
            let (kind, seen) = match entry.technique {
                Technique::XyWing => ("xy_wing", "both pincers"),
                _ => ("xyz_wing", "all three"),
            };
            let text = format!(
                "pivot {} with pincers {} and {}: whichever digit the pivot takes, one of them \
                 is {digit}, which leaves the cells that see {seen}",
                with(pivot),
                with(a),
                with(b)
            );
            (kind, text)
        }
        (Technique::FinnedXWing | Technique::FinnedFish, _) => finned(entry, n, houses, &digit),
        (Technique::SimpleColors, _) => {
            let text = format!(
                "{digit}'s strong links colour its places {} in two colours, one of which \
                 holds {digit}: a colour with two cells that see each other is false, and a \
                 cell that sees both colours cannot hold {digit}",
                cell_list(cells, n)
            );
            ("simple_colors", text)
        }
        (
            Technique::RemotePair
            | Technique::XChain
            | Technique::XyChain
            | Technique::Aic
            | Technique::ContinuousNiceLoop
            | Technique::GroupedContinuousNiceLoop
            | Technique::GroupedAic,
            _,
        ) => chain(entry, n),
        _ => (entry.technique.name(), format!("{digit} goes")),
    }
}

/// A chain, told as the implications a player follows: from its start assumed false, each
/// strong link makes the next candidate true and each weak link the next one false.
fn chain(entry: &SudokuEntry, n: usize) -> (&'static str, String) {
    let kind = match entry.technique {
        Technique::RemotePair => "remote_pair",
        Technique::XChain => "x_chain",
        Technique::XyChain => "xy_chain",
        Technique::GroupedAic => "grouped_aic",
        Technique::ContinuousNiceLoop => "continuous_nice_loop",
        Technique::GroupedContinuousNiceLoop => "grouped_continuous_nice_loop",
        _ => "aic",
    };
    // A grouped chain's nodes are runs of `cells` (`sets`): a group reads `(r1c1 or r1c2)`.
    let mut names: Vec<String> = Vec::new();
    let mut at = 0;
    for &size in &entry.sets {
        let group = entry.cells.get(at..at + size).unwrap_or_default();
        let list: Vec<String> = group.iter().map(|&c| cell_name(c, n)).collect();
        names.push(if size > 1 { format!("({})", list.join(" or ")) } else { list.join("") });
        at += size;
    }
    let name = |i: usize, cell: usize| names.get(i).cloned().unwrap_or_else(|| cell_name(cell, n));
    let node = |i: usize, truth: bool| {
        let (cell, d) = entry.chain[i];
        format!("{} {} {d}", name(i, cell), if truth { "is" } else { "is not" })
    };
    let is = |&(cell, d): &(usize, u32), truth: bool| {
        format!("{} {} {d}", cell_name(cell, n), if truth { "is" } else { "is not" })
    };
    let links: Vec<String> = (0..entry.chain.len()).map(|i| node(i, i % 2 == 1)).collect();
    let (Some(start), Some(end)) = (entry.chain.first(), entry.chain.last()) else {
        return (kind, "a chain".into());
    };
    let last = entry.chain.len() - 1;
    let closed = [Technique::ContinuousNiceLoop, Technique::GroupedContinuousNiceLoop];
    let ends = if closed.contains(&entry.technique) {
        "the loop closes, so of the two ends of each weak link one is true".to_string()
    } else if !names.is_empty() {
        match names.first() == names.get(last) && start.1 == end.1 {
            true => format!("so {}", node(0, true)),
            false => format!("so {} or {}", node(0, true), node(last, true)),
        }
    } else if start == end {
        format!("so {} is {}", cell_name(start.0, n), start.1)
    } else {
        format!("so {} or {}", is(start, true), is(end, true))
    };
    (kind, format!("if {}: {ends}", links.join(", then ")))
}

/// A finned or sashimi fish: its houses are the base lines, the cover lines and the fins'
/// box; its cells every place of the digit on the base lines.
fn finned(entry: &SudokuEntry, n: usize, houses: &[House], digit: &str) -> (&'static str, String) {
    let lines = houses.len().saturating_sub(1) / 2;
    let (base, rest) = houses.split_at(lines.min(houses.len()));
    let (cover, fin_box) = rest.split_at(lines.min(rest.len()));
    let on = |cell: usize, house: &House| match house.kind {
        HouseKind::Row => cell / n == house.index,
        HouseKind::Column => cell % n == house.index,
        HouseKind::Box => false,
    };
    let covered = |cell: usize| cover.iter().any(|h| on(cell, h));
    let fins: Vec<usize> = entry.cells.iter().copied().filter(|&c| !covered(c)).collect();
    // Sashimi: a base line keeps at most one place on the cover lines.
    let sashimi = base
        .iter()
        .any(|line| entry.cells.iter().filter(|&&c| on(c, line) && covered(c)).count() <= 1);
    let kinds = [
        ("finned_x_wing", "sashimi_x_wing"),
        ("finned_swordfish", "sashimi_swordfish"),
        ("finned_jellyfish", "sashimi_jellyfish"),
    ];
    let (finned, sashimi_name) = kinds[lines.clamp(2, 4) - 2];
    let named = |list: &[House]| list.iter().map(House::to_string).collect::<Vec<_>>().join(", ");
    let fin_box = fin_box.first().map(House::to_string).unwrap_or_default();
    let text = format!(
        "in {}, {digit} lies only in {} but for the fins {} in {fin_box}: either a fin holds \
         it or the lines make a fish, and both leave the cells of {fin_box} on those columns \
         or rows",
        named(base),
        named(cover),
        cell_list(&fins, n)
    );
    (if sashimi { sashimi_name } else { finned }, text)
}

#[cfg(test)]
mod tests {

    /// Per technique, the first puzzle of its section in HoDoKu's exemplar library 1.0
    /// (`exemplars-1.0.txt`, as shipped in the tests of the hodoku-py package), with the
    /// section's number: HoDoKu solves each with singles and that technique alone.
    const EXEMPLARS: &[(&str, &str, &str)] = &[
        (
            "0202",
            "naked_quad",
            ".3..8....9.8.41.....19..2.7.254..6....3.17.5.7......................51.6...3...98",
        ),
        (
            "0300",
            "x_wing",
            "9..............7.37...962486...2.47.........5....4...642...86..5.71.......1.....2",
        ),
        (
            "0301",
            "swordfish",
            "1......345..3.2.78...8........6.5..3..5...4..3.....6.298.2.6.1.............78.9..",
        ),
        (
            "0302",
            "jellyfish",
            "2.......3.8..3..5...34.21....12.54......9......93.86....25.69...9..2..7.4.......1",
        ),
        (
            "0310",
            "finned_x_wing",
            ".8..49.6..7.......2.....5.......6....57.3...26..27........28.4939.1.4.....1......",
        ),
        (
            "0311",
            "finned_swordfish",
            "....3.....72.54..6....16.85.19.......23.895..8...6.7...91...8..4.6.....2.....5...",
        ),
        (
            "0312",
            "finned_jellyfish",
            "......8...1.8.5..3..73..6.1.5.621...........473.................8..5.91..62..7...",
        ),
        (
            "0320",
            "sashimi_x_wing",
            "4..5.769.........2.68....3.65.2.4..9....3.4.....9........8..........3..73894.....",
        ),
        (
            "0321",
            "sashimi_swordfish",
            "2.7.9....5..7....8.9...6...............6...938.9.5.764.....2......54......3..14.6",
        ),
        (
            "0322",
            "sashimi_jellyfish",
            "...4.6...2.......41......36.463..5....184......7.2..1...5.3..41............5.732.",
        ),
        (
            "0400",
            "skyscraper",
            "...28.754.9.4.38............397..28.84......3.5.....7...8..1.9......5..23.6......",
        ),
        (
            "0401",
            "two_string_kite",
            ".56.7.9...4.62..8.28...........8....73....618..5....2...........7.5...49....487.1",
        ),
        (
            "0402",
            "empty_rectangle",
            "47...........2...78..5..34..6..7..8...9.45..3.8......2741..32............9.2...5.",
        ),
        (
            "0403",
            "turbot_fish",
            "2.4..3587.3......2..8..6.............2...4.39....9...659........4.5...1.61.3.9..5",
        ),
        (
            "0800",
            "xy_wing",
            ".1....5.8...4.3....567.........2..8.4.....3.22..376..19.8...254.....7...........3",
        ),
        (
            "0801",
            "xyz_wing",
            ".73.....9514.92.....2.......67.59..28...1.53.............14.9.......835.......1.7",
        ),
        (
            "0803",
            "w_wing",
            "6......7.....2.....58..1.....4.....2...1..9.6597.4...892.4..6.....5.......68.3...",
        ),
        (
            "0500",
            "simple_colors",
            ".3.7..8.55972..................9.5.7....6...........83.72..396..4...7....638.....",
        ),
        (
            "0701",
            "x_chain",
            "....5..8...7.293..1...74..25.91.2..4....4.........816.718....2...........6......7",
        ),
        (
            "0702",
            "xy_chain",
            "76.....9.............42536...65..2..9..1.2.......7...9.....643..49.8...2.1...7...",
        ),
        (
            "0706",
            "continuous_nice_loop",
            "548.......3....8..1.......3.72..86........3......47..9.1.3...2.2569.........6.7..",
        ),
        (
            "0709",
            "grouped_continuous_nice_loop",
            "3.2....1....97.............5...8.6....15...7..8..4....9....1.27.1.4.......5..79..",
        ),
        (
            "0711",
            "grouped_aic",
            "..512.....7.....8..8....345............6...3.4.2.81..9.......28..9.4.6.....8..7.4",
        ),
        (
            "0703",
            "remote_pair",
            "1.8....5...4...6.72....3......5...4.6......9....91.7....73.........75.6.38.4.6..5",
        ),
    ];

    #[test]
    fn each_exemplar_is_finished_by_logic_with_its_technique_first_past_the_medium_level() {
        let mut wrong = Vec::new();
        for &(section, technique, line) in EXEMPLARS {
            let (sudoku, grid, path) = crate::explain::tests::solved_path_of(line);
            let hard: Vec<&str> = path
                .steps
                .iter()
                .filter(|s| s.level > Some(crate::grade::Difficulty::Medium) || s.level.is_none())
                .map(|s| s.technique)
                .collect();
            if !path.solved || hard.first() != Some(&technique) || hard.contains(&"trial") {
                wrong.push(format!("{section} {technique}: solved {}, {hard:?}", path.solved));
            }
            // Every step keeps the solution, the pipeline's verified one.
            for step in &path.steps {
                if step.eliminate.iter().any(|&[r, c, d]| grid[r * 9 + c] == d) {
                    wrong
                        .push(format!("{section} {technique}: {} removes the solution", step.text));
                }
            }
            // Negative: the levels below hard do not finish it.
            let medium = crate::grade::solve_sudoku(&sudoku, crate::grade::Difficulty::Medium);
            if medium.solved() {
                wrong.push(format!("{section} {technique}: finished below hard"));
            }
        }
        assert!(wrong.is_empty(), "{wrong:#?}");
    }
}
