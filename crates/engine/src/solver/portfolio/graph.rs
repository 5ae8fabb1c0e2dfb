//! The open variables of a large part as a graph (each one's neighbours along the
//! constraints), and the cut of it into bands that the regions are solved from
//! ([`regions`](super::regions)).

use crate::model::Domain;
use crate::model::{Model, VarId};
use std::collections::VecDeque;

/// The fewest regions worth cutting a part into.
pub(super) const MIN_REGIONS: usize = 4;

/// How many steps into an even region, from an odd one, its variables stay open for the
/// second round.
pub(super) const RELEASE_DEPTH: usize = 3;

/// The part's open variables with their constraints and their neighbours.
pub(super) struct Graph<'m> {
    model: &'m Model,
    /// Whether each variable is open.
    open: Vec<bool>,
    /// The constraints on each variable.
    constraints_of: Vec<Vec<usize>>,
    /// Each variable's open neighbours: the open variables listed next to it in a
    /// constraint.
    neighbours: Vec<Vec<VarId>>,
}

impl<'m> Graph<'m> {
    pub(super) fn new(model: &'m Model, domains: &[Domain]) -> Self {
        let n = domains.len();
        let open: Vec<bool> = domains.iter().map(|d| !d.is_fixed()).collect();
        let mut constraints_of = vec![Vec::new(); n];
        let mut neighbours: Vec<Vec<VarId>> = vec![Vec::new(); n];
        for (c, constraint) in model.constraints.iter().enumerate() {
            for &v in constraint.vars() {
                constraints_of[v].push(c);
            }
            // A constraint's open variables in a chain, over the fixed ones between them.
            let chain: Vec<VarId> =
                constraint.vars().iter().copied().filter(|&v| open[v]).collect();
            for pair in chain.windows(2) {
                neighbours[pair[0]].push(pair[1]);
                neighbours[pair[1]].push(pair[0]);
            }
        }
        Graph { model, open, constraints_of, neighbours }
    }

    /// Breadth-first distances from `starts` over open variables, stopping at `limit`
    /// steps and never entering a variable `blocked` says no to (`usize::MAX`: not
    /// reached).
    fn distances(
        &self,
        starts: &[VarId],
        limit: usize,
        blocked: impl Fn(VarId) -> bool,
    ) -> Vec<usize> {
        let mut distance = vec![usize::MAX; self.open.len()];
        let mut queue: VecDeque<VarId> = starts.iter().copied().collect();
        for &s in starts {
            distance[s] = 0;
        }
        while let Some(v) = queue.pop_front() {
            if distance[v] >= limit {
                continue;
            }
            for &w in &self.neighbours[v] {
                if distance[w] == usize::MAX && !blocked(w) {
                    distance[w] = distance[v] + 1;
                    queue.push_back(w);
                }
            }
        }
        distance
    }

    /// The open variables cut into bands of about `region_vars`, in order of distance
    /// from a far end; `None` when there would be fewer than [`MIN_REGIONS`].
    ///
    /// A band is cut only between two distances, and spans at least [`Graph::thickness`]
    /// of them: on a wide grid a band of `region_vars` may be only a few steps across, and
    /// the second round would release it whole, joining the odd regions on both sides into
    /// one piece as large as the part.
    pub(super) fn regions(&self, region_vars: usize) -> Option<Vec<Vec<VarId>>> {
        let open: Vec<VarId> = (0..self.open.len()).filter(|&v| self.open[v]).collect();
        if open.len() / region_vars.max(1) < MIN_REGIONS {
            return None;
        }
        let reach = |from: VarId| self.distances(&[from], usize::MAX, |_| false);
        let from_first = reach(self.in_largest_piece(&open)?);
        // A variable the first sweep did not reach (one of the smaller independent pieces
        // that the propagation of a region may leave beside the largest) comes last.
        let far = open.iter().copied().filter(|&v| from_first[v] != usize::MAX);
        let start = far.max_by_key(|&v| (from_first[v], std::cmp::Reverse(v)))?;
        let distance = reach(start);
        let mut ordered = open;
        ordered.sort_by_key(|&v| (distance[v], v));
        let thickness = self.thickness();
        let mut regions: Vec<Vec<VarId>> = Vec::new();
        let mut band: Vec<VarId> = Vec::new();
        let mut first_layer = 0;
        for v in ordered {
            let layer = distance[v];
            let wide = layer.saturating_sub(first_layer) >= thickness;
            if band.len() >= region_vars && wide {
                regions.push(std::mem::take(&mut band));
            }
            if band.is_empty() {
                first_layer = layer;
            }
            band.push(v);
        }
        // A last band too thin to stand alone joins the one before it.
        match regions.last_mut() {
            Some(last) if band.len() < region_vars => last.append(&mut band),
            _ => regions.push(band),
        }
        (regions.len() >= MIN_REGIONS).then_some(regions)
    }

    /// A variable of the largest connected piece of `open`: the sweeps that order the
    /// variables start there, so that it is the one cut into bands.
    fn in_largest_piece(&self, open: &[VarId]) -> Option<VarId> {
        let mut seen = vec![false; self.open.len()];
        let mut best: Option<(usize, VarId)> = None;
        let mut stack = Vec::new();
        for &start in open {
            if seen[start] {
                continue;
            }
            seen[start] = true;
            stack.push(start);
            let mut size = 0;
            while let Some(v) = stack.pop() {
                size += 1;
                for &w in &self.neighbours[v] {
                    if !seen[w] {
                        seen[w] = true;
                        stack.push(w);
                    }
                }
            }
            if best.is_none_or(|(largest, _)| size > largest) {
                best = Some((size, start));
            }
        }
        best.map(|(_, v)| v)
    }

    /// How many distances a band spans at least: the second round's release on both of its
    /// sides, and room between them for the longest constraint, so that no constraint
    /// joins two pieces across a band held fixed.
    fn thickness(&self) -> usize {
        let longest = self
            .model
            .constraints
            .iter()
            .map(|c| c.vars().iter().filter(|&&v| self.open[v]).count())
            .max()
            .unwrap_or(0);
        2 * RELEASE_DEPTH + longest + 1
    }

    /// The constraints on `var`.
    pub(super) fn constraints_on(&self, var: VarId) -> &[usize] {
        &self.constraints_of[var]
    }

    /// Every constraint on one of `vars`, once.
    pub(super) fn constraints_of_all(&self, vars: &[VarId]) -> Vec<usize> {
        let mut constraints: Vec<usize> =
            vars.iter().flat_map(|&v| self.constraints_of[v].iter().copied()).collect();
        constraints.sort_unstable();
        constraints.dedup();
        constraints
    }

    /// The variables of the part within `depth` steps of `vars` (these included).
    pub(super) fn around(&self, vars: &[VarId], depth: usize) -> Vec<VarId> {
        let distance = self.distances(vars, depth, |_| false);
        (0..distance.len()).filter(|&v| distance[v] != usize::MAX).collect()
    }

    /// The variables of the even regions that the second round opens again: those within
    /// [`RELEASE_DEPTH`] steps of an odd region, and those sharing a constraint with
    /// another even region (`region_of` as [`region_of`] gives it).
    pub(super) fn released(&self, regions: &[Vec<VarId>], region_of: &[usize]) -> Vec<VarId> {
        let odd: Vec<VarId> = regions.iter().skip(1).step_by(2).flatten().copied().collect();
        let near_odd = self.distances(&odd, RELEASE_DEPTH, |_| false);
        let mut released: Vec<VarId> = (0..self.open.len())
            .filter(|&v| region_of[v] != usize::MAX && region_of[v].is_multiple_of(2))
            .filter(|&v| near_odd[v] != usize::MAX)
            .collect();
        for constraint in &self.model.constraints {
            let even: Vec<VarId> = constraint
                .vars()
                .iter()
                .copied()
                .filter(|&v| region_of[v] != usize::MAX && region_of[v].is_multiple_of(2))
                .collect();
            if even.iter().any(|&v| region_of[v] != region_of[even[0]]) {
                released.extend(even);
            }
        }
        released.sort_unstable();
        released.dedup();
        released
    }
}

/// Each variable's region among `regions`, `usize::MAX` for those of none.
pub(super) fn region_of(regions: &[Vec<VarId>], vars: usize) -> Vec<usize> {
    let mut region_of = vec![usize::MAX; vars];
    for (r, region) in regions.iter().enumerate() {
        for &v in region {
            region_of[v] = r;
        }
    }
    region_of
}
