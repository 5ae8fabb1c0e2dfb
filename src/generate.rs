//! Seeded generator of random solvable Kakuro puzzles.
