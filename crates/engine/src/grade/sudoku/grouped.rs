//! Grouped chains: alternating inference chains whose nodes may be groups, the places of a
//! digit where a box crosses a row or column (two or three cells). A group is true when one
//! of its cells holds the digit. Strong: a house whose places of the digit are a node and
//! one other node (a cell or a group). Weak: two nodes of a digit whose cells all see each
//! other; inside a cell, as in `chains`. Tried after the plain chains, as HoDoKu tries its
//! grouped nice loops after the plain ones; what a chain removes is what sees both ends
//! (ends of one digit), or what `chains` removes between two cells. A chain whose weak last
//! link leads back to its start closes a grouped continuous nice loop, which removes what
//! each of its weak links would as a chain's two ends (see `chains`). As HoDoKu sorts its
//! chains, the one that removes the most candidates is taken, the shortest of those. On
//! grids up to 9x9.

use super::chains::{Chain, is_loop, keep_better, repeats};
use super::{Shape, State};
use crate::grade::Technique;
use std::collections::{HashMap, VecDeque};

/// The largest grid grouped chains are looked for on.
const MAX_SIDE: usize = 9;
/// The most links a chain may have.
const MAX_LINKS: usize = 16;

/// The nodes of the grid and their links.
struct Graph {
    /// Each node: its cells (as bits) and digit.
    nodes: Vec<(u128, u32)>,
    /// Per node, the nodes it makes true when false (strong links).
    strong: Vec<Vec<usize>>,
    /// Per node, the nodes it makes false when true (weak links).
    weak: Vec<Vec<usize>>,
}

/// A chain found: its nodes, start first, and what it removes.
type Found = Chain<usize>;

/// The cells of a bit set, ascending.
fn cells_of(set: u128) -> Vec<usize> {
    (0..128).filter(|&c| set & 1 << c != 0).collect()
}

impl State {
    /// Every single candidate and every group, with their links.
    fn graph(&self, shape: &Shape) -> Graph {
        let n = shape.n;
        let holds = |c: usize, d: u32| self.logic.candidates[c] & 1 << d != 0;
        let mut nodes: Vec<(u128, u32)> = Vec::new();
        for cell in (0..n * n).filter(|&c| !self.logic.candidates[c].is_power_of_two()) {
            for d in (1..=n as u32).filter(|&d| holds(cell, d)) {
                nodes.push((1 << cell, d));
            }
        }
        for d in 1..=n as u32 {
            for b in 2 * n..3 * n {
                for line in 0..2 * n {
                    let group = shape.units[line]
                        .iter()
                        .filter(|c| shape.units[b].contains(c) && holds(**c, d))
                        .fold(0u128, |s, &c| s | 1 << c);
                    if group.count_ones() >= 2 {
                        nodes.push((group, d));
                    }
                }
            }
        }
        let ids: HashMap<(u128, u32), usize> =
            nodes.iter().enumerate().map(|(i, &node)| (node, i)).collect();
        let peers = State::peer_sets(shape);
        let sees_all = |set: u128| cells_of(set).iter().fold(!0u128, |s, &c| s & peers[c]);
        let mut strong = vec![Vec::new(); nodes.len()];
        let mut weak = vec![Vec::new(); nodes.len()];
        for (i, &(set, d)) in nodes.iter().enumerate() {
            let cells = cells_of(set);
            // Strong: the rest of a house's places, when they are one node.
            for (u, unit) in shape.units.iter().enumerate() {
                if !cells.iter().all(|&c| shape.cell_units[c].contains(&u)) {
                    continue;
                }
                let places = unit.iter().filter(|&&c| holds(c, d)).fold(0u128, |s, &c| s | 1 << c);
                if let Some(&j) = ids.get(&(places & !set, d)) {
                    strong[i].push(j);
                }
            }
            let seen = sees_all(set);
            for (j, &(other, e)) in nodes.iter().enumerate() {
                if e == d && other & !seen == 0 {
                    weak[i].push(j);
                }
            }
            // Inside one cell: strong to the other digit of two, weak to every other.
            if let &[cell] = cells.as_slice() {
                let mask = self.logic.candidates[cell];
                for e in (1..=n as u32).filter(|&e| e != d && mask & 1 << e != 0) {
                    if let Some(&j) = ids.get(&(set, e)) {
                        weak[i].push(j);
                        if mask.count_ones() == 2 {
                            strong[i].push(j);
                        }
                    }
                }
            }
        }
        Graph { nodes, strong, weak }
    }

    /// The grouped chain that removes the most candidates (the shortest of those),
    /// applied: a grouped AIC, or grouped continuous nice loop, when one of its nodes is a
    /// group.
    pub(super) fn grouped_chains(&mut self, shape: &Shape) -> bool {
        if shape.n > MAX_SIDE {
            return false;
        }
        let graph = self.graph(shape);
        let mut best: Option<Found> = None;
        for start in 0..graph.nodes.len() {
            if let Some(found) = self.grouped_from(shape, &graph, start) {
                keep_better(&mut best, found);
            }
        }
        let Some((chain, removals)) = best else { return false };
        for &(cell, digits) in &removals {
            self.remove(cell, digits);
        }
        let grouped = chain.iter().any(|&i| graph.nodes[i].0.count_ones() > 1);
        let technique = match (grouped, is_loop(&chain)) {
            (true, true) => Technique::GroupedContinuousNiceLoop,
            (true, false) => Technique::GroupedAic,
            (false, true) => Technique::ContinuousNiceLoop,
            (false, false) => Technique::Aic,
        };
        let sets: Vec<Vec<usize>> = chain.iter().map(|&i| cells_of(graph.nodes[i].0)).collect();
        let groups: Vec<&[usize]> = sets.iter().map(Vec::as_slice).collect();
        self.used_sets(technique, &[], &groups, 0);
        if let Some(step) = self.journal.as_mut().and_then(|j| j.steps.last_mut()) {
            let first = |set: &Vec<usize>| set.first().copied().unwrap_or_default();
            step.chain =
                sets.iter().zip(&chain).map(|(s, &i)| (first(s), graph.nodes[i].1)).collect();
        }
        true
    }

    /// From node `start` assumed false, the chain of at most [`MAX_LINKS`] links that
    /// removes the most candidates, the shortest of those (a loop ends on `start` again).
    fn grouped_from(&self, shape: &Shape, graph: &Graph, start: usize) -> Option<Found> {
        let size = graph.nodes.len() * 2;
        let mut previous: Vec<Option<usize>> = vec![None; size];
        let mut depth = vec![usize::MAX; size];
        let mut queue = VecDeque::from([start * 2]);
        depth[start * 2] = 0;
        let path = |state: usize, previous: &[Option<usize>]| {
            let mut chain = vec![state / 2];
            let mut at = state;
            while let Some(back) = previous[at] {
                chain.push(back / 2);
                at = back;
            }
            chain.reverse();
            chain
        };
        let mut best: Option<Found> = None;
        while let Some(state) = queue.pop_front() {
            let (node, truth) = (state / 2, state % 2 == 1);
            let links = depth[state];
            if truth && links > 1 {
                let removals = self.grouped_removals(shape, graph.nodes[start], graph.nodes[node]);
                keep_better(&mut best, (path(state, &previous), removals));
                // A weak link back to the start closes a continuous nice loop.
                if links >= 3 && graph.weak[node].contains(&start) {
                    let mut chain = path(state, &previous);
                    chain.push(start);
                    keep_better(
                        &mut best,
                        (chain.clone(), self.grouped_loop_removals(shape, graph, &chain)),
                    );
                }
            }
            if links >= MAX_LINKS {
                continue;
            }
            let next = if truth { &graph.weak[node] } else { &graph.strong[node] };
            for &j in next {
                let to = j * 2 + usize::from(!truth);
                if depth[to] == usize::MAX {
                    depth[to] = links + 1;
                    previous[to] = Some(state);
                    queue.push_back(to);
                }
            }
        }
        best
    }

    /// What a grouped continuous nice loop (`chain`, its start again at its end) removes:
    /// each weak link's ends, of which one is true, remove what a chain's ends would.
    /// Nothing where a node comes twice (the loop proves nothing then).
    fn grouped_loop_removals(
        &self,
        shape: &Shape,
        graph: &Graph,
        chain: &[usize],
    ) -> Vec<(usize, u32)> {
        if repeats(&chain[..chain.len() - 1]) {
            return Vec::new();
        }
        let mut removals: Vec<(usize, u32)> = chain[1..]
            .chunks_exact(2)
            .flat_map(|pair| {
                self.grouped_removals(shape, graph.nodes[pair[0]], graph.nodes[pair[1]])
            })
            .collect();
        removals.sort_unstable();
        removals.dedup();
        removals
    }

    /// What a chain from `start` (false) to `end` (true) removes: one of the two holds.
    fn grouped_removals(
        &self,
        shape: &Shape,
        start: (u128, u32),
        end: (u128, u32),
    ) -> Vec<(usize, u32)> {
        let ((s, d0), (e, d1)) = (start, end);
        if s.count_ones() == 1 && e.count_ones() == 1 {
            let (c0, c1) = (s.trailing_zeros() as usize, e.trailing_zeros() as usize);
            return self.removals_of(shape, (c0, d0), (c1, d1));
        }
        if d0 != d1 {
            return Vec::new();
        }
        let ends = cells_of(s | e);
        let mut removals = Vec::new();
        for cell in 0..shape.n * shape.n {
            let sees = ends.iter().all(|&c| shape.sees(c, cell));
            if sees && self.logic.candidates[cell] & 1 << d0 != 0 {
                removals.push((cell, 1 << d0));
            }
        }
        removals
    }
}
