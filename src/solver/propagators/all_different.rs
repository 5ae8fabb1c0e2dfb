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

    /// Runs the three rules until none of them changes anything. The rules work on a
    /// local copy of the domains (a Sudoku unit fits in registers and cache lines); only
    /// the domains that changed are written back.
    pub fn propagate(&self, state: &mut State) -> PropResult {
        const LOCAL: usize = 32;
        let n = self.vars.len();
        if n > LOCAL {
            let mut doms: Vec<u32> =
                self.vars.iter().map(|&v| state.dom(v as usize).bits()).collect();
            let original = doms.clone();
            self.reason(&mut doms)?;
            return self.write_back(state, &original, &doms);
        }
        let mut doms = [0u32; LOCAL];
        for (d, &v) in doms.iter_mut().zip(self.vars.iter()) {
            *d = state.dom(v as usize).bits();
        }
        let original = doms;
        self.reason(&mut doms[..n])?;
        self.write_back(state, &original[..n], &doms[..n])
    }

    /// Applies the rules to `doms` until they change nothing more.
    fn reason(&self, doms: &mut [u32]) -> Result<(), Conflict> {
        loop {
            let fixed = naked_singles(doms)?;
            if self.permutation && hidden_singles(doms, fixed)? {
                continue;
            }
            if !hall_sets(doms)? {
                return Ok(());
            }
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

/// True when exactly one bit is set.
#[inline]
fn single(d: u32) -> bool {
    d != 0 && d & (d - 1) == 0
}

/// Removes fixed values from the other domains, in waves: the values fixed by one wave are
/// the only ones the next wave has to remove. Returns the fixed values.
fn naked_singles(doms: &mut [u32]) -> Result<u32, Conflict> {
    let mut fixed = 0u32;
    for &d in doms.iter() {
        if single(d) {
            if fixed & d != 0 {
                return Err(Conflict);
            }
            fixed |= d;
        }
    }
    let mut wave = fixed;
    while wave != 0 {
        let mut newly = 0u32;
        for d in doms.iter_mut() {
            let old = *d;
            if old & wave != 0 && !single(old) {
                let new = old & !wave;
                if new == 0 {
                    return Err(Conflict);
                }
                *d = new;
                if single(new) {
                    if (newly | fixed) & new != 0 {
                        return Err(Conflict);
                    }
                    newly |= new;
                }
            }
        }
        fixed |= newly;
        wave = newly;
    }
    Ok(fixed)
}

/// Places values that have a single possible variable (every value must be used); `fixed`
/// holds the values already fixed. Returns whether anything changed.
fn hidden_singles(doms: &mut [u32], fixed: u32) -> Result<bool, Conflict> {
    let (mut once, mut twice) = (0u32, 0u32);
    for &d in doms.iter() {
        twice |= once & d;
        once |= d;
    }
    if (once.count_ones() as usize) < doms.len() {
        return Err(Conflict);
    }
    let hidden = once & !twice & !fixed;
    if hidden == 0 {
        return Ok(false);
    }
    for d in doms.iter_mut() {
        let h = *d & hidden;
        if h != 0 {
            if !single(h) {
                return Err(Conflict);
            }
            *d = h;
        }
    }
    Ok(true)
}

/// For each small unfixed domain D, counts the domains that lie within D: more than |D|
/// fails; exactly |D| removes D's values from every other domain (naked pairs, triples,
/// ...). Returns whether anything changed.
fn hall_sets(doms: &mut [u32]) -> Result<bool, Conflict> {
    // Only unfixed domains matter (fixed values have already left the others), and late in
    // a search few are left: work on those alone.
    let mut open = [0usize; 32];
    let mut count = 0;
    for (i, &d) in doms.iter().enumerate() {
        if !single(d) && count < open.len() {
            open[count] = i;
            count += 1;
        }
    }
    if count < 3 || count == open.len() && doms.len() > open.len() {
        return Ok(false);
    }
    let open = &open[..count];
    let mut changed = false;
    for &i in open {
        let hall = doms[i];
        let size = hall.count_ones() as usize;
        if size >= count {
            continue;
        }
        let inside = open.iter().filter(|&&j| doms[j] & !hall == 0).count();
        if inside > size {
            return Err(Conflict);
        }
        if inside < size {
            continue;
        }
        for &j in open {
            let d = doms[j];
            if d & !hall != 0 && d & hall != 0 {
                doms[j] = d & !hall;
                changed = true;
            }
        }
    }
    Ok(changed)
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
