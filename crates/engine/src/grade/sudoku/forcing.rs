//! Forcing chains (HoDoKu's Forcing Chain Contradiction and Verity), tried at the extreme
//! level before trial. A premise (a candidate assumed true, or false) sets off
//! implications along the grid's links as they stand: a true candidate clears the cell's
//! other digits and its peers' copies; a false one makes true the other digit of a cell
//! of two, and the other place of a digit with two places in a house. A premise that leads
//! to a contradiction (a candidate both true and false, a cell with two digits or none, a
//! house with a digit twice or nowhere) is false; a conclusion every premise of a set leads
//! to, where one of them holds (a candidate true and false, a cell's digits, a digit's places
//! in a house), is true. Each step keeps its chains, so a player can follow every
//! implication. Only chains, not nets: where they fail, trial takes over.

use super::{Shape, State};
use crate::grade::Technique;
use std::collections::VecDeque;

/// The largest grid forcing chains are looked for on (the cell sets are 128 bits).
const MAX_SIDE: usize = 9;
/// The most implications a chain may take from its premise: HoDoKu bounds its tables
/// too, and a chain a player can follow is short.
const MAX_DEPTH: u8 = 20;
/// A node's digit slots per cell.
const SLOTS: usize = 16;

/// A candidate true (`on`) or false: `(cell * SLOTS + digit) * 2 + on`.
type Node = usize;

/// One implication of a chain: cell, digit, and whether the digit is there.
pub type Implication = (usize, u32, bool);

fn node(cell: usize, digit: u32, on: bool) -> Node {
    (cell * SLOTS + digit as usize) * 2 + usize::from(on)
}

fn parts(node: Node) -> Implication {
    (node / 2 / SLOTS, (node / 2 % SLOTS) as u32, node % 2 == 1)
}

/// What one premise leads to: per digit, the cells where it is set and where cleared,
/// and each node's distance from the premise (`u8::MAX` where it is not reached).
struct Reach {
    on: [u128; SLOTS],
    off: [u128; SLOTS],
    depth: Vec<u8>,
}

/// A step found: the premises, the nodes each chain ends on (premise index, node), the
/// house it reasons on, whether it is a contradiction, and its effect (a candidate set
/// or cleared).
struct Found {
    technique: Technique,
    premises: Vec<Node>,
    ends: Vec<(usize, Node)>,
    house: Option<usize>,
    effect: Node,
    length: usize,
}

impl State {
    /// The best forcing chain step, applied: as HoDoKu prefers, a placement before a
    /// removal, the first cell before later ones, then the shortest chains.
    pub(super) fn forcing_chains(&mut self, shape: &Shape) -> bool {
        if shape.n > MAX_SIDE {
            return false;
        }
        let graph = self.implication_graph(shape);
        let premises: Vec<Node> = (0..shape.n * shape.n)
            .filter(|&c| !self.logic.candidates[c].is_power_of_two())
            .flat_map(|c| {
                let mask = self.logic.candidates[c];
                (1..=shape.n as u32)
                    .filter(move |d| mask & 1 << d != 0)
                    .flat_map(move |d| [node(c, d, true), node(c, d, false)])
            })
            .collect();
        let reaches: Vec<Reach> = premises.iter().map(|&p| reach(&graph, p)).collect();
        let mut best: Option<Found> = None;
        let mut offer = |found: Found| {
            if best.as_ref().is_none_or(|b| rank(&found) < rank(b)) {
                best = Some(found);
            }
        };
        for (i, &premise) in premises.iter().enumerate() {
            for (ends, house) in self.contradictions(shape, &reaches[i]) {
                let (cell, d, on) = parts(premise);
                let length = ends.iter().map(|&e| usize::from(reaches[i].depth[e])).sum();
                let ends = ends.into_iter().map(|e| (0, e)).collect();
                let effect = node(cell, d, !on);
                let technique = Technique::ForcingChainContradiction;
                offer(Found { technique, premises: vec![premise], ends, house, effect, length });
            }
        }
        let mut position = vec![usize::MAX; graph.len()];
        for (i, &p) in premises.iter().enumerate() {
            position[p] = i;
        }
        for (set, house) in self.premise_sets(shape) {
            let index: Vec<usize> =
                set.iter().map(|&p| position[p]).filter(|&i| i != usize::MAX).collect();
            if index.len() != set.len() || index.is_empty() {
                continue;
            }
            let first = &reaches[index[0]];
            for d in 1..=shape.n {
                for on in [true, false] {
                    let of = |r: &Reach| if on { r.on[d] } else { r.off[d] };
                    let mut common = index.iter().fold(of(first), |m, &i| m & of(&reaches[i]));
                    while common != 0 {
                        let cell = common.trailing_zeros() as usize;
                        common &= common - 1;
                        let end = node(cell, d as u32, on);
                        // Nothing to do where the conclusion already stands.
                        let has = self.logic.candidates[cell] & 1 << d != 0;
                        if !has || on && self.logic.candidates[cell].is_power_of_two() {
                            continue;
                        }
                        if set.iter().any(|&p| parts(p).0 == cell) && set.len() == 2 {
                            continue;
                        }
                        let length =
                            index.iter().map(|&i| usize::from(reaches[i].depth[end])).sum();
                        let ends = (0..set.len()).map(|k| (k, end)).collect();
                        let technique = Technique::ForcingChainVerity;
                        let premises = set.clone();
                        offer(Found { technique, premises, ends, house, effect: end, length });
                    }
                }
            }
        }
        let Some(found) = best else { return false };
        self.apply_forcing(&graph, found)
    }

    /// The links as they stand, as implications from each node.
    fn implication_graph(&self, shape: &Shape) -> Vec<Vec<Node>> {
        let cells = shape.n * shape.n;
        let mut next = vec![Vec::new(); cells * SLOTS * 2];
        let digits = |mask: u32| (1..=shape.n as u32).filter(move |d| mask & 1 << d != 0);
        for cell in 0..cells {
            let mask = self.logic.candidates[cell];
            if mask.is_power_of_two() {
                continue;
            }
            for d in digits(mask) {
                let (on, off) = (node(cell, d, true), node(cell, d, false));
                for e in digits(mask).filter(|&e| e != d) {
                    next[on].push(node(cell, e, false));
                    if mask.count_ones() == 2 {
                        next[off].push(node(cell, e, true));
                    }
                }
                for &u in &shape.cell_units[cell] {
                    let others: Vec<usize> = shape.units[u]
                        .iter()
                        .copied()
                        .filter(|&c| c != cell && self.logic.candidates[c] & 1 << d != 0)
                        .collect();
                    next[on].extend(others.iter().map(|&c| node(c, d, false)));
                    if let [other] = others[..] {
                        next[off].push(node(other, d, true));
                    }
                }
            }
        }
        for list in &mut next {
            list.sort_unstable();
            list.dedup();
        }
        next
    }

    /// The contradictions `reach` holds: per contradiction, the nodes its chains end on
    /// and the house it is in, if any.
    fn contradictions(&self, shape: &Shape, reach: &Reach) -> Vec<(Vec<Node>, Option<usize>)> {
        let mut found = Vec::new();
        let cand = |d: usize| {
            let cells = 0..shape.n * shape.n;
            cells.filter(|&c| self.logic.candidates[c] & 1 << d != 0).fold(0u128, |m, c| m | 1 << c)
        };
        let first = |m: u128| m.trailing_zeros() as usize;
        for d in 1..=shape.n {
            let both = reach.on[d] & reach.off[d];
            if both != 0 {
                let c = first(both);
                found.push((vec![node(c, d as u32, true), node(c, d as u32, false)], None));
            }
            for e in d + 1..=shape.n {
                let two = reach.on[d] & reach.on[e];
                if two != 0 {
                    let c = first(two);
                    found.push((vec![node(c, d as u32, true), node(c, e as u32, true)], None));
                }
            }
        }
        for cell in 0..shape.n * shape.n {
            let mask = self.logic.candidates[cell];
            let cleared = |d: usize| reach.off[d] & 1 << cell != 0;
            let set = (1..=shape.n).any(|d| reach.on[d] & 1 << cell != 0);
            if !mask.is_power_of_two()
                && !set
                && (1..=shape.n).all(|d| mask & 1 << d == 0 || cleared(d))
            {
                let ends = (1..=shape.n).filter(|&d| mask & 1 << d != 0);
                found.push((ends.map(|d| node(cell, d as u32, false)).collect(), None));
            }
        }
        for (u, unit) in shape.units.iter().enumerate() {
            let house = unit.iter().fold(0u128, |m, &c| m | 1 << c);
            for d in 1..=shape.n {
                let set = reach.on[d] & house;
                if set.count_ones() > 1 {
                    let ends = cells_of(set).map(|c| node(c, d as u32, true)).collect();
                    found.push((ends, Some(u)));
                }
                let places = cand(d) & house;
                if places != 0 && places & !reach.off[d] == 0 {
                    let ends = cells_of(places).map(|c| node(c, d as u32, false)).collect();
                    found.push((ends, Some(u)));
                }
            }
        }
        found
    }

    /// The sets of premises one of which holds: a candidate true and false, a cell's
    /// digits, a digit's places in a house (with the house).
    fn premise_sets(&self, shape: &Shape) -> Vec<(Vec<Node>, Option<usize>)> {
        let mut sets = Vec::new();
        for cell in 0..shape.n * shape.n {
            let mask = self.logic.candidates[cell];
            if mask.is_power_of_two() {
                continue;
            }
            let digits: Vec<u32> = (1..=shape.n as u32).filter(|d| mask & 1 << d != 0).collect();
            for &d in &digits {
                sets.push((vec![node(cell, d, true), node(cell, d, false)], None));
            }
            sets.push((digits.iter().map(|&d| node(cell, d, true)).collect(), None));
        }
        for (u, unit) in shape.units.iter().enumerate() {
            for d in 1..=shape.n as u32 {
                let places: Vec<usize> = unit
                    .iter()
                    .copied()
                    .filter(|&c| {
                        let m = self.logic.candidates[c];
                        m & 1 << d != 0 && !m.is_power_of_two()
                    })
                    .collect();
                if places.len() >= 2 {
                    sets.push((places.iter().map(|&c| node(c, d, true)).collect(), Some(u)));
                }
            }
        }
        sets
    }

    /// Applies `found`: its chains rebuilt from their premises, its effect made.
    fn apply_forcing(&mut self, graph: &[Vec<Node>], found: Found) -> bool {
        let mut chains = Vec::new();
        for (k, &premise) in found.premises.iter().enumerate() {
            let parent = parents(graph, premise);
            for &(_, end) in found.ends.iter().filter(|&&(p, _)| p == k) {
                let mut chain = vec![parts(end)];
                let mut at = end;
                while at != premise {
                    // Every end was reached from its premise, so has a predecessor.
                    let Some(&before) = parent.get(at).filter(|&&b| b != usize::MAX) else {
                        return false;
                    };
                    at = before;
                    chain.push(parts(at));
                }
                chain.reverse();
                chains.push(chain);
            }
        }
        let (cell, d, on) = parts(found.effect);
        let removed = if on { self.remove(cell, !(1 << d)) } else { self.remove(cell, 1 << d) };
        if !removed {
            return false;
        }
        let units: Vec<usize> = found.house.into_iter().collect();
        let cells: Vec<usize> = found.premises.iter().map(|&p| parts(p).0).collect();
        self.used(found.technique, &units, &cells);
        if let Some(step) = self.journal.as_mut().and_then(|j| j.steps.last_mut()) {
            step.implications = chains;
        }
        true
    }
}

/// The cells of a set.
fn cells_of(mut set: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let c = set.trailing_zeros() as usize;
            set &= set - 1;
            c
        })
    })
}

/// HoDoKu's preference: a placement first, then the first candidate, then the shortest
/// chains.
fn rank(found: &Found) -> (bool, usize, usize) {
    let (cell, d, on) = parts(found.effect);
    (!on, cell * 10 + d as usize, found.length)
}

/// Breadth first from `premise`, up to [`MAX_DEPTH`] implications.
fn reach(graph: &[Vec<Node>], premise: Node) -> Reach {
    let mut depth = vec![u8::MAX; graph.len()];
    let (mut on, mut off) = ([0u128; SLOTS], [0u128; SLOTS]);
    let mut queue = VecDeque::from([premise]);
    depth[premise] = 0;
    while let Some(at) = queue.pop_front() {
        let (cell, d, set) = parts(at);
        if set {
            on[d as usize] |= 1 << cell;
        } else {
            off[d as usize] |= 1 << cell;
        }
        if depth[at] >= MAX_DEPTH {
            continue;
        }
        for &next in &graph[at] {
            if depth[next] == u8::MAX {
                depth[next] = depth[at] + 1;
                queue.push_back(next);
            }
        }
    }
    Reach { on, off, depth }
}

/// Breadth first from `premise`, as [`reach`] goes: each node's predecessor.
fn parents(graph: &[Vec<Node>], premise: Node) -> Vec<Node> {
    let mut parent = vec![usize::MAX; graph.len()];
    let mut depth = vec![u8::MAX; graph.len()];
    let mut queue = VecDeque::from([premise]);
    depth[premise] = 0;
    parent[premise] = premise;
    while let Some(at) = queue.pop_front() {
        if depth[at] >= MAX_DEPTH {
            continue;
        }
        for &next in &graph[at] {
            if depth[next] == u8::MAX {
                depth[next] = depth[at] + 1;
                parent[next] = at;
                queue.push_back(next);
            }
        }
    }
    parent
}
