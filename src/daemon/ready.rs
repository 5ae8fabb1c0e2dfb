//! When is a file in the inbox complete? A pure state machine, fed with file-event hints and
//! `stat` observations, with the clock passed in (`now`) so that it is tested without sleeps.
//!
//! The rules, from fastest to slowest:
//! - **renamed in** (`IN_MOVED_TO`): the writer followed the protocol (write under a temporary
//!   name, then rename), so the file is complete at once;
//! - **closed after writing** (`IN_CLOSE_WRITE`): complete once nothing else happened to it
//!   for `close_settle` (a short quiet time that absorbs writers which close and reopen);
//! - **written, not yet closed**: a writer holds it open; wait for the close, as long as it
//!   keeps writing. After `open_idle` without a write event the close may never come (a
//!   hard link is created without one; an overflowed event queue loses it): the file falls
//!   back to the stability rule below;
//! - **seen by a scan only** (files present at start-up, missed events, filesystems without
//!   events such as NFS): complete once its size and modification time have been stable for
//!   `settle`, or at once when it was last modified more than `settle` ago.
//!
//! Any write after a "complete" signal puts the file back to waiting for its close. When
//! events were lost ([`Tracker::events_lost`]), no file waits for a close it may never hear
//! of: every open file is judged by stability from then on.

use std::collections::HashMap;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

/// What the watcher learnt about a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hint {
    /// Renamed into the inbox.
    Renamed,
    /// A writer closed it.
    Closed,
    /// Created or written to.
    Written,
    /// Listed by a scan (no event known).
    Seen,
    /// Removed or renamed away.
    Gone,
}

/// One `stat` of a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Observation {
    /// Size in bytes.
    pub len: u64,
    /// Modification time.
    pub modified: SystemTime,
    /// How long ago it was modified (0 when the clock went backwards).
    pub age: Duration,
}

/// The outcome of checking one path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Complete: hand it to a worker.
    Ready,
    /// Not yet; check again at the given time (or on the next event when `None`).
    Wait(Option<Instant>),
    /// No longer there (or not a regular file): forgotten.
    Forget,
}

/// The waiting times.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timing {
    /// Stability time for files known only from a scan.
    pub settle: Duration,
    /// Quiet time after a close.
    pub close_settle: Duration,
    /// How long an open file may go without a write event before it is judged by stability.
    pub open_idle: Duration,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// A completion signal arrived at this instant; ready after the given quiet time.
    Complete { at: Instant, quiet: Duration },
    /// Being written (last write event at the instant); waiting for a close or a rename.
    Open(Instant),
    /// Known from a scan only; judged by stability.
    Unknown,
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    phase: Phase,
    /// The last observation and when it was made.
    last: Option<(Observation, Instant)>,
    /// When the entry should next be checked (`None`: only on an event).
    check_at: Option<Instant>,
}

/// True for names that follow the "still being written" convention (a leading `.` or a
/// `.part` suffix), which are never picked up.
pub fn is_ignored_name(name: &OsStr) -> bool {
    let bytes = name.as_encoded_bytes();
    bytes.is_empty() || bytes.starts_with(b".") || bytes.ends_with(b".part")
}

/// The readiness state of every pending path in the inbox.
#[derive(Debug)]
pub struct Tracker {
    timing: Timing,
    entries: HashMap<PathBuf, Entry>,
}

impl Tracker {
    /// An empty tracker.
    pub fn new(timing: Timing) -> Tracker {
        Tracker { timing, entries: HashMap::new() }
    }

    /// True when nothing is pending (for tests).
    #[cfg(test)]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Records a hint about `path` at `now`. Ignored names are dropped here.
    pub fn note(&mut self, path: &Path, hint: Hint, now: Instant) {
        if path.file_name().is_none_or(is_ignored_name) {
            return;
        }
        if hint == Hint::Gone {
            self.entries.remove(path);
            return;
        }
        let fresh = Entry { phase: Phase::Unknown, last: None, check_at: Some(now) };
        let entry = self.entries.entry(path.to_path_buf()).or_insert(fresh);
        match hint {
            Hint::Renamed => {
                entry.phase = Phase::Complete { at: now, quiet: Duration::ZERO };
                entry.check_at = Some(now);
            }
            Hint::Closed => {
                entry.phase = Phase::Complete { at: now, quiet: self.timing.close_settle };
                entry.check_at = Some(now + self.timing.close_settle);
            }
            Hint::Written => {
                entry.phase = Phase::Open(now);
                entry.check_at = Some(now + self.timing.open_idle);
            }
            // A scan adds what events missed but never overrides what events said.
            Hint::Seen | Hint::Gone => {}
        }
    }

    /// File events were lost (the queue overflowed): a close may never be heard of, so
    /// every file waiting for one is judged by stability from `now` on.
    pub fn events_lost(&mut self, now: Instant) {
        for entry in self.entries.values_mut() {
            if matches!(entry.phase, Phase::Open(_)) {
                *entry = Entry { phase: Phase::Unknown, last: None, check_at: Some(now) };
            }
        }
    }

    /// Stops tracking `path` (it was submitted without a check).
    pub fn forget(&mut self, path: &Path) {
        self.entries.remove(path);
    }

    /// Paths whose check is due at `now`.
    pub fn due(&self, now: Instant) -> Vec<PathBuf> {
        self.entries
            .iter()
            .filter(|(_, e)| e.check_at.is_some_and(|t| t <= now))
            .map(|(p, _)| p.clone())
            .collect()
    }

    /// The earliest pending check, if any.
    pub fn next_check(&self) -> Option<Instant> {
        self.entries.values().filter_map(|e| e.check_at).min()
    }

    /// Judges `path` given a fresh observation (`None`: it is gone or not a regular file).
    /// A `Ready` or `Forget` verdict removes the path from the tracker.
    pub fn check(&mut self, path: &Path, seen: Option<Observation>, now: Instant) -> Verdict {
        let Some(entry) = self.entries.get_mut(path) else {
            return Verdict::Forget;
        };
        let Some(obs) = seen else {
            self.entries.remove(path);
            return Verdict::Forget;
        };
        let settle = self.timing.settle;
        if let Phase::Open(written) = entry.phase
            && now >= written + self.timing.open_idle
        {
            // No write for a while and no close: judge it as a scan would.
            entry.phase = Phase::Unknown;
            entry.last = None;
        }
        let verdict = match entry.phase {
            Phase::Complete { at, quiet } if now >= at + quiet => Verdict::Ready,
            Phase::Complete { at, quiet } => Verdict::Wait(Some(at + quiet)),
            Phase::Open(written) => Verdict::Wait(Some(written + self.timing.open_idle)),
            Phase::Unknown => match entry.last {
                None if obs.age >= settle => Verdict::Ready,
                Some((prev, at)) if prev == stable(obs, prev) && now >= at + settle => {
                    Verdict::Ready
                }
                Some((prev, at)) if prev == stable(obs, prev) => Verdict::Wait(Some(at + settle)),
                _ => {
                    entry.last = Some((obs, now));
                    Verdict::Wait(Some(now + settle))
                }
            },
        };
        match verdict {
            Verdict::Ready | Verdict::Forget => {
                self.entries.remove(path);
            }
            Verdict::Wait(at) => entry.check_at = at,
        }
        verdict
    }
}

/// `obs` with its age taken from `prev`, so that two observations compare equal when size
/// and modification time are unchanged.
fn stable(obs: Observation, prev: Observation) -> Observation {
    Observation { age: prev.age, ..obs }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SETTLE: Duration = Duration::from_millis(500);
    const CLOSE: Duration = Duration::from_millis(10);
    const IDLE: Duration = Duration::from_secs(5);

    fn tracker() -> Tracker {
        Tracker::new(Timing { settle: SETTLE, close_settle: CLOSE, open_idle: IDLE })
    }

    fn obs(len: u64, modified_ms: u64, age_ms: u64) -> Option<Observation> {
        Some(Observation {
            len,
            modified: SystemTime::UNIX_EPOCH + Duration::from_millis(modified_ms),
            age: Duration::from_millis(age_ms),
        })
    }

    fn ms(t0: Instant, ms: u64) -> Instant {
        t0 + Duration::from_millis(ms)
    }

    #[test]
    fn a_file_renamed_in_is_ready_at_once() {
        let (mut t, t0, p) = (tracker(), Instant::now(), Path::new("/in/a.txt"));
        t.note(p, Hint::Renamed, t0);
        assert_eq!(t.due(t0), vec![p.to_path_buf()]);
        assert_eq!(t.check(p, obs(10, 1, 0), t0), Verdict::Ready);
        assert!(t.is_empty());
    }

    #[test]
    fn a_closed_file_waits_for_the_close_settle_time() {
        let (mut t, t0, p) = (tracker(), Instant::now(), Path::new("/in/a.txt"));
        t.note(p, Hint::Written, t0);
        t.note(p, Hint::Closed, ms(t0, 1));
        assert!(t.due(ms(t0, 5)).is_empty());
        assert_eq!(t.next_check(), Some(ms(t0, 11)));
        assert_eq!(t.check(p, obs(10, 1, 0), ms(t0, 11)), Verdict::Ready);
    }

    #[test]
    fn an_open_file_waits_for_its_close_while_it_is_being_written() {
        let (mut t, t0, p) = (tracker(), Instant::now(), Path::new("/in/a.txt"));
        for second in 0..60 {
            t.note(p, Hint::Written, ms(t0, second * 1000));
            assert!(t.due(ms(t0, second * 1000 + 999)).is_empty());
        }
        // A rescan does not override what the events said.
        t.note(p, Hint::Seen, ms(t0, 59_500));
        assert!(t.due(ms(t0, 60_000)).is_empty());
        t.note(p, Hint::Closed, ms(t0, 60_000));
        assert_eq!(t.check(p, obs(20, 2, 0), ms(t0, 60_010)), Verdict::Ready);
    }

    #[test]
    fn an_open_file_without_a_close_falls_back_to_the_stability_rule_when_idle() {
        // A hard link: created, never closed.
        let (mut t, t0, p) = (tracker(), Instant::now(), Path::new("/in/linked.txt"));
        t.note(p, Hint::Written, t0);
        assert_eq!(t.next_check(), Some(t0 + IDLE));
        assert!(t.due(ms(t0, 4_999)).is_empty());
        assert_eq!(t.check(p, obs(10, 1, 3_600_000), t0 + IDLE), Verdict::Ready);
        // Recently modified: it must then stay stable for the settle time.
        let q = Path::new("/in/slow.txt");
        t.note(q, Hint::Written, t0);
        assert_eq!(t.check(q, obs(10, 1, 5_000), ms(t0, 4_000)), Verdict::Wait(Some(t0 + IDLE)));
        assert_eq!(t.check(q, obs(10, 1, 100), t0 + IDLE), Verdict::Wait(Some(ms(t0, 5_500))));
        assert_eq!(t.check(q, obs(10, 1, 600), ms(t0, 5_500)), Verdict::Ready);
    }

    #[test]
    fn lost_events_put_open_files_back_to_the_stability_rule() {
        let (mut t, t0, p) = (tracker(), Instant::now(), Path::new("/in/a.txt"));
        let closed = Path::new("/in/b.txt");
        t.note(p, Hint::Written, t0);
        t.note(closed, Hint::Closed, ms(t0, 95));
        t.events_lost(ms(t0, 100));
        let mut due = t.due(ms(t0, 100));
        due.sort();
        assert_eq!(due, [p.to_path_buf()], "the closed file keeps its own time");
        assert_eq!(t.check(closed, obs(5, 1, 0), ms(t0, 105)), Verdict::Ready);
        assert_eq!(t.check(p, obs(10, 1, 100), ms(t0, 100)), Verdict::Wait(Some(ms(t0, 600))));
        assert_eq!(t.check(p, obs(10, 1, 600), ms(t0, 600)), Verdict::Ready);
    }

    #[test]
    fn a_write_after_a_close_waits_for_the_next_close() {
        let (mut t, t0, p) = (tracker(), Instant::now(), Path::new("/in/a.txt"));
        t.note(p, Hint::Closed, t0);
        t.note(p, Hint::Written, ms(t0, 5));
        assert!(t.due(ms(t0, 100)).is_empty());
        t.note(p, Hint::Renamed, ms(t0, 200));
        assert_eq!(t.check(p, obs(1, 1, 0), ms(t0, 200)), Verdict::Ready);
    }

    #[test]
    fn a_scanned_file_untouched_for_the_settle_time_is_ready_at_once() {
        let (mut t, t0, p) = (tracker(), Instant::now(), Path::new("/in/old.txt"));
        t.note(p, Hint::Seen, t0);
        assert_eq!(t.check(p, obs(10, 1, 600), t0), Verdict::Ready);
    }

    #[test]
    fn a_scanned_file_must_stay_stable_for_the_settle_time() {
        let (mut t, t0, p) = (tracker(), Instant::now(), Path::new("/in/new.txt"));
        t.note(p, Hint::Seen, t0);
        assert_eq!(t.check(p, obs(10, 1, 0), t0), Verdict::Wait(Some(ms(t0, 500))));
        // It grew: the settle time starts again.
        assert_eq!(t.check(p, obs(20, 2, 0), ms(t0, 500)), Verdict::Wait(Some(ms(t0, 1000))));
        // Checked early by a rescan: unchanged but not yet long enough.
        assert_eq!(t.check(p, obs(20, 2, 300), ms(t0, 800)), Verdict::Wait(Some(ms(t0, 1000))));
        assert_eq!(t.check(p, obs(20, 2, 500), ms(t0, 1000)), Verdict::Ready);
    }

    #[test]
    fn a_new_mtime_with_the_same_size_restarts_the_settle_time() {
        let (mut t, t0, p) = (tracker(), Instant::now(), Path::new("/in/x"));
        t.note(p, Hint::Seen, t0);
        t.check(p, obs(10, 1, 0), t0);
        assert_eq!(t.check(p, obs(10, 2, 0), ms(t0, 500)), Verdict::Wait(Some(ms(t0, 1000))));
    }

    #[test]
    fn a_vanished_file_is_forgotten() {
        let (mut t, t0, p) = (tracker(), Instant::now(), Path::new("/in/a"));
        t.note(p, Hint::Renamed, t0);
        assert_eq!(t.check(p, None, t0), Verdict::Forget);
        t.note(p, Hint::Written, t0);
        t.note(p, Hint::Gone, t0);
        assert!(t.is_empty());
    }

    #[test]
    fn temporary_names_are_ignored() {
        let (mut t, t0) = (tracker(), Instant::now());
        for name in ["/in/.hidden", "/in/a.txt.part", "/in/.a.txt"] {
            t.note(Path::new(name), Hint::Renamed, t0);
        }
        assert!(t.is_empty());
        assert!(!is_ignored_name(OsStr::new("partial.txt")));
    }
}
