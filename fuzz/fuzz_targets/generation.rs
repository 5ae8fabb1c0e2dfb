//! A generation job (`{"kind": "generate", ...}`), read as the daemon reads one.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| kakurod_fuzz::generation_job(data));
