//! The path a person takes through a puzzle, step by step: `kakurod explain` and `kakurod
//! hint`. The steps are the grader's own deductions (`grade`), kept in a journal that
//! only an explanation asks for, so that the answer of a puzzle never pays for them, and
//! told here in the grid's terms: what each step places and eliminates, the cells and
//! houses (or runs) it reasons from, and a line of English.
//!
//! Rows and columns count from 0 in the file's own grid in the JSON (`[0, 0]` is the
//! top-left cell; a janko Kakuro's border is row 0 and column 0), and from 1 in the text,
//! as players write them (`r1c1`, box 9). A cell is
//! placed by the step that leaves it one candidate. Where logic gets stuck, one last
//! `search` step places the rest from the verified solution and says so; `solved` tells
//! whether logic alone finished the grid. The path's hardest level is the grade the
//! grader gives.

mod forcing;
mod kakuro;
mod killer;
mod patterns;
pub mod picture;
pub mod progress;
mod sets;
mod sudoku;

use crate::grade::Difficulty;
use crate::puzzle::{Grid, Kind, Puzzle};
use crate::solver::Budget;
use serde::Serialize;

/// One deduction.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Step {
    /// A stable name (listed in docs/explain.md).
    pub technique: &'static str,
    /// The grader's level of the technique.
    pub level: Option<Difficulty>,
    /// `[row, column, digit]` of every cell this step leaves one digit.
    pub place: Vec<[usize; 3]>,
    /// `[row, column, digit]` of every candidate it removes.
    pub eliminate: Vec<[usize; 3]>,
    /// What it reasons from.
    pub because: Because,
    /// The step in one line of English.
    pub text: String,
    /// The step holds only because the puzzle has one solution (a uniqueness technique,
    /// used only on a puzzle proved to have one); left out of the JSON when false.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub assumes_unique: bool,
}

/// The houses, runs and cells a step reasons from.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Because {
    /// Sudoku rows, columns and boxes.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub houses: Vec<House>,
    /// Kakuro runs.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub runs: Vec<Run>,
    /// Killer cages.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cages: Vec<CageRef>,
    /// `[row, column]` of the cells.
    pub cells: Vec<[usize; 2]>,
    /// A forcing chain's chains, each from its premise to where it leads, implication by
    /// implication, so that a player can follow them; a forcing net's nets, each the
    /// implications from its premise to where it leads, each following from ones before it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub implications: Vec<Vec<Implication>>,
}

/// One implication of a forcing chain: a cell's digit is there (`holds`) or is not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Implication {
    /// `[row, column]`, from 0.
    pub cell: [usize; 2],
    /// The digit.
    pub digit: usize,
    /// True where the digit is there, false where it is not.
    pub holds: bool,
}

/// A row, column or box of a Sudoku, counted from 0 (boxes row by row).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct House {
    /// Row, column or box.
    pub kind: HouseKind,
    /// Which one, from 0.
    pub index: usize,
}

/// The kinds of Sudoku house.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum HouseKind {
    /// A row.
    Row,
    /// A column.
    Column,
    /// A box.
    Box,
}

impl std::fmt::Display for House {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = match self.kind {
            HouseKind::Row => "row",
            HouseKind::Column => "column",
            HouseKind::Box => "box",
        };
        // Counted from 1 in the text, as players write it; the JSON's `index` from 0.
        write!(f, "{kind} {}", self.index + 1)
    }
}

/// A Kakuro run: its clue cell, direction, sum and length.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Run {
    /// `[row, column]` of the clue cell.
    pub clue: [usize; 2],
    /// `across` or `down`.
    pub direction: &'static str,
    /// The clue.
    pub sum: u32,
    /// How many cells it has.
    pub cells: usize,
}

/// A Killer cage: its sum and its cells.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CageRef {
    /// The cage's sum.
    pub sum: u32,
    /// `[row, column]` of its cells.
    pub cells: Vec<[usize; 2]>,
}

/// The whole path.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Path {
    /// The steps, in order.
    pub steps: Vec<Step>,
    /// The hardest level of the path's logic: the puzzle's grade (`None` for a Killer
    /// Sudoku, which is not graded).
    pub difficulty: Option<Difficulty>,
    /// True when logic alone finished the grid (no `search` step).
    pub solved: bool,
    /// Why the path stops short, when its budget ran out (`"timeout"` or `"cancelled"`):
    /// the steps are the beginning of the path, with no `search` step and no difficulty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped_by: Option<&'static str>,
}

impl Path {
    /// A path of `steps` that ends as the journal did: `stopped` when the budget ran out
    /// (then no difficulty is claimed), else `solved` or not by logic, with the grade the
    /// grader gives (`graded`, none for a Killer Sudoku): the path's difficulty is the
    /// puzzle's, its scale's top for a path the logic could not finish.
    fn ended(
        steps: Vec<Step>,
        graded: Option<Difficulty>,
        solved: bool,
        stopped: bool,
        budget: Budget<'_>,
    ) -> Path {
        match stopped {
            true => {
                Path { steps, difficulty: None, solved: false, stopped_by: Some(budget.reason()) }
            }
            false => Path { steps, difficulty: graded, solved, stopped_by: None },
        }
    }
}

/// The path from `puzzle`'s givens (and the digits of `progress`, a partly filled grid of
/// the same size) to `solution`, its verified solution.
pub fn explain(puzzle: &Puzzle, solution: &Grid, progress: Option<&Grid>) -> Path {
    explain_within(puzzle, solution, progress, Budget::default())
}

/// [`explain`], giving up when `budget` runs out: the daemon's explanations stay within
/// their job's time limit and stop at its cancel ([`Path::stopped_by`]).
pub fn explain_within(
    puzzle: &Puzzle,
    solution: &Grid,
    progress: Option<&Grid>,
    budget: Budget<'_>,
) -> Path {
    match puzzle {
        Puzzle::Sudoku(s) => sudoku::explain(s, solution, progress, budget),
        Puzzle::Kakuro(k) => kakuro::explain(k, solution, progress, budget),
        Puzzle::Killer(k) => killer::explain(k, solution, progress, budget),
    }
}

/// The techniques a path of a graded `kind` puzzle can name, with their levels, easiest
/// first (`search` aside): what `generate --needs` takes. Killer Sudoku are not graded, so
/// the generator cannot aim at a level: their list ([`KILLER_TECHNIQUES`]) is not here.
pub fn techniques(kind: Kind) -> &'static [(&'static str, Difficulty)] {
    use Difficulty::{Easy, Expert, Extreme, Hard, Medium, Unfair};
    match kind {
        Kind::Kakuro => &[
            ("unique_combination", Easy),
            ("crossing", Easy),
            ("naked_single", Easy),
            ("hidden_single", Easy),
            ("bounds", Medium),
            ("naked_subset", Medium),
            ("hidden_subset", Medium),
            ("run_consistency", Hard),
            ("trial", Expert),
        ],
        Kind::Sudoku => &[
            ("naked_single", Easy),
            ("hidden_single", Easy),
            ("locked_pair", Medium),
            ("locked_triple", Medium),
            ("pointing", Medium),
            ("claiming", Medium),
            ("naked_pair", Medium),
            ("naked_triple", Medium),
            ("hidden_pair", Medium),
            ("hidden_triple", Medium),
            ("naked_quad", Hard),
            ("hidden_quad", Hard),
            ("x_wing", Hard),
            ("swordfish", Hard),
            ("jellyfish", Hard),
            ("skyscraper", Hard),
            ("two_string_kite", Hard),
            ("turbot_fish", Hard),
            ("empty_rectangle", Hard),
            ("w_wing", Hard),
            ("xy_wing", Hard),
            ("xyz_wing", Hard),
            ("finned_x_wing", Hard),
            ("sashimi_x_wing", Hard),
            ("finned_swordfish", Unfair),
            ("sashimi_swordfish", Unfair),
            ("finned_jellyfish", Unfair),
            ("sashimi_jellyfish", Unfair),
            ("simple_colors", Hard),
            ("multi_colors_2", Hard),
            ("multi_colors_1", Hard),
            ("remote_pair", Hard),
            ("bug_plus_1", Hard),
            ("unique_rectangle_1", Hard),
            ("unique_rectangle_2", Hard),
            ("unique_rectangle_3", Hard),
            ("unique_rectangle_4", Hard),
            ("unique_rectangle_5", Hard),
            ("unique_rectangle_6", Hard),
            ("hidden_rectangle", Hard),
            ("avoidable_rectangle_1", Hard),
            ("avoidable_rectangle_2", Hard),
            ("sue_de_coq", Unfair),
            ("x_chain", Unfair),
            ("xy_chain", Unfair),
            ("aic", Unfair),
            ("continuous_nice_loop", Unfair),
            ("grouped_aic", Unfair),
            ("grouped_continuous_nice_loop", Unfair),
            ("als_xz", Unfair),
            ("als_xy_wing", Unfair),
            ("forcing_chain_contradiction", Extreme),
            ("forcing_chain_verity", Extreme),
            ("forcing_net_contradiction", Extreme),
            ("forcing_net_verity", Extreme),
            ("trial", Extreme),
        ],
        Kind::Killer => &[],
    }
}

/// The techniques a Killer Sudoku's path can name, with the level that orders them.
pub const KILLER_TECHNIQUES: &[(&str, Difficulty)] = &[
    ("naked_single", Difficulty::Easy),
    ("hidden_single", Difficulty::Easy),
    ("cage_combination", Difficulty::Easy),
    ("cage_hidden_single", Difficulty::Easy),
    ("locked_pair", Difficulty::Medium),
    ("locked_triple", Difficulty::Medium),
    ("pointing", Difficulty::Medium),
    ("claiming", Difficulty::Medium),
    ("naked_pair", Difficulty::Medium),
    ("naked_triple", Difficulty::Medium),
    ("hidden_pair", Difficulty::Medium),
    ("hidden_triple", Difficulty::Medium),
    ("cage_pointing", Difficulty::Medium),
    ("innies", Difficulty::Medium),
    ("outies", Difficulty::Medium),
    ("naked_quad", Difficulty::Hard),
    ("hidden_quad", Difficulty::Hard),
    ("x_wing", Difficulty::Hard),
    ("swordfish", Difficulty::Hard),
    ("jellyfish", Difficulty::Hard),
    ("cage_consistency", Difficulty::Hard),
    ("skyscraper", Difficulty::Hard),
    ("two_string_kite", Difficulty::Hard),
    ("turbot_fish", Difficulty::Hard),
    ("empty_rectangle", Difficulty::Hard),
    ("w_wing", Difficulty::Hard),
    ("xy_wing", Difficulty::Hard),
    ("xyz_wing", Difficulty::Hard),
    ("finned_x_wing", Difficulty::Hard),
    ("sashimi_x_wing", Difficulty::Hard),
    ("finned_swordfish", Difficulty::Unfair),
    ("sashimi_swordfish", Difficulty::Unfair),
    ("finned_jellyfish", Difficulty::Unfair),
    ("sashimi_jellyfish", Difficulty::Unfair),
    ("simple_colors", Difficulty::Hard),
    ("multi_colors_2", Difficulty::Hard),
    ("multi_colors_1", Difficulty::Hard),
    ("remote_pair", Difficulty::Hard),
    ("sue_de_coq", Difficulty::Unfair),
    ("x_chain", Difficulty::Unfair),
    ("xy_chain", Difficulty::Unfair),
    ("aic", Difficulty::Unfair),
    ("continuous_nice_loop", Difficulty::Unfair),
    ("grouped_aic", Difficulty::Unfair),
    ("grouped_continuous_nice_loop", Difficulty::Unfair),
    ("als_xz", Difficulty::Unfair),
    ("als_xy_wing", Difficulty::Unfair),
    ("forcing_chain_contradiction", Difficulty::Extreme),
    ("forcing_chain_verity", Difficulty::Extreme),
    ("forcing_net_contradiction", Difficulty::Extreme),
    ("forcing_net_verity", Difficulty::Extreme),
    ("trial", Difficulty::Extreme),
];

/// The cell `index` of a grid `cols` wide as `rNcM`, counted from 1 as players write it
/// (the JSON's `[row, column]` count from 0).
fn cell_name(index: usize, cols: usize) -> String {
    format!("r{}c{}", index / cols.max(1) + 1, index % cols.max(1) + 1)
}

/// Digits of a bit set (bit `d` for digit `d`), ascending.
fn digits(mask: u32) -> impl Iterator<Item = usize> {
    (1..32).filter(move |d| mask & 1 << d != 0)
}

/// `{1,2}`.
fn digit_set(mask: u32) -> String {
    let list: Vec<String> = digits(mask).map(|d| d.to_string()).collect();
    format!("{{{}}}", list.join(","))
}

/// Cells as `r1c2, r1c3`.
fn cell_list(cells: &[usize], cols: usize) -> String {
    cells.iter().map(|&c| cell_name(c, cols)).collect::<Vec<_>>().join(", ")
}

/// The last step, when logic is stuck: the rest of `solution`, found by search.
fn search_step(open: &[usize], solution: &Grid) -> Step {
    let cols = solution.cols;
    let place: Vec<[usize; 3]> = open
        .iter()
        .filter_map(|&c| solution.cells.get(c).copied().flatten().map(|d| (c, d)))
        .map(|(c, d)| [c / cols.max(1), c % cols.max(1), d as usize])
        .collect();
    let text = format!(
        "logic is stuck with {} cells open: a search (guess and backtrack) finds the rest",
        place.len()
    );
    Step {
        technique: "search",
        level: None,
        place,
        eliminate: Vec::new(),
        because: Because::default(),
        text,
        assumes_unique: false,
    }
}

/// The Sudoku of a line of text: the explain tests' exemplars.
#[cfg(test)]
fn sudoku_of(text: &str) -> crate::puzzle::Sudoku {
    match crate::format::read(text, None).unwrap().entries.remove(0).unwrap().puzzle {
        crate::puzzle::Puzzle::Sudoku(s) => s,
        other => panic!("not a Sudoku: {other:?}"),
    }
}

#[cfg(test)]
mod tests {
    /// The Sudoku of a line of text, the solution the pipeline found and verified for it
    /// (row-major), and its path from that solution: what the explain tests check.
    pub(super) fn solved_path_of(line: &str) -> (crate::puzzle::Sudoku, Vec<usize>, super::Path) {
        use crate::report::Body;
        let sudoku = super::sudoku_of(line);
        let options = crate::pipeline::PipelineOptions::default();
        let grid = match crate::pipeline::process("x", line.as_bytes(), &options, None).body {
            Body::Single(r) => r.grid.unwrap(),
            Body::Batch { mut puzzles, .. } => puzzles.remove(0).grid.unwrap(),
            other => panic!("{other:?}"),
        };
        let solution = grid.cells.iter().map(|c| c.unwrap() as usize).collect();
        let path = super::sudoku::explain(&sudoku, &grid, None, crate::solver::Budget::default());
        (sudoku, solution, path)
    }
}
