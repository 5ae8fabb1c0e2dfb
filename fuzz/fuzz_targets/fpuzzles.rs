//! The f-puzzles reader (JSON, lz-string data, URLs), forced as `--format fpuzzles` forces
//! it: any bytes, never a panic; what it reads must compile to a well-formed model.
#![no_main]

use kakurod_engine::format::Format;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| kakurod_fuzz::read_and_compile(data, Some(Format::Fpuzzles)));
