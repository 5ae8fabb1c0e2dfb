//! Lookup tables of the band layout, computed at compile time.
//!
//! A band is three rows of the grid; a cell of a band is bit `row * 9 + column` of a 27-bit
//! mask (row 0..3 within the band), so band `b`'s bit `i` is grid cell `27 * b + i`. A
//! minirow is the three cells one row shares with one box: bits `row * 9 + box * 3 ..+3`.

/// Every cell of a band.
pub(super) const BAND: u32 = (1 << 27) - 1;

/// The nine cells of a row.
pub(super) const ROW: u32 = 0o777;

/// For the nine bits of one row, the three-bit mask of its minirows that hold a bit.
pub(super) static MINIROWS: [u8; 512] = minirows();

/// For a nine-bit map of the minirows where a digit may still go (bit `row * 3 + box`), the
/// cells of those minirows that belong to some placement of the digit in the band. A digit
/// takes one minirow in each row and one in each box, so its placements in a band are the
/// six permutations of three boxes over three rows; a minirow outside every permutation the
/// map allows is no place for it. Zero when no permutation fits: the digit cannot go in the
/// band at all.
pub(super) static PERMITTED: [u32; 512] = permitted();

/// For the nine-bit map of the columns where a digit may go in a band, the cells the
/// other two bands keep for it. Where a box of the band leaves the digit one column, the
/// digit of that box is in that column, so no other band may put it there.
pub(super) static OTHER_BANDS_KEEP: [u32; 512] = other_bands_keep();

/// For each cell of a band, the band's cells that stay open to a digit placed there: all
/// but the rest of its row and its box.
pub(super) static PLACED_KEEP: [u32; 27] = placed_keep();

/// The three cells of each of a band's nine columns.
pub(super) static COLUMN: [u32; 9] = columns();

const fn minirows() -> [u8; 512] {
    let mut table = [0u8; 512];
    let mut row = 0;
    while row < 512 {
        let mut minirow = 0;
        while minirow < 3 {
            if (row >> (3 * minirow)) & 7 != 0 {
                table[row] |= 1 << minirow;
            }
            minirow += 1;
        }
        row += 1;
    }
    table
}

/// The six placements of a digit in a band: `PERMUTATIONS[p][row]` is the box.
const PERMUTATIONS: [[usize; 3]; 6] =
    [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];

/// The cells of the minirows set in a nine-bit minirow map.
const fn minirow_cells(map: usize) -> u32 {
    let mut cells = 0;
    let mut minirow = 0;
    while minirow < 9 {
        if map & (1 << minirow) != 0 {
            let (row, box_) = (minirow / 3, minirow % 3);
            cells |= 7 << (row * 9 + box_ * 3);
        }
        minirow += 1;
    }
    cells
}

/// The union of the placements (permutations) that fit in a nine-bit minirow map.
const fn permitted_pairs() -> [u16; 512] {
    let mut table = [0u16; 512];
    let mut map = 0;
    while map < 512 {
        let mut p = 0;
        while p < PERMUTATIONS.len() {
            let perm = PERMUTATIONS[p];
            let placement = (1 << perm[0]) | (1 << (3 + perm[1])) | (1 << (6 + perm[2]));
            if map & placement == placement {
                table[map] |= placement as u16;
            }
            p += 1;
        }
        map += 1;
    }
    table
}

const fn permitted() -> [u32; 512] {
    let pairs = permitted_pairs();
    let mut table = [0u32; 512];
    let mut map = 0;
    while map < 512 {
        table[map] = minirow_cells(pairs[map] as usize);
        map += 1;
    }
    table
}

const fn columns() -> [u32; 9] {
    let mut table = [0u32; 9];
    let mut column = 0;
    while column < 9 {
        table[column] = (1 << column) | (1 << (column + 9)) | (1 << (column + 18));
        column += 1;
    }
    table
}

const fn other_bands_keep() -> [u32; 512] {
    let column_cells = columns();
    let mut table = [0u32; 512];
    let mut map = 0;
    while map < 512 {
        let mut keep = BAND;
        let mut box_ = 0;
        while box_ < 3 {
            let in_box: usize = (map >> (3 * box_)) & 7;
            if in_box.count_ones() == 1 {
                let column = 3 * box_ + in_box.trailing_zeros() as usize;
                keep &= !column_cells[column];
            }
            box_ += 1;
        }
        table[map] = keep;
        map += 1;
    }
    table
}

const fn placed_keep() -> [u32; 27] {
    let mut table = [0u32; 27];
    let mut cell = 0;
    while cell < 27 {
        let (row, box_) = (cell / 9, (cell % 9) / 3);
        let row_cells = ROW << (row * 9);
        let box_cells = (7 << (box_ * 3)) | (7 << (box_ * 3 + 9)) | (7 << (box_ * 3 + 18));
        table[cell] = (BAND & !row_cells & !box_cells) | (1 << cell);
        cell += 1;
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_digit_locked_in_one_minirow_of_a_row_leaves_that_box_to_it() {
        // Row 0 only in box 0; rows 1 and 2 anywhere: box 0 belongs to row 0.
        let map = 0b111_111_001;
        let cells = PERMITTED[map];
        assert_eq!(cells & 0o7, 0o7);
        assert_eq!(cells & (0o7 << 9), 0, "row 1 loses box 0");
        assert_eq!(cells & (0o7 << 18), 0, "row 2 loses box 0");
        assert_eq!(cells & (0o770 << 9), 0o770 << 9);
    }

    #[test]
    fn no_permutation_means_no_cell() {
        // Rows 0 and 1 both only in box 0.
        assert_eq!(PERMITTED[0b111_001_001], 0);
        assert_eq!(PERMITTED[0b111_111_111], BAND);
    }

    #[test]
    fn a_single_column_in_a_box_is_taken_from_the_other_bands() {
        // Box 0: column 1 only; box 1: columns 3 and 4; box 2: column 8 only.
        let keep = OTHER_BANDS_KEEP[0b100_011_010];
        assert_eq!(keep, BAND & !COLUMN[1] & !COLUMN[8]);
    }

    #[test]
    fn a_placed_digit_keeps_its_cell_and_leaves_its_row_and_box() {
        let keep = PLACED_KEEP[10]; // row 1, column 1
        assert_ne!(keep & (1 << 10), 0);
        assert_eq!(keep & (ROW << 9) & !(1 << 10), 0);
        assert_eq!(keep & 0o7, 0, "box 0 of row 0");
        assert_eq!(keep & (0o770 << 18), 0o770 << 18);
        assert_eq!(MINIROWS[0b100_000_011], 0b101);
    }
}
