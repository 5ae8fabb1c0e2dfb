//! Where the benchmarks find their puzzles: `$KAKUROD_DATA`, else `../shared/data` beside
//! the package, else nothing (the benchmark then says so and measures nothing).

use std::path::PathBuf;

/// The binary's allocator, so the benchmarks time what the daemon and the commands run.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The data folder, if there is one.
pub fn data_dir() -> Option<PathBuf> {
    let dir = match std::env::var_os("KAKUROD_DATA") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data"),
    };
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!(
            "benchmark data not found at {} (set KAKUROD_DATA to the data folder): skipped",
            dir.display()
        );
        None
    }
}
