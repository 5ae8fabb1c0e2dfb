//! Propagators: the algorithms behind the model's constraints.
//!
//! [`build`] compiles a model's constraints into propagators. A `Sum` and an `AllDifferent`
//! over the same variables with digits 1..9 (a Kakuro run, a killer cage) become one exact
//! [`DistinctSum`]; the 27 all-different constraints of a 9x9 grid become one [`Bands`];
//! other constraints map one to one. Each propagator offers three
//! strengths, one per search algorithm: `propagate` (to its own fixed point, for MAC),
//! `forward_check` (one pass after an assignment, for FC) and `check` (for plain BT).
//! What a propagator may assume, and what the search tells it, is the [`contract`].

pub mod all_different;
pub mod bands;
pub mod contract;
pub mod distinct;
pub mod distinct_sum;
pub mod sum;

pub use all_different::AllDifferent;
pub use bands::Bands;
pub use contract::{PropResult, Propagate};
pub use distinct_sum::DistinctSum;
pub use sum::Sum;

use super::state::{State, Watches};
use crate::model::{Constraint, Domain, Model};
use std::collections::HashMap;

/// One propagator.
#[derive(Clone, Debug)]
pub enum Propagator {
    /// Distinct digits with a sum (exact, table-driven).
    DistinctSum(DistinctSum),
    /// All different.
    AllDifferent(AllDifferent),
    /// Plain sum (bounds).
    Sum(Sum),
    /// The units of a 9x9 Sudoku grid, on bitboards.
    Bands(Bands),
}

/// Calls `$method` on whichever propagator `$prop` holds.
macro_rules! dispatch {
    ($prop:expr, $p:ident => $call:expr) => {
        match $prop {
            Propagator::DistinctSum($p) => $call,
            Propagator::AllDifferent($p) => $call,
            Propagator::Sum($p) => $call,
            Propagator::Bands($p) => $call,
        }
    };
}

impl Propagator {
    /// Queue priority: 0 for cheap propagators over two cells or fewer, 1 for short runs,
    /// 2 for long runs and all-different constraints.
    pub fn priority(&self) -> u8 {
        match (self, self.vars().len()) {
            (_, 0..=2) => 0,
            (Propagator::DistinctSum(_) | Propagator::Sum(_), 3) => 1,
            _ => 2,
        }
    }
}

impl Propagate for Propagator {
    fn vars(&self) -> &[u32] {
        dispatch!(self, p => p.vars())
    }

    #[inline]
    fn propagate(&mut self, state: &mut State) -> PropResult {
        dispatch!(self, p => p.propagate(state))
    }

    fn forward_check(&self, state: &mut State, var: usize) -> PropResult {
        dispatch!(self, p => p.forward_check(state, var))
    }

    fn check(&self, state: &State) -> bool {
        dispatch!(self, p => p.check(state))
    }

    fn keeps_memory(&self) -> bool {
        dispatch!(self, p => p.keeps_memory())
    }

    fn reload(&mut self) {
        dispatch!(self, p => p.reload())
    }

    fn backtrack(&mut self, mark: usize) {
        dispatch!(self, p => p.backtrack(mark))
    }
}

/// A model's propagators, and the search's side of their [`contract`]: every load
/// and undo of the state goes through here, so the propagators that keep memory always
/// hear of it.
#[derive(Clone, Debug)]
pub struct Propagators {
    /// The propagators; a propagator's id is its index here.
    list: Vec<Propagator>,
    /// The ids of the propagators that keep memory between runs.
    remembering: Vec<u32>,
}

impl Propagators {
    /// The propagators of `list`, their ids being their indices.
    pub fn new(list: Vec<Propagator>) -> Propagators {
        let remembering =
            (0..list.len() as u32).filter(|&p| list[p as usize].keeps_memory()).collect();
        Propagators { list, remembering }
    }

    /// The propagator with id `p`.
    #[inline]
    pub fn get(&self, p: u32) -> &Propagator {
        &self.list[p as usize]
    }

    /// How many there are.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// All of them, by id.
    pub fn iter(&self) -> impl Iterator<Item = &Propagator> {
        self.list.iter()
    }

    /// A state over `domains` whose changes wake these propagators.
    pub fn state(&self, domains: Vec<Domain>) -> State {
        let watched: Vec<&[u32]> = self.list.iter().map(Propagator::vars).collect();
        let watches = Watches::new(domains.len(), &watched);
        State::new(domains, watches, self.list.iter().map(Propagator::priority).collect())
    }

    /// Loads `domains` into `state` (a new subproblem).
    pub fn load(&mut self, state: &mut State, domains: &[Domain]) {
        state.load(domains);
        for &p in &self.remembering {
            self.list[p as usize].reload();
        }
    }

    /// Undoes the changes to `state` made after `mark`.
    pub fn undo(&mut self, state: &mut State, mark: usize) {
        state.undo(mark);
        for &p in &self.remembering {
            self.list[p as usize].backtrack(mark);
        }
    }

    /// Runs queued propagators until the queue is empty (a fixed point) or one fails.
    /// `count` is incremented once per propagator execution.
    pub fn fixpoint(&mut self, state: &mut State, count: &mut u64) -> PropResult {
        while let Some(p) = state.dequeue() {
            *count += 1;
            if let Err(conflict) = self.list[p as usize].propagate(state) {
                state.clear_queue();
                return Err(conflict);
            }
        }
        Ok(())
    }

    /// Queues every propagator, then runs them to a fixed point.
    pub fn propagate_all(&mut self, state: &mut State, count: &mut u64) -> PropResult {
        for p in 0..self.list.len() {
            state.enqueue(p as u32);
        }
        self.fixpoint(state, count)
    }
}

/// Compiles the constraints of `model` into propagators, fusing sum + all-different pairs.
pub fn build(model: &Model) -> Propagators {
    let mut fused = vec![false; model.constraints.len()];
    let mut list = sums(model, &mut fused);
    for (values, units) in permutation_families(model, &fused, &mut list) {
        // The rows, columns and boxes of a 9x9 grid (Sudoku, Killer Sudoku) become one
        // Bands propagator; other families stay one propagator per unit.
        match Bands::new(&units, values) {
            Some(grid) => list.push(Propagator::Bands(grid)),
            None => list.extend(
                units
                    .iter()
                    .map(|u| Propagator::AllDifferent(AllDifferent::new(u, &model.domains))),
            ),
        }
    }
    Propagators::new(list)
}

/// The propagators of the sums of `model`: a sum over digits with an all-different over
/// the same variables (a Kakuro run, a killer cage) becomes one [`DistinctSum`], and that
/// all-different is marked in `fused`; other sums are plain [`Sum`]s.
fn sums(model: &Model, fused: &mut [bool]) -> Vec<Propagator> {
    let digits = Domain::range(1, 9);
    let partners = fusion_partners(model);
    let mut list = Vec::with_capacity(model.constraints.len());
    for (i, c) in model.constraints.iter().enumerate() {
        let Constraint::Sum { vars, total } = c else { continue };
        let small =
            vars.len() <= 9 && vars.iter().all(|&v| model.domains[v].without(digits).is_empty());
        // Puzzles post a run's all-different right after its sum: check there first.
        let partner = match model.constraints.get(i + 1) {
            Some(Constraint::AllDifferent { vars: next }) if next == vars => Some(i + 1),
            _ => partners.get(&sorted(vars)).copied(),
        }
        .filter(|&j| !fused[j]);
        match partner {
            Some(j) if small => {
                fused[j] = true;
                list.push(Propagator::DistinctSum(DistinctSum::new(vars, *total)));
            }
            _ => list.push(Propagator::Sum(Sum::new(vars, *total))),
        }
    }
    list
}

/// The all-different constraints a sum could fuse with, by their sorted variables. Only
/// those not posted right after their sum need looking up, and only when there is a sum.
fn fusion_partners(model: &Model) -> HashMap<Vec<usize>, usize> {
    let mut partners = HashMap::new();
    if !model.constraints.iter().any(|c| matches!(c, Constraint::Sum { .. })) {
        return partners;
    }
    for (i, c) in model.constraints.iter().enumerate() {
        let posted_after_its_sum = i > 0
            && matches!((&model.constraints[i - 1], c),
                (Constraint::Sum { vars: a, .. }, Constraint::AllDifferent { vars: b }) if a == b);
        if let Constraint::AllDifferent { vars } = c
            && !posted_after_its_sum
        {
            partners.insert(sorted(vars), i);
        }
    }
    partners
}

/// The all-different constraints not in `fused` that are permutations of the same values
/// (a grid's rows, columns and boxes), grouped by those values and their length; the
/// others are compiled into `list` one by one.
fn permutation_families<'m>(
    model: &'m Model,
    fused: &[bool],
    list: &mut Vec<Propagator>,
) -> Vec<(Domain, Vec<&'m [usize]>)> {
    let mut families: Vec<(Domain, Vec<&[usize]>)> = Vec::new();
    for (i, c) in model.constraints.iter().enumerate() {
        let Constraint::AllDifferent { vars } = c else { continue };
        if fused[i] {
            continue;
        }
        let Some(values) = all_different::permutation_values(vars, &model.domains) else {
            list.push(Propagator::AllDifferent(AllDifferent::new(vars, &model.domains)));
            continue;
        };
        let family = families.iter_mut().find(|(v, units)| {
            *v == values && units.first().is_some_and(|u| u.len() == vars.len())
        });
        match family {
            Some((_, units)) => units.push(vars),
            None => {
                let mut units = Vec::with_capacity(model.constraints.len() - i);
                units.push(vars.as_slice());
                families.push((values, units));
            }
        }
    }
    families
}

/// `vars`, sorted: the key under which a sum finds its all-different.
fn sorted(vars: &[usize]) -> Vec<usize> {
    let mut key = vars.to_vec();
    key.sort_unstable();
    key
}

/// Runs `prop` alone on `domains` to its fixed point: the domains it leaves, or `None` when
/// it fails (for unit tests).
#[cfg(test)]
pub(crate) fn run_alone(prop: &mut Propagator, domains: &[Domain]) -> Option<Vec<Domain>> {
    prop.reload();
    let mut state = State::for_test(domains, prop.vars());
    prop.propagate(&mut state).ok()?;
    Some(state.domains().to_vec())
}
