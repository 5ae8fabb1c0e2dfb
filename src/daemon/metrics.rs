//! The daemon's Prometheus metrics: counters of answered inputs (by result), a histogram
//! of the time to answer (by puzzle kind), and gauges of the queue and the running jobs,
//! set by the heartbeat (with the shared queue's backlog, on NATS). One registry feeds the
//! text file for node_exporter's textfile collector (`[metrics] file`), the `/metrics`
//! listener (`[metrics] listen`) and the answered counts of `kakurod status`, so the three
//! never disagree.

use super::beat::Beat;
use crate::queue::backlog::Backlog;
use crate::report::Status;
use crate::work::log_line::LogLine;
use prometheus::{
    Gauge, HistogramOpts, HistogramVec, IntCounter, IntCounterVec, IntGauge, IntGaugeVec, Opts,
    Registry, TextEncoder,
};
use std::collections::BTreeMap;

/// Every result an input is counted under, so that each series exists from the start.
const RESULTS: [Status; 6] = [
    Status::Solved,
    Status::Unsatisfiable,
    Status::Timeout,
    Status::Invalid,
    Status::Failed,
    Status::Cancelled,
];

/// Bucket bounds of the time to answer, in seconds: a 9x9 Sudoku answers in milliseconds,
/// a large Kakuro or a generation job in minutes.
const SECONDS_BUCKETS: [f64; 12] =
    [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1.0, 5.0, 10.0, 60.0, 300.0, 1800.0];

/// The registry and its metrics.
#[derive(Debug)]
pub struct Metrics {
    registry: Registry,
    inputs: IntCounterVec,
    solve_seconds: HistogramVec,
    sat_used: IntCounter,
    takeovers: IntCounter,
    queue_depth: IntGauge,
    running: IntGauge,
    retry_waiting: IntGauge,
    lease_age: Gauge,
    /// Only with a shared queue: a gauge that is always 0 would tell an alert nothing.
    shared_queue: Option<SharedQueue>,
}

/// The shared queue's backlog as its server counts it.
#[derive(Debug)]
struct SharedQueue {
    pending: IntGauge,
    running: IntGauge,
    redelivered: IntGauge,
    answers_waiting: IntGauge,
}

impl SharedQueue {
    /// The gauges, registered in `registry`.
    fn new(registry: &Registry) -> Result<SharedQueue, prometheus::Error> {
        let gauge = |name: &str, help: &str| -> Result<IntGauge, prometheus::Error> {
            let gauge = IntGauge::new(name, help)?;
            registry.register(Box::new(gauge.clone()))?;
            Ok(gauge)
        };
        Ok(SharedQueue {
            pending: gauge(
                "kakurod_shared_queue_pending",
                "Jobs on the shared queue that no worker has taken yet.",
            )?,
            running: gauge(
                "kakurod_shared_queue_running",
                "Jobs on the shared queue that a worker holds and has not acknowledged.",
            )?,
            redelivered: gauge(
                "kakurod_shared_queue_redelivered",
                "Jobs on the shared queue handed out again (a worker died, went silent or was full).",
            )?,
            answers_waiting: gauge(
                "kakurod_shared_queue_answers_waiting",
                "Answers on the shared queue that the daemon has not written yet.",
            )?,
        })
    }
}

/// The figures of the moment that the heartbeat sets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Load {
    /// Inputs claimed and waiting for a worker (or answered by the shared queue's workers).
    pub queued: usize,
    /// Inputs being solved here.
    pub running: usize,
    /// Inputs whose result waits for the outbox to be writable again.
    pub retry_waiting: usize,
}

impl Metrics {
    /// A registry holding every metric, at zero; the shared queue's gauges only for a
    /// daemon that has one (`shared_queue`).
    pub fn new(shared_queue: bool) -> Result<Metrics, prometheus::Error> {
        let registry = Registry::new();
        let inputs = IntCounterVec::new(
            Opts::new("kakurod_inputs_total", "Inputs answered since start, by result."),
            &["result"],
        )?;
        let solve_seconds = HistogramVec::new(
            HistogramOpts::new(
                "kakurod_solve_seconds",
                "Seconds from taking an input to its answer, by puzzle kind.",
            )
            .buckets(SECONDS_BUCKETS.to_vec()),
            &["kind"],
        )?;
        let sat_used = IntCounter::new(
            "kakurod_sat_used_total",
            "Answered inputs of which the SAT engine answered a puzzle.",
        )?;
        let takeovers = IntCounter::new(
            "kakurod_takeovers_total",
            "Inputs taken over from a run that stopped or crashed (left in the claim folder).",
        )?;
        let queue_depth = IntGauge::new("kakurod_queue_depth", "Inputs waiting for a worker.")?;
        let running = IntGauge::new("kakurod_running", "Inputs being solved now.")?;
        let retry_waiting = IntGauge::new(
            "kakurod_retry_waiting",
            "Inputs whose result waits for the outbox to be writable.",
        )?;
        let lease_age = Gauge::new(
            "kakurod_lease_age_seconds",
            "Seconds since the daemon last published its state (stays small while it runs).",
        )?;
        let build_info = IntGaugeVec::new(
            Opts::new("kakurod_build_info", "The running version, as a label; always 1."),
            &["version"],
        )?;
        build_info.with_label_values(&[env!("CARGO_PKG_VERSION")]).set(1);
        for result in RESULTS {
            inputs.with_label_values(&[result.name()]);
        }
        registry.register(Box::new(inputs.clone()))?;
        registry.register(Box::new(solve_seconds.clone()))?;
        registry.register(Box::new(sat_used.clone()))?;
        registry.register(Box::new(takeovers.clone()))?;
        registry.register(Box::new(queue_depth.clone()))?;
        registry.register(Box::new(running.clone()))?;
        registry.register(Box::new(retry_waiting.clone()))?;
        registry.register(Box::new(lease_age.clone()))?;
        registry.register(Box::new(build_info))?;
        let shared_queue = shared_queue.then(|| SharedQueue::new(&registry)).transpose()?;
        Ok(Metrics {
            registry,
            inputs,
            solve_seconds,
            sat_used,
            takeovers,
            queue_depth,
            running,
            retry_waiting,
            lease_age,
            shared_queue,
        })
    }

    /// Counts an answered input.
    pub(crate) fn answered(&self, line: &LogLine) {
        self.inputs.with_label_values(&[line.result.as_str()]).inc();
        self.solve_seconds.with_label_values(&[line.kind()]).observe(line.seconds());
        if line.sat {
            self.sat_used.inc();
        }
    }

    /// Counts inputs taken over from an earlier run.
    pub fn took_over(&self, inputs: usize) {
        self.takeovers.inc_by(inputs as u64);
    }

    /// Sets the gauges of the moment.
    pub fn set_load(&self, load: Load) {
        self.queue_depth.set(load.queued as i64);
        self.running.set(load.running as i64);
        self.retry_waiting.set(load.retry_waiting as i64);
    }

    /// Sets the shared queue's gauges to `backlog`, as its server counts it now.
    pub fn set_shared_queue(&self, backlog: Backlog) {
        let Some(gauges) = &self.shared_queue else { return };
        let set =
            |gauge: &IntGauge, count: u64| gauge.set(i64::try_from(count).unwrap_or(i64::MAX));
        set(&gauges.pending, backlog.pending);
        set(&gauges.running, backlog.running);
        set(&gauges.redelivered, backlog.redelivered);
        set(&gauges.answers_waiting, backlog.answers_waiting);
    }

    /// Inputs answered since start, by result.
    pub fn answered_counts(&self) -> BTreeMap<String, u64> {
        RESULTS
            .iter()
            .map(|r| (r.name().to_string(), self.inputs.with_label_values(&[r.name()]).get()))
            .collect()
    }

    /// The metrics in the Prometheus text format, with the lease age of `beat` now.
    pub fn render(&self, beat: &Beat) -> String {
        self.lease_age.set(beat.age().as_secs_f64());
        TextEncoder::new().encode_to_string(&self.registry.gather()).unwrap_or_else(|error| {
            tracing::warn!(%error, "cannot encode the metrics");
            String::new()
        })
    }
}
