//! kakurod: a batch solving daemon for Kakuro, Sudoku and Killer Sudoku.
//!
//! Brief overview of the pipeline, top to bottom:
//! - [`format`](mod@format) reads a file's text (format detected from content) into [`puzzle::Puzzle`]s;
//! - [`puzzle`] knows each kind's rules and compiles a puzzle to a [`model::Model`];
//! - [`solver`] searches the model (sequentially, or split and raced on many threads);
//! - [`verify`] checks every solution against the puzzle's own clues, independently;
//! - [`report`] and `render` turn results into the `.json`, `.solution.txt` and `.svg`
//!   outputs, named as `result_names` says; [`pipeline`] ties these steps together for
//!   one file;
//! - [`daemon`] watches the inbox and runs the pipeline on worker threads;
//! - [`commands`] implements the `solve`, `bench` and `generate` commands of the binary.
#![warn(missing_docs)]
#![cfg_attr(not(test), warn(clippy::unwrap_used))]

pub mod cli;
pub mod commands;
pub mod daemon;
pub mod format;
pub mod generate;
pub mod grade;
pub mod model;
pub(crate) mod outbox;
pub mod pipeline;
pub mod puzzle;
pub mod queue;
pub(crate) mod render;
pub mod report;
pub(crate) mod result_names;
pub mod solver;
pub mod verify;
