//! A heartbeat a thread ticks as it goes round its loop, and others read the age of: the
//! watchdog asks whether the intake still turns, `/healthz` and the metrics whether the
//! daemon's state was published lately.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// The time of the last tick.
#[derive(Debug)]
pub struct Beat {
    base: Instant,
    /// Milliseconds from `base` to the last tick.
    last_ms: AtomicU64,
}

impl Default for Beat {
    fn default() -> Beat {
        Beat { base: Instant::now(), last_ms: AtomicU64::new(0) }
    }
}

impl Beat {
    /// Records a tick now.
    pub fn tick(&self) {
        self.last_ms.store(self.base.elapsed().as_millis() as u64, Ordering::Relaxed);
    }

    /// Time since the last tick (since creation before the first).
    pub fn age(&self) -> Duration {
        let last = Duration::from_millis(self.last_ms.load(Ordering::Relaxed));
        self.base.elapsed().saturating_sub(last)
    }
}
