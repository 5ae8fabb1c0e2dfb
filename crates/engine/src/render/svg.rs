//! Pictures of a puzzle, solved or not: the `NAME.svg` output of `kakurod solve --svg` and
//! of the daemon's outbox, and the grids of `kakurod print`'s sheets.
//!
//! Kakuro clue cells are dark, split by a diagonal, with the down sum in the lower-left
//! half and the right sum in the upper-right half; white cells hold their digit, centred.
//! Sudoku and Killer grids have thin cell lines and thick box lines; givens are bold and
//! solved digits lighter; killer cages are dashed outlines set inside their cells, with the
//! cage sum small in the cage's top-left corner.

use super::drawing::{Color, Drawing, Font, Shape, Stroke};
use crate::puzzle::{Grid, Kakuro, KakuroCell, Killer, Puzzle, Sudoku};

/// Side of one cell, in SVG user units.
pub const CELL: f64 = 40.0;
/// Blank border around the grid.
pub const MARGIN: f64 = 4.0;
/// How far a killer cage's outline sits inside its cells.
const CAGE_INSET: f64 = 4.0;

const CLUE_CELL: Color = Color(0x2b, 0x2b, 0x2b);
const CELL_LINE: Color = Color(0x55, 0x55, 0x55);
const SOLVED_DIGIT: Color = Color(0x2f, 0x6d, 0xb5);

/// Draws `puzzle` as SVG, with the digits of `grid` when given ([`drawing`]).
pub fn svg(puzzle: &Puzzle, grid: Option<&Grid>) -> String {
    drawing(puzzle, grid).to_svg()
}

/// Draws `puzzle`, with the digits of `grid` when given (a grid of another size than the
/// puzzle's is ignored, and the puzzle is drawn unsolved).
pub fn drawing(puzzle: &Puzzle, grid: Option<&Grid>) -> Drawing {
    let (rows, cols) = puzzle.size();
    let grid = grid.filter(|g| g.rows == rows && g.cols == cols && g.cells.len() == rows * cols);
    let mut canvas = Canvas::new(rows, cols);
    match puzzle {
        Puzzle::Kakuro(k) => draw_kakuro(&mut canvas, k, grid),
        Puzzle::Sudoku(s) => draw_sudoku(&mut canvas, s, grid),
        Puzzle::Killer(k) => draw_killer(&mut canvas, k, grid),
    }
    canvas.drawing
}

/// The drawing being made, and the grid's geometry.
struct Canvas {
    drawing: Drawing,
    rows: usize,
    cols: usize,
}

impl Canvas {
    fn new(rows: usize, cols: usize) -> Canvas {
        let width = cols as f64 * CELL + 2.0 * MARGIN;
        let height = rows as f64 * CELL + 2.0 * MARGIN;
        Canvas { drawing: Drawing::new(width, height), rows, cols }
    }

    /// Top-left corner of cell `index`.
    fn corner(&self, index: usize) -> (f64, f64) {
        let cols = self.cols.max(1);
        (MARGIN + (index % cols) as f64 * CELL, MARGIN + (index / cols) as f64 * CELL)
    }

    fn cell(&mut self, index: usize, fill: Color, lines: Color) {
        let (x, y) = self.corner(index);
        self.drawing.push(Shape::Rect {
            class: "cell",
            x,
            y,
            width: CELL,
            height: CELL,
            fill: Some(fill),
            stroke: Some(Stroke::solid(lines, 1.0)),
        });
    }

    /// A digit centred in cell `index`.
    fn digit(&mut self, index: usize, value: u32, font: Font) {
        let (x, y) = self.corner(index);
        self.drawing.centred_text((x + CELL / 2.0, y + CELL / 2.0), font, value.to_string());
    }

    fn line(&mut self, from: (f64, f64), to: (f64, f64), stroke: Stroke) {
        self.drawing.push(Shape::Line { from, to, stroke });
    }

    /// A frame around the whole grid.
    fn border(&mut self, width: f64) {
        self.drawing.push(Shape::Rect {
            class: "border",
            x: MARGIN,
            y: MARGIN,
            width: self.cols as f64 * CELL,
            height: self.rows as f64 * CELL,
            fill: None,
            stroke: Some(Stroke::solid(Color::BLACK, width)),
        });
    }
}

fn draw_kakuro(canvas: &mut Canvas, kakuro: &Kakuro, grid: Option<&Grid>) {
    for (index, cell) in kakuro.cells.iter().enumerate() {
        match *cell {
            KakuroCell::White => {
                canvas.cell(index, Color::WHITE, CELL_LINE);
                if let Some(value) = grid.and_then(|g| g.cells[index]) {
                    canvas.digit(
                        index,
                        value,
                        Font { color: Color(0x11, 0x11, 0x11), ..Font::plain(24.0) },
                    );
                }
            }
            KakuroCell::Black { down, right } => {
                canvas.cell(index, CLUE_CELL, CELL_LINE);
                if down.is_none() && right.is_none() {
                    continue;
                }
                let (x, y) = canvas.corner(index);
                let diagonal = Stroke::solid(Color(0xcc, 0xcc, 0xcc), 1.0);
                canvas.line((x, y), (x + CELL, y + CELL), diagonal);
                let clues = [(down, 0.3, 0.78), (right, 0.7, 0.36)];
                for (clue, fx, fy) in clues {
                    if let Some(total) = clue {
                        let font = Font { color: Color::WHITE, ..Font::plain(13.0) };
                        let centre = (x + fx * CELL, y + fy * CELL);
                        canvas.drawing.centred_text(centre, font, total.to_string());
                    }
                }
            }
        }
    }
    canvas.border(2.0);
}

fn draw_sudoku(canvas: &mut Canvas, sudoku: &Sudoku, grid: Option<&Grid>) {
    sudoku_cells(canvas, sudoku.n, &sudoku.givens, grid, Color(0xaa, 0xaa, 0xaa));
    box_lines(canvas, sudoku.n, sudoku.box_size);
}

fn draw_killer(canvas: &mut Canvas, killer: &Killer, grid: Option<&Grid>) {
    // Fainter cell lines, so the cage outlines stand out.
    sudoku_cells(canvas, killer.n, &killer.givens, grid, Color(0xd0, 0xd0, 0xd0));
    cages(canvas, killer);
    box_lines(canvas, killer.n, killer.box_size);
}

/// Cell squares and digits of a Sudoku-like grid: givens bold, solved digits lighter.
fn sudoku_cells(canvas: &mut Canvas, n: usize, givens: &[u32], grid: Option<&Grid>, lines: Color) {
    let size = if n <= 9 { 22.0 } else { 16.0 };
    for index in 0..n * n {
        canvas.cell(index, Color::WHITE, lines);
        let given = givens.get(index).copied().filter(|&v| v != 0);
        match (given, grid.and_then(|g| g.cells[index])) {
            (Some(value), _) => {
                canvas.digit(index, value, Font { bold: true, ..Font::plain(size) })
            }
            (None, Some(value)) => {
                canvas.digit(index, value, Font { color: SOLVED_DIGIT, ..Font::plain(size) })
            }
            (None, None) => {}
        }
    }
}

/// Thick lines between boxes and around the grid. A box is `box_rows` rows by
/// `n / box_rows` columns (2x3 in a 6x6 Killer).
fn box_lines(canvas: &mut Canvas, n: usize, box_rows: usize) {
    let (height, width) = (box_rows.max(1), n / box_rows.max(1));
    let span = n as f64 * CELL;
    let thick = Stroke::solid(Color::BLACK, 2.5);
    for row in (height..n).step_by(height) {
        let at = MARGIN + row as f64 * CELL;
        canvas.line((MARGIN, at), (MARGIN + span, at), thick);
    }
    for col in (width..n).step_by(width.max(1)) {
        let at = MARGIN + col as f64 * CELL;
        canvas.line((at, MARGIN), (at, MARGIN + span), thick);
    }
    canvas.border(3.0);
}

/// Dashed inset outlines of the cages, and each cage's sum in its first cell's corner.
fn cages(canvas: &mut Canvas, killer: &Killer) {
    let n = killer.n;
    let mut cage_of = vec![None; n * n];
    for (k, cage) in killer.cages.iter().enumerate() {
        for &cell in cage.cells.iter().filter(|&&c| c < n * n) {
            cage_of[cell] = Some(k);
        }
    }
    let dashed = Stroke { color: Color(0x33, 0x33, 0x33), width: 1.0, dash: Some((4.0, 3.0)) };
    for index in 0..n * n {
        let Some(cage) = cage_of[index] else { continue };
        let (row, col) = ((index / n) as isize, (index % n) as isize);
        // Whether the cell at offset (dr, dc) from this one is in the same cage.
        let same = |dr: isize, dc: isize| {
            let (r, c) = (row + dr, col + dc);
            (0..n as isize).contains(&r)
                && (0..n as isize).contains(&c)
                && cage_of[r as usize * n + c as usize] == Some(cage)
        };
        let (x, y) = canvas.corner(index);
        let center = (x + CELL / 2.0, y + CELL / 2.0);
        let half = CELL / 2.0;
        // Each side facing another cage gets a segment; its ends stop short of a side that
        // also faces out, reach the cell's edge where the outline continues straight into
        // the neighbour, and reach past it where the outline turns an inner corner.
        for (sr, sc) in [(-1isize, 0isize), (1, 0), (0, -1), (0, 1)] {
            if same(sr, sc) {
                continue;
            }
            let (pr, pc) = (sc, sr);
            let extent = |dir: isize| {
                if !same(pr * dir, pc * dir) {
                    half - CAGE_INSET
                } else if same(sr + pr * dir, sc + pc * dir) {
                    half + CAGE_INSET
                } else {
                    half
                }
            };
            let along = half - CAGE_INSET;
            let point = |dir: isize, reach: f64| {
                (
                    center.0 + sc as f64 * along + (pc * dir) as f64 * reach,
                    center.1 + sr as f64 * along + (pr * dir) as f64 * reach,
                )
            };
            let (a, b) = (point(-1, extent(-1)), point(1, extent(1)));
            canvas.line(a, b, dashed);
        }
    }
    for cage in &killer.cages {
        let Some(&first) = cage.cells.iter().filter(|&&c| c < n * n).min() else { continue };
        let (x, y) = canvas.corner(first);
        let digits = cage.total.to_string().len() as f64;
        canvas.drawing.push(Shape::Rect {
            class: "label",
            x: x + 2.0,
            y: y + 2.0,
            width: digits * 6.0 + 2.0,
            height: 11.0,
            fill: Some(Color::WHITE),
            stroke: None,
        });
        canvas.drawing.text((x + 3.0, y + 11.0), Font::plain(10.0), cage.total.to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::Cage;

    /// Checks that every element is closed in order, and returns the element names seen.
    fn elements(svg: &str) -> Vec<String> {
        let mut stack: Vec<String> = Vec::new();
        let mut seen = Vec::new();
        let mut rest = svg;
        while let Some(start) = rest.find('<') {
            let end = rest[start..].find('>').expect("unclosed tag") + start;
            let tag = &rest[start + 1..end];
            assert!(!tag.contains('<'), "'<' inside a tag: {tag}");
            if let Some(name) = tag.strip_prefix('/') {
                assert_eq!(stack.pop().as_deref(), Some(name), "mismatched </{name}>");
            } else {
                let name = tag.split_whitespace().next().expect("empty tag").to_string();
                assert_eq!(tag.matches('"').count() % 2, 0, "unbalanced quotes in {tag}");
                seen.push(name.clone());
                if !tag.ends_with('/') {
                    stack.push(name);
                }
            }
            rest = &rest[end + 1..];
        }
        assert!(stack.is_empty(), "unclosed elements: {stack:?}");
        seen
    }

    fn count(svg: &str, needle: &str) -> usize {
        svg.matches(needle).count()
    }

    fn kakuro() -> Kakuro {
        // 3x3: clue cell, two down clues, a right clue per row, four white cells.
        let b = |down, right| KakuroCell::Black { down, right };
        let w = KakuroCell::White;
        Kakuro {
            rows: 3,
            cols: 3,
            cells: vec![
                b(None, None),
                b(Some(4), None),
                b(Some(6), None),
                b(None, Some(3)),
                w,
                w,
                b(None, Some(7)),
                w,
                w,
            ],
        }
    }

    #[test]
    fn kakuro_has_one_cell_per_square_and_a_text_per_clue_and_digit() {
        let grid = Grid {
            rows: 3,
            cols: 3,
            cells: vec![None, None, None, None, Some(1), Some(2), None, Some(3), Some(4)],
        };
        let svg = svg(&Puzzle::Kakuro(kakuro()), Some(&grid));
        let names = elements(&svg);
        assert_eq!(names[0], "svg");
        assert_eq!(count(&svg, "class=\"cell\""), 9);
        assert_eq!(names.iter().filter(|n| *n == "text").count(), 4 + 4);
        for digit in [">1<", ">2<", ">3<", ">4<", ">6<", ">7<"] {
            assert!(svg.contains(digit), "missing {digit}");
        }
        // One diagonal per clue cell (four of them), none in the bare corner.
        assert_eq!(names.iter().filter(|n| *n == "line").count(), 4);
    }

    #[test]
    fn unsolved_kakuro_shows_only_the_clues() {
        let svg = svg(&Puzzle::Kakuro(kakuro()), None);
        elements(&svg);
        assert_eq!(count(&svg, "<text"), 4);
    }

    #[test]
    fn a_grid_of_the_wrong_size_is_ignored() {
        let grid = Grid { rows: 2, cols: 2, cells: vec![Some(1); 4] };
        let svg = svg(&Puzzle::Kakuro(kakuro()), Some(&grid));
        assert_eq!(count(&svg, "<text"), 4);
    }

    #[test]
    fn sudoku_givens_are_bold_and_solved_digits_are_not() {
        let mut givens = vec![0; 16];
        givens[0] = 1;
        givens[5] = 3;
        let sudoku = Sudoku { n: 4, box_size: 2, givens };
        let solution = [1, 2, 3, 4, 4, 3, 2, 1, 2, 1, 4, 3, 3, 4, 1, 2];
        let grid = Grid { rows: 4, cols: 4, cells: solution.iter().map(|&v| Some(v)).collect() };
        let svg = svg(&Puzzle::Sudoku(sudoku), Some(&grid));
        let names = elements(&svg);
        assert_eq!(count(&svg, "class=\"cell\""), 16);
        assert_eq!(names.iter().filter(|n| *n == "text").count(), 16);
        assert_eq!(count(&svg, "font-weight=\"bold\""), 2);
        // One thick line each way between the 2x2 boxes.
        assert_eq!(names.iter().filter(|n| *n == "line").count(), 2);
    }

    #[test]
    fn killer_cages_get_an_outline_and_a_sum() {
        // 4x4, one L-shaped cage {0, 1, 4} and a single-cell cage {15}.
        let killer = Killer {
            n: 4,
            box_size: 2,
            cages: vec![
                Cage { total: 7, cells: vec![0, 1, 4] },
                Cage { total: 12, cells: vec![15] },
            ],
            givens: vec![0; 16],
        };
        let svg = svg(&Puzzle::Killer(killer), None);
        let names = elements(&svg);
        assert_eq!(count(&svg, "class=\"cell\""), 16);
        assert!(svg.contains(">7</text>") && svg.contains(">12</text>"));
        // Outer sides per cell: 2 for cell 0, 3 each for cells 1 and 4, 4 for the lone cell.
        assert_eq!(count(&svg, "stroke-dasharray"), 2 + 3 + 3 + 4);
        assert_eq!(names.iter().filter(|n| *n == "text").count(), 2);
    }

    #[test]
    fn a_six_by_six_grid_has_two_by_three_boxes() {
        let sudoku = Sudoku { n: 6, box_size: 2, givens: vec![0; 36] };
        let svg = svg(&Puzzle::Sudoku(sudoku), None);
        // Horizontal box lines after rows 2 and 4, one vertical line after column 3.
        let thick: Vec<&str> = svg.lines().filter(|l| l.contains("stroke-width=\"2.5\"")).collect();
        assert_eq!(thick.len(), 3);
        let x = MARGIN + 3.0 * CELL;
        assert!(
            thick.iter().any(|l| l.contains(&format!("x1=\"{x}\" y1=\"{MARGIN}\" x2=\"{x}\"")))
        );
        let y = MARGIN + 4.0 * CELL;
        assert!(thick.iter().any(|l| l.contains(&format!("x1=\"{MARGIN}\" y1=\"{y}\""))));
    }

    #[test]
    fn inner_corner_segments_meet() {
        // An L cage {0, 1, 4}: cell 1's bottom side and cell 4's right side meet at an
        // inner corner inside cell 0, so both reach CAGE_INSET past their cells' edges.
        let killer = Killer {
            n: 4,
            box_size: 2,
            cages: vec![Cage { total: 7, cells: vec![0, 1, 4] }],
            givens: vec![0; 16],
        };
        let svg = svg(&Puzzle::Killer(killer), None);
        let corner = (MARGIN + CELL - CAGE_INSET, MARGIN + CELL - CAGE_INSET);
        let ends = format!("x2=\"{}\" y2=\"{}\"", corner.0, corner.1);
        let starts = format!("x1=\"{}\" y1=\"{}\"", corner.0, corner.1);
        assert_eq!(count(&svg, &ends) + count(&svg, &starts), 2, "{svg}");
    }
}
