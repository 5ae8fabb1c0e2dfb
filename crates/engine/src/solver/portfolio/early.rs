//! Early repairs: a piece of the second round left without a completion is opened wider
//! and solved again while the pipeline still runs, where nothing unfinished lies near it.
//!
//! The first [`repair`](super::repair) round waits for the whole pipeline, and on a
//! 150x150 grid the pipeline's last task can be one large piece that a thread solves for
//! 80 ms while the other thread, with nothing left, waits for it to repair the pieces
//! found stuck long before. Yet a stuck piece's first repair depends only on what lies
//! around it: the variables within `RELEASE_DEPTH << 1` steps are opened again, and the
//! piece it then forms (the open variables joined to it through constraints) is solved
//! against the fixed values around that. So in the pipeline's tail (every task left is
//! running, none ready or waiting, so that a repair delays none), a thread left without a
//! task repairs a stuck piece at once when that piece reaches no variable of an unfinished
//! task (an even region not yet solved, a piece not yet solved, another repair running):
//! the values around it are then final, and what it changes no unfinished task reads
//! (every constraint on a variable it opens joins that variable to the piece).
//!
//! The largest stuck piece is repaired first, as a scheduler takes the longest job first:
//! its repair takes the longest, and a small piece beside it may have no completion until
//! it is repaired. On a 101x31 filling with a stuck piece of 357 variables and one of 17,
//! the larger's repair took 226 nodes and the smaller's then 1,853; the smaller taken first
//! was refuted, and the first repair round took both together to the SAT engine, three
//! times slower.
//!
//! A repaired piece's values are applied after the pipeline's, in the order the repairs
//! finished; a repair that finds no completion within its budget changes nothing, and its
//! stuck pieces go to the first repair round as before. Nor does the pipeline wait for a
//! repair: when its last task is finished, the repairs still running are stopped and
//! their pieces go to the first repair round, which does not wait for a slow refutation
//! (on 16 cores a 300x300 grid's pipeline had waited 230 ms for its early repairs, longer
//! than its bands and pieces took). Only on more than one thread: which solution is found
//! may then depend on the threads, which `first` and `unique` allow. A repair looks for
//! one solution in either mode: the pieces it covers had none, so had no second to show.

use super::components::{self, Component};
use super::graph::RELEASE_DEPTH;
use super::repair::Repairs;
use super::span;
use crate::model::{Domain, VarId};
use crate::solver::Stats;
use crate::solver::goal::Goal;
use crate::solver::termination::Abandon;
use std::sync::{Mutex, PoisonError};
use std::time::Instant;

/// What the early repairs gave, for the repair rounds.
#[derive(Default)]
pub(super) struct Results {
    /// Per piece of the second round: whether an early repair completed it.
    pub covered: Vec<bool>,
    /// The variables and values of each completed repair, in the order they finished.
    pub values: Vec<(Vec<VarId>, Vec<u32>)>,
    /// The statistics of every early repair.
    pub stats: Stats,
}

/// Where the pipeline stands, for the early repairs.
struct Board {
    /// The part's domains, every value known so far fixed.
    known: Vec<Domain>,
    /// The variables of unfinished tasks and of repairs running.
    busy: Vec<bool>,
    /// The stuck pieces not yet tried, the largest first, each with the count of changes at
    /// which it was last found to reach something unfinished.
    stuck: Vec<(usize, Option<u64>)>,
    /// Counts the tasks finished, so a piece blocked is looked at again only after one.
    changes: u64,
    result: Results,
}

/// A repair taken: its open variables (the stuck piece's first), its constraints, the
/// stuck pieces it covers and the domains to build it from.
struct Taken {
    vars: Vec<VarId>,
    constraints: Vec<usize>,
    covered: Vec<usize>,
    known: Vec<Domain>,
}

/// The early repairs of one pipeline; inert when `enabled` is false.
pub(super) struct Early<'a> {
    /// The part, its graph and how to solve, with the pipeline's goal for the pieces
    /// (under its abandon flag): a repair is one of the first round's.
    repairs: Repairs<'a>,
    enabled: bool,
    /// Each piece's open variables.
    pieces: Vec<Vec<VarId>>,
    /// Each open variable's piece (`usize::MAX` for none).
    piece_of: Vec<usize>,
    board: Mutex<Board>,
    /// Raised when the pipeline's last task is finished: the repairs still running are
    /// stopped, and their pieces go to the first repair round.
    pipeline_done: Abandon,
}

impl<'a> Early<'a> {
    /// The early repairs of the pipeline with `pieces` (their open variables), before any
    /// task has run: every open variable is busy.
    pub(super) fn new(repairs: Repairs<'a>, pieces: &[&[VarId]], enabled: bool) -> Self {
        let n = repairs.domains.len();
        let busy = repairs.domains.iter().map(|d| !d.is_fixed()).collect();
        let mut piece_of = vec![usize::MAX; n];
        for (p, vars) in pieces.iter().enumerate() {
            for &v in vars.iter() {
                piece_of[v] = p;
            }
        }
        let result = Results { covered: vec![false; pieces.len()], ..Results::default() };
        let board =
            Board { known: repairs.domains.to_vec(), busy, stuck: Vec::new(), changes: 0, result };
        let pieces = pieces.iter().map(|vars| vars.to_vec()).collect();
        let pipeline_done = Abandon::within(repairs.goal.termination.abandon);
        Early { repairs, enabled, pieces, piece_of, board: Mutex::new(board), pipeline_done }
    }

    fn board(&self) -> std::sync::MutexGuard<'_, Board> {
        self.board.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Notes the values of a solved even region's variables that stay fixed.
    pub(super) fn even_solved(&self, vars: impl Iterator<Item = (VarId, u32)>) {
        if !self.enabled {
            return;
        }
        let mut board = self.board();
        for (v, value) in vars {
            board.known[v] = Domain::single(value);
            board.busy[v] = false;
        }
        board.changes += 1;
    }

    /// Notes that piece `p` (its open variables `vars`) was answered: `solution` when it
    /// has one, stuck otherwise.
    pub(super) fn piece_answered(&self, p: usize, vars: &[VarId], solution: Option<&[u32]>) {
        if !self.enabled {
            return;
        }
        let mut board = self.board();
        match solution {
            Some(values) => {
                for (&v, &value) in vars.iter().zip(values) {
                    board.known[v] = Domain::single(value);
                }
            }
            None => {
                let pieces = &self.pieces;
                let size = pieces[p].len();
                let at = board.stuck.partition_point(|&(q, _)| pieces[q].len() >= size);
                board.stuck.insert(at, (p, None));
            }
        }
        for &v in vars {
            board.busy[v] = false;
        }
        board.changes += 1;
    }

    /// Stops the repairs still running once the pipeline's last task is finished. A repair
    /// is most often still running then because its piece has no completion and is slow
    /// to refute (on a 300x300 grid, 120 ms on one thread): the first repair round then
    /// takes its pieces with the rest, and does not wait for the refutation (see
    /// [`repair`](super::repair)), where the pipeline would wait for it.
    pub(super) fn pipeline_done(&self) {
        self.pipeline_done.raise();
    }

    /// Repairs one stuck piece that reaches nothing unfinished, if there is one; false
    /// when there was none to repair.
    pub(super) fn repair_one(&self) -> bool {
        if !self.enabled || self.pipeline_done.is_raised() {
            return false;
        }
        let started = Instant::now();
        let Some(Taken { vars, constraints, covered, known }) = self.take() else { return false };
        let taken_ms = span::ms(started.elapsed());
        let piece: Component =
            components::build(self.repairs.model, &known, vars.clone(), &constraints);
        let repairs = &self.repairs;
        let goal = Goal { target: 1, ..repairs.piece_goal(1, Some(&self.pipeline_done)) };
        let answer = super::solve_model(&piece.model, repairs.crew, goal, repairs.scope);
        let solution = answer.solutions.first().filter(|_| answer.count >= 1);
        tracing::debug!(
            vars = vars.len(),
            covered = covered.len(),
            taken_ms,
            ms = span::ms(started.elapsed()),
            nodes = answer.stats.nodes,
            sat = answer.stats.sat_solvers > 0,
            solved = solution.is_some(),
            stopped = answer.stopped.is_some(),
            thread = ?rayon::current_thread_index(),
            "early repair"
        );
        let mut board = self.board();
        board.result.stats += answer.stats;
        board.result.stats.regions += 1;
        for &v in &vars {
            board.busy[v] = false;
        }
        // Not completed within the budget, its pieces go to the first repair round.
        if let Some(solution) = solution {
            let values = solution[..vars.len()].to_vec();
            for (&v, &value) in vars.iter().zip(&values) {
                board.known[v] = Domain::single(value);
            }
            for &p in &covered {
                board.result.covered[p] = true;
            }
            board.result.values.push((vars, values));
        }
        board.changes += 1;
        true
    }

    /// Takes a stuck piece whose repair reaches nothing unfinished. The repair's variables
    /// are busy until it is answered.
    fn take(&self) -> Option<Taken> {
        let mut board = self.board();
        let changes = board.changes;
        for i in 0..board.stuck.len() {
            let (p, blocked_at) = board.stuck[i];
            if blocked_at == Some(changes) {
                continue;
            }
            let own = &self.pieces[p];
            let mut known = board.known.clone();
            for v in self.repairs.graph.around(own, RELEASE_DEPTH << 1) {
                if !board.busy[v] {
                    known[v] = self.repairs.domains[v];
                }
            }
            let Some(vars) = self.joined(own, &known, &board.busy) else {
                board.stuck[i].1 = Some(changes);
                continue;
            };
            let mut covered: Vec<usize> = vars
                .iter()
                .map(|&v| self.piece_of[v])
                .filter(|&q| board.stuck.iter().any(|&(s, _)| s == q))
                .collect();
            covered.sort_unstable();
            covered.dedup();
            board.stuck.retain(|(s, _)| !covered.contains(s));
            for &v in &vars {
                board.busy[v] = true;
            }
            let constraints = self.repairs.graph.constraints_of_all(&vars);
            return Some(Taken { vars, constraints, covered, known });
        }
        None
    }

    /// The open variables (in `known`) joined to `own` through constraints, `own` first;
    /// `None` when they reach a busy one.
    fn joined(&self, own: &[VarId], known: &[Domain], busy: &[bool]) -> Option<Vec<VarId>> {
        let mut seen = vec![false; known.len()];
        let mut vars: Vec<VarId> = Vec::with_capacity(own.len() * 2);
        for &v in own {
            seen[v] = true;
            vars.push(v);
        }
        let mut next = 0;
        while let Some(&v) = vars.get(next) {
            next += 1;
            for &c in self.repairs.graph.constraints_on(v) {
                for &u in self.repairs.model.constraints[c].vars() {
                    // A busy variable may hold a value that a running repair changes.
                    if busy[u] {
                        return None;
                    }
                    if seen[u] || known[u].is_fixed() {
                        continue;
                    }
                    seen[u] = true;
                    vars.push(u);
                }
            }
        }
        Some(vars)
    }

    /// What the early repairs gave.
    pub(super) fn into_results(self) -> Results {
        self.board.into_inner().unwrap_or_else(PoisonError::into_inner).result
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Constraint, Model};
    use crate::solver::portfolio::Scope;
    use crate::solver::portfolio::graph::Graph;
    use crate::solver::portfolio::pipeline::{self, Cut};
    use crate::solver::portfolio::tests::{Setup, random_grid};

    /// Whether every constraint of `model` whose variables are all fixed in `fixed` holds.
    fn fixed_constraints_hold(model: &Model, fixed: &[Domain]) -> bool {
        model.constraints.iter().all(|c| {
            let values: Option<Vec<u32>> = c.vars().iter().map(|&v| fixed[v].value()).collect();
            let Some(values) = values else { return true };
            match c {
                Constraint::Sum { total, .. } => values.iter().sum::<u32>() == *total,
                Constraint::AllDifferent { .. } => {
                    let mut sorted = values.clone();
                    sorted.sort_unstable();
                    sorted.dedup();
                    sorted.len() == values.len()
                }
            }
        })
    }

    /// The pipeline of `model`, cut along `graph` into small regions, run on one thread
    /// for one solution.
    fn on_one_thread(model: &Model, graph: &Graph<'_>, setup: &Setup) -> pipeline::Outcome {
        let cut = Cut::new(graph, graph.regions(40).expect("cut"), model.domains.len());
        let (crew, goals) = (setup.crew(1), setup.pipeline_goals());
        pipeline::run(model, &model.domains, &cut, crew, goals, Scope::Region)
    }

    /// The early repairs of the pipeline that gave `outcome` (`pieces` its pieces' variables)
    /// on `model` cut along `graph`, replayed on one thread for one solution: the even
    /// regions' values noted, no piece answered yet.
    fn replayed<'a>(
        model: &'a Model,
        graph: &'a Graph<'a>,
        setup: &'a Setup,
        outcome: &pipeline::Outcome,
        pieces: &[&[VarId]],
    ) -> Early<'a> {
        let (goal, crew) = (setup.goal(1), setup.crew(1));
        let domains = &model.domains;
        let repairs = Repairs { model, domains, graph, crew, goal, scope: Scope::Region };
        let early = Early::new(repairs, pieces, true);
        let settled =
            (0..domains.len()).filter(|&v| !domains[v].is_fixed() && outcome.fixed[v].is_fixed());
        early.even_solved(settled.filter_map(|v| Some((v, outcome.fixed[v].value()?))));
        early
    }

    #[test]
    fn stuck_pieces_are_repaired_early_only_away_from_unfinished_work_and_fit_the_rest() {
        let mut repaired_early = 0;
        for seed in 1..=6 {
            let model = random_grid(60, seed);
            let graph = Graph::new(&model, &model.domains);
            let setup = Setup::default();
            // One thread: the pipeline runs in order, and repairs nothing early.
            let outcome = on_one_thread(&model, &graph, &setup);
            assert!(outcome.repaired.values.is_empty(), "seed {seed}");
            // Replayed with the largest piece still running when every other task is done.
            let pieces: Vec<&[VarId]> = outcome.pieces.iter().map(|(v, _)| v.as_slice()).collect();
            let running = (0..pieces.len()).max_by_key(|&p| pieces[p].len()).expect("pieces");
            let early = replayed(&model, &graph, &setup, &outcome, &pieces);
            for (p, (vars, found)) in
                outcome.pieces.iter().enumerate().filter(|&(p, _)| p != running)
            {
                let found = found.as_ref().expect("every piece is answered");
                let solution = found.solutions.first().filter(|_| found.count >= 1);
                early.piece_answered(p, vars, solution.map(Vec::as_slice));
            }
            while early.repair_one() {}
            let repaired = early.into_results();
            assert!(!repaired.covered[running], "seed {seed}: the running piece was covered");
            // Nothing repaired early lies in the running piece or shares a constraint with it.
            let mut near_running = vec![false; model.domains.len()];
            for &v in pieces[running] {
                for &c in graph.constraints_on(v) {
                    for &u in model.constraints[c].vars() {
                        near_running[u] = true;
                    }
                }
            }
            for (vars, _) in &repaired.values {
                assert!(vars.iter().all(|&v| !near_running[v]), "seed {seed}: repaired too near");
            }
            repaired_early += repaired.values.len();
            // The running piece's answer, the others' and the early repairs' fit together.
            let outcome = pipeline::Outcome { repaired, ..outcome };
            let standing = outcome.standing();
            assert!(fixed_constraints_hold(&model, &standing.fixed), "seed {seed}");
        }
        assert!(repaired_early >= 1, "no stuck piece was repaired early on six grids");
    }

    #[test]
    fn the_largest_stuck_piece_is_repaired_first_and_none_once_the_pipeline_is_done() {
        let mut compared = 0;
        for seed in 1..=6 {
            let model = random_grid(60, seed);
            let graph = Graph::new(&model, &model.domains);
            let setup = Setup::default();
            let outcome = on_one_thread(&model, &graph, &setup);
            let pieces: Vec<&[VarId]> = outcome.pieces.iter().map(|(v, _)| v.as_slice()).collect();
            let solution_of = |p: usize| {
                let found = outcome.pieces[p].1.as_ref().expect("every piece is answered");
                found.solutions.first().filter(|_| found.count >= 1).map(Vec::as_slice)
            };
            let mut stuck: Vec<usize> =
                (0..pieces.len()).filter(|&p| solution_of(p).is_none()).collect();
            stuck.sort_by_key(|&p| pieces[p].len());
            let (Some(&smallest), Some(&largest)) = (stuck.first(), stuck.last()) else {
                continue;
            };
            if pieces[smallest].len() == pieces[largest].len() {
                continue;
            }
            let board = || {
                let early = replayed(&model, &graph, &setup, &outcome, &pieces);
                for p in (0..pieces.len()).filter(|p| !stuck.contains(p)) {
                    early.piece_answered(p, pieces[p], solution_of(p));
                }
                // Found stuck from the smallest up: nothing is running, any can be taken.
                for &p in &stuck {
                    early.piece_answered(p, pieces[p], None);
                }
                early
            };
            let taken = board().take().expect("a stuck piece is taken");
            assert_eq!(&taken.vars[..pieces[largest].len()], pieces[largest], "seed {seed}");
            assert!(taken.covered.contains(&largest), "seed {seed}");
            // The same board once the pipeline's last task is finished: none is taken, and
            // every stuck piece is left to the first repair round.
            let done = board();
            done.pipeline_done();
            assert!(!done.repair_one(), "seed {seed}: a repair began after the pipeline");
            let results = done.into_results();
            assert!(results.values.is_empty() && !results.covered.contains(&true), "seed {seed}");
            compared += 1;
        }
        assert!(compared >= 1, "no grid left two stuck pieces of different sizes");
    }
}
