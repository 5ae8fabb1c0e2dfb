//! A plain linear sum with bounds reasoning: used for sums whose variables need not differ
//! or whose values go beyond 9 (where the digit tables of `distinct_sum` do not apply).

use super::super::state::State;
use super::contract::{Conflict, PropResult, Propagate};
use crate::model::Domain;

/// `vars` add up to `total`.
#[derive(Clone, Debug)]
pub struct Sum {
    vars: Box<[u32]>,
    total: u32,
}

impl Sum {
    /// The constraint `sum(vars) == total`.
    pub fn new(vars: &[usize], total: u32) -> Sum {
        Sum { vars: vars.iter().map(|&v| v as u32).collect(), total }
    }

    fn bounds(&self, state: &State) -> Result<(u32, u32), Conflict> {
        let (mut lo, mut hi) = (0u32, 0u32);
        for &v in self.vars.iter() {
            let d = state.dom(v as usize);
            lo += d.min().ok_or(Conflict)?;
            hi += d.max().ok_or(Conflict)?;
        }
        Ok((lo, hi))
    }
}

impl Propagate for Sum {
    /// The constrained variables.
    fn vars(&self) -> &[u32] {
        &self.vars
    }

    /// Bounds consistency: each variable keeps the values that fit between what the others
    /// can contribute at least and at most. Repeats until stable.
    fn propagate(&mut self, state: &mut State) -> PropResult {
        loop {
            let (lo, hi) = self.bounds(state)?;
            if lo > self.total || hi < self.total {
                return Err(Conflict);
            }
            let mut changed = false;
            for &v in self.vars.iter() {
                let d = state.dom(v as usize);
                let (min, max) = (d.min().unwrap_or(0), d.max().unwrap_or(0));
                let upper = self.total - (lo - min);
                let lower = self.total.saturating_sub(hi - max).max(1);
                let nd = d.intersect(Domain::range(lower, upper.min(31)));
                if nd != d {
                    state.set(v as usize, nd)?;
                    changed = true;
                }
            }
            if !changed {
                return Ok(());
            }
        }
    }

    /// Forward checking: one pass of the bounds rule.
    fn forward_check(&self, state: &mut State, _var: usize) -> PropResult {
        let (lo, hi) = self.bounds(state)?;
        if lo > self.total || hi < self.total {
            return Err(Conflict);
        }
        for &v in self.vars.iter() {
            let d = state.dom(v as usize);
            let (min, max) = (d.min().unwrap_or(0), d.max().unwrap_or(0));
            let upper = self.total - (lo - min);
            let lower = self.total.saturating_sub(hi - max).max(1);
            state.set(v as usize, d.intersect(Domain::range(lower, upper.min(31))))?;
        }
        Ok(())
    }

    /// Backtracking check: the total is still between the least and most reachable sums.
    fn check(&self, state: &State) -> bool {
        self.bounds(state).is_ok_and(|(lo, hi)| lo <= self.total && self.total <= hi)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::propagators::{Propagator, run_alone};

    #[test]
    fn bounds_fix_the_last_variable() {
        let domains = [Domain::single(4), Domain::range(1, 9)];
        let after = run_alone(&mut Propagator::Sum(Sum::new(&[0, 1], 10)), &domains);
        assert_eq!(after.expect("consistent")[1], Domain::single(6));
    }

    #[test]
    fn an_unreachable_total_fails() {
        let domains = [Domain::range(1, 2); 2];
        assert_eq!(run_alone(&mut Propagator::Sum(Sum::new(&[0, 1], 5)), &domains), None);
    }
}
