//! The pages of a printable sheet (`kakurod print`): each puzzle on a page of its own,
//! empty, under its title and grade, as large as the page allows (cells at most 11 mm,
//! the page turned to landscape where that gives larger cells); then the solutions, four
//! to a page where they stay legible, else one to a page.
//!
//! A puzzle whose cells would come out under [`MIN_CELL_MM`] is refused: on A4 that is
//! about 40 columns by 54 rows (54 by 40 in landscape), enough for the 31x46 janko Kakuro
//! with 5.5 mm cells. Larger grids are not split over pages: their pieces could not be
//! solved on paper without the clues of their neighbours.

use super::drawing::{Color, Drawing, Font, Shape, Stroke, ascii};
use super::svg::{self, CELL};
use crate::puzzle::{Grid, Puzzle};

/// Paper sizes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Paper {
    /// 210 x 297 mm.
    A4,
    /// 8.5 x 11 in.
    Letter,
}

impl Paper {
    /// Every size, in the order the command line lists them.
    pub const ALL: [Paper; 2] = [Paper::A4, Paper::Letter];

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Paper::A4 => "a4",
            Paper::Letter => "letter",
        }
    }

    /// Width and height in points, portrait.
    fn size(self) -> (f64, f64) {
        match self {
            Paper::A4 => (595.28, 841.89),
            Paper::Letter => (612.0, 792.0),
        }
    }
}

/// Points in a millimetre.
const POINTS_PER_MM: f64 = 72.0 / 25.4;
/// The smallest cell side printed: clue numbers are then about 1.5 mm high.
pub const MIN_CELL_MM: f64 = 4.5;
/// The smallest cell side of a solution, whose digits are larger than clue numbers.
const MIN_SOLUTION_CELL_MM: f64 = 3.5;
/// The largest cell side: small grids are not blown up past a comfortable size.
const MAX_CELL_MM: f64 = 11.0;
/// White space around the page's content.
const MARGIN: f64 = 36.0;
/// Height taken by a page's title and the line under it.
const HEADER: f64 = 48.0;
/// Height kept for the page number.
const FOOTER: f64 = 18.0;

/// One puzzle to print.
pub struct Entry<'a> {
    /// What the page is headed with (the file, and the line in a batch).
    pub title: String,
    /// The grade's name, when the puzzle was graded.
    pub grade: Option<&'static str>,
    /// The puzzle.
    pub puzzle: &'a Puzzle,
    /// The verified solution, when one was found.
    pub solution: Option<&'a Grid>,
}

impl Entry<'_> {
    /// "Kakuro 10x12, grade: hard".
    fn description(&self) -> String {
        let (rows, cols) = self.puzzle.size();
        let kind = self.puzzle.kind().name();
        let mut text = format!("{}{} {rows}x{cols}", kind[..1].to_uppercase(), &kind[1..]);
        if let Some(grade) = self.grade {
            text.push_str(&format!(", grade: {grade}"));
        }
        text
    }
}

/// A puzzle too large to print legibly on the paper.
#[derive(Debug, thiserror::Error)]
#[error(
    "{title}: a {rows}x{cols} grid would get cells of {cell_mm:.1} mm on {paper} paper, \
     under the {MIN_CELL_MM} mm kakurod prints"
)]
pub struct TooLarge {
    /// The puzzle's page title.
    pub title: String,
    /// The grid's rows.
    pub rows: usize,
    /// The grid's columns.
    pub cols: usize,
    /// The side its cells would get, in millimetres.
    pub cell_mm: f64,
    /// The paper's name.
    pub paper: &'static str,
}

/// The sheet's pages: the puzzles, then their solutions.
pub fn pages(entries: &[Entry<'_>], paper: Paper) -> Result<Vec<Drawing>, TooLarge> {
    let mut pages = Vec::with_capacity(entries.len() * 2);
    for entry in entries {
        pages.push(puzzle_page(entry, paper)?);
    }
    pages.extend(solution_pages(entries, paper));
    let count = pages.len();
    for (number, page) in pages.iter_mut().enumerate() {
        let at = (MARGIN, page.height - MARGIN + 4.0);
        let font = Font { color: Color(0x66, 0x66, 0x66), ..Font::plain(9.0) };
        page.text(at, font, format!("page {} of {count}", number + 1));
    }
    Ok(pages)
}

/// A puzzle, empty, on a page of its own.
fn puzzle_page(entry: &Entry<'_>, paper: Paper) -> Result<Drawing, TooLarge> {
    let grid = svg::drawing(entry.puzzle, None);
    let largest = MAX_CELL_MM * POINTS_PER_MM / CELL;
    let portrait = fit(&grid, paper, false).min(largest);
    let landscape = fit(&grid, paper, true).min(largest);
    let (scale, turned) = if landscape > portrait { (landscape, true) } else { (portrait, false) };
    let cell_mm = scale * CELL / POINTS_PER_MM;
    if cell_mm < MIN_CELL_MM {
        let (rows, cols) = entry.puzzle.size();
        let title = entry.title.clone();
        return Err(TooLarge { title, rows, cols, cell_mm, paper: paper.name() });
    }
    let mut page = blank(paper, turned);
    heading(&mut page, &entry.title, &entry.description());
    let width = grid.width * scale;
    let left = (page.width - width) / 2.0;
    page.place(&grid, (left, MARGIN + HEADER), scale);
    Ok(page)
}

/// The scale that fits `grid` into a page's content area.
fn fit(grid: &Drawing, paper: Paper, landscape: bool) -> f64 {
    let (width, height) = oriented(paper, landscape);
    let area = (width - 2.0 * MARGIN, height - 2.0 * MARGIN - HEADER - FOOTER);
    (area.0 / grid.width).min(area.1 / grid.height)
}

fn oriented(paper: Paper, landscape: bool) -> (f64, f64) {
    let (width, height) = paper.size();
    if landscape { (height, width) } else { (width, height) }
}

fn blank(paper: Paper, landscape: bool) -> Drawing {
    let (width, height) = oriented(paper, landscape);
    Drawing::new(width, height)
}

/// The page's title and the line under it.
fn heading(page: &mut Drawing, title: &str, line: &str) {
    let bold = Font { bold: true, ..Font::plain(16.0) };
    page.text((MARGIN, MARGIN + 16.0), bold, ascii(title));
    let grey = Font { color: Color(0x44, 0x44, 0x44), ..Font::plain(10.0) };
    page.text((MARGIN, MARGIN + 32.0), grey, ascii(line));
}

/// The solutions in the puzzles' order: four to a page (two by two) while they stay
/// legible at that size, one to a page otherwise.
fn solution_pages(entries: &[Entry<'_>], paper: Paper) -> Vec<Drawing> {
    let (width, height) = paper.size();
    let area = (width - 2.0 * MARGIN, height - 2.0 * MARGIN - HEADER - FOOTER);
    let slot = (area.0 / 2.0, area.1 / 2.0);
    let mut pages = Vec::new();
    let mut quarter_page: Option<(Drawing, usize)> = None;
    for entry in entries {
        let grid = svg::drawing(entry.puzzle, entry.solution);
        // Room for the entry's title above its grid.
        let small = ((slot.0 - 12.0) / grid.width).min((slot.1 - 24.0) / grid.height);
        if small * CELL / POINTS_PER_MM >= MIN_SOLUTION_CELL_MM {
            let (mut page, used) =
                quarter_page.take().unwrap_or_else(|| (solutions_page(paper), 0));
            let x = MARGIN + (used % 2) as f64 * slot.0;
            let y = MARGIN + HEADER + (used / 2) as f64 * slot.1;
            solution(
                &mut page,
                entry,
                &grid,
                (x, y),
                small.min(MAX_CELL_MM * POINTS_PER_MM / CELL),
            );
            if used + 1 == 4 {
                pages.push(page);
            } else {
                quarter_page = Some((page, used + 1));
            }
        } else {
            pages.extend(quarter_page.take().map(|(page, _)| page));
            let mut page = solutions_page(paper);
            let whole = ((area.0) / grid.width).min((area.1 - 24.0) / grid.height);
            solution(&mut page, entry, &grid, (MARGIN, MARGIN + HEADER), whole);
            pages.push(page);
        }
    }
    pages.extend(quarter_page.map(|(page, _)| page));
    pages
}

fn solutions_page(paper: Paper) -> Drawing {
    let mut page = blank(paper, false);
    heading(&mut page, "Solutions", "");
    page
}

/// One solution at `(x, y)`: its title, then its grid (or why there is none).
fn solution(page: &mut Drawing, entry: &Entry<'_>, grid: &Drawing, (x, y): (f64, f64), scale: f64) {
    let bold = Font { bold: true, ..Font::plain(10.0) };
    page.text((x, y + 10.0), bold, ascii(&entry.title));
    if entry.solution.is_some() {
        page.place(grid, (x, y + 18.0), scale);
    } else {
        page.text((x, y + 26.0), Font::plain(10.0), "no solution was found".into());
        page.push(Shape::Line {
            from: (x, y + 30.0),
            to: (x + 100.0, y + 30.0),
            stroke: Stroke::solid(Color::BLACK, 0.5),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::{Kakuro, KakuroCell, Sudoku};

    fn kakuro(rows: usize, cols: usize) -> Puzzle {
        let mut cells = vec![KakuroCell::White; rows * cols];
        cells[0] = KakuroCell::Black { down: None, right: None };
        Puzzle::Kakuro(Kakuro { rows, cols, cells })
    }

    fn texts(page: &Drawing) -> Vec<String> {
        let text = |s: &Shape| match s {
            Shape::Text { text, .. } => Some(text.clone()),
            _ => None,
        };
        page.shapes.iter().filter_map(text).collect()
    }

    #[test]
    fn each_puzzle_gets_a_page_and_small_solutions_share_one() {
        let sudoku = Puzzle::Sudoku(Sudoku { n: 4, box_size: 2, givens: vec![0; 16] });
        let solved = Grid { rows: 4, cols: 4, cells: vec![Some(1); 16] };
        let entries: Vec<Entry<'_>> = (0..5)
            .map(|i| Entry {
                title: format!("p{i}"),
                grade: Some("easy"),
                puzzle: &sudoku,
                solution: Some(&solved),
            })
            .collect();
        let pages = pages(&entries, Paper::A4).unwrap();
        // Five puzzle pages, then four solutions on one page and the fifth on another.
        assert_eq!(pages.len(), 7);
        assert!(texts(&pages[0]).contains(&"Sudoku 4x4, grade: easy".to_string()));
        assert_eq!(texts(&pages[6]).last().unwrap(), "page 7 of 7");
        let titles = texts(&pages[5]).iter().filter(|t| t.starts_with('p') && t.len() == 2).count();
        assert_eq!(titles, 4);
    }

    #[test]
    fn the_janko_giant_fits_and_a_larger_grid_is_refused() {
        let giant = kakuro(46, 31);
        let entry = Entry { title: "giant".into(), grade: None, puzzle: &giant, solution: None };
        let page = puzzle_page(&entry, Paper::A4).unwrap();
        assert!(page.height > page.width, "a tall grid stays portrait");
        let wide = kakuro(31, 46);
        let entry = Entry { title: "wide".into(), grade: None, puzzle: &wide, solution: None };
        let page = puzzle_page(&entry, Paper::Letter).unwrap();
        assert!(page.width > page.height, "a wide grid turns the page");
        let huge = kakuro(100, 100);
        let entry = Entry { title: "huge".into(), grade: None, puzzle: &huge, solution: None };
        let error = puzzle_page(&entry, Paper::A4).unwrap_err();
        assert!(error.to_string().contains("huge: a 100x100 grid would get cells of"), "{error}");
    }

    #[test]
    fn small_grids_are_not_blown_up() {
        let small = kakuro(3, 3);
        let entry = Entry { title: "small".into(), grade: None, puzzle: &small, solution: None };
        let page = puzzle_page(&entry, Paper::A4).unwrap();
        let cell = page.shapes.iter().find_map(|s| match s {
            Shape::Rect { class: "cell", width, .. } => Some(*width),
            _ => None,
        });
        let cell_mm = cell.unwrap() / POINTS_PER_MM;
        assert!((cell_mm - MAX_CELL_MM).abs() < 1e-6, "{cell_mm}");
    }
}
