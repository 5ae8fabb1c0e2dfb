//! A file as the daemon and `kakurod solve` take it: bytes through the whole pipeline
//! (UTF-8, generation-job check, format detection, reading, compiling, a search cut short
//! by a node limit, checking its solutions, grading), then the report as JSON. Also the
//! reader alone with detection, whose puzzles must compile to a well-formed model.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    kakurod_fuzz::read_and_compile(data, None);
    kakurod_fuzz::process(data);
});
