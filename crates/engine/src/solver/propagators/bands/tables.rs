//! The fixed geometry of a 9x9 grid, worked out at compile time: its units, each cell's
//! units and peers, and the lookup tables of the band rules (row-box matrices and their
//! permutations).

/// Cells of the grid.
pub(super) const CELLS: usize = 81;
/// Rows, columns and boxes: units `0..9` are rows, `9..18` columns, `18..27` boxes.
pub(super) const UNITS: usize = 27;
/// Bits of a band that are cells.
pub(super) const BAND: u32 = (1 << 27) - 1;
/// Copies a 9-bit set of columns into the three rows of a band.
pub(super) const EVERY_ROW: u32 = 1 | 1 << 9 | 1 << 18;
/// Columns reached by no set of places (bit 31 is past the grid).
pub(super) const NEVER: u32 = u32::MAX;

/// The six permutations of a 3x3 matrix (bit `3 * row + column`) as bit sets.
const PERMUTATIONS: [u16; 6] = {
    let mut perms = [0u16; 6];
    let orders = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];
    let mut p = 0;
    while p < 6 {
        perms[p] = 1 << orders[p][0] | 1 << (3 + orders[p][1]) | 1 << (6 + orders[p][2]);
        p += 1;
    }
    perms
};

/// For each 3x3 matrix, the entries on some permutation inside it (empty when there is
/// none: some row and column cannot be matched).
pub(super) const MATCHED: [u16; 512] = {
    let mut table = [0u16; 512];
    let mut m = 0usize;
    while m < 512 {
        let mut p = 0;
        while p < 6 {
            if m as u16 & PERMUTATIONS[p] == PERMUTATIONS[p] {
                table[m] |= PERMUTATIONS[p];
            }
            p += 1;
        }
        m += 1;
    }
    table
};

/// For each 3x3 matrix, its entries that are alone in their column.
pub(super) const ALONE: [u16; 512] = {
    let mut table = [0u16; 512];
    let mut m = 0usize;
    while m < 512 {
        let mut e = 0;
        while e < 9 {
            if m & 1 << e != 0 && ((m >> (e % 3)) & 0b1001001).count_ones() == 1 {
                table[m] |= 1 << e;
            }
            e += 1;
        }
        m += 1;
    }
    table
};

/// For each row of nine cells, its three segments (one per box) that are not empty, and
/// those that hold exactly one cell.
pub(super) const SEGMENTS: [(u8, u8); 512] = {
    let mut table = [(0u8, 0u8); 512];
    let mut row = 0usize;
    while row < 512 {
        let mut s = 0;
        while s < 3 {
            let ones = ((row >> (3 * s)) & 7).count_ones();
            if ones > 0 {
                table[row].0 |= 1 << s;
            }
            if ones == 1 {
                table[row].1 |= 1 << s;
            }
            s += 1;
        }
        row += 1;
    }
    table
};

/// For each set of row-box segments of a band (bit `3 * row + box`), their cells.
pub(super) const SEGMENT_CELLS: [u32; 512] = {
    let mut table = [0u32; 512];
    let mut m = 0usize;
    while m < 512 {
        let mut e = 0;
        while e < 9 {
            if m & 1 << e != 0 {
                table[m] |= 7 << (9 * (e / 3) + 3 * (e % 3));
            }
            e += 1;
        }
        m += 1;
    }
    table
};

/// The cells of each unit, in order.
pub(super) const UNIT_CELLS: [[u8; 9]; UNITS] = {
    let mut units = [[0u8; 9]; UNITS];
    let mut i = 0;
    while i < 9 {
        let mut j = 0;
        while j < 9 {
            units[i][j] = (9 * i + j) as u8;
            units[9 + i][j] = (9 * j + i) as u8;
            units[18 + i][j] = (9 * (i / 3 * 3 + j / 3) + i % 3 * 3 + j % 3) as u8;
            j += 1;
        }
        i += 1;
    }
    units
};

/// The cells of each unit, as a set.
const UNIT_SETS: [u128; UNITS] = {
    let mut sets = [0u128; UNITS];
    let mut u = 0;
    while u < UNITS {
        let mut j = 0;
        while j < 9 {
            sets[u] |= 1 << UNIT_CELLS[u][j];
            j += 1;
        }
        u += 1;
    }
    sets
};

/// The cells of each unit, by band.
pub(super) const UNIT_BANDS: [[u32; 3]; UNITS] = {
    let mut table = [[0u32; 3]; UNITS];
    let mut u = 0;
    while u < UNITS {
        let mut j = 0;
        while j < 9 {
            let c = UNIT_CELLS[u][j] as usize;
            table[u][c / 27] |= 1 << (c % 27);
            j += 1;
        }
        u += 1;
    }
    table
};

/// The index of the unit whose cells are `cells`, if one is.
pub(super) fn unit_index(cells: u128) -> Option<usize> {
    let (low, high) = (cells.trailing_zeros() as usize, 127 - cells.leading_zeros() as usize);
    let u = match high.checked_sub(low)? {
        8 => low / 9,
        72 => 9 + low,
        20 => 18 + low / 27 * 3 + low % 9 / 3,
        _ => return None,
    };
    UNIT_SETS.get(u).filter(|&&set| set == cells).map(|_| u)
}

/// The units of each cell, as a set.
pub(super) const UNITS_OF: [u32; CELLS] = {
    let mut table = [0u32; CELLS];
    let mut u = 0;
    while u < UNITS {
        let mut j = 0;
        while j < 9 {
            table[UNIT_CELLS[u][j] as usize] |= 1 << u;
            j += 1;
        }
        u += 1;
    }
    table
};

/// The cells sharing a unit with each cell, by band.
pub(super) const PEERS: [[u32; 3]; CELLS] = {
    let mut table = [[0u32; 3]; CELLS];
    let mut c = 0;
    while c < CELLS {
        let mut u = 0;
        while u < UNITS {
            if UNITS_OF[c] & 1 << u != 0 {
                let mut j = 0;
                while j < 9 {
                    let other = UNIT_CELLS[u][j] as usize;
                    if other != c {
                        table[c][other / 27] |= 1 << (other % 27);
                    }
                    j += 1;
                }
            }
            u += 1;
        }
        c += 1;
    }
    table
};
