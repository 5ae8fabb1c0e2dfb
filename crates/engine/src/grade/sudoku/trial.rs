//! Trial, the last resort below a search: a digit whose assumption, followed with the
//! levels up to hard, leads to a contradiction is removed.

use super::{Shape, State};
use crate::grade::{Budget, Difficulty, Technique};

impl State {
    /// Assumes one digit of a cell with two (then three) candidates and follows the levels
    /// up to hard; a contradiction removes the digit.
    pub(super) fn trial(&mut self, shape: &Shape, budget: Budget<'_>) -> bool {
        for size in 2..=3 {
            for cell in 0..shape.n * shape.n {
                let mask = self.logic.candidates[cell];
                if mask.count_ones() != size {
                    continue;
                }
                let mut rest = mask;
                while rest != 0 {
                    let digit = rest & rest.wrapping_neg();
                    rest &= rest - 1;
                    let mut assumed = self.clone();
                    assumed.journal = None;
                    assumed.logic.candidates[cell] = digit;
                    // Up to hard: the chains' search is too dear to repeat per assumption.
                    assumed.run(shape, Difficulty::Hard, budget);
                    if assumed.out_of_budget {
                        self.out_of_budget = true;
                        return false;
                    }
                    if assumed.logic.contradiction {
                        self.remove(cell, digit);
                        self.used(Technique::Trial, &[], &[cell]);
                        return true;
                    }
                }
            }
        }
        false
    }
}
