//! All-different over a set of variables, with the rules of [`super::distinct`]:
//! naked singles, hidden singles (when the variables must use every value) and Hall sets.

use super::super::state::State;
use super::contract::{Conflict, PropResult, Propagate};
use super::distinct;
use crate::model::Domain;

/// The values of `vars` are pairwise different.
#[derive(Clone, Debug)]
pub struct AllDifferent {
    vars: Box<[u32]>,
    /// The values, when there are exactly as many as variables, so each must be used
    /// (Sudoku rows, columns and boxes); enables hidden singles.
    permutation: Option<u32>,
}

impl AllDifferent {
    /// The constraint over `vars`, whose initial domains are `domains`.
    pub fn new(vars: &[usize], domains: &[Domain]) -> AllDifferent {
        AllDifferent {
            vars: vars.iter().map(|&v| v as u32).collect(),
            permutation: permutation_values(vars, domains).map(Domain::bits),
        }
    }

    /// Writes the domains that differ from `original` back into the state.
    fn write_back(&self, state: &mut State, original: &[u32], doms: &[u32]) -> PropResult {
        for (i, (&old, &new)) in original.iter().zip(doms).enumerate() {
            if old != new {
                state.set(self.vars[i] as usize, Domain(new))?;
            }
        }
        Ok(())
    }
}

impl Propagate for AllDifferent {
    /// The constrained variables.
    fn vars(&self) -> &[u32] {
        &self.vars
    }

    /// Runs the rules until none of them changes anything, on a local copy of the
    /// domains; only the domains that changed are written back.
    fn propagate(&mut self, state: &mut State) -> PropResult {
        const LOCAL: usize = 32;
        let n = self.vars.len();
        if n > LOCAL {
            return Err(Conflict); // more variables than values
        }
        let mut doms = [0u32; LOCAL];
        for (d, &v) in doms.iter_mut().zip(self.vars.iter()) {
            *d = state.dom(v as usize).bits();
        }
        let original = doms;
        distinct::settle(&mut doms[..n], self.permutation)?;
        self.write_back(state, &original[..n], &doms[..n])
    }

    /// Forward checking after `var` was fixed: its value leaves the other variables.
    fn forward_check(&self, state: &mut State, var: usize) -> PropResult {
        let Some(value) = state.dom(var).value() else { return Ok(()) };
        for &v in self.vars.iter() {
            if v as usize != var {
                state.remove_value(v as usize, value)?;
            }
        }
        Ok(())
    }

    /// Backtracking check: no two fixed variables share a value.
    fn check(&self, state: &State) -> bool {
        !distinct::fixed_twice(self.vars.iter().map(|&v| state.dom(v as usize).bits()))
    }
}

/// The values `vars` take between them, when there are exactly as many as variables: an
/// all-different over them is then a permutation of those values.
pub fn permutation_values(vars: &[usize], domains: &[Domain]) -> Option<Domain> {
    let union = vars.iter().fold(Domain::EMPTY, |acc, &v| acc.union(domains[v]));
    (union.len() as usize == vars.len()).then_some(union)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::propagators::{Propagator, run_alone};

    fn run(domains: &[Domain]) -> Option<Vec<Domain>> {
        let vars: Vec<usize> = (0..domains.len()).collect();
        let prop = AllDifferent::new(&vars, domains);
        run_alone(&mut Propagator::AllDifferent(prop), domains)
    }

    #[test]
    fn a_fixed_value_leaves_the_others() {
        let d = run(&[Domain::single(1), Domain::range(1, 2), Domain::range(1, 3)]).expect("ok");
        assert_eq!(d, vec![Domain::single(1), Domain::single(2), Domain::single(3)]);
    }

    #[test]
    fn a_value_with_one_place_goes_there() {
        let three = Domain::range(1, 3);
        let d = run(&[Domain::range(1, 2), Domain::range(1, 2), three]).expect("ok");
        assert_eq!(d[2], Domain::single(3));
    }

    #[test]
    fn a_naked_pair_is_removed_from_the_rest() {
        let pair = Domain::range(1, 2);
        let d = run(&[pair, pair, Domain::range(1, 4), Domain::range(1, 4)]).expect("ok");
        assert_eq!(d[2], Domain::range(3, 4));
    }

    #[test]
    fn three_variables_in_two_values_fail() {
        assert_eq!(run(&[Domain::range(1, 2); 3]), None);
    }

    #[test]
    fn more_variables_than_a_domain_has_values_fail() {
        assert_eq!(run(&[Domain::range(1, 31); 33]), None);
        assert_eq!(run(&[Domain::range(1, 31); 32]), None);
        assert!(run(&[Domain::range(1, 31); 31]).is_some());
    }
}
