//! kakurod's integration tests, in one crate: one binary to compile and link instead of
//! one per file, each of which linked the whole library with CaDiCaL, tokio and
//! async-nats. Each module drives the real binary (and, for the corpus, the library) on
//! real puzzles and real folders; the `*_common` modules are their shared helpers.
//! `cargo test --release --test it MODULE::` runs one module's tests.
#![allow(clippy::unwrap_used, reason = "a test or benchmark that cannot go on panics")]

mod chaos_common;
mod common;
mod daemon_common;
mod queue_chaos_common;

mod chaos;
mod cli;
mod corpus;
mod daemon;
mod daemon_faults;
mod daemon_generate;
mod daemon_inputs;
mod daemon_ops;
mod daemon_queue;
mod deploy;
mod docs;
mod edges;
mod explain;
mod formats;
mod fpuzzles;
mod generate;
mod grade;
mod hodoku;
mod ipuz;
mod layers;
mod outbox_leftovers;
mod parallel;
mod planted;
mod print;
mod pzpr;
mod queue_batches;
mod queue_chaos;
mod queue_credentials;
mod queue_large;
mod queue_packs;
mod sudoku9;
