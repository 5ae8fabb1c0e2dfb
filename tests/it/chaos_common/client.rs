//! A client of `kakurod solve --out` as a script would be one: it runs the command on the
//! files of its folder that have no answer in the outbox yet, and when the run is killed
//! (here: SIGKILL at a random instant) it runs it again on what is still unanswered. A file
//! counts as answered once its `NAME.json` or `NAME.error.json` is there: the JSON is
//! renamed into place last, so it marks a complete result.

use crate::daemon_common::BIN;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::fs;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// What the client did.
#[derive(Debug, Default)]
pub struct ClientRuns {
    /// Runs of `solve --out` started.
    pub runs: usize,
    /// Runs killed before they ended.
    pub kills: usize,
    /// Runs that ended with a status other than 0: an input was rejected (the answer is
    /// its error document), or a write failed (a full outbox).
    pub unsuccessful: usize,
    /// Runs that could not be started (an outbox too full for the command line's needs).
    pub unstarted: usize,
}

/// The client's setting.
pub struct Client<'a> {
    /// Its folder of inputs (filled while it runs).
    pub folder: &'a Path,
    /// The shared outbox.
    pub outbox: &'a Path,
    /// Where the runs' standard error goes, one file for all.
    pub log: &'a Path,
    /// How long a run may live before its SIGKILL, in milliseconds.
    pub lives_ms: Range<u64>,
    /// While set, runs are killed; once cleared, they are let to finish.
    pub chaos: &'a AtomicBool,
    /// Set once every input is in the folder.
    pub fed: &'a AtomicBool,
    /// Set by the client once it kills no more runs.
    pub calm: &'a AtomicBool,
    /// Give up after this long (a lost input would otherwise keep the client going).
    pub limit: Duration,
}

impl Client<'_> {
    /// Runs until every input of the folder is answered, the folder is complete and the
    /// chaos is over (or the limit passes).
    pub fn run(&self, seed: u64) -> ClientRuns {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut done = ClientRuns::default();
        let deadline = Instant::now() + self.limit;
        let log = fs::File::create(self.log).expect("the client's log");
        while Instant::now() < deadline {
            let killing = self.chaos.load(Ordering::SeqCst);
            if !killing {
                self.calm.store(true, Ordering::SeqCst);
            }
            let fed = self.fed.load(Ordering::SeqCst);
            let pending = self.unanswered();
            if pending.is_empty() {
                if fed && !killing {
                    break;
                }
                std::thread::sleep(Duration::from_millis(20));
                continue;
            }
            let life = Duration::from_millis(rng.random_range(self.lives_ms.clone()));
            let stderr = log.try_clone().map_or_else(|_| Stdio::null(), Stdio::from);
            let spawned = Command::new(BIN)
                .arg("solve")
                .arg("--out")
                .arg(self.outbox)
                .args(&pending)
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(stderr)
                .spawn();
            let Ok(mut child) = spawned else {
                done.unstarted += 1;
                std::thread::sleep(Duration::from_millis(50));
                continue;
            };
            done.runs += 1;
            let status = if killing { wait_for(&mut child, life) } else { child.wait().ok() };
            match status {
                Some(status) if status.success() => {}
                Some(_) => {
                    done.unsuccessful += 1;
                    // Should a write have failed (a full outbox), try again a little later.
                    std::thread::sleep(Duration::from_millis(100));
                }
                None => {
                    let _ = child.kill();
                    let _ = child.wait();
                    done.kills += 1;
                }
            }
        }
        self.calm.store(true, Ordering::SeqCst);
        done
    }

    /// The inputs in the folder without an answer in the outbox, by path.
    fn unanswered(&self) -> Vec<PathBuf> {
        let mut names: Vec<String> = fs::read_dir(self.folder)
            .expect("the client's folder")
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter(|n| !n.starts_with('.'))
            .collect();
        names.sort();
        names
            .into_iter()
            .filter(|name| {
                let stem = name.trim_end_matches(".txt");
                ["json", "error.json"]
                    .iter()
                    .all(|ext| !self.outbox.join(format!("{stem}.{ext}")).exists())
            })
            .map(|name| self.folder.join(name))
            .collect()
    }
}

/// Waits up to `life` for `child` to end; `None` when it still runs.
fn wait_for(child: &mut std::process::Child, life: Duration) -> Option<std::process::ExitStatus> {
    let end = Instant::now() + life;
    loop {
        if let Ok(Some(status)) = child.try_wait() {
            return Some(status);
        }
        let left = end.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return None;
        }
        std::thread::sleep(left.min(Duration::from_millis(5)));
    }
}
