//! The contract between the search and its propagators: what a propagator may assume when
//! it runs, and what it is told when the search goes back (in the manner of Pumpkin's
//! propagator trait, where `synchronise` is called after every backtrack).
//!
//! The search promises:
//!
//! 1. Domains change only through [`State::set`], which puts the old domain on the trail,
//!    so every change a propagator has not seen yet can be read back with
//!    [`State::changes_since`].
//! 2. After it loads new domains ([`State::load`], a new subproblem) it calls
//!    [`Propagate::reload`] on every propagator: nothing carries over.
//! 3. After it undoes the trail to a mark ([`State::undo`]) it calls
//!    [`Propagate::backtrack`] with that mark: the domains are again what they were when
//!    the trail had that length, and the changes made after it are gone. Under maintained
//!    arc consistency the search takes its marks at fixed points of every propagator
//!    (after a successful propagation, or on propagated domains it loaded), so the
//!    domains there are one.
//! 4. [`Propagate::propagate`] runs while the propagator is queued. A run that fails is
//!    followed by a `backtrack` or a `reload` before the next run.
//!
//! In return a propagator narrows domains only through the state, runs to its own fixed
//! point (it is not requeued by its own changes), and reports an impossible constraint as
//! a [`Conflict`]. A propagator that keeps nothing between runs ignores 2 and 3; one that
//! does (such as [`Bands`](super::Bands)) says so with [`Propagate::keeps_memory`], and only
//! those are told.

use super::super::state::{EmptyDomain, State};

/// A propagation failed: some domain became empty or a constraint cannot hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Conflict;

/// Result of a propagation step.
pub type PropResult = Result<(), Conflict>;

impl From<EmptyDomain> for Conflict {
    fn from(_: EmptyDomain) -> Conflict {
        Conflict
    }
}

/// A constraint's algorithms, at the three strengths of the search algorithms, and the
/// hooks through which the search keeps its side of the contract above.
pub trait Propagate {
    /// The variables this propagator watches.
    fn vars(&self) -> &[u32];

    /// Full propagation to the propagator's own fixed point (MAC).
    fn propagate(&mut self, state: &mut State) -> PropResult;

    /// One pass of pruning after `var` was fixed (FC).
    fn forward_check(&self, state: &mut State, var: usize) -> PropResult;

    /// Whether the fixed variables can still satisfy the constraint (BT).
    fn check(&self, state: &State) -> bool;

    /// Whether the propagator keeps anything from one run to the next, and so must hear of
    /// reloads and backtracks.
    fn keeps_memory(&self) -> bool {
        false
    }

    /// The state's domains were replaced: forget everything kept from earlier runs.
    fn reload(&mut self) {}

    /// The state's trail was undone to `mark`: anything kept from after it is stale.
    fn backtrack(&mut self, _mark: usize) {}
}
