//! Almost locked sets (ALS): `k` open cells of one house holding `k + 1` digits between
//! them; lose one digit and the rest are locked in. Two sets that do not overlap are joined
//! by a restricted common digit `x` when every place of `x` in both sees every other: `x`
//! is in one set at most, so the other is locked. ALS-XZ: with `x` joining `A` and `B`,
//! one of them holds each other digit `z` they share, which leaves the cells that see all
//! its places in both; joined by two digits (doubly linked), each set is locked and its
//! other digits leave the cells that see all their places. ALS-XY-Wing: `A` and `B` each
//! joined to a third set `C` by its own digit: one of `A`, `B` holds each digit `z` they
//! share. By the definitions of HoDoKu's `AlsSolver` (sets of one cell included, no
//! overlap); looked for on grids up to 9x9, whose cells fit one 128-bit set.

use super::{Shape, State};
use crate::grade::Technique;

/// The largest side looked at: a grid's cells as one `u128`.
const MAX_SIDE: usize = 9;

/// One almost locked set.
struct Als {
    /// Its cells, as bits.
    cells: u128,
    /// Its digits (bit `d` for digit `d`).
    digits: u32,
    /// The house it was found in.
    unit: usize,
    /// Per digit: the set's cells that hold it.
    places: Vec<u128>,
    /// Per digit: the cells outside the set that hold it and see all its places there.
    seeing: Vec<u128>,
}

/// Two sets joined by one or two restricted common digits.
struct Link {
    a: usize,
    b: usize,
    /// The joining digits, as bits.
    digits: u32,
}

/// The cells of a bit set, ascending.
fn cells_of(set: u128) -> Vec<usize> {
    (0..128).filter(|&c| set & 1 << c != 0).collect()
}

/// The digits of a bit set, one bit each.
fn each(digits: u32) -> impl Iterator<Item = u32> {
    (0..32).map(|d| 1u32 << d).filter(move |bit| digits & bit != 0)
}

impl State {
    /// Every almost locked set of open cells, each cell set once, house by house, with
    /// the cells that see each digit's places.
    fn almost_locked_sets(&self, shape: &Shape, peers: &[u128]) -> Vec<Als> {
        let mut sets: Vec<Als> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        // Per digit, the cells that hold it.
        let holds: Vec<u128> = (0..=shape.n)
            .map(|d| {
                let cells = 0..shape.n * shape.n;
                cells.filter(|&c| self.logic.candidates[c] & 1 << d != 0).fold(0, |s, c| s | 1 << c)
            })
            .collect();
        for (u, unit) in shape.units.iter().enumerate() {
            let open: Vec<usize> = unit
                .iter()
                .copied()
                .filter(|&c| self.logic.candidates[c].count_ones() >= 2)
                .collect();
            for pick in 1u32..(1 << open.len()) {
                let size = pick.count_ones();
                if size as usize >= shape.n {
                    continue;
                }
                let chosen = open.iter().enumerate().filter(|&(i, _)| pick & 1 << i != 0);
                let (mut cells, mut digits) = (0u128, 0u32);
                for (_, &c) in chosen {
                    cells |= 1 << c;
                    digits |= self.logic.candidates[c];
                }
                if digits.count_ones() != size + 1 || !seen.insert(cells) {
                    continue;
                }
                let mut places = vec![0u128; shape.n + 1];
                let mut seeing = vec![0u128; shape.n + 1];
                for d in 1..=shape.n {
                    places[d] = cells & holds[d];
                    if places[d] == 0 {
                        continue;
                    }
                    let all = cells_of(places[d]).iter().fold(!0u128, |s, &c| s & peers[c]);
                    seeing[d] = all & !cells & holds[d];
                }
                sets.push(Als { cells, digits, unit: u, places, seeing });
            }
        }
        sets
    }

    /// The restricted common digits between every two sets that do not overlap (two at
    /// most per pair).
    fn restricted_commons(sets: &[Als]) -> Vec<Link> {
        let mut links = Vec::new();
        for (a, sa) in sets.iter().enumerate() {
            for (b, sb) in sets.iter().enumerate().skip(a + 1) {
                if sa.cells & sb.cells != 0 {
                    continue;
                }
                let mut digits = 0u32;
                for digit in each(sa.digits & sb.digits) {
                    let d = digit.trailing_zeros() as usize;
                    let all = sa.places[d] | sb.places[d];
                    let mutual = (sa.seeing[d] | sa.places[d]) & (sb.seeing[d] | sb.places[d]);
                    if all & !mutual == 0 && digits.count_ones() < 2 {
                        digits |= digit;
                    }
                }
                if digits != 0 {
                    links.push(Link { a, b, digits });
                }
            }
        }
        links
    }

    /// Removes each digit of `digits` from the cells outside both sets that see all its
    /// places in both; true when something went.
    fn clear_common(&mut self, sa: &Als, sb: &Als, digits: u32) -> bool {
        let mut removed = false;
        for digit in each(digits) {
            let d = digit.trailing_zeros() as usize;
            for cell in cells_of(sa.seeing[d] & sb.seeing[d]) {
                removed |= self.remove(cell, digit);
            }
        }
        removed
    }

    /// The grid's peers as bit sets, for the sets' sums.
    pub(super) fn peer_sets(shape: &Shape) -> Vec<u128> {
        let cells = shape.n * shape.n;
        (0..cells).map(|c| shape.peers(c).iter().fold(0u128, |s, &p| s | 1 << p)).collect()
    }

    /// The first ALS-XZ that removes a candidate.
    pub(super) fn als_xz(&mut self, shape: &Shape) -> bool {
        if shape.n > MAX_SIDE {
            return false;
        }
        let peers = State::peer_sets(shape);
        let sets = self.almost_locked_sets(shape, &peers);
        for link in State::restricted_commons(&sets) {
            let (sa, sb) = (&sets[link.a], &sets[link.b]);
            let common = sa.digits & sb.digits;
            let mut removed = false;
            // Each joining digit in turn is the one in a set at most: the others shared
            // (the second joining digit too) lie in one of the two.
            for x in each(link.digits) {
                removed |= self.clear_common(sa, sb, common & !x);
            }
            if link.digits.count_ones() == 2 {
                // Doubly linked: both sets are locked; their other digits leave the cells
                // that see all their places in the set (outside the other set).
                for (s, other) in [(sa, sb), (sb, sa)] {
                    for digit in each(s.digits & !link.digits) {
                        let d = digit.trailing_zeros() as usize;
                        for cell in cells_of(s.seeing[d] & !other.cells) {
                            removed |= self.remove(cell, digit);
                        }
                    }
                }
            }
            if removed {
                let (a, b) = (cells_of(sa.cells), cells_of(sb.cells));
                self.used_sets(Technique::AlsXz, &[sa.unit, sb.unit], &[&a, &b], link.digits);
                return true;
            }
        }
        false
    }

    /// The first ALS-XY-Wing that removes a candidate: `A` and `B` joined to a pivot set
    /// `C`, each by its own digit, do not overlap; one of them holds each digit `z` they
    /// share (no joining digit), which leaves the cells that see all its places in both.
    pub(super) fn als_xy_wings(&mut self, shape: &Shape) -> bool {
        if shape.n > MAX_SIDE {
            return false;
        }
        let peers = State::peer_sets(shape);
        let sets = self.almost_locked_sets(shape, &peers);
        let links = State::restricted_commons(&sets);
        let mut at: Vec<Vec<(usize, u32)>> = vec![Vec::new(); sets.len()];
        for link in &links {
            at[link.a].push((link.b, link.digits));
            at[link.b].push((link.a, link.digits));
        }
        for (c, joined) in at.iter().enumerate() {
            for (i, &(a, xa)) in joined.iter().enumerate() {
                for &(b, xb) in &joined[i + 1..] {
                    // One digit joining both sides is no wing: C need not hold the other.
                    let same = xa == xb && xa.count_ones() == 1;
                    let (sa, sb) = (&sets[a], &sets[b]);
                    if same || sa.cells & sb.cells != 0 {
                        continue;
                    }
                    let shared = sa.digits & sb.digits & !(xa | xb);
                    if shared != 0 && self.clear_common(sa, sb, shared) {
                        let sc = &sets[c];
                        let units = [sa.unit, sb.unit, sc.unit];
                        let cells = [cells_of(sa.cells), cells_of(sb.cells), cells_of(sc.cells)];
                        let groups = [cells[0].as_slice(), &cells[1], &cells[2]];
                        self.used_sets(Technique::AlsXyWing, &units, &groups, xa | xb);
                        return true;
                    }
                }
            }
        }
        false
    }
}
