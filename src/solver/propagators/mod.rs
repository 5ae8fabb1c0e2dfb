//! Propagators: the algorithms behind the model's constraints.
//!
//! [`build`] compiles a model's constraints into propagators. A `Sum` and an `AllDifferent`
//! over the same variables with digits 1..9 (a Kakuro run, a killer cage) become one exact
//! [`DistinctSum`]; the 27 all-different constraints of a 9x9 grid become one [`Bands`];
//! other constraints map one to one. Each propagator offers three
//! strengths, one per search algorithm: `propagate` (to its own fixed point, for MAC),
//! `forward_check` (one pass after an assignment, for FC) and `check` (for plain BT).

pub mod all_different;
pub mod bands;
pub mod distinct;
pub mod distinct_sum;
pub mod sum;

pub use all_different::AllDifferent;
pub use bands::Bands;
pub use distinct_sum::DistinctSum;
pub use sum::Sum;

use super::domain::Domain;
use super::state::{PropResult, State};
use crate::model::{Constraint, Model};
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

impl Propagator {
    /// The variables this propagator watches.
    pub fn vars(&self) -> &[u32] {
        match self {
            Propagator::DistinctSum(p) => p.vars(),
            Propagator::AllDifferent(p) => p.vars(),
            Propagator::Sum(p) => p.vars(),
            Propagator::Bands(p) => p.vars(),
        }
    }

    /// Queue priority: 0 for cheap propagators over two cells or fewer, 1 for short runs,
    /// 2 for long runs and all-different constraints.
    pub fn priority(&self) -> u8 {
        match (self, self.vars().len()) {
            (_, 0..=2) => 0,
            (Propagator::DistinctSum(_) | Propagator::Sum(_), 3) => 1,
            _ => 2,
        }
    }

    /// Full propagation (MAC).
    #[inline]
    pub fn propagate(&self, state: &mut State) -> PropResult {
        match self {
            Propagator::DistinctSum(p) => p.propagate(state),
            Propagator::AllDifferent(p) => p.propagate(state),
            Propagator::Sum(p) => p.propagate(state),
            Propagator::Bands(p) => p.propagate(state),
        }
    }

    /// One pass of pruning after `var` was fixed (FC).
    pub fn forward_check(&self, state: &mut State, var: usize) -> PropResult {
        match self {
            Propagator::DistinctSum(p) => p.forward_check(state, var),
            Propagator::AllDifferent(p) => p.forward_check(state, var),
            Propagator::Sum(p) => p.forward_check(state),
            Propagator::Bands(p) => p.forward_check(state, var),
        }
    }

    /// Whether the fixed variables can still satisfy the constraint (BT).
    pub fn check(&self, state: &State) -> bool {
        match self {
            Propagator::DistinctSum(p) => p.check(state),
            Propagator::AllDifferent(p) => p.check(state),
            Propagator::Sum(p) => p.check(state),
            Propagator::Bands(p) => p.check(state),
        }
    }
}

/// A model's propagators and, per variable, the propagators that watch it.
#[derive(Clone, Debug)]
pub struct Propagators {
    /// The propagators; a propagator's id is its index here.
    pub list: Vec<Propagator>,
    /// Which propagators watch each variable.
    pub watches: Watches,
}

/// For each variable, the ids of the propagators over it, in one flat array.
#[derive(Clone, Debug, Default)]
pub struct Watches {
    /// `list[start[v]..start[v + 1]]` watch variable `v`.
    start: Vec<u32>,
    list: Vec<u32>,
}

impl Watches {
    /// The watch lists of `num_vars` variables for `props`.
    pub fn new(num_vars: usize, props: &[Propagator]) -> Watches {
        // Count the watchers of each variable, turn the counts into where each variable's
        // list ends, and fill the lists from the back: the ends become the starts.
        let mut end = vec![0u32; num_vars + 1];
        for &v in props.iter().flat_map(Propagator::vars) {
            end[v as usize] += 1;
        }
        let mut total = 0;
        for end in &mut end {
            total += *end;
            *end = total;
        }
        let mut list = vec![0u32; total as usize];
        for (id, p) in props.iter().enumerate().rev() {
            for &v in p.vars().iter().rev() {
                end[v as usize] -= 1;
                list[end[v as usize] as usize] = id as u32;
            }
        }
        Watches { start: end, list }
    }

    /// The propagators watching `var`.
    #[inline]
    pub fn of(&self, var: usize) -> &[u32] {
        &self.list[self.start[var] as usize..self.start[var + 1] as usize]
    }
}

/// Compiles the constraints of `model` into propagators, fusing sum + all-different pairs.
pub fn build(model: &Model) -> Propagators {
    let digits = Domain::range(1, 9);
    let sorted = |vars: &[usize]| {
        let mut key = vars.to_vec();
        key.sort_unstable();
        key
    };
    // All-different constraints by their sorted variable set, to find fusion partners.
    // (Only needed for constraints that are not posted side by side, and only when there
    // is a sum to pair them with.)
    let mut all_different: HashMap<Vec<usize>, usize> = HashMap::new();
    let has_sum = model.constraints.iter().any(|c| matches!(c, Constraint::Sum { .. }));
    for (i, c) in model.constraints.iter().enumerate().filter(|_| has_sum) {
        let posted_after_its_sum = i > 0
            && matches!((&model.constraints[i - 1], c),
                (Constraint::Sum { vars: a, .. }, Constraint::AllDifferent { vars: b }) if a == b);
        if let Constraint::AllDifferent { vars } = c
            && !posted_after_its_sum
        {
            all_different.insert(sorted(vars), i);
        }
    }
    let mut fused = vec![false; model.constraints.len()];
    let mut list = Vec::with_capacity(model.constraints.len());
    for (i, c) in model.constraints.iter().enumerate() {
        if let Constraint::Sum { vars, total } = c {
            let small = vars.len() <= 9
                && vars.iter().all(|&v| model.domains[v].without(digits).is_empty());
            // Puzzles post a run's all-different right after its sum: check there first.
            let partner = match model.constraints.get(i + 1) {
                Some(Constraint::AllDifferent { vars: next }) if next == vars => Some(i + 1),
                _ => all_different.get(&sorted(vars)).copied(),
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
    }
    // The remaining all-different constraints: permutations of the same values (a grid's
    // rows, columns and boxes) are propagated together, the others one by one.
    let mut families: Vec<(Domain, usize, Vec<&[usize]>)> = Vec::new();
    for (i, c) in model.constraints.iter().enumerate() {
        if let Constraint::AllDifferent { vars } = c
            && !fused[i]
        {
            let Some(values) = all_different::permutation_values(vars, &model.domains) else {
                list.push(Propagator::AllDifferent(AllDifferent::new(vars, &model.domains)));
                continue;
            };
            match families.iter_mut().find(|(v, len, _)| *v == values && *len == vars.len()) {
                Some((_, _, units)) => units.push(vars),
                None => {
                    let mut units = Vec::with_capacity(model.constraints.len() - i);
                    units.push(vars.as_slice());
                    families.push((values, vars.len(), units));
                }
            }
        }
    }
    // The rows, columns and boxes of a 9x9 grid (Sudoku, Killer Sudoku) become one Bands
    // propagator; other families stay one propagator per unit.
    for (values, _, units) in families {
        match Bands::new(&units, values) {
            Some(grid) => list.push(Propagator::Bands(grid)),
            None => list.extend(
                units
                    .iter()
                    .map(|u| Propagator::AllDifferent(AllDifferent::new(u, &model.domains))),
            ),
        }
    }
    let watches = Watches::new(model.num_vars(), &list);
    Propagators { list, watches }
}

/// Runs `prop` alone on `domains` to its fixed point: the domains it leaves, or `None` when
/// it fails (for unit tests).
#[cfg(test)]
pub(crate) fn run_alone(prop: &Propagator, domains: &[Domain]) -> Option<Vec<Domain>> {
    let mut state = State::for_test(domains, prop);
    prop.propagate(&mut state).ok()?;
    Some(state.domains().to_vec())
}

/// Runs queued propagators until the queue is empty (a fixed point) or one fails.
/// `count` is incremented once per propagator execution.
pub fn fixpoint(props: &[Propagator], state: &mut State, count: &mut u64) -> PropResult {
    while let Some(p) = state.dequeue() {
        *count += 1;
        if let Err(conflict) = props[p as usize].propagate(state) {
            state.clear_queue();
            return Err(conflict);
        }
    }
    Ok(())
}
