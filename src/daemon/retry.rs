//! Results that could not be written are tried again by the running daemon (the waiting
//! inputs are kept by their claim file names, `ID.NAME`). A full or
//! missing outbox, a quota or an I/O error fails a job after its input was claimed; the
//! input then waits, safe, in the claim folder. Rather than retrying every waiting input on
//! its own (which would solve each again at every try), one of them is sent as a *probe*
//! after a capped exponential backoff (0.5 s, doubling to 30 s); when the probe is
//! answered, the outbox works again and every waiting input is requeued. The operator
//! hears of it once
//! when the trouble starts, once per failed probe while it lasts (never once per file), and
//! once when it is over; `systemctl status` shows the number of waiting inputs meanwhile.
//!
//! [`Retries`] is the pure state machine, with the clock passed in; [`Retrier`] runs it on
//! its own thread and requeues through the job channel.

use super::claim::Claimed;
use super::job::{Context, Job};
use super::sdnotify;
use crate::util::inputs_wait;
use crossbeam_channel::{Receiver, Sender, select};
use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The first wait after a failure.
pub const FIRST_DELAY: Duration = Duration::from_millis(500);
/// The longest wait between two probes.
pub const MAX_DELAY: Duration = Duration::from_secs(30);

/// A capped exponential backoff: each delay doubles the previous one, up to the cap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Backoff {
    first: Duration,
    cap: Duration,
    next: Duration,
}

impl Backoff {
    /// Starts at `first`, never waits longer than `cap`.
    pub fn new(first: Duration, cap: Duration) -> Backoff {
        Backoff { first, cap, next: first.min(cap) }
    }

    /// The delay to wait now; the one after it is twice as long (at most the cap).
    pub fn next_delay(&mut self) -> Duration {
        let delay = self.next;
        self.next = (delay * 2).min(self.cap);
        delay
    }

    /// Back to the first delay.
    pub fn reset(&mut self) {
        self.next = self.first.min(self.cap);
    }
}

/// What a reported failure means for the operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The first failure after a healthy spell; the first probe follows after the delay.
    Began(Duration),
    /// The probe failed as well; the next one follows after the delay.
    ProbeFailed(Duration),
    /// One more input waits; the trouble is known already.
    Joined,
}

/// The inputs waiting for their result to be written, and when to try again.
#[derive(Debug)]
pub struct Retries {
    backoff: Backoff,
    /// Waiting in the claim folder, in the order they will be probed.
    waiting: VecDeque<String>,
    /// The input being tried right now.
    probe: Option<String>,
    /// When the next probe is due (`None` while healthy or while a probe runs).
    next_try: Option<Instant>,
}

impl Retries {
    /// Nothing waiting.
    pub fn new(backoff: Backoff) -> Retries {
        Retries { backoff, waiting: VecDeque::new(), probe: None, next_try: None }
    }

    /// Inputs waiting, the probe included.
    pub fn waiting(&self) -> usize {
        self.waiting.len() + usize::from(self.probe.is_some())
    }

    /// When the next probe is due.
    pub fn next_try(&self) -> Option<Instant> {
        self.next_try
    }

    /// The result of `name` could not be written; its input waits in the claim folder.
    pub fn failed(&mut self, name: &str, now: Instant) -> Failure {
        if self.probe.as_deref() == Some(name) {
            self.probe = None;
            self.waiting.push_back(name.to_string());
            let delay = self.backoff.next_delay();
            self.next_try = Some(now + delay);
            return Failure::ProbeFailed(delay);
        }
        let healthy = self.waiting() == 0;
        if !self.waiting.iter().any(|n| n == name) {
            self.waiting.push_back(name.to_string());
        }
        if healthy {
            let delay = self.backoff.next_delay();
            self.next_try = Some(now + delay);
            return Failure::Began(delay);
        }
        Failure::Joined
    }

    /// The job of `name` ended without an output error. When it was the probe, the outbox
    /// works again: returns every other waiting input, to be requeued. Another job's result
    /// changes nothing: a nearly full outbox takes small results and refuses large ones, and
    /// only the probe's own fate says whether the waiting inputs can go.
    pub fn ended(&mut self, name: &str) -> Option<Vec<String>> {
        if self.probe.as_deref() != Some(name) {
            return None;
        }
        self.probe = None;
        self.next_try = None;
        self.backoff.reset();
        Some(self.waiting.drain(..).collect())
    }

    /// The input to try now, if a probe is due.
    pub fn due(&mut self, now: Instant) -> Option<String> {
        if self.probe.is_some() || self.next_try.is_none_or(|t| t > now) {
            return None;
        }
        let name = self.waiting.pop_front()?;
        self.next_try = None;
        self.probe = Some(name.clone());
        Some(name)
    }
}

/// What the workers tell the retry thread.
#[derive(Debug)]
enum Report {
    Failed { name: String, error: String },
    Ended { name: String },
}

/// The retry thread's mailbox.
#[derive(Clone, Debug)]
pub struct Retrier {
    sender: Sender<Report>,
}

impl Retrier {
    /// Starts the retry thread; it requeues inputs on `jobs`.
    pub fn start(ctx: Arc<Context>, jobs: Sender<Job>) -> std::io::Result<Retrier> {
        let (sender, receiver) = crossbeam_channel::unbounded();
        std::thread::Builder::new()
            .name("kakurod-retry".into())
            .spawn(move || run(&ctx, &receiver, &jobs))?;
        Ok(Retrier { sender })
    }

    /// The result of `claimed` could not be written (`error`); its input is in the claim
    /// folder.
    pub fn failed(&self, claimed: &Claimed, error: String) {
        let _ = self.sender.send(Report::Failed { name: claimed.file_name(), error });
    }

    /// The job of `claimed` ended without an output error.
    pub fn ended(&self, claimed: &Claimed) {
        let _ = self.sender.send(Report::Ended { name: claimed.file_name() });
    }
}

fn run(ctx: &Context, reports: &Receiver<Report>, jobs: &Sender<Job>) {
    let mut retries = Retries::new(Backoff::new(FIRST_DELAY, MAX_DELAY));
    let folders = &ctx.settings.folders;
    loop {
        let timeout = retries
            .next_try()
            .map_or(Duration::from_secs(3600), |t| t.saturating_duration_since(Instant::now()));
        ctx.retry_waiting.store(retries.waiting(), std::sync::atomic::Ordering::SeqCst);
        select! {
            recv(reports) -> report => match report {
                Ok(Report::Failed { name, error }) => {
                    let claimed = folders.claim.join(&name);
                    match retries.failed(&name, Instant::now()) {
                        Failure::Began(delay) => tracing::warn!(file = %name, %error,
                            "cannot write the result; the input waits in {} and is tried again \
                             in {:.1} s", claimed.display(), delay.as_secs_f64()),
                        Failure::ProbeFailed(delay) => tracing::warn!(%error,
                            waiting = retries.waiting(),
                            "results still cannot be written; {} in {}, next try in {:.1} s",
                            inputs_wait(retries.waiting()), folders.claim.display(),
                            delay.as_secs_f64()),
                        Failure::Joined => tracing::debug!(file = %name, %error,
                            "cannot write the result either; the input waits in {}",
                            claimed.display()),
                    }
                    sdnotify::status(&format!(
                        "results cannot be written ({error}); {} in {}",
                        inputs_wait(retries.waiting()),
                        folders.claim.display()
                    ));
                }
                Ok(Report::Ended { name }) => {
                    if let Some(requeue) = retries.ended(&name) {
                        tracing::info!(file = %name, requeued = requeue.len(),
                            "results can be written again; the waiting inputs are requeued");
                        sdnotify::status(&format!("watching {}", folders.inbox.display()));
                        for claimed in requeue.iter().filter_map(|n| Claimed::parse(n)) {
                            let _ = jobs.send(Job::claimed(claimed));
                        }
                    }
                }
                Err(_) => return,
            },
            default(timeout) => {}
        }
        if let Some(claimed) = retries.due(Instant::now()).and_then(|n| Claimed::parse(&n)) {
            restore_folders(ctx);
            tracing::debug!(file = %claimed.name, "trying the result of a waiting input again");
            let _ = jobs.send(Job::claimed(claimed));
        }
    }
}

/// Re-creates the folders results and inputs go to, should they have been removed.
fn restore_folders(ctx: &Context) {
    let folders = &ctx.settings.folders;
    for dir in [&folders.outbox, &folders.done, &folders.failed] {
        restore(dir);
    }
}

fn restore(dir: &Path) {
    if dir.is_dir() {
        return;
    }
    match std::fs::create_dir_all(dir) {
        Ok(()) => tracing::warn!(folder = %dir.display(), "the folder was missing; created again"),
        Err(error) => tracing::debug!(folder = %dir.display(), %error, "cannot create"),
    }
}

/// Where the input of a job that failed on output is: its claim path, when it is there.
pub fn claimed_input(claim_dir: &Path, claimed: &Claimed) -> Option<PathBuf> {
    let path = claimed.path(claim_dir);
    path.symlink_metadata().is_ok().then_some(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn retries() -> Retries {
        Retries::new(Backoff::new(FIRST_DELAY, MAX_DELAY))
    }

    fn secs(t0: Instant, s: f64) -> Instant {
        t0 + Duration::from_secs_f64(s)
    }

    #[test]
    fn the_backoff_doubles_up_to_its_cap_and_resets() {
        let mut b = Backoff::new(FIRST_DELAY, MAX_DELAY);
        let delays: Vec<f64> = (0..9).map(|_| b.next_delay().as_secs_f64()).collect();
        assert_eq!(delays, [0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 30.0, 30.0, 30.0]);
        b.reset();
        assert_eq!(b.next_delay(), FIRST_DELAY);
    }

    #[test]
    fn one_probe_at_a_time_after_the_backoff_then_everything_is_requeued() {
        let (mut r, t0) = (retries(), Instant::now());
        assert_eq!(r.failed("a", t0), Failure::Began(FIRST_DELAY));
        assert_eq!(r.failed("b", t0), Failure::Joined);
        assert_eq!(r.failed("c", t0), Failure::Joined);
        assert_eq!(r.waiting(), 3);
        assert_eq!(r.due(secs(t0, 0.4)), None);
        assert_eq!(r.due(secs(t0, 0.5)).as_deref(), Some("a"));
        assert_eq!(r.due(secs(t0, 10.0)), None, "a second probe while one runs");
        // The probe fails: wait twice as long, and try the next input first.
        assert_eq!(r.failed("a", secs(t0, 0.6)), Failure::ProbeFailed(Duration::from_secs(1)));
        assert_eq!(r.due(secs(t0, 1.5)), None);
        assert_eq!(r.due(secs(t0, 1.6)).as_deref(), Some("b"));
        assert_eq!(r.ended("c"), None, "not the probe");
        assert_eq!(r.ended("b"), Some(vec!["c".to_string(), "a".to_string()]));
        assert_eq!((r.waiting(), r.next_try()), (0, None));
        // The backoff starts over with the next trouble.
        assert_eq!(r.failed("d", secs(t0, 2.0)), Failure::Began(FIRST_DELAY));
    }

    #[test]
    fn the_delay_between_probes_stays_at_the_cap() {
        let (mut r, mut now) = (retries(), Instant::now());
        r.failed("a", now);
        let mut last = Duration::ZERO;
        for _ in 0..12 {
            now = r.next_try().unwrap();
            assert_eq!(r.due(now).as_deref(), Some("a"));
            let Failure::ProbeFailed(delay) = r.failed("a", now) else { panic!() };
            last = delay;
        }
        assert_eq!(last, MAX_DELAY);
    }
}
