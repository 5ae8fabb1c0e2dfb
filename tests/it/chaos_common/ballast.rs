//! A full outbox, now and then: the outbox is a small tmpfs, and a ballast file fills it to
//! the last byte (the writes end in `ENOSPC`), stays a while, and is removed. Meanwhile the
//! daemon's results cannot be written (its inputs wait in the claim folder and are retried)
//! and `solve --out` runs fail (the client runs them again).

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::fs;
use std::io::Write;
use std::ops::Range;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// When the outbox is full.
#[derive(Clone, Debug)]
pub struct FullOutbox {
    /// The tmpfs's size (`mount -o size=`).
    pub size: String,
    /// Time between two fills, in milliseconds.
    pub every_ms: Range<u64>,
    /// How long it stays full, in milliseconds.
    pub hold_ms: Range<u64>,
}

/// The ballast's name: a dot file, which neither writer takes for a result.
const BALLAST: &str = ".ballast";

impl FullOutbox {
    /// Fills `outbox` now and then while `chaos` is set; returns how many times. The ballast
    /// is gone when this returns.
    pub fn run(&self, outbox: &Path, chaos: &AtomicBool, seed: u64) -> usize {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut fills = 0;
        let ballast = outbox.join(BALLAST);
        while chaos.load(Ordering::SeqCst) {
            sleep_while(chaos, rng.random_range(self.every_ms.clone()));
            if !chaos.load(Ordering::SeqCst) {
                break;
            }
            fill(&ballast);
            fills += 1;
            sleep_while(chaos, rng.random_range(self.hold_ms.clone()));
            fs::remove_file(&ballast).expect("the ballast goes");
        }
        fills
    }
}

/// Writes `path` until the filesystem is full.
fn fill(path: &Path) {
    let mut file = fs::File::create(path).expect("a ballast file");
    let chunk = vec![0u8; 1 << 20];
    loop {
        match file.write(&chunk) {
            Ok(0) => return,
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::StorageFull => return,
            Err(e) => panic!("filling the outbox: {e}"),
        }
    }
}

/// Sleeps `ms` milliseconds, or less when `flag` is cleared meanwhile.
fn sleep_while(flag: &AtomicBool, ms: u64) {
    let mut left = ms;
    while left > 0 && flag.load(Ordering::SeqCst) {
        let step = left.min(50);
        std::thread::sleep(Duration::from_millis(step));
        left -= step;
    }
}
