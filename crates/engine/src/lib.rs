//! The solving engine of kakurod, layer by layer, top to bottom:
//! - [`pipeline`] takes one file from bytes to a [`report::FileReport`]: it ties the
//!   steps below together, and applies the solver settings a puzzle file asks for;
//! - [`format`](mod@format) reads a file's text (format detected from content) into
//!   [`puzzle::Puzzle`]s, and writes them back in every format;
//! - [`puzzle`] knows each kind's rules and compiles a puzzle to a [`model::Model`];
//! - [`solver`] searches the model (sequentially, split and raced on many threads, or with
//!   the SAT engine);
//! - [`verify`] checks every solution against the puzzle's own clues, independently;
//! - [`grade`] grades a Kakuro or a Sudoku by the human techniques its solution needs, and
//!   [`explain`] shows them step by step;
//! - [`report`] holds the result documents and the text of solution files;
//! - [`generate`] makes new puzzles with exactly one solution;
//! - [`render`] draws puzzles and solutions (SVG and PDF).
//!
//! It knows nothing of folders, queues, async runtimes, HTTP or the command line: the
//! `kakurod` crate above it holds the daemon, the shared queue, the settings and the
//! commands.

pub mod explain;
pub mod format;
pub mod generate;
pub mod grade;
pub mod model;
pub mod pipeline;
pub mod puzzle;
pub mod render;
pub mod report;
pub mod seconds;
pub mod solver;
pub mod verify;
