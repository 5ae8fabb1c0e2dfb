//! A variable's domain: a set of small positive integers (1..=31) stored as a bitset.
//!
//! Bit `d` set means value `d` is still possible. Every puzzle kakurod knows uses values
//! 1..=25 at most (a 25x25 Sudoku), so one `u32` is enough and copying a domain is free.

use std::fmt;

/// The largest value a domain can hold.
pub const MAX_VALUE: u32 = 31;

/// The number of set bits of each domain of the values 1..9 (and 0).
const SIZES: [u8; 1024] = {
    let mut sizes = [0u8; 1024];
    let mut bits = 0;
    while bits < 1024 {
        sizes[bits] = (bits as u32).count_ones() as u8;
        bits += 1;
    }
    sizes
};

/// The number of values in the domain `bits`. Digit domains (Kakuro, 9x9 grids) are looked
/// up: counting bits is a long sequence on machines without a popcount instruction (the
/// x86-64 baseline), and the searches count them often.
#[inline]
pub fn size(bits: u32) -> u32 {
    match SIZES.get(bits as usize) {
        Some(&size) => u32::from(size),
        None => bits.count_ones(),
    }
}

/// A set of values in `1..=MAX_VALUE`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Domain(pub u32);

impl Domain {
    /// The empty domain (a failed variable).
    pub const EMPTY: Domain = Domain(0);

    /// All values `1..=max`.
    pub fn range(min: u32, max: u32) -> Domain {
        if min > max || max > MAX_VALUE || min == 0 {
            return Domain::EMPTY;
        }
        let upper = if max == 31 { u32::MAX } else { (1u32 << (max + 1)) - 1 };
        Domain(upper & !((1u32 << min) - 1))
    }

    /// The domain holding only `value`.
    pub fn single(value: u32) -> Domain {
        debug_assert!((1..=MAX_VALUE).contains(&value));
        Domain(1 << value)
    }

    /// The raw bits (bit `d` = value `d`).
    #[inline]
    pub fn bits(self) -> u32 {
        self.0
    }

    /// Number of values left.
    #[inline]
    pub fn len(self) -> u32 {
        size(self.0)
    }

    /// True when no value is left.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// True when exactly one value is left.
    #[inline]
    pub fn is_fixed(self) -> bool {
        self.0 != 0 && self.0 & (self.0 - 1) == 0
    }

    /// Whether `value` is in the domain.
    #[inline]
    pub fn contains(self, value: u32) -> bool {
        value <= MAX_VALUE && self.0 & (1 << value) != 0
    }

    /// Smallest value; `None` when empty.
    #[inline]
    pub fn min(self) -> Option<u32> {
        (self.0 != 0).then(|| self.0.trailing_zeros())
    }

    /// Largest value; `None` when empty.
    #[inline]
    pub fn max(self) -> Option<u32> {
        (self.0 != 0).then(|| 31 - self.0.leading_zeros())
    }

    /// The only value of a fixed domain.
    #[inline]
    pub fn value(self) -> Option<u32> {
        if self.is_fixed() { self.min() } else { None }
    }

    /// Set intersection.
    #[inline]
    pub fn intersect(self, other: Domain) -> Domain {
        Domain(self.0 & other.0)
    }

    /// Set union.
    #[inline]
    pub fn union(self, other: Domain) -> Domain {
        Domain(self.0 | other.0)
    }

    /// Set difference.
    #[inline]
    pub fn without(self, other: Domain) -> Domain {
        Domain(self.0 & !other.0)
    }

    /// The domain with `value` removed.
    #[inline]
    pub fn remove(self, value: u32) -> Domain {
        Domain(self.0 & !(1 << value))
    }

    /// Values in increasing order.
    pub fn iter(self) -> DomainIter {
        DomainIter(self.0)
    }
}

/// Iterator over a domain's values, smallest first.
#[derive(Clone, Debug)]
pub struct DomainIter(u32);

impl Iterator for DomainIter {
    type Item = u32;

    #[inline]
    fn next(&mut self) -> Option<u32> {
        if self.0 == 0 {
            return None;
        }
        let v = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(v)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl DoubleEndedIterator for DomainIter {
    #[inline]
    fn next_back(&mut self) -> Option<u32> {
        if self.0 == 0 {
            return None;
        }
        let v = 31 - self.0.leading_zeros();
        self.0 &= !(1 << v);
        Some(v)
    }
}

impl ExactSizeIterator for DomainIter {}

impl FromIterator<u32> for Domain {
    fn from_iter<I: IntoIterator<Item = u32>>(iter: I) -> Domain {
        Domain(
            iter.into_iter().filter(|&v| (1..=MAX_VALUE).contains(&v)).fold(0, |m, v| m | 1 << v),
        )
    }
}

impl fmt::Debug for Domain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn range_holds_exactly_its_bounds() {
        let d = Domain::range(1, 9);
        assert_eq!(d.len(), 9);
        assert_eq!(d.min(), Some(1));
        assert_eq!(d.max(), Some(9));
        assert!(!d.contains(0));
        assert!(!d.contains(10));
        assert_eq!(Domain::range(1, 31).len(), 31);
        assert!(Domain::range(5, 4).is_empty());
    }

    #[test]
    fn single_is_fixed_and_knows_its_value() {
        let d = Domain::single(7);
        assert!(d.is_fixed());
        assert_eq!(d.value(), Some(7));
        assert!(!Domain::range(1, 2).is_fixed());
        assert!(!Domain::EMPTY.is_fixed());
    }

    #[test]
    fn iteration_goes_both_ways() {
        let d: Domain = [3, 1, 9].into_iter().collect();
        assert_eq!(d.iter().collect::<Vec<_>>(), vec![1, 3, 9]);
        assert_eq!(d.iter().rev().collect::<Vec<_>>(), vec![9, 3, 1]);
        assert_eq!(d.remove(3).iter().collect::<Vec<_>>(), vec![1, 9]);
    }
}
