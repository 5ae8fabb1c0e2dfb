//! Noticing files in the inbox. A `notify` watcher (inotify on Linux) delivers events whose
//! callback only forwards them on a channel; the intake thread turns them into readiness
//! hints, backs them up with a scan at start-up and a periodic rescan (the folder listing is
//! the truth, events are only hints: they can overflow, and network filesystems have none),
//! asks the [`Tracker`] what is complete, and submits complete files as jobs.
//!
//! What is not a regular file is never passed over in silence: a symbolic link is judged by
//! the file it points to (and answered like it); a link to nothing or to something that is
//! not a regular file, a FIFO, a socket or a device is submitted at once, for the worker to
//! reject with an error result; a folder is left alone, with one warning per name and run.

use super::error::DaemonError;
use super::job::{Job, Source};
use super::ready::{Hint, Observation, Timing, Tracker, Verdict, is_ignored_name};
use crossbeam_channel::{Receiver, Sender, select};
use notify::event::{AccessKind, AccessMode, ModifyKind, RenameMode};
use notify::{Event, EventKind, RecursiveMode, Watcher};
use std::collections::HashSet;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

/// What the intake thread tells the main thread.
#[derive(Debug)]
pub enum IntakeNews {
    /// The start-up scan is done; this many files were found.
    Scanned(usize),
    /// Intake cannot go on.
    Fatal(DaemonError),
}

/// Starts watching `inbox`; events arrive on the returned channel. Keep the watcher alive
/// for as long as events are wanted.
pub fn watch(
    inbox: &Path,
) -> Result<(notify::RecommendedWatcher, Receiver<notify::Result<Event>>), DaemonError> {
    let (sender, receiver) = crossbeam_channel::unbounded();
    let watch_error = |source| DaemonError::Watch { path: inbox.to_path_buf(), source };
    let mut watcher = notify::recommended_watcher(move |event| {
        // Nothing else happens here: the callback runs on notify's own thread.
        let _ = sender.send(event);
    })
    .map_err(watch_error)?;
    watcher.watch(inbox, RecursiveMode::NonRecursive).map_err(watch_error)?;
    Ok((watcher, receiver))
}

/// The intake thread's wiring.
#[derive(Debug)]
pub struct Intake {
    /// The watched folder.
    pub inbox: PathBuf,
    /// Readiness timing.
    pub timing: Timing,
    /// Full-scan period.
    pub rescan: Duration,
    /// File events from [`watch`].
    pub events: Receiver<notify::Result<Event>>,
    /// Closed (or sent to) when intake must stop.
    pub stop: Receiver<()>,
    /// Where complete files go.
    pub jobs: Sender<Job>,
    /// Start-up scan done, or a fatal error.
    pub news: Sender<IntakeNews>,
    /// Ticked on every round of the loop.
    pub beat: std::sync::Arc<super::beat::Beat>,
}

/// What the intake thread keeps between passes.
struct State {
    tracker: Tracker,
    /// Folders in the inbox already warned about (once per name and run).
    warned_folders: HashSet<OsString>,
}

impl State {
    /// Warns about a folder in the inbox, the first time it is met.
    fn folder(&mut self, path: &Path) {
        let Some(name) = path.file_name() else { return };
        if self.warned_folders.insert(name.to_os_string()) {
            tracing::warn!(folder = %path.display(),
                "a folder in the inbox is not read (only files are); move it elsewhere");
        }
    }
}

impl Intake {
    /// Runs until told to stop.
    pub fn run(self) {
        let mut state =
            State { tracker: Tracker::new(self.timing), warned_folders: HashSet::new() };
        let found = match self.scan(&mut state, false) {
            Ok(found) => found,
            Err(error) => {
                let _ = self.news.send(IntakeNews::Fatal(error));
                return;
            }
        };
        self.submit_due(&mut state);
        let _ = self.news.send(IntakeNews::Scanned(found));
        let mut next_rescan = Instant::now() + self.rescan;
        loop {
            let now = Instant::now();
            let wake = state.tracker.next_check().map_or(next_rescan, |t| t.min(next_rescan));
            // At least once a second round the loop, so its beat tells the watchdog it turns.
            let timeout = wake.saturating_duration_since(now).min(Duration::from_secs(1));
            self.beat.tick();
            select! {
                recv(self.stop) -> _ => return,
                recv(self.events) -> event => match event {
                    Ok(event) => {
                        if let Err(error) = self.on_event(&mut state, event) {
                            let _ = self.news.send(IntakeNews::Fatal(error));
                            return;
                        }
                        // Take every event already queued before judging, so a burst of
                        // renames becomes one pass.
                        while let Ok(event) = self.events.try_recv() {
                            if let Err(error) = self.on_event(&mut state, event) {
                                let _ = self.news.send(IntakeNews::Fatal(error));
                                return;
                            }
                        }
                    }
                    Err(_) => {
                        let error = DaemonError::Io {
                            about: "the file watcher stopped",
                            source: std::io::Error::other("event channel closed"),
                        };
                        let _ = self.news.send(IntakeNews::Fatal(error));
                        return;
                    }
                },
                default(timeout) => {}
            }
            if Instant::now() >= next_rescan {
                if let Err(error) = self.scan(&mut state, true) {
                    let _ = self.news.send(IntakeNews::Fatal(error));
                    return;
                }
                next_rescan = Instant::now() + self.rescan;
            }
            self.submit_due(&mut state);
        }
    }

    /// Lists the inbox and notes every candidate file. Returns how many there were. After
    /// start-up (`started`), only a missing inbox is fatal; other failures (out of file
    /// descriptors, ...) are logged and the next scan tries again.
    fn scan(&self, state: &mut State, started: bool) -> Result<usize, DaemonError> {
        let entries = match std::fs::read_dir(&self.inbox) {
            Ok(entries) => entries,
            Err(e) if started && e.kind() != std::io::ErrorKind::NotFound => {
                tracing::warn!(error = %e, "cannot list the inbox; trying again later");
                return Ok(0);
            }
            Err(source) => {
                return Err(DaemonError::Folder {
                    about: "cannot list the inbox",
                    path: self.inbox.clone(),
                    source,
                });
            }
        };
        let now = Instant::now();
        let mut found = 0;
        for entry in entries.flatten() {
            if is_ignored_name(&entry.file_name()) {
                continue;
            }
            match entry.file_type() {
                Ok(t) if t.is_dir() => state.folder(&entry.path()),
                // Files, links and the rest: `observe` decides what each is.
                Ok(_) => {
                    state.tracker.note(&entry.path(), Hint::Seen, now);
                    found += 1;
                }
                Err(_) => {}
            }
        }
        Ok(found)
    }

    fn on_event(&self, state: &mut State, event: notify::Result<Event>) -> Result<(), DaemonError> {
        let event = match event {
            Ok(event) => event,
            Err(error) => {
                // Lost events are recovered by a scan right away.
                tracing::warn!(%error, "file watcher error; rescanning the inbox");
                state.tracker.events_lost(Instant::now());
                self.scan(state, true)?;
                return Ok(());
            }
        };
        if event.need_rescan() {
            tracing::warn!("file events overflowed; rescanning the inbox");
            state.tracker.events_lost(Instant::now());
            self.scan(state, true)?;
            return Ok(());
        }
        let hint = match event.kind {
            EventKind::Modify(ModifyKind::Name(RenameMode::To)) => Hint::Renamed,
            EventKind::Modify(ModifyKind::Name(RenameMode::From)) => Hint::Gone,
            EventKind::Remove(_) => Hint::Gone,
            EventKind::Create(_) | EventKind::Modify(ModifyKind::Data(_)) => Hint::Written,
            EventKind::Access(AccessKind::Close(AccessMode::Write)) => Hint::Closed,
            _ => return Ok(()),
        };
        let now = Instant::now();
        for path in &event.paths {
            if path == &self.inbox {
                if hint == Hint::Gone {
                    return Err(DaemonError::Folder {
                        about: "the inbox was removed or moved away:",
                        path: self.inbox.clone(),
                        source: std::io::Error::from(std::io::ErrorKind::NotFound),
                    });
                }
                continue;
            }
            tracing::trace!(path = %path.display(), ?hint, "file event");
            let hint = match (hint, path.symlink_metadata()) {
                (Hint::Gone, _) => Hint::Gone,
                (_, Ok(meta)) if meta.is_dir() => {
                    state.folder(path);
                    continue;
                }
                // Only a regular file has a writer whose close is worth waiting for; a link,
                // a FIFO, ... is created whole and judged as a scan would.
                (Hint::Written, Ok(meta)) if !meta.is_file() => Hint::Seen,
                (hint, _) => hint,
            };
            state.tracker.note(path, hint, now);
        }
        Ok(())
    }

    /// Checks every due path and submits the complete ones.
    fn submit_due(&self, state: &mut State) {
        let now = Instant::now();
        for path in state.tracker.due(now) {
            let verdict = match observe(&path) {
                Found::File(seen) => state.tracker.check(&path, Some(seen), now),
                // Nothing to wait for: the worker rejects it with an error result.
                Found::Unreadable => {
                    state.tracker.forget(&path);
                    Verdict::Ready
                }
                Found::Folder => {
                    state.folder(&path);
                    state.tracker.check(&path, None, now)
                }
                Found::Nothing => state.tracker.check(&path, None, now),
            };
            if verdict != Verdict::Ready {
                continue;
            }
            let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
                tracing::warn!(path = %path.display(), "skipping a file whose name is not UTF-8");
                continue;
            };
            tracing::debug!(file = %name, "ready");
            let _ = self.jobs.send(Job { name: name.to_string(), source: Source::Inbox });
        }
    }
}

/// What a path in the inbox is, links followed.
#[derive(Debug)]
enum Found {
    /// A regular file (or a link to one), with its `stat`.
    File(Observation),
    /// A link to nothing or to what is not a regular file, a FIFO, a socket, a device.
    Unreadable,
    /// A folder (not a link to one).
    Folder,
    /// Gone.
    Nothing,
}

fn observe(path: &Path) -> Found {
    let Ok(own) = path.symlink_metadata() else { return Found::Nothing };
    if own.is_dir() {
        return Found::Folder;
    }
    let Some(meta) = std::fs::metadata(path).ok().filter(std::fs::Metadata::is_file) else {
        return Found::Unreadable;
    };
    let Ok(modified) = meta.modified() else { return Found::Unreadable };
    let age = SystemTime::now().duration_since(modified).unwrap_or(Duration::ZERO);
    Found::File(Observation { len: meta.len(), modified, age })
}
