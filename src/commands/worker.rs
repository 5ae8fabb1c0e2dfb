//! `kakurod worker`: worker slots on a daemon's shared queue, until SIGTERM or SIGINT.

use crate::cli::WorkerArgs;
use crate::queue::worker::Worker;
use crate::queue::{Queue, redacted};
use crate::settings::{QueueSettings, invalid_prefix};
use crate::{logging, signals};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

/// Runs the worker; exit 0 after a signal, 2 when the queue cannot be used.
pub fn run(args: WorkerArgs) -> anyhow::Result<ExitCode> {
    logging::init(args.log_format, args.log_level);
    if let Some(message) = invalid_prefix(&args.subject_prefix) {
        eprintln!("kakurod: --subject-prefix {message}");
        return Ok(ExitCode::from(2));
    }
    let slots = match args.workers {
        0 => std::thread::available_parallelism().map_or(1, usize::from),
        n => n,
    };
    let settings = QueueSettings {
        urls: args.queue.clone(),
        prefix: args.subject_prefix.clone(),
        creds_file: args.creds_file.clone(),
        ca_file: args.ca_file.clone(),
        // The daemon sets these on the streams; a worker only reads them there.
        ack_wait: Duration::from_secs(30),
        max_in_flight: slots,
        parts_ahead: slots,
        max_crashes: 3,
        replicas: 1,
        duplicate_window: Duration::from_secs(120),
        reconcile: Duration::from_secs(60),
        // The daemon marks large jobs; a worker only keeps a slot for the others.
        large_input_bytes: 0,
        // The daemon cuts batches into jobs.
        batch_chunk_puzzles: 0,
        batch_chunk_bytes: 0,
    };
    let queue = match Queue::connect(&settings, "worker") {
        Ok(queue) => Arc::new(queue),
        Err(error) => {
            tracing::error!(%error, "kakurod worker cannot start");
            return Ok(ExitCode::from(2));
        }
    };
    let signals = signals::forward()?;
    let worker = Worker::start(Arc::clone(&queue), slots)?;
    tracing::info!(urls = %redacted(&args.queue), prefix = %args.subject_prefix, slots,
        pid = std::process::id(), host = %crate::util::host_name(), "kakurod worker started");
    let signal = signals.recv().map_or("signal", signals::name);
    tracing::info!(signal, running = worker.running(), "stopping");
    let drained = worker.stop(args.drain_timeout);
    tracing::info!(drained, "kakurod worker stopped");
    Ok(ExitCode::SUCCESS)
}
