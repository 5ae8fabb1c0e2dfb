//! The arguments of the daemon's commands: `serve`, and `status` and `cancel`, which talk
//! to a running daemon through its folders.

use super::choice::choice;
use super::{parse_seconds, thread_count};
use crate::logging::{LogFormat, LogLevel};
use crate::settings::ServeOverrides;
use clap::Args;
use std::path::PathBuf;
use std::time::Duration;

/// `kakurod serve`. Flags override the configuration file.
#[derive(Debug, Args)]
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
    #[arg(long, value_name = "N", value_parser = thread_count(), allow_negative_numbers = true)]
    pub workers: Option<usize>,
    /// Threads per puzzle (0 = one per core).
    #[arg(long, value_name = "N", value_parser = thread_count(), allow_negative_numbers = true)]
    pub threads: Option<usize>,
    /// Per-puzzle time limit in seconds (0 = none).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds, allow_negative_numbers = true)]
    pub timeout: Option<Duration>,
    /// On SIGTERM or SIGINT, how long running jobs may take before they are cancelled.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds, allow_negative_numbers = true)]
    pub drain_timeout: Option<Duration>,
    /// Log format.
    #[arg(long, value_parser = choice::<LogFormat>(), value_name = "FORMAT")]
    pub log_format: Option<LogFormat>,
    /// Log level (`RUST_LOG`, when set, wins).
    #[arg(long, value_parser = choice::<LogLevel>(), value_name = "LEVEL")]
    pub log_level: Option<LogLevel>,
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

impl From<ServeArgs> for ServeOverrides {
    /// The daemon's overrides, as typed.
    fn from(args: ServeArgs) -> ServeOverrides {
        ServeOverrides {
            config: args.config,
            inbox: args.inbox,
            outbox: args.outbox,
            workers: args.workers,
            threads: args.threads,
            timeout: args.timeout,
            drain_timeout: args.drain_timeout,
            log_format: args.log_format,
            log_level: args.log_level,
            no_svg: args.no_svg,
            no_fsync: args.no_fsync,
            queue: args.queue,
            metrics_file: args.metrics_file,
            metrics_listen: args.metrics_listen,
        }
    }
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
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds, allow_negative_numbers = true, default_value = "10")]
    pub wait: Duration,
    /// The input's name, as dropped into the inbox.
    #[arg(value_name = "NAME")]
    pub name: String,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::tests::parse_as;

    fn overrides(extra: &[&str]) -> ServeOverrides {
        parse_as::<ServeArgs>(extra).into()
    }

    #[test]
    fn no_flag_overrides_nothing() {
        assert_eq!(overrides(&[]), ServeOverrides::default());
    }

    #[test]
    fn every_flag_reaches_its_override() {
        let given = overrides(&[
            "--config",
            "c.toml",
            "--inbox",
            "/in",
            "--outbox",
            "/out",
            "--workers",
            "5",
            "--threads",
            "2",
            "--timeout",
            "1.5",
            "--drain-timeout",
            "3",
            "--log-format",
            "json",
            "--log-level",
            "debug",
            "--no-svg",
            "--no-fsync",
            "--queue",
            "nats://q:4222",
            "--metrics-file",
            "m.prom",
            "--metrics-listen",
            "127.0.0.1:9464",
        ]);
        let expected = ServeOverrides {
            config: Some("c.toml".into()),
            inbox: Some("/in".into()),
            outbox: Some("/out".into()),
            workers: Some(5),
            threads: Some(2),
            timeout: Some(Duration::from_millis(1500)),
            drain_timeout: Some(Duration::from_secs(3)),
            log_format: Some(LogFormat::Json),
            log_level: Some(LogLevel::Debug),
            no_svg: true,
            no_fsync: true,
            queue: Some("nats://q:4222".into()),
            metrics_file: Some("m.prom".into()),
            metrics_listen: Some("127.0.0.1:9464".into()),
        };
        assert_eq!(given, expected);
    }

    #[test]
    fn every_log_choice_parses_by_its_name() {
        for format in LogFormat::ALL {
            assert_eq!(overrides(&["--log-format", format.name()]).log_format, Some(format));
        }
        for level in LogLevel::ALL {
            assert_eq!(overrides(&["--log-level", level.name()]).log_level, Some(level));
        }
    }
}
