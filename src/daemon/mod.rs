//! `kakurod serve`: the daemon. Files dropped into the inbox are noticed (`watcher`), judged
//! complete (`ready`), and queued to a worker pool (`dispatch`), where each input lives
//! its life step by step in one place (`lifecycle`): claimed by an atomic rename (`claim`),
//! read (`input`), solved (a generation job makes puzzles instead, `generate_job`), and
//! answered in the outbox (through `crate::outbox`, the one writer of result files), made
//! durable in batches (`commit`), then archived; results that cannot be written are tried
//! again (`retry`); an input removed from the claim folder cancels its job (`running`); SIGTERM
//! drains the work (`signals`). One daemon serves an inbox (`lock`). This module wires the
//! parts together and owns start-up and shutdown.

pub(crate) mod answered;
pub(crate) mod beat;
pub(crate) mod cancel;
pub(crate) mod claim;
pub(crate) mod commit;
pub(crate) mod dispatch;
pub(crate) mod error;
pub(crate) mod heartbeat;
pub(crate) mod input;
pub(crate) mod job;
pub(crate) mod lifecycle;
pub(crate) mod lock;
pub(crate) mod metrics;
pub(crate) mod metrics_http;
pub(crate) mod periodic;
pub(crate) mod ready;
pub(crate) mod remote;
pub(crate) mod retry;
pub(crate) mod running;
pub(crate) mod sdnotify;
pub(crate) mod watcher;

use crate::outbox::Outbox;
use crate::settings::{self, Folders, Settings};
use crate::status;
use crate::{logging, signals};
use crossbeam_channel::{Receiver, Sender, select};
use dispatch::Dispatcher;
use error::DaemonError;
use job::{Context, Job, SharedQueue};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use watcher::{Intake, IntakeNews};

/// How long cancelled searches get to stop after the drain timeout.
const CANCEL_GRACE: Duration = Duration::from_secs(5);

/// Runs the daemon on the configuration with `overrides` on top, until SIGTERM or SIGINT (exit 0) or a fatal error (logged, exit 2).
pub fn run(overrides: settings::ServeOverrides) -> anyhow::Result<ExitCode> {
    let settings = match Settings::load(&overrides) {
        Ok(settings) => settings,
        Err(error) => {
            // No log yet. The message holds its cause already: the error chain would say
            // it twice.
            eprintln!("kakurod: {error}");
            return Ok(ExitCode::from(2));
        }
    };
    logging::init(settings.log_format, settings.log_level);
    // A panic (a bug) is reported through the log like everything else, in its format.
    std::panic::set_hook(Box::new(|info| tracing::error!(%info, "panic")));
    match serve(settings) {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(error) => {
            // Said once, through the log; the caller only sets the exit status.
            tracing::error!(%error, "kakurod stops on a fatal error");
            Ok(ExitCode::from(2))
        }
    }
}

/// Start-up, the main wait, and shutdown.
fn serve(settings: Settings) -> Result<(), DaemonError> {
    let daemon = Daemon::start(settings)?;
    let outcome = daemon.run_until_stopped();
    daemon.shut_down();
    outcome
}

/// The running daemon's parts, from start-up to shutdown.
struct Daemon {
    ctx: Arc<Context>,
    _lock: lock::InboxLock,
    dispatcher: Dispatcher,
    queue: Option<remote::parts::QueueParts>,
    watch: periodic::Periodic,
    heartbeat: periodic::Periodic,
    listener: Option<metrics_http::Listener>,
    /// Set once start-up is over (the heartbeat then talks to systemd).
    ready: Arc<AtomicBool>,
    intake: RunningIntake,
    signals: Receiver<i32>,
    /// Inputs requeued from the claim folder at start-up.
    requeued: usize,
    /// Temporary files and stem reservations of crashed runs removed at start-up.
    stale: usize,
}

impl Daemon {
    /// Prepares the folders, takes the inbox's lock, cleans the outbox, and starts the
    /// workers (fed the inputs left claimed), the watch over running jobs, the signal
    /// forwarding and, last, the intake of new inputs.
    fn start(mut settings: Settings) -> Result<Daemon, DaemonError> {
        // The queue first: a server that cannot be reached leaves no folders behind.
        let queue = settings.queue.as_ref().map(remote::parts::connect).transpose()?;
        settings.folders = prepare(&settings.folders)?;
        let lock = lock::InboxLock::take(&settings.folders.claim, &settings.folders.inbox)?;
        let (outbox, stale) = open_outbox(&settings)?;
        let workers = settings.workers;
        let metrics = metrics::Metrics::new(queue.is_some()).map_err(|e| DaemonError::Io {
            about: "cannot set up the metrics",
            source: std::io::Error::other(e),
        })?;
        let lanes = dispatch::Lanes::new();
        let remote = queue.map(|queue| Arc::new(remote::Remote::new(queue, lanes.jobs())));
        let ctx = Arc::new(Context {
            settings,
            outbox,
            cancel: Default::default(),
            running: Default::default(),
            remote: remote.clone().map(|r| r as Arc<dyn SharedQueue>),
            waiting: Default::default(),
            queued: Default::default(),
            retry_waiting: Default::default(),
            metrics,
            intake_beat: Default::default(),
            published: Default::default(),
            cancelled_lane: lanes.cancelled(),
        });
        let dispatcher = Dispatcher::start(Arc::clone(&ctx), workers, lanes)
            .map_err(|source| DaemonError::Io { about: "cannot start the workers", source })?;
        let queue = remote.map(|r| remote::parts::start(&ctx, &dispatcher, r)).transpose()?;
        let requeued = requeue_claimed(&ctx.settings.folders.claim, &dispatcher.sender())?;
        ctx.metrics.took_over(requeued);
        let watch = cancel::watch(Arc::clone(&ctx)).map_err(|source| DaemonError::Io {
            about: "cannot start the watch over running jobs",
            source,
        })?;
        let (heartbeat, ready) = start_heartbeat(&ctx)?;
        let listener = start_listener(&ctx)?;
        let signals = signals::forward()
            .map_err(|source| DaemonError::Io { about: "cannot forward the signals", source })?;
        let intake = RunningIntake::start(&ctx, dispatcher.sender())?;
        Ok(Daemon {
            ctx,
            _lock: lock,
            dispatcher,
            queue,
            watch,
            heartbeat,
            listener,
            ready,
            intake,
            signals,
            requeued,
            stale,
        })
    }

    /// Waits for the start-up scan (then tells the log and systemd that the daemon runs),
    /// and then for a signal or a fatal error. Ok on a signal.
    fn run_until_stopped(&self) -> Result<(), DaemonError> {
        let settings = &self.ctx.settings;
        wait(&self.intake.news, &self.signals, |found| {
            let config = settings.config_path.as_ref().map_or_else(
                || "none (no config.toml here: built-in defaults)".to_string(),
                |p| p.display().to_string(),
            );
            tracing::info!(config = %config, requeued = self.requeued,
                in_inbox = found, stale_temporaries = self.stale, pid = std::process::id(),
                "kakurod started: {}", settings.summary());
            sdnotify::ready(&format!("watching {}", settings.folders.inbox.display()));
            self.ready.store(true, Ordering::SeqCst);
        })
    }

    /// Stops taking work in, lets the running jobs finish (or cancels them) and logs the
    /// last line; the inbox's lock goes last.
    fn shut_down(self) {
        let Daemon {
            ctx,
            _lock,
            dispatcher,
            queue,
            watch,
            heartbeat,
            listener,
            intake,
            signals,
            ..
        } = self;
        sdnotify::stopping("draining");
        intake.stop();
        dispatcher.stop_intake();
        let mut drained = finish_running_jobs(&ctx, &dispatcher, &signals);
        if let Some(queue) = queue {
            drained &= queue.stop(ctx.settings.drain_timeout);
        }
        drop(watch);
        drop((heartbeat, listener));
        status::remove(&ctx.settings.folders.claim);
        // A metrics file left behind would go on telling node_exporter of a daemon at work:
        // gone with the daemon, its metrics go absent, as a stopped target's do.
        if let Some(file) = &ctx.settings.metrics.file {
            let _ = std::fs::remove_file(file);
        }
        log_stopped(&ctx.settings, dispatcher.counters(), drained);
    }
}

/// Starts the heartbeat (state document, metrics file, systemd); also returns the flag
/// that tells it start-up is over.
fn start_heartbeat(
    ctx: &Arc<Context>,
) -> Result<(periodic::Periodic, Arc<AtomicBool>), DaemonError> {
    let ready = Arc::new(AtomicBool::new(false));
    let options = heartbeat::Options {
        metrics_file: ctx.settings.metrics.file.clone(),
        watchdog: sdnotify::watchdog_interval(),
        ready: Arc::clone(&ready),
        started_unix_seconds: status::unix_now(),
    };
    let heartbeat = heartbeat::start(Arc::clone(ctx), options)
        .map_err(|source| DaemonError::Io { about: "cannot start the heartbeat", source })?;
    Ok((heartbeat, ready))
}

/// Starts the metrics listener when `[metrics] listen` asks for one.
fn start_listener(ctx: &Arc<Context>) -> Result<Option<metrics_http::Listener>, DaemonError> {
    let Some(address) = &ctx.settings.metrics.listen else { return Ok(None) };
    let listener =
        metrics_http::Listener::start(Arc::clone(ctx), address).map_err(|e| DaemonError::Io {
            about: "cannot serve the metrics",
            source: std::io::Error::other(format!("{address}: {e}")),
        })?;
    tracing::info!(address = %address, "metrics at /metrics, readiness at /healthz");
    Ok(Some(listener))
}

/// The outbox writer, once the temporary files and stem reservations of this host's
/// crashed runs are gone; also returns how many were removed.
fn open_outbox(settings: &Settings) -> Result<(Outbox, usize), DaemonError> {
    let host = crate::util::host_name();
    let outbox =
        Outbox::new(settings.folders.outbox.clone(), settings.fsync, settings.job.svg, &host);
    let stale = outbox
        .remove_stale_temporaries()
        .map_err(|source| DaemonError::Io { about: "cannot clean the outbox", source })?;
    Ok((outbox, stale))
}

/// Queues the inputs an earlier run left in the claim folder (giving an id to those an
/// earlier version left without one); returns how many.
fn requeue_claimed(claim_folder: &Path, jobs: &Sender<Job>) -> Result<usize, DaemonError> {
    let error = |source| DaemonError::Folder {
        about: "cannot list",
        path: claim_folder.to_path_buf(),
        source,
    };
    let adopted = claim::adopt_legacy(claim_folder).map_err(error)?;
    if adopted > 0 {
        tracing::info!(inputs = adopted, "claims of an earlier version adopted");
    }
    let requeued = claim::claimed(claim_folder).map_err(error)?;
    if let Some(newest) = requeued.last() {
        claim::ClaimId::keep_above(newest.id);
    }
    let count = requeued.len();
    for claimed in requeued {
        let _ = jobs.send(Job::claimed(claimed));
    }
    Ok(count)
}

/// The intake thread with what it needs to run and to be stopped: the inbox watcher, the
/// stop channel and the channel of its news.
struct RunningIntake {
    watcher: notify::RecommendedWatcher,
    stop: Sender<()>,
    news: Receiver<IntakeNews>,
    thread: std::thread::JoinHandle<()>,
}

impl RunningIntake {
    /// Watches the inbox and starts the intake thread, which sends complete files to `jobs`.
    fn start(ctx: &Context, jobs: Sender<Job>) -> Result<RunningIntake, DaemonError> {
        let settings = &ctx.settings;
        let (watcher, events) = watcher::watch(&settings.folders.inbox)?;
        let (stop, stop_receiver) = crossbeam_channel::bounded::<()>(0);
        let (news_sender, news) = crossbeam_channel::unbounded();
        let intake = Intake {
            inbox: settings.folders.inbox.clone(),
            timing: ready::Timing {
                settle: settings.settle,
                close_settle: settings.close_settle,
                open_idle: settings.open_idle,
            },
            rescan: settings.rescan,
            events,
            stop: stop_receiver,
            jobs,
            news: news_sender,
            beat: Arc::clone(&ctx.intake_beat),
        };
        let thread = std::thread::Builder::new()
            .name("kakurod-intake".into())
            .spawn(move || intake.run())
            .map_err(|source| DaemonError::Io {
                about: "cannot start the intake thread",
                source,
            })?;
        Ok(RunningIntake { watcher, stop, news, thread })
    }

    /// Stops the intake thread and the watcher, and waits for the thread to end.
    fn stop(self) {
        let RunningIntake { watcher, stop, news: _, thread } = self;
        drop(stop);
        drop(watcher);
        let _ = thread.join();
    }
}

/// Lets the running jobs finish within the drain timeout, then cancels the searches still
/// running and gives them a short grace. Returns whether every job finished in time.
fn finish_running_jobs(ctx: &Context, dispatcher: &Dispatcher, signals: &Receiver<i32>) -> bool {
    let timeout = ctx.settings.drain_timeout;
    // Queued jobs are dropped (their inputs wait for the next start); running ones drain.
    let running = ctx.running.count();
    let queued = dispatcher.pending().saturating_sub(running);
    tracing::info!(running, queued, drain_timeout_s = timeout.as_secs_f64(), "stopping");
    let drained = drain(dispatcher, timeout, signals);
    if !drained {
        ctx.cancel.store(true, Ordering::SeqCst);
        dispatcher.drain(CANCEL_GRACE);
    }
    drained
}

/// The last log line: the inputs answered with a result, those rejected with an error
/// result (the two counts apart), the jobs that failed, and the inputs left claimed for
/// the next start.
fn log_stopped(settings: &Settings, counters: &answered::Counters, drained: bool) {
    let left = claim::claimed(&settings.folders.claim).map_or(0, |v| v.len());
    let rejected = counters.rejected.load(Ordering::Relaxed);
    tracing::info!(
        answered = counters.answered.load(Ordering::Relaxed).saturating_sub(rejected),
        rejected,
        errors = counters.errors.load(Ordering::Relaxed),
        left_claimed = left,
        drained,
        "kakurod stopped"
    );
}

/// Waits for the start-up scan (then calls `started`), and then for a signal or a fatal
/// error. Ok on a signal.
fn wait(
    news: &Receiver<IntakeNews>,
    signals: &Receiver<i32>,
    started: impl FnOnce(usize),
) -> Result<(), DaemonError> {
    let mut started = Some(started);
    loop {
        select! {
            recv(news) -> message => match message {
                Ok(IntakeNews::Scanned(found)) => {
                    if let Some(started) = started.take() {
                        started(found);
                    }
                }
                Ok(IntakeNews::Fatal(error)) => return Err(error),
                Err(_) => {
                    return Err(DaemonError::Io {
                        about: "the intake thread ended",
                        source: std::io::Error::other("intake stopped unexpectedly"),
                    });
                }
            },
            recv(signals) -> signal => {
                let name = signal.map_or("signal", signals::name);
                tracing::info!(signal = name, "shutdown requested");
                return Ok(());
            }
        }
    }
}

/// Waits for running jobs up to `timeout`; a second signal cuts the wait short.
fn drain(dispatcher: &Dispatcher, timeout: Duration, signals: &Receiver<i32>) -> bool {
    let deadline = Instant::now() + timeout;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if dispatcher.drain(left.min(Duration::from_millis(100))) {
            return true;
        }
        if left.is_zero() {
            return false;
        }
        if signals.try_recv().is_ok() {
            tracing::info!("second signal: cancelling running jobs");
            return false;
        }
    }
}

/// Creates the folders, makes their paths absolute, and checks that they lie apart and that
/// the ones inputs are renamed between share the inbox's filesystem.
fn prepare(folders: &Folders) -> Result<Folders, DaemonError> {
    // Before anything is created, on the paths as written, when none climbs with `..`
    // (which only the real paths resolve); again below on the real ones.
    let climbs = |path: &Path| path.components().any(|c| c == std::path::Component::ParentDir);
    let written = [&folders.inbox, &folders.outbox, &folders.done, &folders.failed, &folders.claim];
    if !written.iter().any(|path| climbs(path)) {
        let absolute =
            |path: &Path| std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        refuse_overlaps(&Folders {
            inbox: absolute(&folders.inbox),
            outbox: absolute(&folders.outbox),
            done: absolute(&folders.done),
            failed: absolute(&folders.failed),
            claim: absolute(&folders.claim),
        })?;
    }
    let make = |about: &'static str, path: &Path| -> Result<PathBuf, DaemonError> {
        let error = |source| DaemonError::Folder { about, path: path.to_path_buf(), source };
        std::fs::create_dir_all(path).map_err(error)?;
        path.canonicalize().map_err(error)
    };
    let resolved = Folders {
        inbox: make("cannot create the inbox", &folders.inbox)?,
        outbox: make("cannot create the outbox", &folders.outbox)?,
        done: make("cannot create the done folder", &folders.done)?,
        failed: make("cannot create the failed folder", &folders.failed)?,
        claim: make("cannot create the claim folder", &folders.claim)?,
    };
    refuse_overlaps(&resolved)?;
    let device = |path: &Path| {
        path.metadata().map(|m| m.dev()).map_err(|source| DaemonError::Folder {
            about: "cannot stat",
            path: path.to_path_buf(),
            source,
        })
    };
    let inbox_device = device(&resolved.inbox)?;
    for (about, path) in
        [("claim", &resolved.claim), ("done", &resolved.done), ("failed", &resolved.failed)]
    {
        if device(path)? != inbox_device {
            return Err(DaemonError::OtherFilesystem {
                about,
                path: path.clone(),
                inbox: resolved.inbox.clone(),
            });
        }
    }
    Ok(resolved)
}

/// Refuses two folders that are one, or one inside the other (paths already canonical):
/// an outbox that is the inbox, or a done folder inside it, would feed the daemon its own
/// results and archived inputs for ever.
fn refuse_overlaps(folders: &Folders) -> Result<(), DaemonError> {
    let named = [
        ("inbox", &folders.inbox),
        ("outbox", &folders.outbox),
        ("claim", &folders.claim),
        ("done", &folders.done),
        ("failed", &folders.failed),
    ];
    for (i, &(a, a_path)) in named.iter().enumerate() {
        for &(b, b_path) in &named[i + 1..] {
            let (first, second, relation) = if a_path == b_path {
                ((a, a_path), (b, b_path), "is the same folder as")
            } else if b_path.starts_with(a_path) {
                ((b, b_path), (a, a_path), "lies inside")
            } else if a_path.starts_with(b_path) {
                ((a, a_path), (b, b_path), "lies inside")
            } else {
                continue;
            };
            return Err(DaemonError::Overlapping {
                first: first.0,
                first_path: first.1.clone(),
                second: second.0,
                second_path: second.1.clone(),
                relation,
            });
        }
    }
    Ok(())
}
