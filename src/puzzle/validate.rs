//! Well-formedness rules of each puzzle kind, checked before solving: clues that distinct
//! digits cannot reach, runs without clues, clue cells pointing at nothing, non-square
//! Sudoku sizes, givens out of range or clashing, cages that are not connected.
