//! Decomposition of a propagated problem into independent parts.
//!
//! After root propagation, two unfixed variables depend on each other only through a chain
//! of constraints over unfixed variables; the connected components of that graph can be
//! solved separately, and a solution of the whole is one solution of each part put
//! together with the fixed variables. On big Kakuro grids this turns one search that
//! thrashes between distant regions into several small ones.
//!
//! Each component becomes a model of its own: its unfixed variables, the fixed variables
//! that share a constraint with them (as single-value variables), and every constraint
//! that touches it.

use crate::model::{Constraint, Domain, Model, VarId};

/// One independent part of a problem.
#[derive(Clone, Debug)]
pub(crate) struct Component {
    /// The part as a model of its own.
    pub model: Model,
    /// `vars[i]` is the variable of the whole model that variable `i` of `model` stands for.
    pub vars: Vec<VarId>,
    /// Unfixed variables in this part.
    pub open: usize,
}

/// How many of `domains` are open (not fixed to one value).
pub(super) fn open_count(domains: &[Domain]) -> usize {
    domains.iter().filter(|d| !d.is_fixed()).count()
}

/// Splits the problem `model` restricted to `domains` into its independent parts, largest
/// first. Returns an empty list when no variable is open.
pub(crate) fn split(model: &Model, domains: &[Domain]) -> Vec<Component> {
    // One numbering reused by every part: a fresh one per part would cost the whole
    // model's size each time, quadratic on a grid left in hundreds of parts.
    let mut local = vec![usize::MAX; domains.len()];
    let mut parts: Vec<Component> = groups(model, domains)
        .into_iter()
        .map(|group| build_with(&mut local, model, domains, group.vars, &group.constraints))
        .collect();
    parts.sort_by_key(|part| std::cmp::Reverse(part.open));
    parts
}

/// The open variables of one independent part, and the constraints that touch them.
pub(super) struct Group {
    pub vars: Vec<VarId>,
    pub constraints: Vec<usize>,
}

/// The independent parts of `model` restricted to `domains`, as groups of variables and
/// constraints (numbered by the first open variable met, so deterministically), not yet
/// built into models: [`split`], for a caller that builds each part later, from values
/// that are not known yet.
pub(super) fn groups(model: &Model, domains: &[Domain]) -> Vec<Group> {
    let n = domains.len();
    let open = |v: VarId| !domains[v].is_fixed();
    let mut sets = DisjointSets::new(n);
    for constraint in &model.constraints {
        let mut first = None;
        for &v in constraint.vars().iter().filter(|&&v| open(v)) {
            match first {
                None => first = Some(v),
                Some(f) => sets.union(f, v),
            }
        }
    }
    let mut index_of_root = vec![usize::MAX; n];
    let mut groups: Vec<Group> = Vec::new();
    for v in (0..n).filter(|&v| open(v)) {
        let root = sets.find(v);
        if index_of_root[root] == usize::MAX {
            index_of_root[root] = groups.len();
            groups.push(Group { vars: Vec::new(), constraints: Vec::new() });
        }
        groups[index_of_root[root]].vars.push(v);
    }
    for (c, constraint) in model.constraints.iter().enumerate() {
        if let Some(&v) = constraint.vars().iter().find(|&&v| open(v)) {
            groups[index_of_root[sets.find(v)]].constraints.push(c);
        }
    }
    groups
}

/// The model of one component: its open variables first, then the fixed ones it needs.
pub(super) fn build(
    model: &Model,
    domains: &[Domain],
    open_vars: Vec<VarId>,
    constraints: &[usize],
) -> Component {
    build_with(&mut vec![usize::MAX; domains.len()], model, domains, open_vars, constraints)
}

/// [`build`] with `local`, the whole model's variables numbered in the part, all
/// `usize::MAX` on entry and again on return.
fn build_with(
    local: &mut [usize],
    model: &Model,
    domains: &[Domain],
    open_vars: Vec<VarId>,
    constraints: &[usize],
) -> Component {
    let open = open_vars.len();
    let mut vars = open_vars;
    for (i, &v) in vars.iter().enumerate() {
        local[v] = i;
    }
    let mut part = Model::default();
    for &v in &vars {
        part.new_var(domains[v]);
    }
    for &c in constraints {
        let mut mapped = Vec::with_capacity(model.constraints[c].vars().len());
        for &v in model.constraints[c].vars() {
            if local[v] == usize::MAX {
                local[v] = vars.len();
                vars.push(v);
                part.new_var(domains[v]);
            }
            mapped.push(local[v]);
        }
        part.constraints.push(match &model.constraints[c] {
            Constraint::Sum { total, .. } => Constraint::Sum { vars: mapped, total: *total },
            Constraint::AllDifferent { .. } => Constraint::AllDifferent { vars: mapped },
        });
    }
    for &v in &vars {
        local[v] = usize::MAX;
    }
    Component { model: part, vars, open }
}

/// Writes a component's solution into `values` (one value per variable of the whole model).
pub(crate) fn place(part: &Component, solution: &[u32], values: &mut [u32]) {
    for (&v, &value) in part.vars.iter().zip(solution) {
        values[v] = value;
    }
}

/// Union-find with path halving and union by size.
struct DisjointSets {
    parent: Vec<usize>,
    size: Vec<usize>,
}

impl DisjointSets {
    fn new(n: usize) -> Self {
        DisjointSets { parent: (0..n).collect(), size: vec![1; n] }
    }

    fn find(&mut self, mut x: usize) -> usize {
        while self.parent[x] != x {
            self.parent[x] = self.parent[self.parent[x]];
            x = self.parent[x];
        }
        x
    }

    fn union(&mut self, a: usize, b: usize) {
        let (mut a, mut b) = (self.find(a), self.find(b));
        if a == b {
            return;
        }
        if self.size[a] < self.size[b] {
            std::mem::swap(&mut a, &mut b);
        }
        self.parent[b] = a;
        self.size[a] += self.size[b];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two sums over disjoint variables, linked only through the fixed variable 2.
    fn two_parts() -> Model {
        let mut m = Model::default();
        for _ in 0..5 {
            m.new_var(Domain::range(1, 9));
        }
        m.sum(vec![0, 1, 2], 10);
        m.all_different(vec![0, 1, 2]);
        m.sum(vec![2, 3, 4], 12);
        m
    }

    #[test]
    fn a_fixed_variable_separates_parts() {
        let m = two_parts();
        let mut domains = m.domains.clone();
        domains[2] = Domain::single(3);
        let parts = split(&m, &domains);
        assert_eq!(parts.len(), 2);
        for part in &parts {
            assert_eq!(part.open, 2);
            // The fixed variable comes along as a single-value variable.
            assert!(part.vars.contains(&2));
            assert_eq!(
                part.model.domains[part.vars.iter().position(|&v| v == 2).unwrap()],
                Domain::single(3)
            );
        }
        let (a, b) = (&parts[0], &parts[1]);
        assert_eq!(a.vars[..2], [0, 1]);
        assert_eq!(b.vars[..2], [3, 4]);
        assert_eq!(a.model.constraints.len(), 2);
        assert_eq!(b.model.constraints.len(), 1);
        // Solutions of the parts combine into a solution of the whole.
        let mut values = vec![0; 5];
        place(a, &[2, 5, 3], &mut values);
        place(b, &[4, 5, 3], &mut values);
        assert!(m.is_satisfied_by(&values));
    }

    #[test]
    fn open_chain_stays_one_part_and_fixed_problem_has_none() {
        let m = two_parts();
        let parts = split(&m, &m.domains);
        assert_eq!(parts.len(), 1);
        assert_eq!(parts[0].open, 5);
        let fixed: Vec<Domain> = [2, 5, 3, 4, 5].map(Domain::single).to_vec();
        assert!(split(&m, &fixed).is_empty());
    }
}
