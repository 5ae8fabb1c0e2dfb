//! The Killer Sudoku grid of `killer-sudoku/janko`: `N N`, then N lines with each cage's sum
//! written on one of its cells (`-` elsewhere), then N lines of cage ids. Any token names a
//! cage; `-` or `.` in the id grid leaves a cell outside every cage. Sides are 4..25, with
//! square boxes or, for sides such as 6, the usual rectangles (2x3).

use super::sudoku::square_side;
use super::text;
use super::{Document, Format, InputError, Parsed};
use crate::puzzle::validate::{self, Aspect};
use crate::puzzle::{Cage, Killer, Puzzle};
use crate::solver::SolveOverrides;
use std::collections::HashMap;

/// A cage while it is being read.
struct Building<'a> {
    id: &'a str,
    /// The sum and the offset of its token.
    sum: Option<(u32, usize)>,
    cells: Vec<usize>,
}

/// Reads a Killer Sudoku grid.
pub fn read(text: &str) -> Result<Document, InputError> {
    let mut lines = text::lines(text);
    let (rows, cols, header) = text::header(text, &mut lines)?;
    let n = square_side(text, header, rows, cols)?;
    let box_size = validate::killer_box(n)
        .map_err(|m| text::error_at(text, header.start, m, "a side from 4 to 25 with boxes"))?;
    let capacity = (n * n).min(text.len() / 2 + 1);
    let mut sums: Vec<Option<(u32, usize)>> = Vec::with_capacity(capacity);
    let last = text::grid(text, &mut lines, header, (n, n), "sum grid", |_, offset, token| {
        sums.push(sum(text, offset, token)?.map(|s| (s, offset)));
        Ok(())
    })?;
    let mut cages: Vec<Building<'_>> = Vec::new();
    let mut index_of: HashMap<&str, usize> = HashMap::new();
    let mut id_offsets = Vec::with_capacity(capacity);
    text::grid(text, &mut lines, last, (n, n), "cage id grid", |cell, offset, token| {
        id_offsets.push(offset);
        if token == "-" || token == "." {
            return Ok(());
        }
        let next = cages.len();
        let cage = *index_of.entry(token).or_insert(next);
        if cage == next {
            cages.push(Building { id: token, sum: None, cells: Vec::new() });
        }
        cages[cage].cells.push(cell);
        Ok(())
    })?;
    text::expect_end(text, &mut lines, "nothing after the cage id grid")?;
    attach_sums(text, &sums, &id_offsets, &index_of, &mut cages)?;
    let killer = Killer {
        n,
        box_size,
        cages: cages
            .iter()
            .map(|c| Cage { total: c.sum.map_or(0, |s| s.0), cells: c.cells.clone() })
            .collect(),
        givens: vec![0; n * n],
    };
    validate::killer(&killer).map_err(|e| {
        let offset = match e.aspect {
            Aspect::CageSum(cage) => cages.get(cage).and_then(|c| c.sum).map(|s| s.1),
            _ => id_offsets.get(e.cell).copied(),
        };
        text::error_at(text, offset.unwrap_or(0), e.message, e.expected)
    })?;
    Ok(Document {
        format: Format::Killer,
        batch: false,
        entries: vec![Ok(Parsed {
            puzzle: Puzzle::Killer(killer),
            overrides: SolveOverrides::default(),
            line: header.number,
        })],
    })
}

/// A sum token: a number, or `-` / `.` for none.
fn sum(text: &str, offset: usize, token: &str) -> Result<Option<u32>, InputError> {
    match token {
        "-" | "." => Ok(None),
        _ => text::number(token).map(Some).ok_or_else(|| {
            let message = format!("unknown cage sum `{token}`");
            text::error_at(text, offset, message, "a number, or `-` on cells without a sum")
        }),
    }
}

/// Gives each cage the one sum written on its cells: a sum on a cell outside every cage,
/// a second sum for a cage and a cage without a sum are errors.
fn attach_sums(
    text: &str,
    sums: &[Option<(u32, usize)>],
    id_offsets: &[usize],
    index_of: &HashMap<&str, usize>,
    cages: &mut [Building<'_>],
) -> Result<(), InputError> {
    for (cell, entry) in sums.iter().enumerate() {
        let Some((total, offset)) = *entry else { continue };
        let id = id_offsets
            .get(cell)
            .and_then(|&at| text.get(at..))
            .and_then(|rest| rest.split(|c: char| c.is_ascii_whitespace()).next())
            .unwrap_or("-");
        let Some(cage) = index_of.get(id).and_then(|&i| cages.get_mut(i)) else {
            let message = format!("sum {total} is on a cell that is in no cage");
            return Err(text::error_at(text, offset, message, "sums only on cells of a cage"));
        };
        if let Some((other, at)) = cage.sum {
            let first = text::error_at(text, at, "", "");
            let message = format!(
                "cage `{}` has a second sum {total} (the first, {other}, is at line {}, column {})",
                cage.id, first.line, first.column
            );
            return Err(text::error_at(text, offset, message, "one sum per cage"));
        }
        cage.sum = Some((total, offset));
    }
    for cage in cages.iter() {
        if cage.sum.is_none() {
            let at = cage.cells.first().and_then(|&c| id_offsets.get(c)).copied().unwrap_or(0);
            let message = format!("cage `{}` has no sum", cage.id);
            return Err(text::error_at(text, at, message, "a sum on one cell of every cage"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SUMS: &str = "4 4\n3 - 7 -\n- - - -\n7 - 3 -\n- - - -\n";
    const IDS: &str = "1 1 2 2\n3 3 2 2\n4 4 5 5\n6 6 5 5\n";

    fn killer(text: &str) -> Result<Killer, InputError> {
        match read(text)?.entries.into_iter().next() {
            Some(Ok(Parsed { puzzle: Puzzle::Killer(k), .. })) => Ok(k),
            other => panic!("unexpected {other:?}"),
        }
    }

    fn with(sums: &str, ids: &str) -> Result<Killer, InputError> {
        killer(&format!("{sums}{ids}"))
    }

    #[test]
    fn reads_cages_in_first_seen_order() {
        let sums = "4 4\n3 - 10 -\n7 - - -\n7 - 10 -\n3 - - -\n";
        let k = with(sums, IDS).unwrap();
        assert_eq!((k.n, k.box_size, k.cages.len()), (4, 2, 6));
        assert_eq!(k.cages[0], Cage { total: 3, cells: vec![0, 1] });
        assert_eq!(k.cages[1], Cage { total: 10, cells: vec![2, 3, 6, 7] });
        assert_eq!(k.givens, vec![0; 16]);
    }

    #[test]
    fn cage_without_a_sum() {
        let e = with(SUMS, IDS).unwrap_err();
        assert_eq!((e.line, e.column), (7, 1));
        assert_eq!(e.message, "cage `3` has no sum");
    }

    #[test]
    fn cage_with_two_sums() {
        let sums = "4 4\n3 1 7 -\n- - - -\n7 - 3 -\n- - - -\n";
        let e = with(sums, IDS).unwrap_err();
        assert_eq!((e.line, e.column), (2, 3));
        assert!(e.message.contains("second sum 1 (the first, 3, is at line 2, column 1)"), "{e}");
    }

    #[test]
    fn sum_on_a_cell_in_no_cage() {
        let sums = "4 4\n3 - 7 -\n9 - - -\n7 - 3 -\n3 - - 4\n";
        let ids = "1 1 2 2\n3 3 2 2\n4 4 5 5\n6 6 5 -\n";
        let e = with(sums, ids).unwrap_err();
        assert_eq!((e.line, e.column), (5, 7));
        assert!(e.message.contains("in no cage"), "{e}");
    }

    #[test]
    fn disconnected_cage_points_at_the_stray_cell() {
        let sums = "4 4\n3 - 7 -\n7 - - -\n7 - 3 -\n3 - - -\n";
        let ids = "1 2 2 2\n3 3 2 1\n4 4 5 5\n6 6 5 5\n";
        let e = with(sums, ids).unwrap_err();
        assert_eq!((e.line, e.column), (7, 7));
        assert!(e.message.contains("not connected"), "{e}");
    }

    #[test]
    fn impossible_cage_sum_points_at_the_sum() {
        // Two cells of a 4x4 reach at most 4 + 3 = 7.
        let sums = "4 4\n8 - 10 -\n7 - - -\n7 - 3 -\n3 - - -\n";
        let e = with(sums, IDS).unwrap_err();
        assert_eq!((e.line, e.column), (2, 1));
        assert_eq!(e.expected, "a sum from 3 to 7 for 2 cells");
    }

    #[test]
    fn six_by_six_has_two_by_three_boxes() {
        let text = std::fs::read_to_string(concat!(
            concat!(env!("CARGO_MANIFEST_DIR"), "/../.."),
            "/tests/fixtures/killer/574_6x6.txt"
        ))
        .unwrap();
        let k = killer(&text).unwrap();
        assert_eq!((k.n, k.box_size), (6, 2));
        assert_eq!(k.cages.iter().map(|c| c.cells.len()).sum::<usize>(), 36);
    }

    #[test]
    fn bad_tokens_and_sizes() {
        let e = with("4 4\n3 - 7 -\n- x - -\n7 - 3 -\n- - - -\n", IDS).unwrap_err();
        assert_eq!((e.line, e.column), (3, 3));
        let e = killer("7 7\n").unwrap_err();
        assert!(e.message.contains("boxes"), "{e}");
        let e = with(SUMS, "1 1 2 2\n3 3 2 2\n4 4 5 5\n").unwrap_err();
        assert!(e.message.contains("cage id grid has 3 rows"), "{e}");
    }
}
