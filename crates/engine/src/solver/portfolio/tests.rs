//! What the portfolio's tests share: random grids, and the goals and crews to solve
//! them with.

use super::Crew;
use crate::model::Model;
use crate::puzzle::Puzzle;
use crate::solver::SolveOptions;
use crate::solver::goal::Goal;
use crate::solver::termination::Termination;
use std::sync::atomic::AtomicUsize;

/// The model of a random Kakuro filling (many solutions) of `size` x `size`, 35% black.
pub(super) fn random_grid(size: usize, seed: u64) -> Model {
    let kakuro = crate::generate::any_solution(size, size, 35.0, seed);
    Puzzle::Kakuro(kakuro).compile().model
}

/// The default options and a solution counter, which a test's goals and crews borrow.
#[derive(Default)]
pub(super) struct Setup {
    options: SolveOptions,
    live: AtomicUsize,
}

impl Setup {
    /// `target` solutions, without a limit.
    pub(super) fn goal(&self, target: u64) -> Goal<'_> {
        Goal::new(target, Termination::default(), &self.live)
    }

    /// `threads` threads, with the default options.
    pub(super) fn crew(&self, threads: usize) -> Crew<'_> {
        Crew { options: &self.options, threads, waiting: None }
    }

    /// The pipeline's goals for one solution, with the budgets the regions give them: the
    /// even regions' and the pieces'.
    pub(super) fn pipeline_goals(&self) -> (Goal<'_>, Goal<'_>) {
        super::regions::pipeline_goals(self.goal(1))
    }
}
