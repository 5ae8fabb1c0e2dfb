//! All-different over a set of variables: naked singles (a fixed value leaves the others),
//! hidden singles (when the variables must use every value, a value with one place left
//! goes there) and Hall sets read off single domains (k variables whose domains fit inside
//! one k-value domain take those values from everyone else: naked pairs, triples, ...).

use super::super::domain::Domain;
use super::super::state::{Conflict, PropResult, State};

/// The values of `vars` are pairwise different.
#[derive(Clone, Debug)]
pub struct AllDifferent {
    vars: Box<[u32]>,
    /// True when there are exactly as many values as variables, so each value must be used
    /// (Sudoku rows, columns and boxes); enables hidden singles.
    permutation: bool,
}

impl AllDifferent {
    /// The constraint over `vars`, whose initial domains are `domains`.
    pub fn new(vars: &[usize], domains: &[Domain]) -> AllDifferent {
        let union = vars.iter().fold(Domain::EMPTY, |acc, &v| acc.union(domains[v]));
        AllDifferent {
            vars: vars.iter().map(|&v| v as u32).collect(),
            permutation: union.len() as usize == vars.len(),
        }
    }

    /// The constrained variables.
    pub fn vars(&self) -> &[u32] {
        &self.vars
    }

    /// Runs the three rules until none of them changes anything.
    pub fn propagate(&self, state: &mut State) -> PropResult {
        loop {
            let mut changed = self.naked_singles(state)?;
            if self.permutation {
                changed |= self.hidden_singles(state)?;
            }
            if !changed {
                changed = self.hall_sets(state)?;
            }
            if !changed {
                return Ok(());
            }
        }
    }

    /// Removes fixed values from the other variables. Returns whether anything changed.
    fn naked_singles(&self, state: &mut State) -> Result<bool, Conflict> {
        let mut changed = false;
        loop {
            let mut fixed = 0u32;
            for &v in self.vars.iter() {
                let d = state.dom(v as usize);
                if d.is_fixed() {
                    if fixed & d.bits() != 0 {
                        return Err(Conflict);
                    }
                    fixed |= d.bits();
                }
            }
            let mut newly_fixed = false;
            for &v in self.vars.iter() {
                let d = state.dom(v as usize);
                if !d.is_fixed() && d.bits() & fixed != 0 {
                    let nd = d.without(Domain(fixed));
                    state.set(v as usize, nd)?;
                    changed = true;
                    newly_fixed |= nd.is_fixed();
                }
            }
            if !newly_fixed {
                return Ok(changed);
            }
        }
    }

    /// Places values that have a single possible variable.
    fn hidden_singles(&self, state: &mut State) -> Result<bool, Conflict> {
        let (mut once, mut twice, mut fixed) = (0u32, 0u32, 0u32);
        for &v in self.vars.iter() {
            let d = state.dom(v as usize).bits();
            twice |= once & d;
            once |= d;
            if state.dom(v as usize).is_fixed() {
                fixed |= d;
            }
        }
        if once.count_ones() < self.vars.len() as u32 {
            return Err(Conflict);
        }
        let hidden = once & !twice & !fixed;
        if hidden == 0 {
            return Ok(false);
        }
        for &v in self.vars.iter() {
            let d = state.dom(v as usize);
            let h = d.bits() & hidden;
            if h != 0 {
                if h & (h - 1) != 0 {
                    return Err(Conflict);
                }
                state.set(v as usize, Domain(h))?;
            }
        }
        Ok(true)
    }

    /// For each small unfixed domain D, counts the variables whose domain lies within D:
    /// more than |D| fails; exactly |D| removes D from every other variable.
    fn hall_sets(&self, state: &mut State) -> Result<bool, Conflict> {
        let mut changed = false;
        for &candidate in self.vars.iter() {
            let hall = state.dom(candidate as usize);
            let size = hall.len();
            if size < 2 || size as usize >= self.vars.len() {
                continue;
            }
            let inside =
                self.vars.iter().filter(|&&v| state.dom(v as usize).without(hall).is_empty());
            let count = inside.count() as u32;
            if count > size {
                return Err(Conflict);
            }
            if count < size {
                continue;
            }
            for &v in self.vars.iter() {
                let d = state.dom(v as usize);
                if !d.without(hall).is_empty() && !d.intersect(hall).is_empty() {
                    state.set(v as usize, d.without(hall))?;
                    changed = true;
                }
            }
        }
        Ok(changed)
    }

    /// Forward checking after `var` was fixed: its value leaves the other variables.
    pub fn forward_check(&self, state: &mut State, var: usize) -> PropResult {
        let Some(value) = state.dom(var).value() else { return Ok(()) };
        for &v in self.vars.iter() {
            let v = v as usize;
            if v != var {
                let d = state.dom(v);
                if d.is_fixed() && d.contains(value) {
                    return Err(Conflict);
                }
                state.set(v, d.remove(value))?;
            }
        }
        Ok(())
    }

    /// Backtracking check: no two fixed variables share a value.
    pub fn check(&self, state: &State) -> bool {
        let mut seen = 0u32;
        for &v in self.vars.iter() {
            let d = state.dom(v as usize);
            if d.is_fixed() {
                if seen & d.bits() != 0 {
                    return false;
                }
                seen |= d.bits();
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(domains: &[Domain]) -> Option<Vec<Domain>> {
        let vars: Vec<usize> = (0..domains.len()).collect();
        let prop = AllDifferent::new(&vars, domains);
        let mut state = State::for_test(
            domains,
            &crate::solver::propagators::Propagator::AllDifferent(prop.clone()),
        );
        prop.propagate(&mut state).ok()?;
        Some(state.domains().to_vec())
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
}
