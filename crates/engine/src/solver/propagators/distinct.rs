//! The reasoning of an all-different over a few variables, on a local copy of their
//! domains (bitsets):
//! - naked singles: a fixed value leaves the other domains;
//! - hidden singles: when the variables must use every value (a permutation, like a Sudoku
//!   unit), a value with one place left goes there;
//! - Hall sets read off single domains: k variables whose domains fit inside one k-value
//!   domain take those values from everyone else (naked pairs, triples, ...).
//!
//! The single rules cost one pass over the domains when they find nothing, which is most
//! of the time; Hall sets cost a pass per unfixed domain and run after them.

use super::contract::Conflict;
use crate::model::domain;

/// Applies all three rules until they change nothing more. `values` is the set the
/// variables must use up, for a permutation (hidden singles apply only then).
pub fn settle(doms: &mut [u32], values: Option<u32>) -> Result<(), Conflict> {
    loop {
        singles(doms, values)?;
        if !hall_sets(doms, values.is_some())? {
            return Ok(());
        }
    }
}

/// True when two of `doms` are fixed to the same value.
pub fn fixed_twice(doms: impl IntoIterator<Item = u32>) -> bool {
    let mut seen = 0u32;
    doms.into_iter().filter(|&d| single(d)).any(|d| {
        let twice = seen & d != 0;
        seen |= d;
        twice
    })
}

/// True when exactly one bit is set.
#[inline]
pub fn single(d: u32) -> bool {
    // `&`, not `&&`: no branch, so loops over domains can be vectorized.
    (d & d.wrapping_sub(1) == 0) & (d != 0)
}

/// Applies naked and hidden singles until they change nothing more; returns whether
/// anything changed.
fn singles(doms: &mut [u32], values: Option<u32>) -> Result<bool, Conflict> {
    let mut changed = false;
    loop {
        // One pass: the fixed values (and whether one is fixed twice), and the values seen
        // at least once and at least twice.
        let (mut fixed, mut clash, mut once, mut twice) = (0u32, 0u32, 0u32, 0u32);
        for &d in doms.iter() {
            let f = if single(d) { d } else { 0 };
            clash |= fixed & f;
            fixed |= f;
            twice |= once & d;
            once |= d;
        }
        let hidden = match values {
            Some(values) if once & values != values => return Err(Conflict),
            Some(_) => once & !twice & !fixed,
            None => 0,
        };
        if clash != 0 {
            return Err(Conflict);
        }
        let mut again = false;
        for d in doms.iter_mut() {
            let old = *d;
            if single(old) || old & (fixed | hidden) == 0 {
                continue;
            }
            let placed = old & hidden;
            let new = if placed != 0 { placed } else { old & !fixed };
            if new == 0 || !single(placed) && placed != 0 {
                return Err(Conflict); // emptied, or the only place of two values
            }
            *d = new;
            again = true;
        }
        if !again {
            return Ok(changed);
        }
        changed = true;
    }
}

/// For each unfixed domain D, counts the domains that lie within D: more than |D| fails;
/// exactly |D| removes D's values from every other domain. Returns whether anything
/// changed. (Fixed values have left the unfixed domains already, so only unfixed domains
/// can lie within one.) In a `permutation` the sets one short of all open domains are
/// skipped: they leave one value to the last domain, a hidden single.
pub fn hall_sets(doms: &mut [u32], permutation: bool) -> Result<bool, Conflict> {
    let open = doms.iter().map(|&d| u32::from(!single(d))).sum::<u32>();
    hall_sets_among(doms, open, permutation)
}

/// [`hall_sets`] for a caller that knows how many of `doms` are `open` (not fixed).
pub fn hall_sets_among(doms: &mut [u32], open: u32, permutation: bool) -> Result<bool, Conflict> {
    hall_sets_from(doms, open, permutation, 0)
}

/// [`hall_sets_among`] with the sets read off the domains from index `first` on only.
pub fn hall_sets_from(
    doms: &mut [u32],
    open: u32,
    permutation: bool,
    first: usize,
) -> Result<bool, Conflict> {
    let mut changed = false;
    for i in first..doms.len() {
        let size = domain::size(doms[i]);
        if size < 2 || size + u32::from(permutation) >= open {
            continue;
        }
        changed |= hall_set(doms, i)?;
    }
    Ok(changed)
}

/// The Hall set rule for the set `doms[i]`: more domains inside it than it has values
/// fails; exactly as many remove its values from every other domain. Returns whether
/// anything changed.
#[inline]
pub fn hall_set(doms: &mut [u32], i: usize) -> Result<bool, Conflict> {
    let hall = doms[i];
    let size = domain::size(hall);
    // `u32` counts and a branch-free pass, so the count vectorizes.
    let inside = doms.iter().map(|&d| u32::from(d & !hall == 0)).sum::<u32>();
    if inside > size {
        return Err(Conflict);
    }
    if inside < size {
        return Ok(false);
    }
    let mut changed = false;
    for d in doms.iter_mut() {
        let narrowed = if *d & !hall != 0 { *d & !hall } else { *d };
        changed |= narrowed != *d;
        *d = narrowed;
    }
    Ok(changed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(doms: &[u32], permutation: bool) -> Option<Vec<u32>> {
        let values = doms.iter().fold(0, |a, &d| a | d);
        let mut doms = doms.to_vec();
        settle(&mut doms, permutation.then_some(values)).ok()?;
        Some(doms)
    }

    #[test]
    fn a_value_fixed_twice_is_found_among_open_domains() {
        assert!(fixed_twice([0b10, 0b110, 0b10]));
        assert!(!fixed_twice([0b10, 0b110, 0b100, 0b110]));
    }

    #[test]
    fn a_fixed_value_leaves_the_others() {
        assert_eq!(run(&[0b10, 0b110, 0b1110], false), Some(vec![0b10, 0b100, 0b1000]));
    }

    #[test]
    fn a_value_with_one_place_goes_there() {
        assert_eq!(run(&[0b110, 0b110, 0b1110], true), Some(vec![0b110, 0b110, 0b1000]));
    }

    #[test]
    fn a_naked_pair_is_removed_from_the_rest() {
        let d = run(&[0b110, 0b110, 0b11110, 0b11110], false).expect("ok");
        assert_eq!(d[2], 0b11000);
    }

    #[test]
    fn too_few_values_a_shared_fixed_value_or_a_missing_value_fail() {
        assert_eq!(run(&[0b110; 3], false), None);
        assert_eq!(run(&[0b10, 0b10, 0b1110], false), None);
        let mut doms = vec![0b110, 0b110, 0b110];
        assert_eq!(singles(&mut doms, Some(0b1110)), Err(Conflict));
    }
}
