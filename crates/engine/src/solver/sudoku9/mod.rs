//! A dedicated engine for plain 9x9 Sudoku, the most common puzzle of all, without the
//! general model's machinery (81 variables, 27 `AllDifferent`, a queue and a trail).
//!
//! The grid is kept as 27 masks of 27 bits, one per digit and band (three rows), in the
//! manner of JCZSolve: propagation is a handful of table lookups and bit operations per
//! mask (see `bands.rs`), a state is copied rather than undone, and the search branches on a
//! cell with two candidates whenever there is one (`search.rs`). It answers the same modes
//! with the same statistics and limits as the general engine; the pipeline picks it for
//! every 9x9 Sudoku solved with the default `mac` algorithm ([`fits`]).

mod bands;
mod search;
mod tables;
#[cfg(test)]
mod tests;

use super::goal::solution_target;
use super::options::{Algorithm, SolveOptions};
use super::progress::Counts;
use super::stats::Stats;
use super::termination::Termination;
use super::{Control, Engine, Outcome};
use bands::{Bands, Contradiction};
use search::Search;
use std::time::Instant;

/// Cells of the grid.
pub const CELLS: usize = 81;

/// Whether this engine answers a Sudoku of side `n` with boxes `box_size` rows high, asked
/// with `algorithm`: a plain 9x9 grid with the default propagation. The other algorithms
/// (`bt`, `fc`, `sat`) name the general engine's techniques and keep it.
pub fn fits(n: usize, box_size: usize, algorithm: Algorithm) -> bool {
    n == 9 && box_size == 3 && algorithm == Algorithm::Mac
}

/// Solves a 9x9 Sudoku given row-major (`0` for a blank, `1..=9` a given) as `options`
/// ask: mode, count limit, value order, node limit and timeout, and the caller's cancel
/// flag. The variable order and thread count do not apply: the engine always branches on
/// a cell with the fewest candidates, on one thread. Givens that are not 81 digits 0..=9
/// make a puzzle without solution.
pub fn solve(givens: &[u32], options: &SolveOptions, control: Control<'_>) -> Outcome {
    let started = Instant::now();
    let mut search = Search {
        target: solution_target(options),
        termination: Termination::new(options, started, control),
        val_order: options.val_order,
        solutions: Vec::new(),
        count: 0,
        stopped: None,
        stats: Stats { nodes: 1, subproblems: 1, ..Stats::default() },
        published: Counts::default(),
    };
    if search.target > 0 {
        match root(givens, &mut search.stats.propagations) {
            Ok(mut state) => search.explore(&mut state, 0),
            Err(Contradiction) => search.stats.failures += 1,
        }
    }
    search.publish();
    let Search { solutions, count, stopped, mut stats, .. } = search;
    stats.largest_subproblem_nodes = stats.nodes;
    stats.solve_time = started.elapsed();
    Outcome {
        solutions,
        count,
        complete: stopped.is_none(),
        stopped,
        stats,
        engine: Engine::Sudoku9,
    }
}

/// The propagated state of the givens.
fn root(givens: &[u32], propagations: &mut u64) -> Result<Bands, Contradiction> {
    if givens.len() != CELLS {
        return Err(Contradiction);
    }
    let mut state = Bands::new();
    for (cell, &given) in givens.iter().enumerate() {
        match given {
            0 => {}
            1..=9 => state.place(given as usize - 1, cell)?,
            _ => return Err(Contradiction),
        }
    }
    state.propagate(propagations)?;
    Ok(state)
}
