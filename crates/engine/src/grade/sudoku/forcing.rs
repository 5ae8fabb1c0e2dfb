//! Forcing chains (HoDoKu's Forcing Chain Contradiction and Verity), tried at the extreme
//! level before trial. A premise (a candidate assumed true, or false) sets off
//! implications along the grid's links as they stand: a true candidate clears the cell's
//! other digits and its peers' copies; a false one makes true the other digit of a cell
//! of two, and the other place of a digit with two places in a house. A premise that leads
//! to a contradiction (a candidate both true and false, a cell with two digits or none, a
//! house with a digit twice or nowhere) is false; a conclusion every premise of a set leads
//! to, where one of them holds (a candidate true and false, a cell's digits, a digit's places
//! in a house), is true. Each step keeps its chains, so a player can follow every
//! implication.
//!
//! Forcing nets (HoDoKu's Forcing Net Contradiction and Verity), tried where the chains
//! fail, follow the same links and also the singles a premise makes: a cell whose other
//! digits are all false holds its last one, a digit whose other places in a house are all
//! false is in its last one. Such an implication has several parents, so a net is told as
//! its implications in order, each following from ones before it. Where nets fail too,
//! trial takes over.

use super::{Shape, State};
use crate::grade::Technique;
use std::collections::VecDeque;

/// The largest grid forcing chains are looked for on (the cell sets are 128 bits).
const MAX_SIDE: usize = 9;
/// The most implications a chain may take from its premise: HoDoKu bounds its tables
/// too, and a chain a player can follow is short.
const MAX_DEPTH: u8 = 20;
/// The most rounds of implications a net may take from its premise.
const NET_DEPTH: u8 = 20;
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

/// How a node was reached: it is the premise, it follows along one link from another
/// node, or (nets only) it is its cell's last digit, or its digit's last place in a house.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Via {
    Unreached,
    Premise,
    Link(Node),
    LastDigit,
    LastPlace(usize),
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
        self.forcing(shape, false)
    }

    /// The best forcing net step, applied, preferred as [`State::forcing_chains`] prefers.
    pub(super) fn forcing_nets(&mut self, shape: &Shape) -> bool {
        self.forcing(shape, true)
    }

    /// The best forcing chain (or, with `net`, forcing net) step, applied.
    fn forcing(&mut self, shape: &Shape, net: bool) -> bool {
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
        let reaches: Vec<Reach> =
            premises.iter().map(|&p| self.reach(shape, &graph, p, net, None)).collect();
        let (contradiction, verity) = if net {
            (Technique::ForcingNetContradiction, Technique::ForcingNetVerity)
        } else {
            (Technique::ForcingChainContradiction, Technique::ForcingChainVerity)
        };
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
                let technique = contradiction;
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
                        let technique = verity;
                        let premises = set.clone();
                        offer(Found { technique, premises, ends, house, effect: end, length });
                    }
                }
            }
        }
        let Some(found) = best else { return false };
        self.apply_forcing(shape, &graph, found, net)
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

    /// Applies `found`: its chains (or nets) rebuilt from their premises, its effect made.
    fn apply_forcing(
        &mut self,
        shape: &Shape,
        graph: &[Vec<Node>],
        found: Found,
        net: bool,
    ) -> bool {
        let mut chains = Vec::new();
        for (k, &premise) in found.premises.iter().enumerate() {
            let mut via = vec![Via::Unreached; graph.len()];
            let reach = self.reach(shape, graph, premise, net, Some(&mut via));
            for &(_, end) in found.ends.iter().filter(|&&(p, _)| p == k) {
                let Some(chain) = self.implications(shape, &reach, &via, end) else {
                    return false;
                };
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

    /// The implications that lead from the premise to `end`, in an order where each
    /// follows from ones before it (for a chain, the chain itself); `None` where `end` was
    /// not reached.
    fn implications(
        &self,
        shape: &Shape,
        reach: &Reach,
        via: &[Via],
        end: Node,
    ) -> Option<Vec<Implication>> {
        let mut needed = vec![end];
        let mut seen = vec![false; via.len()];
        seen[end] = true;
        let mut at = 0;
        while let Some(&node) = needed.get(at) {
            at += 1;
            for parent in self.parents(shape, node, via[node], &reach.off)? {
                if !std::mem::replace(&mut seen[parent], true) {
                    needed.push(parent);
                }
            }
        }
        // A node's parents are nearer the premise than it is.
        needed.sort_unstable_by_key(|&n| (reach.depth[n], n));
        Some(needed.into_iter().map(parts).collect())
    }

    /// The nodes `node` follows from, as it was reached (`None` where it was not).
    fn parents(&self, shape: &Shape, node: Node, via: Via, off: &[u128]) -> Option<Vec<Node>> {
        let (cell, d, _) = parts(node);
        let cleared = |c: usize, e: u32| off[e as usize] & 1 << c != 0;
        Some(match via {
            Via::Unreached => return None,
            Via::Premise => Vec::new(),
            Via::Link(parent) => vec![parent],
            Via::LastDigit => (1..=shape.n as u32)
                .filter(|&e| e != d && self.logic.candidates[cell] & 1 << e != 0)
                .map(|e| node_checked(cell, e, cleared(cell, e)))
                .collect::<Option<_>>()?,
            Via::LastPlace(u) => self
                .open_places(shape, u, d)
                .filter(|&c| c != cell)
                .map(|c| node_checked(c, d, cleared(c, d)))
                .collect::<Option<_>>()?,
        })
    }

    /// The open cells of unit `u` that may hold `d`.
    fn open_places<'a>(
        &'a self,
        shape: &'a Shape,
        u: usize,
        d: u32,
    ) -> impl Iterator<Item = usize> + 'a {
        let open = move |&c: &usize| {
            let mask = self.logic.candidates[c];
            mask & 1 << d != 0 && !mask.is_power_of_two()
        };
        shape.units[u].iter().copied().filter(open)
    }

    /// Breadth first from `premise`, up to [`MAX_DEPTH`] implications ([`NET_DEPTH`]
    /// rounds for a net), keeping in `via` how each node was reached.
    fn reach(
        &self,
        shape: &Shape,
        graph: &[Vec<Node>],
        premise: Node,
        net: bool,
        mut via: Option<&mut [Via]>,
    ) -> Reach {
        let limit = if net { NET_DEPTH } else { MAX_DEPTH };
        let mut depth = vec![u8::MAX; graph.len()];
        let (mut on, mut off) = ([0u128; SLOTS], [0u128; SLOTS]);
        let mut queue = VecDeque::from([premise]);
        depth[premise] = 0;
        if let Some(via) = via.as_deref_mut() {
            via[premise] = Via::Premise;
        }
        let mut next = Vec::new();
        while let Some(at) = queue.pop_front() {
            let (cell, d, set) = parts(at);
            if set {
                on[d as usize] |= 1 << cell;
            } else {
                off[d as usize] |= 1 << cell;
            }
            if depth[at] >= limit {
                continue;
            }
            next.clear();
            next.extend(graph[at].iter().map(|&n| (n, Via::Link(at))));
            if net && !set {
                // The cell's last digit, and the digit's last place in each of its houses.
                let mask = self.logic.candidates[cell];
                let left = (1..=shape.n as u32)
                    .filter(|&e| mask & 1 << e != 0 && off[e as usize] & 1 << cell == 0)
                    .fold(0u32, |m, e| m | 1 << e);
                if left.is_power_of_two() {
                    next.push((node(cell, left.trailing_zeros(), true), Via::LastDigit));
                }
                for &u in &shape.cell_units[cell] {
                    let mut left =
                        self.open_places(shape, u, d).filter(|&c| off[d as usize] & 1 << c == 0);
                    if let (Some(last), None) = (left.next(), left.next()) {
                        next.push((node(last, d, true), Via::LastPlace(u)));
                    }
                }
            }
            for &(n, how) in &next {
                if depth[n] == u8::MAX {
                    depth[n] = depth[at] + 1;
                    if let Some(via) = via.as_deref_mut() {
                        via[n] = how;
                    }
                    queue.push_back(n);
                }
            }
        }
        Reach { on, off, depth }
    }
}

/// The node of `cell`'s `digit` off, where it is (`cleared`) in the walk.
fn node_checked(cell: usize, digit: u32, cleared: bool) -> Option<Node> {
    cleared.then(|| node(cell, digit, false))
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
