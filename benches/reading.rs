//! Reading stays linear in the size of a file: junk of 1, 4 and 16 MiB (lines of base64,
//! as `base64 /dev/urandom` writes them) read by `format::read`, the reader every input
//! goes through. Two shapes per size:
//!
//! - `junk`: junk from the first line, rejected whole from its first 100 lines whatever
//!   its size (see `format::lines::hopeless`);
//! - `late_junk`: one good Sudoku line, then junk: every line is read and refused on its
//!   own, the worst case of a batch, which must grow with the file and no faster.
//!
//! Both must grow with the file and no faster: the ratio of the 16 MiB median to the 1 MiB
//! one is near 16. `junk` costs only the format detection's scans of the text, at memory
//! speed.
#![allow(clippy::unwrap_used, reason = "a test or benchmark that cannot go on panics")]

#[path = "../tests/it/common/junk.rs"]
mod junk;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use kakurod_engine::format;
use std::hint::black_box;
use std::time::Duration;

const MIB: usize = 1 << 20;

/// About `bytes` of base64 junk lines (77 bytes each, the newline included).
fn junk(bytes: usize) -> String {
    junk::base64_junk(bytes.div_ceil(77))
}

fn reading(c: &mut Criterion) {
    const TOP: &str =
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
    let mut group = c.benchmark_group("reading");
    group.sample_size(10).measurement_time(Duration::from_secs(5));
    for mib in [1, 4, 16] {
        let junk = junk(mib * MIB);
        let late = format!("{TOP}\n{junk}");
        group.throughput(Throughput::Bytes(junk.len() as u64));
        group.bench_with_input(BenchmarkId::new("junk", format!("{mib}MiB")), &junk, |b, t| {
            b.iter(|| assert!(format::read(black_box(t), None).is_err()))
        });
        group.bench_with_input(
            BenchmarkId::new("late_junk", format!("{mib}MiB")),
            &late,
            |b, t| {
                b.iter(|| {
                    assert!(format::read(black_box(t), None).is_ok_and(|d| d.entries.len() > 1))
                })
            },
        );
    }
    group.finish();
}

criterion_group!(benches, reading);
criterion_main!(benches);
