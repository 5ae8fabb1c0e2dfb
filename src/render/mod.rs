//! Pictures of puzzles and their solutions.
