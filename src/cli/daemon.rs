//! The arguments of the daemon's commands: `serve`, and `status` and `cancel`, which talk
//! to a running daemon through its folders.

use super::parse_seconds;
use clap::Args;
use std::path::PathBuf;
use std::time::Duration;

/// `kakurod serve`. Flags override the configuration file.
#[derive(Debug, Default, Args)]
pub struct ServeArgs {
    /// Configuration file (its relative folders are relative to the file's own folder).
    /// Without it, ./config.toml when there is one, else the built-in defaults (folders
    /// inbox/, outbox/, ... in the working directory).
    #[arg(long, value_name = "PATH")]
    pub config: Option<PathBuf>,
    /// Watched folder (relative to the working directory).
    #[arg(long, value_name = "DIR")]
    pub inbox: Option<PathBuf>,
    /// Results folder (relative to the working directory).
    #[arg(long, value_name = "DIR")]
    pub outbox: Option<PathBuf>,
    /// Worker threads (0 = one per core).
    #[arg(long, value_name = "N")]
    pub workers: Option<usize>,
    /// Threads per puzzle (0 = one per core).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Per-puzzle time limit in seconds (0 = none).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub timeout: Option<Duration>,
    /// On SIGTERM, how long running jobs may take before they are cancelled.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub drain_timeout: Option<Duration>,
    /// Log format.
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub log_format: Option<crate::daemon::logging::LogFormat>,
    /// Log level (`RUST_LOG`, when set, wins).
    #[arg(long, value_enum, value_name = "LEVEL")]
    pub log_level: Option<crate::daemon::logging::LogLevel>,
    /// Do not write NAME.svg.
    #[arg(long)]
    pub no_svg: bool,
    /// Do not fsync results (faster; for throwaway data only).
    #[arg(long)]
    pub no_fsync: bool,
    /// Share the work through NATS JetStream at these URLs (`nats://` or `tls://`,
    /// comma-separated), for `kakurod worker` on other hosts. Credentials belong in
    /// `[queue] creds_file` or the server's URL in config.toml, not here, where `ps` shows them.
    #[arg(long, value_name = "URLS")]
    pub queue: Option<String>,
    /// Rewrite the Prometheus metrics into this file every second (for node_exporter's
    /// textfile collector).
    #[arg(long, value_name = "PATH")]
    pub metrics_file: Option<PathBuf>,
    /// Serve the metrics at http://ADDR/metrics and a readiness answer at /healthz
    /// (ADDR: HOST:PORT, e.g. 127.0.0.1:9464).
    #[arg(long, value_name = "ADDR")]
    pub metrics_listen: Option<String>,
}

/// `kakurod status`.
#[derive(Debug, Args)]
pub struct StatusArgs {
    /// The daemon's configuration file (as for `serve`): it names the folders.
    #[arg(long, value_name = "PATH")]
    pub config: Option<PathBuf>,
    /// Print one JSON document instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `kakurod cancel`.
#[derive(Debug, Args)]
pub struct CancelArgs {
    /// The daemon's configuration file (as for `serve`): it names the folders.
    #[arg(long, value_name = "PATH")]
    pub config: Option<PathBuf>,
    /// How long to wait for the daemon's answer, in seconds.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds, default_value = "10")]
    pub wait: Duration,
    /// The input's name, as dropped into the inbox.
    #[arg(value_name = "NAME")]
    pub name: String,
}
