//! Reading a `.sol` file (the expected solutions beside the puzzle data, and the layout
//! kakurod writes): `R C`, then R lines of C tokens, `-` for a cell without a digit and the
//! value otherwise. Tests compare solver output with these files.

use super::InputError;
use super::text;
use crate::puzzle::Grid;

/// Reads a `.sol` text into a [`Grid`]; `-` is `None`.
pub fn read_sol(text: &str) -> Result<Grid, InputError> {
    read_with(text, &mut Vec::new())
}

/// A grid read with where each cell's token lies, to place an error on it.
pub struct Placed<'a> {
    /// The grid.
    pub grid: Grid,
    text: &'a str,
    /// Byte offset of each cell's token.
    offsets: Vec<usize>,
}

impl Placed<'_> {
    /// The error `message` at cell `cell`'s token.
    pub fn error_at(&self, cell: usize, message: String, expected: &str) -> InputError {
        let offset = self.offsets.get(cell).copied().unwrap_or(0);
        text::error_at(self.text, offset, message, expected)
    }
}

/// [`read_sol`], keeping where each cell is: for a player's progress, whose digits are
/// checked against the puzzle after reading.
pub fn read_placed(text: &str) -> Result<Placed<'_>, InputError> {
    let mut offsets = Vec::new();
    let grid = read_with(text, &mut offsets)?;
    Ok(Placed { grid, text, offsets })
}

fn read_with(text: &str, offsets: &mut Vec<usize>) -> Result<Grid, InputError> {
    let mut lines = text::lines(text);
    let (rows, cols, header) = text::header(text, &mut lines)?;
    let mut cells = Vec::with_capacity((rows * cols).min(text.len() / 2 + 1));
    text::grid(text, &mut lines, header, (rows, cols), "solution", |_, offset, token| {
        offsets.push(offset);
        cells.push(match token {
            "-" => None,
            _ => Some(text::number(token).ok_or_else(|| {
                let message = format!("unknown cell `{token}`");
                text::error_at(text, offset, message, "a number, or `-` for a cell without one")
            })?),
        });
        Ok(())
    })?;
    text::expect_end(text, &mut lines, "nothing after the last row")?;
    Ok(Grid { rows, cols, cells })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_digits_and_dashes_and_round_trips() {
        let text = "2 3\n- 1 2\n- 12 -\n";
        let grid = read_sol(text).unwrap();
        assert_eq!(grid.cells, vec![None, Some(1), Some(2), None, Some(12), None]);
        assert_eq!(grid.to_string(), text);
    }

    #[test]
    fn errors_are_placed() {
        let e = read_sol("2 2\n1 2\n3 x\n").unwrap_err();
        assert_eq!((e.line, e.column), (3, 3));
        assert!(read_sol("2 2\n1 2\n").is_err());
    }
}
