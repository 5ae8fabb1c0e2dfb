//! Hall sets (naked pairs, triples, ...) of one unit, with a vector test in front: a Hall
//! set is rare, so the candidate sets are first tested side by side in vector lanes.

use super::super::contract::Conflict;
use super::super::distinct;
use crate::model::domain;
use wide::u16x8;

/// The Hall sets of a unit's domains, with `open` of them not fixed, by the rule of
/// [`distinct::hall_sets`]. A Hall set is rare, so first the sets read off the domains are
/// tested side by side in eight 16-bit vector lanes: how many domains lie within each, and
/// its size. Only the sets that hold as many domains as they have values go to the rule.
/// A fixed cell's set is too small to be one: when one of the first eight is fixed, the
/// ninth set takes its lane (all nine domains are still counted). (Not inlined: the
/// caller's branches are predicted better without it.)
#[inline(never)]
pub(super) fn unit_hall_sets(doms: &mut [u32; 9], open: u32) -> Result<bool, Conflict> {
    let mut lanes = [0u16; 8];
    for (lane, &d) in lanes.iter_mut().zip(doms.iter()) {
        *lane = d as u16; // digit domains fit: bits 1..9
    }
    let (sets, size) = (u16x8::new(lanes), ones(u16x8::new(lanes)));
    let ninth = doms[8] as u16;
    let acts = if open == 9 {
        // Nothing fixed: the ninth set is tested on its own (the other lanes hold the
        // empty set, which is too small to be one).
        let alone = u16x8::new([ninth, 0, 0, 0, 0, 0, 0, 0]);
        acting_sets(sets, size, doms, open) | acting_sets(alone, ones(alone), doms, open) << 8
    } else if distinct::single(doms[8]) {
        acting_sets(sets, size, doms, open)
    } else {
        let k = size.simd_eq(u16x8::splat(1)).to_bitmask().trailing_zeros().min(15);
        let lane = LANE_BITS.simd_eq(u16x8::splat(1 << k));
        let sets = lane.bitselect(u16x8::splat(ninth), sets);
        let size = lane.bitselect(u16x8::splat(domain::size(doms[8]) as u16), size);
        let acts = acting_sets(sets, size, doms, open);
        // Lane `k` stands for the ninth domain.
        acts & !(1 << k) | (acts >> k & 1) << 8
    };
    if acts == 0 {
        return Ok(false);
    }
    apply_hall_sets(doms, open, acts)
}

/// The bit of each lane's index.
const LANE_BITS: u16x8 = u16x8::new([1, 2, 4, 8, 16, 32, 64, 128]);

/// The lanes (as bits) whose set the Hall rule acts on: it has from 2 to `open - 2`
/// values (`size`), and as many of `doms` lie within it, or more.
#[inline(always)]
fn acting_sets(sets: u16x8, size: u16x8, doms: &[u32; 9], open: u32) -> u32 {
    let zero = u16x8::splat(0);
    let mut inside = zero;
    for &d in doms {
        // All ones, minus one, in the lanes whose set holds `d`.
        inside -= (u16x8::splat(d as u16) & !sets).simd_eq(zero);
    }
    let small =
        size.simd_gt(u16x8::splat(1)) & size.simd_lt(u16x8::splat((open as u16).saturating_sub(1)));
    (small & !inside.simd_lt(size)).to_bitmask()
}

/// The rule of [`distinct::hall_sets`] where the sets read off `doms` that it acts on are
/// known (bit `i` for `doms[i]`): until one of them changes a domain, the rule skips every
/// other set; after that, it goes on from the next one. (Not inlined: the test in front
/// stays lean.)
#[inline(never)]
fn apply_hall_sets(doms: &mut [u32; 9], open: u32, mut hall: u32) -> Result<bool, Conflict> {
    while hall != 0 {
        let i = hall.trailing_zeros() as usize;
        hall &= hall - 1;
        if distinct::hall_set(doms, i)? {
            distinct::hall_sets_from(doms, open, true, i + 1)?;
            return Ok(true);
        }
    }
    Ok(false)
}

/// The number of set bits of each lane.
pub(super) fn ones(x: u16x8) -> u16x8 {
    let x = x - (x.unbounded_shr_scalar(1) & u16x8::splat(0x5555));
    let x = (x & u16x8::splat(0x3333)) + (x.unbounded_shr_scalar(2) & u16x8::splat(0x3333));
    let x = (x + x.unbounded_shr_scalar(4)) & u16x8::splat(0x0F0F);
    (x + x.unbounded_shr_scalar(8)) & u16x8::splat(0x1F)
}
