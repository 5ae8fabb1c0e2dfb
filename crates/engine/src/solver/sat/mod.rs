//! The SAT engine: the propagated model as CNF ([`mod@encode`]), solved by the CDCL SAT
//! solver CaDiCaL ([`cadical`]). Its whole interface is [`encode()`] and [`solve`]: one
//! solver, toward a [`Goal`](super::goal::Goal), until the goal's termination says stop.
//! Running several solvers, or racing the depth-first search, is the portfolio's business.
//!
//! Depth-first search learns nothing from its failures, so on large grids with many short
//! runs it can sink into failing subtrees that clause learning cuts short in seconds. The
//! SAT engine is complete: it finds solutions (`first`), proves a found one unique by
//! forbidding it and solving again (`unique`), counts by the same means, and proves that
//! there is no solution.

pub(crate) mod cadical;
pub(crate) mod encode;
#[cfg(test)]
mod tests;

pub(crate) use cadical::{Solutions, solve};
pub(crate) use encode::encode;
