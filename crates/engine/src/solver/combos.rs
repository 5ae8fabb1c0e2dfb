//! Per-(length, sum) tables of digit combinations for Kakuro runs and killer cages.
//!
//! A combination is a set of distinct digits 1..9, stored as a 9-bit mask (bit `d - 1` for
//! digit `d`). The run propagator works on sets of such masks, 512 bits wide ([`MaskSet`]):
//! for every run length and total the tables give the set of combinations that reach the
//! total exactly ([`valid`]) and the set of all their subsets ([`partial`]), which prunes
//! partial assignments early. Both are computed once per process.

use std::sync::LazyLock;

/// The largest digit of a Kakuro run.
pub const MAX_DIGIT: u32 = 9;
/// The largest total of a run (1 + 2 + ... + 9).
pub const MAX_TOTAL: u32 = 45;

/// A set of digit masks: bit `m` set means mask `m` is in the set.
pub type MaskSet = [u64; 8];

/// The empty mask set.
pub const EMPTY: MaskSet = [0; 8];

struct Tables {
    /// `valid[len][total]`: masks of `len` digits summing to `total`.
    valid: Vec<Vec<MaskSet>>,
    /// `partial[len][total]`: every subset of a mask in `valid[len][total]`.
    partial: Vec<Vec<MaskSet>>,
    /// `list[len][total]`: the masks of `valid[len][total]`, smallest first.
    list: Vec<Vec<Vec<u16>>>,
}

static TABLES: LazyLock<Tables> = LazyLock::new(|| {
    let mut valid = vec![vec![EMPTY; MAX_TOTAL as usize + 1]; MAX_DIGIT as usize + 1];
    let mut partial = valid.clone();
    let mut list = vec![vec![Vec::new(); MAX_TOTAL as usize + 1]; MAX_DIGIT as usize + 1];
    for mask in 0u32..512 {
        let (len, total) = (mask.count_ones() as usize, mask_sum(mask) as usize);
        insert(&mut valid[len][total], mask);
        list[len][total].push(mask as u16);
        // Every subset of `mask` is a partial assignment that can still reach `total`.
        let mut sub = mask;
        loop {
            insert(&mut partial[len][total], sub);
            if sub == 0 {
                break;
            }
            sub = (sub - 1) & mask;
        }
    }
    Tables { valid, partial, list }
});

fn insert(set: &mut MaskSet, mask: u32) {
    set[(mask >> 6) as usize] |= 1 << (mask & 63);
}

/// Sum of the digits in a 9-bit mask.
pub fn mask_sum(mask: u32) -> u32 {
    (0..MAX_DIGIT).filter(|b| mask & (1 << b) != 0).map(|b| b + 1).sum()
}

/// The combinations of [`valid`]`(len, total)` as a list of masks, smallest first.
pub fn list(len: usize, total: u32) -> &'static [u16] {
    TABLES.list.get(len).and_then(|row| row.get(total as usize)).map_or(&[], |l| l.as_slice())
}

/// Combinations of `len` distinct digits summing to `total`; empty when there are none.
pub fn valid(len: usize, total: u32) -> &'static MaskSet {
    TABLES.valid.get(len).and_then(|row| row.get(total as usize)).unwrap_or(&EMPTY)
}

/// Subsets of the combinations in [`valid`]`(len, total)`.
pub fn partial(len: usize, total: u32) -> &'static MaskSet {
    TABLES.partial.get(len).and_then(|row| row.get(total as usize)).unwrap_or(&EMPTY)
}

/// The combinations of [`valid`] as masks, smallest first (for tests).
#[cfg(test)]
pub fn combinations(len: usize, total: u32) -> Vec<u32> {
    let set = valid(len, total);
    (0u32..512).filter(|&m| set[(m >> 6) as usize] & (1 << (m & 63)) != 0).collect()
}

/// Positions (mask indices within a word) whose bit `b` is clear, for `b < 6`.
const CLEAR: [u64; 6] = [
    0x5555_5555_5555_5555,
    0x3333_3333_3333_3333,
    0x0F0F_0F0F_0F0F_0F0F,
    0x00FF_00FF_00FF_00FF,
    0x0000_FFFF_0000_FFFF,
    0x0000_0000_FFFF_FFFF,
];

/// `{ m | (1 << bit) : m in set, m lacks bit }`: every mask extended by one digit.
#[inline(always)]
pub fn add_digit(set: &MaskSet, bit: u32) -> MaskSet {
    let mut out = EMPTY;
    if bit < 6 {
        let (clear, shift) = (CLEAR[bit as usize], 1u32 << bit);
        for w in 0..8 {
            out[w] = (set[w] & clear) << shift;
        }
    } else {
        let k = 1usize << (bit - 6);
        for w in 0..8 {
            out[w] = if w & k != 0 { set[w ^ k] } else { 0 };
        }
    }
    out
}

/// `{ m & !(1 << bit) : m in set, m has bit }`: the inverse of [`add_digit`].
#[inline(always)]
pub fn remove_digit(set: &MaskSet, bit: u32) -> MaskSet {
    let mut out = EMPTY;
    if bit < 6 {
        let (clear, shift) = (CLEAR[bit as usize], 1u32 << bit);
        for w in 0..8 {
            out[w] = (set[w] >> shift) & clear;
        }
    } else {
        let k = 1usize << (bit - 6);
        for w in 0..8 {
            out[w] = if w & k == 0 { set[w | k] } else { 0 };
        }
    }
    out
}

/// Set union in place.
#[inline]
pub fn or_into(acc: &mut MaskSet, other: &MaskSet) {
    for w in 0..8 {
        acc[w] |= other[w];
    }
}

/// Set intersection in place.
#[inline]
pub fn and_into(acc: &mut MaskSet, other: &MaskSet) {
    for w in 0..8 {
        acc[w] &= other[w];
    }
}

/// True when the two sets share a mask.
#[inline]
pub fn intersects(a: &MaskSet, b: &MaskSet) -> bool {
    (0..8).any(|w| a[w] & b[w] != 0)
}

/// True when the set is empty.
#[inline]
pub fn is_empty(set: &MaskSet) -> bool {
    set.iter().all(|&w| w == 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn contains(set: &MaskSet, m: u32) -> bool {
        set[(m >> 6) as usize] & (1 << (m & 63)) != 0
    }

    #[test]
    fn classic_combinations_are_in_the_table() {
        // 3 in two: {1,2}; 17 in two: {8,9}; 45 in nine: all digits.
        assert_eq!(combinations(2, 3), vec![0b11]);
        assert_eq!(combinations(2, 17), vec![0b1_1000_0000]);
        assert_eq!(combinations(9, 45), vec![0x1FF]);
        assert_eq!(combinations(4, 10), vec![0b1111]);
        assert_eq!(combinations(3, 3), Vec::<u32>::new());
        assert!(combinations(2, 46).is_empty());
        assert!(combinations(10, 5).is_empty());
    }

    #[test]
    fn add_and_remove_digit_are_inverse_on_every_mask() {
        for m in 0u32..512 {
            let mut set = EMPTY;
            insert(&mut set, m);
            for bit in 0..9 {
                let added = add_digit(&set, bit);
                if m & (1 << bit) == 0 {
                    assert!(contains(&added, m | 1 << bit));
                    assert_eq!(remove_digit(&added, bit), set);
                } else {
                    assert!(is_empty(&added));
                }
            }
        }
    }

    #[test]
    fn partial_holds_every_subset_of_a_valid_combination() {
        let p = partial(3, 24); // only {7,8,9}
        assert!(contains(p, 0));
        assert!(contains(p, 1 << 8));
        assert!(contains(p, (1 << 6) | (1 << 7)));
        assert!(!contains(p, 1));
    }
}
