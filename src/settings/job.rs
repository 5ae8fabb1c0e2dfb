//! What every job is answered with, resolved once from the configuration and the command
//! line: the daemon's own workers read it, and the shared queue ships it as it is in each
//! job's header, so a worker on another host answers exactly as the daemon would without
//! resolving anything again (`threads = 0` is still every core of the host that solves).

use super::GenerateSettings;
use crate::pipeline::PipelineOptions;
use serde::{Deserialize, Serialize};

/// The resolved settings of a job.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct JobSettings {
    /// The solver's options, the forced format and the cell limit.
    pub pipeline: PipelineOptions,
    /// What a generation job may ask for, and its time limit.
    pub generate: GenerateSettings,
    /// Whether `NAME.svg` is written beside a solved puzzle's result.
    pub svg: bool,
}
