//! A `.sol` solution file, as the tests and the corpus checks read one.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| kakurod_fuzz::solution(data));
