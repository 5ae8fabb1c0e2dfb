//! The constraint model every puzzle kind compiles to: integer variables with small bitset
//! domains, and two kinds of constraint, `Sum` and `AllDifferent`.
//!
//! The model is plain data. The solver turns it into propagators (see `solver::propagators`);
//! a `Sum` and an `AllDifferent` over the same variables (a Kakuro run, a killer cage) are
//! fused there into one exact propagator. The bitset [`Domain`] lives here, with the
//! model, so the puzzles that build models and the solver that reads them both depend on
//! the model and never on each other.

pub mod domain;

pub use domain::Domain;

/// Index of a variable in a [`Model`].
pub type VarId = usize;

/// One constraint of the model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Constraint {
    /// The values of `vars` add up to `total`.
    Sum {
        /// The summed variables.
        vars: Vec<VarId>,
        /// The required total.
        total: u32,
    },
    /// The values of `vars` are pairwise different.
    AllDifferent {
        /// The variables that must differ.
        vars: Vec<VarId>,
    },
}

impl Constraint {
    /// The variables this constraint mentions.
    pub fn vars(&self) -> &[VarId] {
        match self {
            Constraint::Sum { vars, .. } | Constraint::AllDifferent { vars } => vars,
        }
    }
}

/// Variables with their initial domains, and the constraints over them.
#[derive(Clone, Debug, Default)]
pub struct Model {
    /// Initial domain of each variable; a variable's id is its index here.
    pub domains: Vec<Domain>,
    /// The constraints, in the order the puzzle produced them.
    pub constraints: Vec<Constraint>,
}

impl Model {
    /// Adds a variable with the given initial domain and returns its id.
    pub fn new_var(&mut self, domain: Domain) -> VarId {
        self.domains.push(domain);
        self.domains.len() - 1
    }

    /// Number of variables.
    pub fn num_vars(&self) -> usize {
        self.domains.len()
    }

    /// Posts `vars` sum to `total`.
    pub fn sum(&mut self, vars: Vec<VarId>, total: u32) {
        self.constraints.push(Constraint::Sum { vars, total });
    }

    /// Posts `vars` pairwise different.
    pub fn all_different(&mut self, vars: Vec<VarId>) {
        self.constraints.push(Constraint::AllDifferent { vars });
    }

    /// True when `values` (one per variable) satisfies every constraint. Used by tests and
    /// debug checks; the independent check of a puzzle's solution lives in `verify`.
    pub fn is_satisfied_by(&self, values: &[u32]) -> bool {
        if values.len() != self.domains.len() {
            return false;
        }
        let in_domains = values.iter().zip(&self.domains).all(|(&v, d)| d.contains(v));
        in_domains
            && self.constraints.iter().all(|c| match c {
                Constraint::Sum { vars, total } => {
                    vars.iter().map(|&v| values[v]).sum::<u32>() == *total
                }
                Constraint::AllDifferent { vars } => {
                    let mut seen = 0u64;
                    vars.iter().all(|&v| {
                        let bit = 1u64 << values[v];
                        let fresh = seen & bit == 0;
                        seen |= bit;
                        fresh
                    })
                }
            })
    }
}
