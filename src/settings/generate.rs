//! `[generate]`: what one generation job may ask of the daemon. A job costs far more than a
//! puzzle file of the same size, and anyone who can write to the inbox can drop one, so the
//! operator caps its size, its count and its time.

use super::{SettingsError, check_range};
use crate::format::generation::Limits;
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// `[generate]`, as written.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GenerateConfig {
    /// Most rows a job may ask for.
    pub max_rows: usize,
    /// Most columns a job may ask for.
    pub max_cols: usize,
    /// Most puzzles one job may ask for.
    pub max_count: usize,
    /// Time limit of a whole job (0: none).
    #[serde(rename = "timeout_seconds", with = "kakurod_engine::seconds::required")]
    pub timeout: Duration,
}

impl Default for GenerateConfig {
    fn default() -> Self {
        GenerateConfig {
            max_rows: 150,
            max_cols: 150,
            max_count: 100,
            timeout: Duration::from_secs(600),
        }
    }
}

/// The resolved limits of generation jobs.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize, Serialize)]
pub struct GenerateSettings {
    /// What a job may ask for; more is refused with an error result.
    pub limits: Limits,
    /// Time limit of a whole job; the puzzles made before it are kept.
    #[serde(rename = "timeout_seconds", with = "kakurod_engine::seconds::limit")]
    pub timeout: Option<Duration>,
}

/// Checks `[generate]` against its documented ranges. Sides stop at 1000, the generator's
/// own limit (a million cells).
pub(super) fn resolve(config: &GenerateConfig) -> Result<GenerateSettings, SettingsError> {
    check_range("generate.max_rows", config.max_rows as f64, 3.0, 1000.0)?;
    check_range("generate.max_cols", config.max_cols as f64, 3.0, 1000.0)?;
    check_range("generate.max_count", config.max_count as f64, 1.0, 10_000.0)?;
    check_range("generate.timeout_seconds", config.timeout.as_secs_f64(), 0.0, 1e6)?;
    Ok(GenerateSettings {
        limits: Limits {
            max_rows: config.max_rows,
            max_cols: config.max_cols,
            max_count: config.max_count,
        },
        // 0 means no limit.
        timeout: kakurod_engine::seconds::limit_of(Some(config.timeout)),
    })
}
