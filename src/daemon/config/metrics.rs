//! `[metrics]`: where the daemon's Prometheus metrics go. Both are off by default: the
//! shipped unit has no network, and a file for node_exporter's textfile collector needs
//! a path the operator chooses.

use crate::cli::ServeArgs;
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// `[metrics]`, as written.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MetricsConfig {
    /// The file rewritten every second (relative to the configuration file's folder).
    pub file: Option<PathBuf>,
    /// `HOST:PORT` to serve `/metrics` and `/healthz` at.
    pub listen: Option<String>,
}

/// Where the metrics go, resolved.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MetricsSettings {
    /// The metrics file, if any.
    pub file: Option<PathBuf>,
    /// The listener's address, if any.
    pub listen: Option<String>,
}

/// The file's settings (a relative path taken from `base`) with the command line's on top
/// (a relative path taken from the working directory).
pub(super) fn resolve(config: &MetricsConfig, base: &Path, args: &ServeArgs) -> MetricsSettings {
    MetricsSettings {
        file: args.metrics_file.clone().or_else(|| config.file.as_ref().map(|f| base.join(f))),
        listen: args.metrics_listen.clone().or_else(|| config.listen.clone()),
    }
}
