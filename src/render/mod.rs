//! Pictures of puzzles and their solutions.

pub mod svg;

pub use svg::svg;
