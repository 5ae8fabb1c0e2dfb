//! Junk as a file dropped by mistake holds it: lines of base64 of pseudo-random bytes, 76
//! characters each, as `base64 /dev/urandom` writes them. Shared by the tests and the
//! reading benchmark (which includes this file by its path).

use base64::Engine;

/// `lines` lines of base64 junk, the same on every run.
pub fn base64_junk(lines: usize) -> String {
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state as u8
    };
    (0..lines)
        .map(|_| {
            let bytes: Vec<u8> = (0..57).map(|_| next()).collect();
            base64::engine::general_purpose::STANDARD.encode(bytes) + "\n"
        })
        .collect()
}
