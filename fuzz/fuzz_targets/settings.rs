//! The `settings` object of a JSON puzzle, read and applied to the caller's solver options.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| kakurod_fuzz::settings(data));
