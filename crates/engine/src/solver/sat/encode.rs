//! The CNF encoding of a model, built from its propagated domains.
//!
//! Only what the root propagation left open is encoded: a variable fixed there is a
//! constant, and a value gone from a domain is a false literal, so the formula is as small
//! as the propagated problem. The parts:
//!
//! - **cells**: one Boolean per open variable and value still in its domain ("`v` takes
//!   `d`"), exactly one true per variable;
//! - **a sum with all-different over the same variables** (a Kakuro run, a killer cage):
//!   the run chooses exactly one of the digit combinations that still reach its total; a
//!   cell's value must belong to the chosen combination, every digit of the chosen
//!   combination is placed in the run, and no digit is placed twice. This is the encoding
//!   that lets clause learning reason about runs as a whole;
//! - **an all-different**: at most one variable takes each value; exactly one where the
//!   variables are a permutation of their values (Sudoku rows, columns and boxes);
//! - **a plain sum**: a chain of partial sums ("the first `i` variables add up to `s`"),
//!   where a step that can no longer reach the total is forbidden.
//!
//! The encoding is pure data ([`Cnf`]), so it is tested without a SAT solver.

use crate::model::{Constraint, Domain, Model, VarId};
use std::collections::{BTreeMap, HashMap};

/// More combinations than this for one fused sum and all-different, and the two are
/// encoded apart (an all-different and a plain sum): only grids with values above 9 get
/// near it.
const MAX_COMBINATIONS: usize = 4_096;
/// At-most-one over more literals than this uses a sequential counter instead of pairs.
const PAIRWISE_AT_MOST: usize = 10;

/// A literal or a constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Lit {
    /// Always true.
    True,
    /// Always false.
    False,
    /// A SAT variable (positive) or its negation (negative), as in DIMACS.
    Var(i32),
}

impl std::ops::Not for Lit {
    type Output = Lit;
    fn not(self) -> Lit {
        match self {
            Lit::True => Lit::False,
            Lit::False => Lit::True,
            Lit::Var(v) => Lit::Var(-v),
        }
    }
}

/// A formula in conjunctive normal form, with the meaning of its cell variables.
#[derive(Clone, Debug, Default)]
pub(crate) struct Cnf {
    /// Number of SAT variables (they are numbered 1..=num_vars).
    pub num_vars: i32,
    /// The clauses; an empty clause makes the formula unsatisfiable.
    pub clauses: Vec<Vec<i32>>,
    /// For each model variable: its value when fixed, or the literal of each value left.
    pub cells: Vec<Cell>,
}

/// How one model variable appears in the formula.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Cell {
    /// Fixed by the root propagation.
    Fixed(u32),
    /// Open: `(value, SAT variable)` for each value still in the domain.
    Open(Vec<(u32, i32)>),
}

impl Cnf {
    /// The literal "`var` takes `value`".
    pub fn lit(&self, var: VarId, value: u32) -> Lit {
        match &self.cells[var] {
            Cell::Fixed(fixed) => {
                if *fixed == value {
                    Lit::True
                } else {
                    Lit::False
                }
            }
            Cell::Open(values) => values
                .iter()
                .find(|(v, _)| *v == value)
                .map_or(Lit::False, |&(_, sat)| Lit::Var(sat)),
        }
    }

    /// Reads the model's values off a satisfying assignment (`is_true` of a SAT variable).
    pub fn decode(&self, mut is_true: impl FnMut(i32) -> bool) -> Vec<u32> {
        self.cells
            .iter()
            .map(|cell| match cell {
                Cell::Fixed(value) => *value,
                Cell::Open(values) => {
                    values.iter().find(|&&(_, sat)| is_true(sat)).map_or(0, |&(value, _)| value)
                }
            })
            .collect()
    }

    /// The clause forbidding the values `values` gives `vars` (with every variable: `values`).
    pub fn forbidding(&self, values: &[u32], vars: impl IntoIterator<Item = VarId>) -> Vec<i32> {
        let literal = |var| match self.lit(var, *values.get(var)?) {
            Lit::Var(sat) => Some(-sat),
            Lit::True | Lit::False => None,
        };
        vars.into_iter().filter_map(literal).collect()
    }

    /// A fresh SAT variable.
    fn fresh_var(&mut self) -> i32 {
        self.num_vars += 1;
        self.num_vars
    }

    /// A fresh SAT variable, as a literal.
    fn fresh(&mut self) -> Lit {
        Lit::Var(self.fresh_var())
    }

    /// Adds the clause `lits`: dropped when a literal is true; false literals left out.
    fn clause(&mut self, lits: impl IntoIterator<Item = Lit>) {
        let mut clause = Vec::new();
        for lit in lits {
            match lit {
                Lit::True => return,
                Lit::False => {}
                Lit::Var(v) => clause.push(v),
            }
        }
        self.clauses.push(clause);
    }

    /// At most one of `lits` is true.
    fn at_most_one(&mut self, lits: &[Lit]) {
        let trues = lits.iter().filter(|&&l| l == Lit::True).count();
        if trues > 1 {
            self.clause([]);
            return;
        }
        let open: Vec<Lit> = lits.iter().copied().filter(|l| matches!(l, Lit::Var(_))).collect();
        if trues == 1 {
            for &lit in &open {
                self.clause([!lit]);
            }
        } else if open.len() <= PAIRWISE_AT_MOST {
            for (i, &a) in open.iter().enumerate() {
                for &b in &open[i + 1..] {
                    self.clause([!a, !b]);
                }
            }
        } else {
            // Sinz's sequential counter: `seen[i]` holds once one of the first i+1 is true.
            let mut seen = open[0];
            for &lit in &open[1..] {
                let next = self.fresh();
                self.clause([!seen, next]);
                self.clause([!lit, next]);
                self.clause([!seen, !lit]);
                seen = next;
            }
        }
    }

    /// Exactly one of `lits` is true.
    fn exactly_one(&mut self, lits: &[Lit]) {
        self.clause(lits.iter().copied());
        self.at_most_one(lits);
    }
}

/// Encodes `model` restricted to `domains` (one per variable, as the root propagation left
/// them).
pub(crate) fn encode(model: &Model, domains: &[Domain]) -> Cnf {
    let mut cnf = Cnf::default();
    for domain in domains {
        let cell = match domain.value() {
            Some(value) => Cell::Fixed(value),
            None => {
                // One variable per value left, exactly one of them true.
                let values: Vec<(u32, i32)> =
                    domain.iter().map(|value| (value, cnf.fresh_var())).collect();
                let lits: Vec<Lit> = values.iter().map(|&(_, sat)| Lit::Var(sat)).collect();
                cnf.exactly_one(&lits);
                Cell::Open(values)
            }
        };
        cnf.cells.push(cell);
    }
    for constraint in grouped(model) {
        match constraint {
            Grouped::DistinctSum { vars, total } => {
                if !distinct_sum(&mut cnf, vars, total, domains) {
                    all_different(&mut cnf, vars, model);
                    sum(&mut cnf, vars, total, domains);
                }
            }
            Grouped::AllDifferent(vars) => all_different(&mut cnf, vars, model),
            Grouped::Sum { vars, total } => sum(&mut cnf, vars, total, domains),
        }
    }
    cnf
}

/// A model constraint, with each sum paired with an all-different over the same variables.
enum Grouped<'m> {
    DistinctSum { vars: &'m [VarId], total: u32 },
    AllDifferent(&'m [VarId]),
    Sum { vars: &'m [VarId], total: u32 },
}

/// Pairs every sum with an all-different over the same set of variables, if there is one.
fn grouped(model: &Model) -> Vec<Grouped<'_>> {
    let sorted = |vars: &[VarId]| {
        let mut key = vars.to_vec();
        key.sort_unstable();
        key
    };
    let mut partners: HashMap<Vec<VarId>, Vec<usize>> = HashMap::new();
    for (i, c) in model.constraints.iter().enumerate() {
        if let Constraint::AllDifferent { vars } = c {
            partners.entry(sorted(vars)).or_default().push(i);
        }
    }
    let mut fused = vec![false; model.constraints.len()];
    let mut out = Vec::with_capacity(model.constraints.len());
    for c in &model.constraints {
        if let Constraint::Sum { vars, total } = c {
            let partner = partners.get_mut(&sorted(vars)).and_then(Vec::pop);
            match partner {
                Some(j) => {
                    fused[j] = true;
                    out.push(Grouped::DistinctSum { vars, total: *total });
                }
                None => out.push(Grouped::Sum { vars, total: *total }),
            }
        }
    }
    for (i, c) in model.constraints.iter().enumerate() {
        if let Constraint::AllDifferent { vars } = c
            && !fused[i]
        {
            out.push(Grouped::AllDifferent(vars));
        }
    }
    out
}

/// Encodes distinct values summing to `total` by choice of combination; false (nothing
/// added) when there are too many combinations to list.
fn distinct_sum(cnf: &mut Cnf, vars: &[VarId], total: u32, domains: &[Domain]) -> bool {
    let mut open = Vec::new();
    let mut fixed = Domain::EMPTY;
    let mut fixed_sum = 0u32;
    for &v in vars {
        match domains[v].value() {
            Some(value) => {
                if fixed.contains(value) {
                    cnf.clause([]);
                    return true;
                }
                fixed = fixed.union(Domain::single(value));
                fixed_sum += value;
            }
            None => open.push(v),
        }
    }
    let Some(rest) = total.checked_sub(fixed_sum) else {
        cnf.clause([]);
        return true;
    };
    let candidates: Vec<u32> = open
        .iter()
        .fold(Domain::EMPTY, |acc, &v| acc.union(domains[v]))
        .without(fixed)
        .iter()
        .collect();
    let Some(combos) = combinations(&candidates, open.len(), rest) else { return false };
    if combos.is_empty() {
        cnf.clause([]);
        return true;
    }
    // Exactly one combination is chosen (one alone needs no choice).
    let chosen: Vec<Lit> = if combos.len() == 1 {
        vec![Lit::True]
    } else {
        combos.iter().map(|_| cnf.fresh()).collect()
    };
    cnf.exactly_one(&chosen);
    for &v in &open {
        // The cell's value belongs to the chosen combination; a fixed digit is not repeated.
        for value in domains[v].iter() {
            let cell = cnf.lit(v, value);
            let holders =
                combos.iter().zip(&chosen).filter(|(c, _)| c.contains(value)).map(|(_, &s)| s);
            cnf.clause(std::iter::once(!cell).chain(holders));
        }
    }
    for (combo, &choice) in combos.iter().zip(&chosen) {
        // Every digit of the chosen combination is placed.
        for value in combo.iter() {
            let places: Vec<Lit> = open.iter().map(|&v| cnf.lit(v, value)).collect();
            cnf.clause(std::iter::once(!choice).chain(places));
        }
    }
    for &value in &candidates {
        let places: Vec<Lit> = open.iter().map(|&v| cnf.lit(v, value)).collect();
        cnf.at_most_one(&places);
    }
    true
}

/// The sets of `count` distinct values from `candidates` (ascending) that add up to
/// `total`; `None` when there are more than [`MAX_COMBINATIONS`].
fn combinations(candidates: &[u32], count: usize, total: u32) -> Option<Vec<Domain>> {
    fn extend(
        candidates: &[u32],
        count: usize,
        total: u32,
        chosen: Domain,
        out: &mut Vec<Domain>,
    ) -> bool {
        if count == 0 {
            if total == 0 {
                out.push(chosen);
            }
            return out.len() <= MAX_COMBINATIONS;
        }
        for (i, &value) in candidates.iter().enumerate() {
            // The smallest sum of `count` values from here on is already too much.
            let least: u32 = candidates[i..].iter().take(count).sum();
            if candidates.len() - i < count || least > total {
                break;
            }
            let rest = &candidates[i + 1..];
            if !extend(rest, count - 1, total - value, chosen.union(Domain::single(value)), out) {
                return false;
            }
        }
        true
    }
    let mut out = Vec::new();
    extend(candidates, count, total, Domain::EMPTY, &mut out).then_some(out)
}

/// At most one of `vars` takes each value; exactly one where they are a permutation of the
/// values of their initial domains.
fn all_different(cnf: &mut Cnf, vars: &[VarId], model: &Model) {
    let values = vars.iter().fold(Domain::EMPTY, |acc, &v| acc.union(model.domains[v]));
    let permutation = values.len() as usize == vars.len();
    for value in values.iter() {
        let places: Vec<Lit> = vars.iter().map(|&v| cnf.lit(v, value)).collect();
        if permutation {
            cnf.exactly_one(&places);
        } else {
            cnf.at_most_one(&places);
        }
    }
}

/// `vars` add up to `total`, by a chain of partial sums: "the first `i` variables add up
/// to `s`" is implied by each way to get there, and a step that cannot reach the total any
/// more (the rest's smallest and largest sums bound it) is forbidden.
fn sum(cnf: &mut Cnf, vars: &[VarId], total: u32, domains: &[Domain]) {
    let bound = |f: fn(Domain) -> Option<u32>, from: usize| -> u32 {
        vars[from..].iter().map(|&v| f(domains[v]).unwrap_or(0)).sum()
    };
    let mut partial: BTreeMap<u32, Lit> = BTreeMap::from([(0, Lit::True)]);
    for (i, &var) in vars.iter().enumerate() {
        let (least, most) = (bound(Domain::min, i + 1), bound(Domain::max, i + 1));
        let last = i + 1 == vars.len();
        let mut next: BTreeMap<u32, Lit> = BTreeMap::new();
        for (&sum, &reached) in &partial {
            for value in domains[var].iter() {
                let takes = cnf.lit(var, value);
                let to = sum + value;
                if to + least > total || to + most < total {
                    cnf.clause([!reached, !takes]);
                } else if !last {
                    let lit = match next.get(&to) {
                        Some(&lit) => lit,
                        None => {
                            let lit = cnf.fresh();
                            next.insert(to, lit);
                            lit
                        }
                    };
                    cnf.clause([!reached, !takes, lit]);
                }
            }
        }
        partial = next;
    }
    if vars.is_empty() && total != 0 {
        cnf.clause([]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every assignment of the open cells that satisfies `cnf` (by brute force over the
    /// auxiliary variables too: tiny formulas only).
    fn models(cnf: &Cnf) -> Vec<Vec<u32>> {
        let n = cnf.num_vars as u32;
        assert!(n <= 22, "too big to enumerate");
        let mut out = Vec::new();
        for bits in 0u32..(1 << n) {
            let is_true = |v: i32| bits >> (v - 1) & 1 == 1;
            let holds = cnf.clauses.iter().all(|c| c.iter().any(|&l| is_true(l.abs()) == (l > 0)));
            if holds {
                let values = cnf.decode(is_true);
                if !out.contains(&values) {
                    out.push(values);
                }
            }
        }
        out.sort();
        out
    }

    fn model(domains: &[Domain], constraints: Vec<Constraint>) -> Model {
        Model { domains: domains.to_vec(), constraints }
    }

    #[test]
    fn a_run_allows_exactly_its_combinations() {
        // Two cells summing to 4, distinct: 1+3 or 3+1.
        let domains = [Domain::range(1, 3), Domain::range(1, 3)];
        let m = model(
            &domains,
            vec![
                Constraint::Sum { vars: vec![0, 1], total: 4 },
                Constraint::AllDifferent { vars: vec![0, 1] },
            ],
        );
        assert_eq!(models(&encode(&m, &domains)), vec![vec![1, 3], vec![3, 1]]);
    }

    #[test]
    fn a_plain_sum_allows_repeats_and_a_fixed_cell_counts() {
        let domains = [Domain::range(1, 3), Domain::single(2), Domain::range(1, 3)];
        let m = model(&domains, vec![Constraint::Sum { vars: vec![0, 1, 2], total: 6 }]);
        assert_eq!(
            models(&encode(&m, &domains)),
            vec![vec![1, 2, 3], vec![2, 2, 2], vec![3, 2, 1]]
        );
    }

    #[test]
    fn a_permutation_places_every_value() {
        let domains = [Domain::range(1, 3); 3];
        let m = model(&domains, vec![Constraint::AllDifferent { vars: vec![0, 1, 2] }]);
        assert_eq!(models(&encode(&m, &domains)).len(), 6);
    }

    #[test]
    fn an_unreachable_total_is_unsatisfiable() {
        let domains = [Domain::range(1, 2), Domain::range(1, 2)];
        let m = model(
            &domains,
            vec![
                Constraint::Sum { vars: vec![0, 1], total: 4 },
                Constraint::AllDifferent { vars: vec![0, 1] },
            ],
        );
        assert!(models(&encode(&m, &domains)).is_empty());
    }

    #[test]
    fn a_long_at_most_one_uses_the_counter() {
        let domains = [Domain::range(1, 2); 12];
        let m = model(&domains, vec![Constraint::AllDifferent { vars: (0..12).collect() }]);
        let cnf = encode(&m, &domains);
        // 12 cells of two values cannot all differ; the counter must say so.
        assert!(cnf.num_vars > 24, "auxiliary counter variables");
        let mut solver = cadical_sys::CaDiCal::new();
        for clause in &cnf.clauses {
            solver.clause6(clause);
        }
        assert_eq!(solver.solve(), cadical_sys::Status::UNSATISFIABLE);
    }

    #[test]
    fn a_forbidding_clause_forbids_every_assignment_with_the_values_it_names() {
        let domains = [Domain::range(1, 2), Domain::range(1, 2), Domain::single(1)];
        let distinct = Constraint::AllDifferent { vars: vec![0, 1] };
        let mut cnf = encode(&model(&domains, vec![distinct]), &domains);
        cnf.clauses.push(cnf.forbidding(&[1, 2, 1], 0..3));
        assert_eq!(models(&cnf), vec![vec![2, 1, 1]]);
        // Over the first variable and the fixed third, which adds nothing.
        let mut cnf = encode(&model(&domains, Vec::new()), &domains);
        cnf.clauses.push(cnf.forbidding(&[1, 2, 1], [0, 2]));
        assert_eq!(models(&cnf), vec![vec![2, 1, 1], vec![2, 2, 1]]);
    }
}
