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
    constraints_of: Lists,
    /// Each variable's open neighbours: the open variables listed next to it in a
    /// constraint.
    neighbours: Lists,
}

/// A list of numbers for each index, stored flat: the largest part of a 500x500 grid has
/// 150,000 open variables, and a heap list for each made its graph three times slower to
/// build and slower to walk.
struct Lists {
    /// Where each index's list begins in `items`, and (last) where the last ends.
    starts: Vec<usize>,
    items: Vec<usize>,
}

impl Lists {
    /// The lists of `n` indices, from the `(index, item)` pairs that `pairs` gives to its
    /// argument, each list in the order given; `pairs` is called twice, to count and to fill.
    fn new(n: usize, pairs: impl Fn(&mut dyn FnMut(usize, usize))) -> Lists {
        let mut starts = vec![0; n + 1];
        pairs(&mut |index, _| starts[index + 1] += 1);
        for index in 0..n {
            starts[index + 1] += starts[index];
        }
        let mut next = starts.clone();
        let mut items = vec![0; starts[n]];
        pairs(&mut |index, item| {
            items[next[index]] = item;
            next[index] += 1;
        });
        Lists { starts, items }
    }

    /// The list of `index`.
    fn of(&self, index: usize) -> &[usize] {
        &self.items[self.starts[index]..self.starts[index + 1]]
    }
}

impl<'m> Graph<'m> {
    pub(super) fn new(model: &'m Model, domains: &[Domain]) -> Self {
        let n = domains.len();
        let open: Vec<bool> = domains.iter().map(|d| !d.is_fixed()).collect();
        let constraints_of = Lists::new(n, |pair| {
            for (c, constraint) in model.constraints.iter().enumerate() {
                constraint.vars().iter().for_each(|&v| pair(v, c));
            }
        });
        // A constraint's open variables in a chain, over the fixed ones between them.
        let neighbours = Lists::new(n, |pair| {
            for constraint in &model.constraints {
                let mut before = None;
                for &v in constraint.vars().iter().filter(|&&v| open[v]) {
                    if let Some(b) = before.replace(v) {
                        pair(b, v);
                        pair(v, b);
                    }
                }
            }
        });
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
            for &w in self.neighbours.of(v) {
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
        let ordered = by_distance(&open, &distance);
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
                for &w in self.neighbours.of(v) {
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
        self.constraints_of.of(var)
    }

    /// Every constraint on one of `vars`, once.
    pub(super) fn constraints_of_all(&self, vars: &[VarId]) -> Vec<usize> {
        let mut constraints: Vec<usize> =
            vars.iter().flat_map(|&v| self.constraints_of.of(v).iter().copied()).collect();
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
        let is_even = |v: &VarId| region_of[*v] != usize::MAX && region_of[*v].is_multiple_of(2);
        let mut released: Vec<VarId> =
            (0..self.open.len()).filter(is_even).filter(|&v| near_odd[v] != usize::MAX).collect();
        for constraint in &self.model.constraints {
            let mut even = constraint.vars().iter().copied().filter(is_even);
            let Some(first) = even.next() else { continue };
            if even.any(|v| region_of[v] != region_of[first]) {
                released.extend(constraint.vars().iter().copied().filter(is_even));
            }
        }
        released.sort_unstable();
        released.dedup();
        released
    }
}

/// `vars`, given in increasing order, ordered by `distance` and then by themselves, those
/// not reached last: a counting sort, as a distance is less than the part's size.
fn by_distance(vars: &[VarId], distance: &[usize]) -> Vec<VarId> {
    let reached = vars.iter().map(|&v| distance[v]).filter(|&d| d != usize::MAX);
    let unreached = reached.max().map_or(0, |d| d + 1);
    let layer = |v: VarId| distance[v].min(unreached);
    Lists::new(unreached + 1, |pair| vars.iter().for_each(|&v| pair(layer(v), v))).items
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_keep_each_index_items_in_the_order_given() {
        let pairs = [(2, 7), (0, 1), (2, 3), (0, 9), (2, 5)];
        let lists = Lists::new(4, |pair| pairs.iter().for_each(|&(i, item)| pair(i, item)));
        assert_eq!(lists.of(0), [1, 9]);
        assert_eq!(lists.of(1), [] as [usize; 0]);
        assert_eq!(lists.of(2), [7, 3, 5]);
        assert_eq!(lists.of(3), [] as [usize; 0]);
    }

    #[test]
    fn by_distance_orders_as_a_sort_by_distance_then_variable() {
        let unreached = usize::MAX;
        let distance = [3, 0, unreached, 3, 1, 0, unreached, 2, 1];
        let vars: Vec<VarId> = (0..distance.len()).filter(|v| v % 4 != 3).collect();
        let mut sorted = vars.clone();
        sorted.sort_by_key(|&v| (distance[v], v));
        assert_eq!(by_distance(&vars, &distance), sorted);
        assert_eq!(sorted, [1, 5, 4, 8, 0, 2, 6]);
    }
}
