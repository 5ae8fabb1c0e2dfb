//! Where a puzzle being made is not settled yet: by the search (every independent part of
//! the propagated puzzle that has a second solution, with the cells where it differs from
//! the planted filling), or by the grader's logic up to a level (every region it leaves
//! open).

use super::{CHECK_BUDGET, Checks};
use crate::generate::limits;
use crate::generate::{GenError, GenOptions};
use crate::grade::{self, Difficulty};
use crate::puzzle::Kakuro;
use crate::solver::Budget;
use crate::solver::portfolio::components;
use crate::solver::search::Search;
use crate::solver::{self, Mode, Outcome, SolveOptions, StopReason};
use rayon::prelude::*;
use std::time::Instant;

/// Where the puzzle is not settled yet: cells to change, and digits they must not take
/// (the other solution's, when one is known).
pub(super) struct Trouble {
    pub(super) cells: Vec<usize>,
    pub(super) other: Option<Vec<u32>>,
}

/// Every independent part of the propagated puzzle that has a second solution, with the
/// cells where it differs from the planted one.
pub(super) fn search_troubles(
    puzzle: &Kakuro,
    digits: &[u32],
    options: &GenOptions,
    budget: &Budget<'_>,
    checks: &mut Checks,
) -> Result<Vec<Trouble>, GenError> {
    let started = Instant::now();
    let compiled = puzzle.compile();
    let model = &compiled.model;
    let Some(root) = Search::new(model, &SolveOptions::default()).root() else {
        return Err(GenError::Options("a planted filling failed its own clues".into()));
    };
    let parts = components::split(model, &root.domains);
    let solve_part = |part: &components::Component| {
        let options = SolveOptions {
            mode: Mode::Unique,
            timeout: budget.left(),
            node_limit: Some(CHECK_BUDGET),
            ..Default::default()
        };
        solver::solve(&part.model, &options, budget.cancel)
    };
    let outcomes: Vec<Outcome> = if options.threads == 1 {
        parts.iter().map(solve_part).collect()
    } else {
        parts.par_iter().map(solve_part).collect()
    };
    checks.count += parts.len() as u32;
    checks.time += started.elapsed();
    let mut troubles = Vec::new();
    for (part, outcome) in parts.iter().zip(outcomes) {
        let cell = |local: usize| compiled.cell_of_var[part.vars[local]];
        match outcome.stopped {
            Some(StopReason::NodeLimit) => {
                troubles.push(Trouble { cells: (0..part.open).map(cell).collect(), other: None });
                continue;
            }
            Some(reason) => return Err(limits::error_for(budget, reason)),
            None if outcome.count < 2 => continue,
            None => {}
        }
        let differs = |s: &Vec<u32>| (0..part.open).any(|l| s[l] != digits[cell(l)]);
        if let Some(other) = outcome.solutions.iter().find(|s| differs(s)) {
            let mut values = vec![0u32; digits.len()];
            let mut cells = Vec::new();
            for (l, &value) in other.iter().enumerate().take(part.open) {
                values[cell(l)] = value;
                if value != digits[cell(l)] {
                    cells.push(cell(l));
                }
            }
            troubles.push(Trouble { cells, other: Some(values) });
        }
    }
    Ok(troubles)
}

/// Every region the logic solver cannot settle with techniques up to `target`.
pub(super) fn logic_troubles(puzzle: &Kakuro, target: Difficulty) -> Vec<Trouble> {
    let logic = grade::solve(puzzle, target);
    let open: Vec<usize> = logic.open_cells().collect();
    if open.is_empty() && !logic.contradiction {
        return Vec::new();
    }
    let mut is_open = vec![false; puzzle.cells.len()];
    for &cell in &open {
        is_open[cell] = true;
    }
    crate::generate::layout::regions(&is_open, puzzle.rows, puzzle.cols)
        .into_iter()
        .map(|cells| Trouble { cells, other: None })
        .collect()
}
