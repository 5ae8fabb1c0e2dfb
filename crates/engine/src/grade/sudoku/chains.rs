//! Chains: alternating inference chains over the candidates. A strong link joins two
//! candidates of which one at least is true (the digit's only two places in a unit, or a
//! cell's only two digits), a weak link two of which one at most is (a digit in two cells
//! that see each other, or two digits of one cell). A chain that starts from a candidate
//! assumed false and follows strong, weak, strong ... links ends on a candidate that must
//! then be true: one of its two ends is true, and what sees both goes. By its links it is
//! an X-Chain (one digit, its places), an XY-Chain (cells of two digits), a Remote Pair (an
//! XY-Chain of one pair) or, mixing them, an AIC (a discontinuous nice loop in HoDoKu's
//! terms when its ends share a cell). An AIC whose last link, a weak one, leads back to its
//! start closes a continuous nice loop: with `k` strong and `k` weak links over `2k`
//! distinct candidates, exactly one end of each link is true, so a weak link's ends hold
//! the digit between them (the cells that see both lose it) or hold the cell between them
//! (its other digits go). Definitions as in HoDoKu's chain and tabling solvers.
//!
//! The search is breadth first from each start, so each chain is the shortest to its end;
//! as HoDoKu sorts its chains, the one that removes the most candidates is taken, the
//! shortest of those. An implication stays sound even where a walk passes a cell twice. Chains are looked for on
//! grids up to 9x9 only: over all starts the search grows with the fourth power of the
//! grid's side, and larger grids go on to trial.

use super::{Shape, State};
use crate::grade::Technique;
use std::collections::VecDeque;

/// The largest grid chains are looked for on.
const MAX_SIDE: usize = 9;
/// The most links a chain may have.
const MAX_LINKS: usize = 16;

/// Which links a chain may take.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// One digit: its conjugate places and the cells that see each other.
    X,
    /// Cells of two digits: strong inside a cell, weak between cells on one digit.
    Xy,
    /// Every link.
    Any,
    /// Cells of one pair of digits (a Remote Pair), strong inside a cell, weak between.
    Remote,
}

/// A candidate: cell and digit.
type Node = (usize, u32);

/// A chain found: its nodes, start first, and what it removes (per cell, the digits).
pub(super) type Chain<N> = (Vec<N>, Vec<(usize, u32)>);

type Found = Chain<Node>;

impl State {
    /// The shortest Remote Pair that removes a candidate (HoDoKu looks for them before
    /// the single-digit patterns).
    pub(super) fn remote_pairs(&mut self, shape: &Shape) -> bool {
        shape.n <= MAX_SIDE && self.chain_of(shape, Kind::Remote)
    }

    /// The shortest chain of the kinds in HoDoKu's order (X-Chain, XY-Chain, then any
    /// AIC) that removes a candidate.
    pub(super) fn chains(&mut self, shape: &Shape) -> bool {
        if shape.n > MAX_SIDE {
            return false;
        }
        [Kind::X, Kind::Xy, Kind::Any].into_iter().any(|kind| self.chain_of(shape, kind))
    }

    /// The chain of `kind` that removes the most candidates (the shortest of those, the
    /// first start of those), applied, as HoDoKu sorts its chains.
    fn chain_of(&mut self, shape: &Shape, kind: Kind) -> bool {
        let mut best: Option<Found> = None;
        for cell in 0..shape.n * shape.n {
            let mask = self.logic.candidates[cell];
            let two_only = matches!(kind, Kind::Xy | Kind::Remote);
            if mask.is_power_of_two() || two_only && mask.count_ones() != 2 {
                continue;
            }
            for d in 1..=shape.n as u32 {
                if mask & 1 << d == 0 {
                    continue;
                }
                if let Some(found) = self.best_from(shape, kind, (cell, d)) {
                    keep_better(&mut best, found);
                }
            }
        }
        let Some((chain, removals)) = best else { return false };
        let technique = match kind {
            Kind::X => Technique::XChain,
            Kind::Remote => Technique::RemotePair,
            Kind::Xy if same_pair(self, &chain) => Technique::RemotePair,
            Kind::Xy => Technique::XyChain,
            Kind::Any if is_loop(&chain) => Technique::ContinuousNiceLoop,
            Kind::Any => Technique::Aic,
        };
        for &(cell, digits) in &removals {
            self.remove(cell, digits);
        }
        let cells: Vec<usize> = chain.iter().map(|&(c, _)| c).collect();
        self.used_chain(technique, &cells, chain);
        true
    }

    /// From `start` assumed false, the chain of `kind` (of at most [`MAX_LINKS`] links)
    /// that removes the most candidates, the shortest of those: its nodes (start first,
    /// alternately false and true) and the removals. A chain of the `Any` kind may close
    /// into a continuous nice loop, whose last node is `start` again.
    fn best_from(&self, shape: &Shape, kind: Kind, start: Node) -> Option<Found> {
        let index = |(cell, d): Node, truth: bool| (cell * 32 + d as usize) * 2 + truth as usize;
        let size = shape.n * shape.n * 64;
        let mut previous: Vec<Option<(Node, bool)>> = vec![None; size];
        let mut depth = vec![usize::MAX; size];
        let mut queue = VecDeque::from([(start, false)]);
        depth[index(start, false)] = 0;
        let path = |end: (Node, bool), previous: &[Option<(Node, bool)>]| {
            let mut chain = vec![end.0];
            let mut at = end;
            while let Some(back) = previous[index(at.0, at.1)] {
                chain.push(back.0);
                at = back;
            }
            chain.reverse();
            chain
        };
        let mut best: Option<Found> = None;
        while let Some((node, truth)) = queue.pop_front() {
            let links = depth[index(node, truth)];
            if truth && links > 1 {
                let removals = self.removals_of(shape, start, node);
                if !removals.is_empty() {
                    keep_better(&mut best, (path((node, truth), &previous), removals));
                }
                // A weak link back to the start closes a continuous nice loop.
                let closes = node.0 == start.0 || node.1 == start.1 && shape.sees(node.0, start.0);
                if kind == Kind::Any && links >= 3 && closes && node != start {
                    let mut chain = path((node, truth), &previous);
                    chain.push(start);
                    if let Some(removals) = self.loop_removals(shape, &chain) {
                        keep_better(&mut best, (chain, removals));
                    }
                }
            }
            if links >= MAX_LINKS {
                continue;
            }
            for next in self.links(shape, kind, node, truth, start) {
                let i = index(next, !truth);
                if depth[i] == usize::MAX {
                    depth[i] = links + 1;
                    previous[i] = Some((node, truth));
                    queue.push_back((next, !truth));
                }
            }
        }
        best
    }

    /// What a continuous nice loop removes (`chain`, its start again at its end): each
    /// of its weak links has one true end, so a cell it links weakly to itself keeps only
    /// those two digits, and what sees both ends of a weak link between cells loses the
    /// digit. `None` where a candidate comes twice (the loop proves nothing then) or it
    /// removes nothing.
    fn loop_removals(&self, shape: &Shape, chain: &[Node]) -> Option<Vec<(usize, u32)>> {
        if repeats(&chain[..chain.len() - 1]) {
            return None;
        }
        let holds = |cell: usize, d: u32| self.logic.candidates[cell] & 1 << d != 0;
        let mut removals = Vec::new();
        for pair in chain[1..].chunks_exact(2) {
            let [(c0, d0), (c1, d1)] = [pair[0], pair[1]];
            if c0 == c1 {
                let rest = self.logic.candidates[c0] & !(1 << d0 | 1 << d1);
                if rest != 0 {
                    removals.push((c0, rest));
                }
            } else {
                for &target in shape.peers(c0) {
                    if target != c1 && shape.sees(target, c1) && holds(target, d0) {
                        removals.push((target, 1 << d0));
                    }
                }
            }
        }
        removals.sort_unstable();
        removals.dedup();
        (!removals.is_empty()).then_some(removals)
    }

    /// The candidates a chain of `kind` reaches from `node` in one link: strong ones
    /// (they are true) from a false node, weak ones (false) from a true one. An X-Chain
    /// keeps to the digit of `start`, a Remote Pair to the pair of its cell.
    fn links(&self, shape: &Shape, kind: Kind, node: Node, truth: bool, start: Node) -> Vec<Node> {
        let (cell, d) = node;
        let bit = 1u32 << d;
        let mask = self.logic.candidates[cell];
        let mut next = Vec::new();
        let pair = self.logic.candidates[start.0];
        let bivalue = |c: usize| match kind {
            Kind::Remote => self.logic.candidates[c] == pair,
            _ => self.logic.candidates[c].count_ones() == 2,
        };
        if !truth {
            // Strong: the digit's other place in a unit where it has two.
            if matches!(kind, Kind::X | Kind::Any) {
                for &u in &shape.cell_units[cell] {
                    let unit = &shape.units[u];
                    let places = self.places(unit, bit);
                    if places.count_ones() == 2 {
                        next.extend(
                            unit.iter()
                                .copied()
                                .filter(|&c| c != cell && self.logic.candidates[c] & bit != 0)
                                .map(|c| (c, d)),
                        );
                    }
                }
            }
            // Strong: a cell's other digit when it has two.
            if kind != Kind::X && mask.count_ones() == 2 {
                next.push((cell, (mask & !bit).trailing_zeros()));
            }
        } else {
            // Weak: the digit in the cells that see this one.
            for &peer in shape.peers(cell) {
                let two_only = matches!(kind, Kind::Xy | Kind::Remote);
                if self.logic.candidates[peer] & bit != 0 && (!two_only || bivalue(peer)) {
                    next.push((peer, d));
                }
            }
            // Weak: the cell's other digits.
            if kind == Kind::Any {
                let mut rest = mask & !bit;
                while rest != 0 {
                    next.push((cell, rest.trailing_zeros()));
                    rest &= rest - 1;
                }
            }
        }
        if kind == Kind::X {
            next.retain(|&(_, e)| e == start.1);
        }
        next.sort_unstable();
        next.dedup();
        next
    }

    /// What a chain from `start` (false) to `end` (true) removes: one of the two holds.
    pub(super) fn removals_of(&self, shape: &Shape, start: Node, end: Node) -> Vec<(usize, u32)> {
        let ((c0, d0), (c1, d1)) = (start, end);
        let holds = |cell: usize, d: u32| self.logic.candidates[cell] & 1 << d != 0;
        let mut removals = Vec::new();
        if c0 == c1 {
            // The cell is one of the two digits (the same one: it is that digit).
            let keep = 1 << d0 | 1 << d1;
            let rest = self.logic.candidates[c0] & !keep;
            if rest != 0 {
                removals.push((c0, rest));
            }
        } else if d0 == d1 {
            for &target in shape.peers(c0) {
                if target != c1 && shape.sees(target, c1) && holds(target, d0) {
                    removals.push((target, 1 << d0));
                }
            }
        } else if shape.sees(c0, c1) {
            // Either c0 is d0 (so not d1) or c1 is d1, which c0 sees.
            if holds(c0, d1) {
                removals.push((c0, 1 << d1));
            }
            if holds(c1, d0) {
                removals.push((c1, 1 << d0));
            }
        }
        removals
    }
}

/// Keeps the chain `found` in `best` when it removes something
/// and goes before the one there (see [`better`]).
pub(super) fn keep_better<N>(best: &mut Option<Chain<N>>, found: Chain<N>) {
    if !found.1.is_empty() && best.as_ref().is_none_or(|b| better(&found, b)) {
        *best = Some(found);
    }
}

/// Whether the chain `a` goes before `b` (each its nodes and removals, per cell the
/// digits): more candidates removed, then fewer nodes, as HoDoKu sorts its chains.
fn better<N>(a: &Chain<N>, b: &Chain<N>) -> bool {
    let removed =
        |r: &[(usize, u32)]| r.iter().map(|&(_, digits)| digits.count_ones()).sum::<u32>();
    (removed(&b.1), a.0.len()) < (removed(&a.1), b.0.len())
}

/// True when `chain` is a continuous nice loop: an even number of links, back to its start.
pub(super) fn is_loop<N: PartialEq>(chain: &[N]) -> bool {
    chain.len() > 4 && chain.len() % 2 == 1 && chain.first() == chain.last()
}

/// True when a node comes twice in `nodes`: a loop through it proves nothing.
pub(super) fn repeats<N: PartialEq>(nodes: &[N]) -> bool {
    (1..nodes.len()).any(|i| nodes[..i].contains(&nodes[i]))
}

/// True when every cell of an XY-Chain holds the same two digits.
fn same_pair(state: &State, chain: &[Node]) -> bool {
    let first = chain.first().map(|&(c, _)| state.logic.candidates[c]);
    chain.iter().all(|&(c, _)| Some(state.logic.candidates[c]) == first)
}
