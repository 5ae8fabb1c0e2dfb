//! Sudoku and Killer Sudoku generation: the options, the solver checks both kinds make
//! (with their count and time for the proof), and the puzzle's text in the formats the
//! readers take (`sudoku`: `N N`, then digits and `-`; `killer`: `N N`, the cage sums on
//! one cell each, then the cage ids).

use super::limits;
use super::{GenError, GradeGoal, Proof, Symmetry, killer, sudoku};
use crate::grade::Difficulty;
use crate::puzzle::{Grid, Puzzle};
use crate::solver::Budget;
use crate::solver::{self, Mode, SolveOptions, StopReason};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::fmt::Write as _;
use std::time::{Duration, Instant};

/// What the sizes must be.
pub const SIZES: &str = "a Sudoku's side is 4, 9, 16 or 25";

/// Search nodes one check of a Sudoku step may spend; a step whose check runs out keeps
/// its givens, so a slow proof costs a few givens, never an unproved puzzle.
const STEP_NODES: u64 = 2_000;

/// Which kind of grid puzzle to make.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GridKind {
    /// Sudoku: givens in a symmetric pattern.
    Sudoku,
    /// Killer Sudoku: cages, no givens.
    Killer,
}

/// What one check found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Exactly one solution, proved.
    Unique,
    /// Two solutions (in the order found), cell by cell.
    Two(Vec<Vec<u32>>),
    /// Neither, within the check's node limit.
    Unknown,
}

/// Options for one Sudoku or Killer Sudoku.
#[derive(Clone, Copy, Debug)]
pub struct GridOptions {
    /// Which kind.
    pub kind: GridKind,
    /// The side N (4, 9, 16 or 25).
    pub size: usize,
    /// The seed: the same options and seed give the same puzzle.
    pub seed: u64,
    /// The symmetry of a Sudoku's givens (Killer cages keep none).
    pub symmetry: Symmetry,
    /// Threads for each check.
    pub threads: usize,
    /// The grades a Sudoku may have (Killer Sudoku are not graded: only their default,
    /// or `any`, is taken).
    pub difficulty: GradeGoal,
}

/// A generated Sudoku or Killer Sudoku.
#[derive(Clone, Debug)]
pub struct GridGenerated {
    /// The puzzle.
    pub puzzle: Puzzle,
    /// Its text, in the format of its kind.
    pub text: String,
    /// Its one solution.
    pub solution: Grid,
    /// How uniqueness was proved.
    pub proof: Proof,
    /// A Sudoku's grade by human techniques (none for Killer Sudoku).
    pub difficulty: Option<Difficulty>,
    /// Whole generation time.
    pub seconds: f64,
}

/// Makes the puzzle `options` ask for.
pub fn generate(options: &GridOptions, budget: Budget<'_>) -> Result<GridGenerated, GenError> {
    let started = Instant::now();
    if sudoku::box_side(options.size).is_none() {
        return Err(GenError::Options(format!("{SIZES}, not {}", options.size)));
    }
    if options.kind == GridKind::Killer && options.difficulty.exact().is_some() {
        return Err(GenError::Options("Killer Sudoku are not graded: no difficulty".into()));
    }
    let mut rng = ChaCha8Rng::seed_from_u64(options.seed);
    let mut prover = Prover { threads: options.threads, budget, checks: 0, time: Duration::ZERO };
    let (puzzle, digits, difficulty) = match options.kind {
        GridKind::Sudoku => {
            let (puzzle, digits, grade) = sudoku::generate(options, &mut prover, &mut rng)?;
            (puzzle, digits, Some(grade))
        }
        GridKind::Killer => {
            let (puzzle, digits) = killer::generate(options, &mut prover, &mut rng)?;
            (puzzle, digits, None)
        }
    };
    let proof = prover.prove(&puzzle)?;
    let n = options.size;
    let solution = Grid { rows: n, cols: n, cells: digits.into_iter().map(Some).collect() };
    Ok(GridGenerated {
        text: to_text(&puzzle),
        puzzle,
        solution,
        proof,
        difficulty,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// The solver checks of one generation, counted and timed for its proof.
pub struct Prover<'a> {
    threads: usize,
    budget: Budget<'a>,
    checks: u32,
    time: Duration,
}

impl Prover<'_> {
    /// Whether `puzzle` has exactly one solution, proved within [`STEP_NODES`] nodes
    /// (false when the proof needs more).
    pub fn unique(&mut self, puzzle: &Puzzle) -> Result<bool, GenError> {
        let outcome = self.check(puzzle, Some(STEP_NODES))?;
        Ok(outcome.complete && outcome.count == 1)
    }

    /// What a check of `puzzle` within [`STEP_NODES`] nodes found: exactly one solution,
    /// two, or neither within the limit.
    pub fn verdict(&mut self, puzzle: &Puzzle) -> Result<Verdict, GenError> {
        let outcome = self.check(puzzle, Some(STEP_NODES))?;
        Ok(match outcome.solutions.len() {
            2.. => Verdict::Two(outcome.solutions),
            _ if outcome.complete && outcome.count == 1 => Verdict::Unique,
            _ => Verdict::Unknown,
        })
    }

    /// An error when the time limit has passed or a cancel came, for steps that do not
    /// run the solver.
    pub fn poll(&self) -> Result<(), GenError> {
        limits::check(&self.budget)
    }

    /// The final proof: `unique` mode on the finished puzzle, with no node limit.
    fn prove(&mut self, puzzle: &Puzzle) -> Result<Proof, GenError> {
        let outcome = self.check(puzzle, None)?;
        Proof::of(&outcome, self.checks, self.time)
    }

    /// `puzzle` solved in `unique` mode; an error when the time limit or a cancel stopped it.
    fn check(
        &mut self,
        puzzle: &Puzzle,
        node_limit: Option<u64>,
    ) -> Result<solver::Outcome, GenError> {
        let started = Instant::now();
        let timeout = self.budget.left();
        if timeout.is_some_and(|t| t.is_zero()) {
            return Err(GenError::Timeout);
        }
        let options = SolveOptions {
            mode: Mode::Unique,
            threads: self.threads,
            timeout,
            node_limit,
            ..Default::default()
        };
        let compiled = puzzle.compile();
        let outcome = solver::solve(&compiled.model, &options, self.budget.cancel);
        self.checks += 1;
        self.time += started.elapsed();
        match outcome.stopped {
            Some(StopReason::Timeout) => Err(GenError::Timeout),
            Some(StopReason::Cancelled) => Err(GenError::Cancelled),
            _ => Ok(outcome),
        }
    }
}

/// The text of a generated Sudoku or Killer Sudoku.
pub fn to_text(puzzle: &Puzzle) -> String {
    match puzzle {
        Puzzle::Sudoku(s) => {
            let cells = s.givens.iter().map(|&g| (g != 0).then_some(g)).collect();
            Grid { rows: s.n, cols: s.n, cells }.to_string()
        }
        Puzzle::Killer(k) => {
            let mut sums = vec![None; k.n * k.n];
            let mut ids = vec![Some(0); k.n * k.n];
            for (id, cage) in k.cages.iter().enumerate() {
                if let Some(&first) = cage.cells.iter().min() {
                    sums[first] = Some(cage.total);
                }
                for &cell in &cage.cells {
                    ids[cell] = Some(id as u32 + 1);
                }
            }
            let mut text = Grid { rows: k.n, cols: k.n, cells: sums }.to_string();
            let ids = Grid { rows: k.n, cols: k.n, cells: ids }.to_string();
            // The cage ids follow the sums without a second size line.
            let _ = write!(text, "{}", ids.split_once('\n').map_or("", |(_, rows)| rows));
            text
        }
        Puzzle::Kakuro(k) => super::to_janko(k),
    }
}
