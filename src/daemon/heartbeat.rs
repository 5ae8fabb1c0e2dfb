//! Every [`status::PERIOD`], the daemon tells the world how it is: it rewrites its state
//! document for `kakurod status` (`state`), sets the metrics' gauges and rewrites the
//! metrics file (`[metrics] file`), updates the `STATUS=` line of `systemctl status`, and
//! keeps the systemd watchdog fed (`WATCHDOG=1`) while its intake and its workers make
//! progress, so that a daemon that hangs is restarted.

use super::job::Context;
use super::metrics::Load;
use super::periodic::Periodic;
use super::sdnotify;
use crate::status::{self, NodeState, RunningInput};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// What the heartbeat needs besides the jobs' context.
#[derive(Debug)]
pub struct Options {
    /// Where the metrics file goes, if anywhere.
    pub metrics_file: Option<PathBuf>,
    /// The watchdog interval systemd asked for (`WatchdogSec=`), if any.
    pub watchdog: Option<Duration>,
    /// Set once start-up is over: before, systemd hears nothing from the heartbeat.
    pub ready: Arc<AtomicBool>,
    /// When the daemon started, in seconds since the Unix epoch.
    pub started_unix_seconds: f64,
}

/// Starts the heartbeat thread for `ctx`; it ends when dropped.
pub fn start(ctx: Arc<Context>, options: Options) -> std::io::Result<Periodic> {
    let mut beat = Beating::new(ctx, options);
    Periodic::start("kakurod-heartbeat", status::PERIOD, move || beat.once())
}

/// The heartbeat's own memory between beats.
struct Beating {
    ctx: Arc<Context>,
    options: Options,
    /// The last `STATUS=` line sent.
    status: String,
    /// The running searches' node count at the last beat, and when it last moved.
    nodes: u64,
    moved: Instant,
    /// The metrics file's last write error, said once until it is mended.
    metrics_error: Option<String>,
}

impl Beating {
    fn new(ctx: Arc<Context>, options: Options) -> Beating {
        if let Some(folder) = options.metrics_file.as_ref().and_then(|f| f.parent()) {
            let _ = std::fs::create_dir_all(folder);
        }
        let (status, nodes, moved) = (String::new(), 0, Instant::now());
        Beating { ctx, options, status, nodes, moved, metrics_error: None }
    }

    /// One beat.
    fn once(&mut self) {
        let ctx = &self.ctx;
        let state = self.state();
        let load = Load {
            queued: state.queued + state.on_shared_queue,
            running: state.running.len(),
            retry_waiting: state.retry_waiting,
        };
        ctx.metrics.set_load(load);
        if let Some(backlog) = state.shared_queue {
            ctx.metrics.set_shared_queue(backlog);
        }
        match status::write(&ctx.settings.folders.claim, &state) {
            Ok(()) => ctx.published.tick(),
            Err(error) => tracing::debug!(%error, "cannot write the state document"),
        }
        self.write_metrics();
        self.note_moves(&state);
        if self.options.ready.load(Ordering::SeqCst) {
            let answered = state.answered.values().sum();
            self.tell_systemd(load, state.queued, answered);
        }
    }

    /// Rewrites the metrics file, if there is one; a failure is logged once, and its end.
    fn write_metrics(&mut self) {
        let Some(file) = &self.options.metrics_file else { return };
        let written =
            status::write_whole(file, self.ctx.metrics.render(&self.ctx.published).as_bytes());
        match (written, &self.metrics_error) {
            (Ok(()), Some(_)) => {
                tracing::info!(file = %file.display(), "the metrics file is written again");
                self.metrics_error = None;
            }
            (Ok(()), None) => {}
            (Err(error), said) if said.as_ref() != Some(&error.to_string()) => {
                tracing::warn!(%error, file = %file.display(), "cannot write the metrics file");
                self.metrics_error = Some(error.to_string());
            }
            (Err(_), _) => {}
        }
    }

    /// The state document now.
    fn state(&self) -> NodeState {
        let ctx = &self.ctx;
        let running = ctx
            .running
            .snapshot()
            .into_iter()
            .map(|s| {
                RunningInput::new(&s.claimed.name, s.claimed.id.to_string(), s.elapsed, s.counts)
            })
            .collect();
        let (queue_workers, shared_queue) =
            ctx.remote.as_deref().map_or_else(Default::default, |r| r.presence());
        NodeState {
            node_id: crate::util::host_name(),
            pid: std::process::id(),
            version: env!("CARGO_PKG_VERSION").into(),
            started_unix_seconds: self.options.started_unix_seconds,
            updated_unix_seconds: status::unix_now(),
            inbox: Some(ctx.settings.folders.inbox.clone()),
            workers: ctx.settings.workers,
            queued: ctx.queued.lock().map_or(0, |q| q.len()),
            held_for_queue: ctx.remote.as_deref().map_or(0, |r| r.deferred()),
            on_shared_queue: ctx.remote.as_deref().map_or(0, |r| r.in_flight()),
            retry_waiting: ctx.retry_waiting.load(Ordering::SeqCst),
            running,
            answered: ctx.metrics.answered_counts(),
            queue_workers,
            shared_queue,
        }
    }

    /// Notes whether the running searches moved since the last beat. A running job with
    /// no counters at all (a generation job, a search not at its first poll yet) counts
    /// as moving: only a search seen counting and then standing still is a stall.
    fn note_moves(&mut self, state: &NodeState) {
        let nodes: u64 = state.running.iter().map(|r| r.nodes).sum();
        let uncounted = state.running.iter().any(|r| r.nodes == 0);
        if nodes != self.nodes || uncounted {
            self.moved = Instant::now();
        }
        self.nodes = nodes;
    }

    /// The `STATUS=` line (when it changed) and the watchdog's keep-alive (while well).
    fn tell_systemd(&mut self, load: Load, queued_here: usize, answered: u64) {
        let ctx = &self.ctx;
        let folders = &ctx.settings.folders;
        let status = if load.retry_waiting > 0 {
            format!(
                "results cannot be written; {} in {}",
                crate::util::inputs_wait(load.retry_waiting),
                folders.claim.display()
            )
        } else {
            format!(
                "watching {}: {} queued, {} running, {answered} answered",
                folders.inbox.display(),
                load.queued,
                load.running
            )
        };
        if status != self.status {
            sdnotify::status(&status);
            self.status = status;
        }
        if let Some(interval) = self.options.watchdog {
            // Half the interval: systemd still hears the last keep-alive in time.
            match self.stall(queued_here, interval / 2) {
                None => sdnotify::watchdog(),
                Some(why) => tracing::warn!(why, "the daemon is stalled; the watchdog is not fed"),
            }
        }
    }

    /// Why the daemon counts as stalled over `interval`, if it does: the intake thread has
    /// not gone round its loop, or inputs wait for this daemon's workers (`queued_here`)
    /// while no job started or ended and no running search counted anything.
    fn stall(&self, queued_here: usize, interval: Duration) -> Option<&'static str> {
        let ctx = &self.ctx;
        if ctx.intake_beat.age() > interval {
            return Some("the intake has not turned");
        }
        let idle = ctx.running.changed.age() > interval && self.moved.elapsed() > interval;
        (queued_here > 0 && idle).then_some("inputs wait while no job starts, ends or moves")
    }
}
