//! `kakurod explain --svg DIR`: the grid after each step, drawn over the puzzle's own
//! picture (`render::svg`). Placed digits are shown as in a solution, the candidates left
//! in open cells as small pencil marks, and the step itself stands out: the cells it
//! reasons from (`because`) shaded, the candidates it removes red and struck through, the
//! digits it places green.
//!
//! The path is replayed once, step by step, from the same candidates the steps were told
//! from (every digit in an open cell), and only the chosen steps are drawn, so that a few
//! pictures of a large Kakuro cost little more than its path.

use super::{Path, Step};
use crate::puzzle::{Grid, KakuroCell, Puzzle};
use crate::render::drawing::{Anchor, CENTRE_TO_BASELINE, Color, Drawing, Font, Shape, Stroke};
use crate::render::svg::{self, CELL, MARGIN};

/// A removed candidate.
pub const ELIMINATED: Color = Color(0xd0, 0x02, 0x1b);
/// A digit the step places.
pub const PLACED: Color = Color(0x1a, 0x8a, 0x3a);
/// A candidate left.
const PENCIL: Color = Color(0x70, 0x70, 0x70);
/// A cell the step reasons from.
const SHADE: Color = Color(0xff, 0xf1, 0xa8);

/// The SVG of the grid after each step `k` (counted from 1) that `chosen` takes, in order.
pub fn pictures(
    puzzle: &Puzzle,
    path: &Path,
    chosen: impl Fn(usize) -> bool,
) -> Vec<(usize, String)> {
    let mut candidates = start(puzzle);
    let mut out = Vec::new();
    for (k, step) in path.steps.iter().enumerate() {
        let before = candidates.clone();
        apply(&mut candidates, puzzle, step);
        if chosen(k + 1) {
            out.push((k + 1, draw(puzzle, &before, &candidates, step).to_svg()));
        }
    }
    out
}

/// Per cell, the digits open before the first step: a given's digit, every digit of an
/// open cell, none in a Kakuro's clue cells.
fn start(puzzle: &Puzzle) -> Vec<u32> {
    let every = |n: usize| ((1u64 << (n + 1)) - 2) as u32;
    match puzzle {
        Puzzle::Kakuro(k) => k
            .cells
            .iter()
            .map(|c| if matches!(c, KakuroCell::White) { every(9) } else { 0 })
            .collect(),
        Puzzle::Sudoku(s) => {
            s.givens.iter().map(|&g| if g == 0 { every(s.n) } else { 1 << g }).collect()
        }
        Puzzle::Killer(k) => {
            k.givens.iter().map(|&g| if g == 0 { every(k.n) } else { 1 << g }).collect()
        }
    }
}

/// `step` applied to `candidates`.
fn apply(candidates: &mut [u32], puzzle: &Puzzle, step: &Step) {
    let cols = puzzle.size().1;
    for &[r, c, d] in &step.eliminate {
        if let Some(slot) = candidates.get_mut(r * cols + c) {
            *slot &= !(1 << d);
        }
    }
    for &[r, c, d] in &step.place {
        if let Some(slot) = candidates.get_mut(r * cols + c) {
            *slot = 1 << d;
        }
    }
}

/// The largest digit of `puzzle`.
fn largest(puzzle: &Puzzle) -> usize {
    match puzzle {
        Puzzle::Kakuro(_) => 9,
        Puzzle::Sudoku(s) => s.n,
        Puzzle::Killer(k) => k.n,
    }
}

/// The picture after `step`: `before` and `after` are the candidates around it (a
/// `search` step places without eliminating, so what went is read from the step).
fn draw(puzzle: &Puzzle, before: &[u32], after: &[u32], step: &Step) -> Drawing {
    let (rows, cols) = puzzle.size();
    let placed_now: Vec<usize> = step.place.iter().map(|&[r, c, _]| r * cols + c).collect();
    let open = |cell: usize| !matches!(puzzle, Puzzle::Kakuro(k) if !matches!(k.cells[cell], KakuroCell::White));
    // The digits placed before, drawn as a solution's; this step's are drawn green below.
    let cells = (0..rows * cols)
        .map(|c| {
            let one = after[c].is_power_of_two() && open(c) && !placed_now.contains(&c);
            one.then(|| after[c].trailing_zeros())
        })
        .collect();
    let grid = Grid { rows, cols, cells };
    let base = svg::drawing(puzzle, Some(&grid));
    let shaded: Vec<usize> = step.because.cells.iter().map(|&[r, c]| r * cols + c).collect();
    let mut drawing = shade(base, &shaded, cols);
    let mut eliminated = vec![0u32; rows * cols];
    for &[r, c, d] in &step.eliminate {
        if let Some(mask) = eliminated.get_mut(r * cols + c) {
            *mask |= 1 << d;
        }
    }
    let n = largest(puzzle);
    let side = (1..).find(|k| k * k >= n).unwrap_or(1);
    // Whole-unit pencil positions keep the coordinates short, in files that hold a mark
    // for every candidate of every open cell.
    let pitch = (CELL / side as f64).floor();
    let inset = ((CELL - pitch * side as f64) / 2.0).floor();
    let size = (pitch * 0.7).round();
    let big = if n <= 9 { 22.0 } else { 16.0 };
    for cell in 0..rows * cols {
        let removed = before[cell] & eliminated[cell];
        let left = if after[cell].is_power_of_two() { 0 } else { after[cell] };
        let (x, y) = corner(cell, cols);
        for d in 1..=n {
            let bit = 1u32 << d;
            if (left | removed) & bit == 0 {
                continue;
            }
            let (i, j) = ((d - 1) / side, (d - 1) % side);
            let centre =
                (x + inset + (j as f64 + 0.5) * pitch, y + inset + (i as f64 + 0.5) * pitch);
            let struck = removed & bit != 0;
            let color = if struck { ELIMINATED } else { PENCIL };
            let baseline = (centre.1 + CENTRE_TO_BASELINE * size).round();
            let text = d.to_string();
            drawing.push(Shape::Text {
                x: centre.0,
                y: baseline,
                size,
                anchor: Anchor::Middle,
                bold: false,
                color,
                text,
            });
            if struck {
                let half = (size * 0.45).round();
                let stroke = Stroke::solid(ELIMINATED, 1.0);
                let (from, to) =
                    ((centre.0 - half, centre.1 + half), (centre.0 + half, centre.1 - half));
                drawing.push(Shape::Line { from, to, stroke });
            }
        }
    }
    for &[r, c, d] in &step.place {
        let (x, y) = corner(r * cols + c, cols);
        let font = Font { color: PLACED, bold: true, ..Font::plain(big) };
        drawing.centred_text((x + CELL / 2.0, y + CELL / 2.0), font, d.to_string());
    }
    drawing
}

/// Top-left corner of `cell`, as `render::svg` draws it.
fn corner(cell: usize, cols: usize) -> (f64, f64) {
    let cols = cols.max(1);
    (MARGIN + (cell % cols) as f64 * CELL, MARGIN + (cell / cols) as f64 * CELL)
}

/// `base` with each cell of `shaded` filled, just over its square (so that its digit and
/// lines stay on top).
fn shade(base: Drawing, shaded: &[usize], cols: usize) -> Drawing {
    let corners: Vec<(f64, f64)> = shaded.iter().map(|&c| corner(c, cols)).collect();
    let mut out = Drawing::new(base.width, base.height);
    for shape in base.shapes {
        let over = match &shape {
            Shape::Rect { class: "cell", x, y, .. } if corners.contains(&(*x, *y)) => {
                Some(Shape::Rect {
                    class: "because",
                    x: x + 1.0,
                    y: y + 1.0,
                    width: CELL - 2.0,
                    height: CELL - 2.0,
                    fill: Some(SHADE),
                    stroke: None,
                })
            }
            _ => None,
        };
        out.push(shape);
        if let Some(over) = over {
            out.push(over);
        }
    }
    out
}

/// The step numbers of a list such as `1,5,10-12`, each from 1 to `steps`.
pub fn parse_steps(list: &str, steps: usize) -> Result<Vec<usize>, String> {
    let mut chosen = Vec::new();
    for part in list.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let number = |text: &str| {
            text.trim().parse::<usize>().map_err(|_| {
                format!("--steps: `{part}` is not a step number or a range like 10-12")
            })
        };
        let (from, to) = match part.split_once('-') {
            Some((a, b)) => (number(a)?, number(b)?),
            None => (number(part)?, number(part)?),
        };
        if from == 0 || to < from || to > steps {
            return Err(format!("--steps: `{part}` is not within the path's steps 1 to {steps}"));
        }
        chosen.extend(from..=to);
    }
    if chosen.is_empty() {
        return Err("--steps: no step named".into());
    }
    chosen.sort_unstable();
    chosen.dedup();
    Ok(chosen)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn step_lists_take_numbers_and_ranges_within_the_path() {
        assert_eq!(parse_steps("1,5,10-12", 20), Ok(vec![1, 5, 10, 11, 12]));
        assert_eq!(parse_steps("3, 2-3", 3), Ok(vec![2, 3]));
        assert!(parse_steps("0", 5).is_err());
        assert!(parse_steps("4-2", 5).is_err());
        assert!(parse_steps("6", 5).unwrap_err().contains("1 to 5"));
        assert!(parse_steps("x", 5).is_err());
        assert!(parse_steps("", 5).is_err());
    }
}
