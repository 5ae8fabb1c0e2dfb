//! Candidate masks (bit `d` for digit `d`, 1..=9) and the tables that answer questions
//! about them in one look-up: the baseline x86-64 target has no population count
//! instruction, and the grader asks these questions on every visit of a run.

/// Every digit 1..=9 as a candidate mask.
pub(super) const ALL_DIGITS: u16 = 0x3FE;

/// Number of digits, sum of the digits, and the mirror (bit `d` becomes bit `9 - d`) of
/// every 10-bit mask (masks never reach bit 10).
const TABLES: [[u16; 3]; 1024] = {
    let mut tables = [[0u16; 3]; 1024];
    let mut m = 0;
    while m < 1024 {
        let mut d = 1;
        while d < 10 {
            if m & 1 << d != 0 {
                tables[m][1] += d as u16;
            }
            d += 1;
        }
        tables[m][0] = (m as u16).count_ones() as u16;
        tables[m][2] = (m as u16).reverse_bits() >> 6;
        m += 1;
    }
    tables
};

/// Number of digits in `mask`.
#[inline]
pub(super) fn ones(mask: u16) -> u32 {
    u32::from(TABLES[usize::from(mask) & 1023][0])
}

/// Sum of the digits in `mask`.
#[inline]
pub(super) fn sum(mask: u16) -> u32 {
    u32::from(TABLES[usize::from(mask) & 1023][1])
}

/// True when `mask` holds more than one digit.
#[inline]
pub(super) fn several(mask: u16) -> bool {
    mask & mask.wrapping_sub(1) != 0
}

/// The digits `d` of `digits` whose partner `total - d` is in `digits` too and differs
/// from `d`: the digits of the pairs from `digits` that make `total`.
#[inline]
pub(super) fn paired(digits: u16, total: u32) -> u16 {
    if total > 18 {
        return 0;
    }
    let mirrored = u32::from(TABLES[usize::from(digits) & 1023][2]);
    // Bit `9 - d` of the mirror goes to bit `total - d`.
    let partners = if total < 9 { mirrored >> (9 - total) } else { mirrored << (total - 9) };
    let half = if total.is_multiple_of(2) { 1 << (total / 2) } else { 0 };
    digits & (partners & !half) as u16
}
