//! Log output for the daemon: `tracing-subscriber` on standard error, as plain text (colour
//! only on a terminal, no timestamps under journald, which adds its own) or as one JSON
//! object per line. The level comes from the configuration unless `RUST_LOG` is set.

use serde::Deserialize;
use std::io::IsTerminal;
use tracing_subscriber::EnvFilter;

/// How log lines are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "snake_case")]
pub enum LogFormat {
    /// Human-readable lines.
    #[default]
    Text,
    /// One JSON object per line.
    Json,
}

/// The least severe level that is logged.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "snake_case")]
pub enum LogLevel {
    /// Errors only.
    Error,
    /// Errors and warnings.
    Warn,
    /// Start-up, shutdown and one line per puzzle.
    #[default]
    Info,
    /// Also file events and readiness decisions.
    Debug,
    /// Everything.
    Trace,
}

impl LogLevel {
    /// The directive understood by `EnvFilter`.
    pub fn directive(self) -> &'static str {
        match self {
            LogLevel::Error => "error",
            LogLevel::Warn => "warn",
            LogLevel::Info => "info",
            LogLevel::Debug => "debug",
            LogLevel::Trace => "trace",
        }
    }
}

/// Installs the global subscriber. Does nothing if one is already installed.
pub fn init(format: LogFormat, level: LogLevel) {
    let filter = match std::env::var("RUST_LOG") {
        Ok(spec) if !spec.trim().is_empty() => EnvFilter::new(spec),
        // The NATS client's own lines repeat what kakurod says of the queue.
        _ => EnvFilter::new(format!("{},async_nats=warn", level.directive())),
    };
    let terminal = std::io::stderr().is_terminal();
    // journald stamps every line itself; systemd sets JOURNAL_STREAM for its services.
    let journald = std::env::var_os("JOURNAL_STREAM").is_some();
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(terminal)
        .with_target(false);
    let _ = match (format, journald) {
        (LogFormat::Json, _) => builder.json().flatten_event(true).try_init(),
        (LogFormat::Text, true) => builder.without_time().try_init(),
        (LogFormat::Text, false) => builder.try_init(),
    };
}
