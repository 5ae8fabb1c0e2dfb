//! The constraint solver: bitset domains, propagators to a fixed point, a depth-first
//! search and a SAT engine, with selectable technique, orders and mode. Pure and
//! deterministic: no I/O, no logging, no globals; cancellation comes in through [`Control`]
//! and stops the engines as their `Termination` says.
//!
//! Brief overview, in layers: [`solve`] takes a [`Model`] and [`SolveOptions`] and returns
//! an owned [`Outcome`]; [`SolveOverrides`] are the settings given or not that the command
//! line, the configuration and puzzle files set over the options. [`solve`] hands the
//! work to the `portfolio`, or for a plain search straight to the depth-first engine.
//! The portfolio runs the engines, alone or side by
//! side, splits the work over threads and restarts; each engine works toward a `goal`
//! until its `termination` says stop and knows nothing of the other: `search` (the
//! depth-first loop over `state`, the domains and the trail, `propagators`, the constraint
//! algorithms, and `branching`, the variable and value orders) and `sat` (a CNF encoding
//! solved by CaDiCaL). `technique` splits an [`Algorithm`] into the engines it runs and the
//! propagation it does. [`sudoku9`] is a separate engine for plain 9x9 Sudoku, which the
//! pipeline picks itself.

pub(crate) mod branching;
pub mod budget;
pub(crate) mod combos;
pub(crate) mod goal;
pub mod options;
pub mod overrides;
// The search and the portfolio are public to this crate's own tests and benchmarks only
// (feature `testing`, which they turn on): the pipeline is the interface.
#[cfg(feature = "testing")]
pub mod portfolio;
#[cfg(not(feature = "testing"))]
pub(crate) mod portfolio;
pub mod progress;
pub(crate) mod propagators;
pub(crate) mod queue;
pub(crate) mod sat;
#[cfg(feature = "testing")]
pub mod search;
#[cfg(not(feature = "testing"))]
pub(crate) mod search;
pub(crate) mod state;
pub mod stats;
pub mod sudoku9;
pub(crate) mod technique;
pub(crate) mod termination;

pub use budget::Budget;
pub use options::{Algorithm, GradeMode, Mode, SolveOptions, ValOrder, VarOrder};
pub use overrides::SolveOverrides;
pub use progress::Progress;
pub use stats::Stats;
pub use technique::{Engines, Propagation};
pub(crate) use termination::Termination;

use crate::model::Model;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize};
use std::time::Instant;

/// What the caller can tell a running solve from outside.
#[derive(Clone, Copy, Debug, Default)]
pub struct Control<'a> {
    /// Stop as soon as possible once this flag is true (a daemon's shutdown, a cancel). A
    /// shared handle, so that an engine that must own what it polls (the SAT solver's
    /// terminator) holds it directly.
    pub cancel: Option<&'a Arc<AtomicBool>>,
    /// Other work waiting for a thread (a daemon's queue). While it is above zero, the
    /// helpers a hard puzzle took from idle threads give them back, and the puzzle goes on
    /// with the SAT engine on its own thread: a hard puzzle never starves the queue.
    pub waiting: Option<&'a Arc<AtomicUsize>>,
    /// Live counters the search adds to as it goes, for a watcher on another thread.
    pub progress: Option<&'a Progress>,
    /// The job's deadline, when the caller made its [`Budget`] before the search (the
    /// pipeline, whose grade and path stop at the same instant). Absent, the solve's
    /// deadline is its own start plus the options' time limit.
    pub deadline: Option<Instant>,
}

impl<'a> Control<'a> {
    /// The same control, searching within `budget`: its deadline and cancel flag.
    pub fn within(self, budget: Budget<'a>) -> Self {
        Control { cancel: budget.cancel, deadline: budget.deadline, ..self }
    }
}

impl<'a> From<Option<&'a Arc<AtomicBool>>> for Control<'a> {
    fn from(cancel: Option<&'a Arc<AtomicBool>>) -> Self {
        Control { cancel, ..Control::default() }
    }
}

/// Why a search ended before exploring everything it was asked to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// The wall-clock limit passed.
    Timeout,
    /// The node limit was reached.
    NodeLimit,
    /// The caller cancelled (daemon shutdown, or another parallel branch won).
    Cancelled,
}

/// Which engine gave the answer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Engine {
    /// The depth-first search with propagation (and its restarts and splits).
    #[default]
    Search,
    /// The CDCL SAT solver on the CNF encoding.
    Sat,
    /// The dedicated 9x9 Sudoku engine ([`sudoku9`]).
    Sudoku9,
    /// The human-technique logic of the grader, which answers a Kakuro it finishes.
    Logic,
}

impl Engine {
    /// The engine's name, as in reports.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Search => "search",
            Engine::Sat => "sat",
            Engine::Sudoku9 => "sudoku9",
            Engine::Logic => "logic",
        }
    }
}

/// The result of one solve.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// The first solutions found, in order (at most two are kept), one value per variable.
    pub solutions: Vec<Vec<u32>>,
    /// How many solutions were found in all.
    pub count: u64,
    /// True when the search finished what its mode asked (found the first solution, found
    /// a second one or proved there is none, counted all or reached the count limit), so
    /// `count` is as exact as the mode requires.
    pub complete: bool,
    /// Set when a limit or cancellation stopped the search early.
    pub stopped: Option<StopReason>,
    /// Statistics.
    pub stats: Stats,
    /// The engine whose answer this is.
    pub engine: Engine,
}

/// Solves `model` as `options` say, stopping early when `cancel` becomes true.
///
/// Uses the portfolio when `options.threads` is not 1, in `first` and `count` modes (where
/// the decomposition into independent parts, and `first`'s randomized restarts, pay on one
/// thread too), where the SAT engine joins the search (`unique` under `mac`) and for the
/// SAT engine alone; the plain sequential search otherwise.
pub fn solve(model: &Model, options: &SolveOptions, cancel: Option<&Arc<AtomicBool>>) -> Outcome {
    solve_with(model, options, Control::from(cancel))
}

/// [`solve`], told from outside what [`Control`] carries.
pub fn solve_with(model: &Model, options: &SolveOptions, control: Control<'_>) -> Outcome {
    let threads = effective_threads(options.threads);
    let learning = options.algorithm.engines(options.mode) != Engines::Search;
    if threads > 1 || options.mode != Mode::Unique || learning {
        portfolio::solve(model, options, threads, control)
    } else {
        search::solve_with(model, options, control)
    }
}

/// The number of threads `requested` stands for (0 = all cores).
pub fn effective_threads(requested: usize) -> usize {
    if requested == 0 { rayon::current_num_threads().max(1) } else { requested }
}
