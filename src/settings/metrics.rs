//! `[metrics]`: where the daemon's Prometheus metrics go. Both are off by default: the
//! shipped unit has no network, and a file for node_exporter's textfile collector needs
//! a path the operator chooses.

use super::ServeOverrides;
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

/// The file's settings (a relative path taken from `base`) with the overrides on top
/// (a relative path taken from the working directory).
pub(super) fn resolve(
    config: &MetricsConfig,
    base: &Path,
    overrides: &ServeOverrides,
) -> MetricsSettings {
    MetricsSettings {
        file: overrides.metrics_file.clone().or_else(|| config.file.as_ref().map(|f| base.join(f))),
        listen: overrides.metrics_listen.clone().or_else(|| config.listen.clone()),
    }
}
