//! puzz.link URLs written: the `kakuro/COLS/ROWS/BODY` and `sudoku/N/N/BODY` of pzprjs's
//! encoders, which the reader beside it reads back.

use super::PLAY_PREFIX;
use crate::puzzle::{Kakuro, KakuroCell, Puzzle, Sudoku};

/// The puzz.link URL of a puzzle, where pzprjs has its type: a Kakuro with a black first
/// row and column (as every valid one has) or a Sudoku of side 4, 9, 16 or 25. `None` for
/// a Killer Sudoku, which pzprjs cannot hold.
pub fn play_url(puzzle: &Puzzle) -> Option<String> {
    let body = match puzzle {
        Puzzle::Kakuro(k) => kakuro_query(k)?,
        Puzzle::Sudoku(s) => sudoku_query(s),
        Puzzle::Killer(_) => return None,
    };
    Some(format!("{PLAY_PREFIX}{body}"))
}

/// `kakuro/COLS/ROWS/BODY`, or `None` when the border holds what pzprjs cannot.
fn kakuro_query(k: &Kakuro) -> Option<String> {
    let (rows, cols) = (k.rows, k.cols);
    if rows < 2 || cols < 2 {
        return None;
    }
    // The border: black, clues only where pzprjs's outside cells carry them.
    for col in 0..cols {
        match k.cell(0, col) {
            KakuroCell::Black { right: None, down } if col > 0 || down.is_none() => {}
            _ => return None,
        }
    }
    for row in 1..rows {
        match k.cell(row, 0) {
            KakuroCell::Black { down: None, .. } => {}
            _ => return None,
        }
    }
    let mut body = format!("kakuro/{}/{}/", cols - 1, rows - 1);
    let mut whites = 0u8;
    for row in 1..rows {
        for col in 1..cols {
            match k.cell(row, col) {
                KakuroCell::White => {
                    whites += 1;
                    if whites == 16 {
                        body.push(white_run(whites));
                        whites = 0;
                    }
                }
                KakuroCell::Black { down, right } => {
                    if whites > 0 {
                        body.push(white_run(whites));
                        whites = 0;
                    }
                    if down.is_none() && right.is_none() {
                        body.push('.');
                    } else {
                        body.push(clue_char(down)?);
                        body.push(clue_char(right)?);
                    }
                }
            }
        }
    }
    if whites > 0 {
        body.push(white_run(whites));
    }
    for col in 1..cols {
        if let (KakuroCell::White, KakuroCell::Black { down, .. }) =
            (k.cell(1, col), k.cell(0, col))
        {
            body.push(clue_char(down)?);
        }
    }
    for row in 1..rows {
        if let (KakuroCell::White, KakuroCell::Black { right, .. }) =
            (k.cell(row, 1), k.cell(row, 0))
        {
            body.push(clue_char(right)?);
        }
    }
    Some(body)
}

/// `k`..`z`: a run of 1..16 white cells.
fn white_run(whites: u8) -> char {
    char::from(b'k' + whites - 1)
}

/// A clue as one character (`0` for none); `None` above 45.
fn clue_char(clue: Option<u32>) -> Option<char> {
    let byte = match clue.unwrap_or(0) {
        0 => b'0',
        v @ 1..=9 => b'0' + v as u8,
        v @ 10..=19 => b'a' + (v - 10) as u8,
        v @ 20..=45 => b'A' + (v - 20) as u8,
        _ => return None,
    };
    Some(char::from(byte))
}

/// `sudoku/N/N/BODY`.
fn sudoku_query(s: &Sudoku) -> String {
    let mut body = format!("sudoku/{}/{}/", s.n, s.n);
    let mut blanks = 0u8;
    for &given in &s.givens {
        if given == 0 {
            blanks += 1;
            if blanks == 20 {
                body.push(blank_run(blanks));
                blanks = 0;
            }
            continue;
        }
        if blanks > 0 {
            body.push(blank_run(blanks));
            blanks = 0;
        }
        if given < 16 {
            body.push_str(&format!("{given:x}"));
        } else {
            body.push_str(&format!("-{given:02x}"));
        }
    }
    if blanks > 0 {
        body.push(blank_run(blanks));
    }
    body
}

/// `g`..`z`: a run of 1..20 blank cells.
fn blank_run(blanks: u8) -> char {
    char::from(b'g' + blanks - 1)
}
