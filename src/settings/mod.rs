//! The daemon's configuration: the TOML file as written ([`Config`], every key optional,
//! unknown keys rejected), the overrides given outside it ([`ServeOverrides`], filled in
//! from the command line) on top of it, and validation into the
//! resolved [`Settings`] the rest of the daemon reads. Relative folders in the file are
//! taken relative to the file's own folder, so a configuration works from any working
//! directory; folders given on the command line are relative to the working directory.

use crate::format::Format;
use crate::logging::{LogFormat, LogLevel};
use crate::pipeline::{self, PipelineOptions};
use crate::solver::{Algorithm, GradeMode, Mode, SolveOptions, SolveOverrides, ValOrder, VarOrder};
pub use error::SettingsError;
use kakurod_engine::seconds::limit_of;
use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::time::Duration;

mod error;
mod generate;
mod job;
mod metrics;
mod overrides;
mod queue;

pub use generate::{GenerateConfig, GenerateSettings};
pub use job::JobSettings;
pub use metrics::{MetricsConfig, MetricsSettings};
pub use overrides::ServeOverrides;
pub use queue::{QueueConfig, QueueSettings, invalid_prefix};

/// The configuration file, as written. Every key has a default (see `config.toml`).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// `[folders]`.
    pub folders: FoldersConfig,
    /// `[intake]`.
    pub intake: IntakeConfig,
    /// `[workers]`.
    pub workers: WorkersConfig,
    /// `[solver]`.
    pub solver: SolverConfig,
    /// `[limits]`.
    pub limits: LimitsConfig,
    /// `[generate]`.
    pub generate: GenerateConfig,
    /// `[output]`.
    pub output: OutputConfig,
    /// `[log]`.
    pub log: LogConfig,
    /// `[queue]`.
    pub queue: QueueConfig,
    /// `[metrics]`.
    pub metrics: MetricsConfig,
}

/// `[folders]`: where files come from and go to.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FoldersConfig {
    /// Watched folder for new puzzle files.
    pub inbox: PathBuf,
    /// Folder for results.
    pub outbox: PathBuf,
    /// Inputs that were answered with a result.
    pub done: PathBuf,
    /// Inputs that were rejected (answered with `NAME.error.json`).
    pub failed: PathBuf,
    /// Inputs being worked on; requeued at the next start.
    pub claim: PathBuf,
}

impl Default for FoldersConfig {
    fn default() -> Self {
        FoldersConfig {
            inbox: "inbox".into(),
            outbox: "outbox".into(),
            done: "done".into(),
            failed: "failed".into(),
            claim: "claim".into(),
        }
    }
}

/// What to do with an input once its result is durable.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AfterSuccess {
    /// Move it to the `done` folder.
    #[default]
    Move,
    /// Delete it.
    Delete,
}

/// `[intake]`: when a file in the inbox counts as complete.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct IntakeConfig {
    /// Size-and-mtime stability required of a file without a completion event.
    pub settle_ms: u64,
    /// Quiet time after a writer closed the file.
    pub close_settle_ms: u64,
    /// Time without a write event after which an open file is judged by stability.
    #[serde(rename = "open_idle_seconds", with = "kakurod_engine::seconds::required")]
    pub open_idle: Duration,
    /// Period of the full inbox scan that backs up the file events.
    #[serde(rename = "rescan_seconds", with = "kakurod_engine::seconds::required")]
    pub rescan: Duration,
    /// Inputs larger than this get an error result without being read.
    pub max_file_bytes: u64,
    /// What to do with answered inputs.
    pub after_success: AfterSuccess,
}

impl Default for IntakeConfig {
    fn default() -> Self {
        IntakeConfig {
            settle_ms: 500,
            close_settle_ms: 10,
            open_idle: Duration::from_secs(5),
            rescan: Duration::from_secs(2),
            max_file_bytes: 16 << 20,
            after_success: AfterSuccess::Move,
        }
    }
}

/// `[workers]`: the worker pool and shutdown.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct WorkersConfig {
    /// Worker threads (0 = one per core).
    pub workers: usize,
    /// On SIGTERM, how long running jobs may take before they are cancelled.
    #[serde(rename = "drain_timeout_seconds", with = "kakurod_engine::seconds::required")]
    pub drain_timeout: Duration,
    /// fsync results and folder changes (off only for throwaway data).
    pub fsync: bool,
}

impl Default for WorkersConfig {
    fn default() -> Self {
        WorkersConfig { workers: 0, drain_timeout: Duration::from_secs(10), fsync: true }
    }
}

/// `[solver]`: how each puzzle is searched. These are the file's keys, with the daemon's
/// defaults; [`pipeline_options`] turns them into the solver's options.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SolverConfig {
    /// Propagation strength.
    pub algorithm: Algorithm,
    /// Variable order.
    pub var_order: VarOrder,
    /// Value order.
    pub val_order: ValOrder,
    /// What to look for.
    pub mode: Mode,
    /// In `count` mode, stop after this many solutions (absent: no limit).
    pub count_limit: Option<u64>,
    /// Threads for one puzzle's search (0 = one per core).
    pub threads: usize,
    /// Read every file as this format instead of detecting it (absent: detect).
    pub format: Option<String>,
    /// How a solved Kakuro is graded.
    pub grade: GradeMode,
}

impl Default for SolverConfig {
    /// The solver's own defaults, but every core for one puzzle: a file is solved on its
    /// worker's thread, and only a puzzle that outlives the probe borrows idle workers
    /// (and gives them back while other files wait).
    fn default() -> Self {
        let solve = SolveOptions::default();
        SolverConfig {
            algorithm: solve.algorithm,
            var_order: solve.var_order,
            val_order: solve.val_order,
            mode: solve.mode,
            count_limit: solve.count_limit,
            threads: 0,
            format: None,
            grade: solve.grade,
        }
    }
}

/// `[limits]`: what one puzzle may cost.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LimitsConfig {
    /// Per-puzzle time limit (0: none).
    #[serde(rename = "timeout_seconds", with = "kakurod_engine::seconds::required")]
    pub timeout: Duration,
    /// Per-puzzle node limit (absent: none).
    pub node_limit: Option<u64>,
    /// Largest grid accepted, in cells.
    pub max_cells: usize,
}

impl Default for LimitsConfig {
    fn default() -> Self {
        LimitsConfig {
            timeout: Duration::from_secs(60),
            node_limit: None,
            max_cells: pipeline::MAX_CELLS,
        }
    }
}

/// `[output]`: which files are written per input.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct OutputConfig {
    /// Also write `NAME.svg` for a solved single puzzle.
    pub svg: bool,
}

impl Default for OutputConfig {
    fn default() -> Self {
        OutputConfig { svg: true }
    }
}

/// `[log]`: what is logged and how.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LogConfig {
    /// `text` or `json` (one JSON object per line).
    pub format: LogFormat,
    /// Least severe level logged; `RUST_LOG`, when set, wins.
    pub level: LogLevel,
}

/// The resolved folders, all absolute or relative to the working directory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Folders {
    /// Watched folder.
    pub inbox: PathBuf,
    /// Results.
    pub outbox: PathBuf,
    /// Answered inputs.
    pub done: PathBuf,
    /// Rejected inputs.
    pub failed: PathBuf,
    /// Claimed inputs, `ID.NAME`.
    pub claim: PathBuf,
}

/// Everything the daemon needs, validated.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The configuration file the settings came from; `None` for the built-in defaults.
    pub config_path: Option<PathBuf>,
    /// Folders.
    pub folders: Folders,
    /// Stability time for files without a completion event.
    pub settle: Duration,
    /// Quiet time after a writer closed a file.
    pub close_settle: Duration,
    /// Time without a write event after which an open file is judged by stability.
    pub open_idle: Duration,
    /// Full-scan period.
    pub rescan: Duration,
    /// Largest input read.
    pub max_file_bytes: u64,
    /// What happens to answered inputs.
    pub after_success: AfterSuccess,
    /// Worker threads (resolved: at least 1).
    pub workers: usize,
    /// Drain time on shutdown.
    pub drain_timeout: Duration,
    /// Whether results and renames are fsynced.
    pub fsync: bool,
    /// Log format.
    pub log_format: LogFormat,
    /// Log level.
    pub log_level: LogLevel,
    /// The settings every job is answered with, resolved once: the daemon's own workers
    /// and the queue's read the same value.
    pub job: JobSettings,
    /// The shared queue (`None`: the in-process queue).
    pub queue: Option<QueueSettings>,
    /// Where the metrics go.
    pub metrics: MetricsSettings,
}

/// The configuration file read when `--config` is not given, if it exists.
const DEFAULT_CONFIG: &str = "config.toml";

/// The queue's subject prefix when `[queue] subject_prefix` or `worker --subject-prefix`
/// does not name one.
pub const DEFAULT_SUBJECT_PREFIX: &str = "kakurod";

impl Settings {
    /// Reads the configuration file named by `overrides`, applies the overrides and
    /// validates the result.
    /// Without `--config`, `./config.toml` is read when it exists; otherwise every key
    /// takes its default, since each is optional.
    pub fn load(overrides: &ServeOverrides) -> Result<Settings, SettingsError> {
        let path = overrides.config.clone().or_else(|| {
            let here = PathBuf::from(DEFAULT_CONFIG);
            here.exists().then_some(here)
        });
        let Some(path) = path else {
            let defaults: Config = toml::from_str("").map_err(|e| SettingsError::ConfigParse {
                path: PathBuf::from("(built-in defaults)"),
                message: e.to_string(),
            })?;
            return Settings::resolve(defaults, Path::new(""), overrides);
        };
        let text = std::fs::read_to_string(&path)
            .map_err(|source| SettingsError::ConfigRead { path: path.clone(), source })?;
        let config: Config = toml::from_str(&text).map_err(|e| SettingsError::ConfigParse {
            path: path.clone(),
            message: e.to_string(),
        })?;
        let base = path.parent().map(Path::to_path_buf).unwrap_or_default();
        let settings = Settings::resolve(config, &base, overrides)?;
        Ok(Settings { config_path: Some(path), ..settings })
    }

    /// Validates `config` (folders relative to `base`) with `overrides` on top.
    pub fn resolve(
        mut config: Config,
        base: &Path,
        overrides: &ServeOverrides,
    ) -> Result<Settings, SettingsError> {
        let folders = resolve_folders(&config.folders, base, overrides);
        overrides.apply_to(&mut config);
        check_ranges(&config)?;
        let job = JobSettings {
            pipeline: pipeline_options(&config.solver, &config.limits)?,
            generate: generate::resolve(&config.generate)?,
            svg: config.output.svg,
        };
        let (intake, workers) = (&config.intake, &config.workers);
        let queue = queue::resolve(&config.queue, base, worker_count(workers.workers))?;
        Ok(Settings {
            config_path: None,
            folders,
            settle: Duration::from_millis(intake.settle_ms),
            close_settle: Duration::from_millis(intake.close_settle_ms),
            open_idle: intake.open_idle,
            rescan: intake.rescan,
            max_file_bytes: intake.max_file_bytes,
            after_success: intake.after_success,
            workers: worker_count(workers.workers),
            drain_timeout: workers.drain_timeout,
            fsync: workers.fsync,
            log_format: config.log.format,
            log_level: config.log.level,
            job,
            queue,
            metrics: metrics::resolve(&config.metrics, base, overrides),
        })
    }

    /// A one-line summary for the start-up log.
    pub fn summary(&self) -> String {
        let (job, o) = (&self.job, &self.job.pipeline.solve);
        format!(
            "inbox={} outbox={} workers={} threads_per_puzzle={} algorithm={} var_order={} \
             val_order={} mode={} grade={} timeout={} node_limit={} max_file_bytes={} max_cells={} \
             settle_ms={} close_settle_ms={} svg={} fsync={} drain_timeout_s={} \
             generate_max_grid={}x{} generate_max_count={} generate_timeout={}",
            self.folders.inbox.display(),
            self.folders.outbox.display(),
            self.workers,
            o.threads,
            o.algorithm.name(),
            o.var_order.name(),
            o.val_order.name(),
            o.mode.name(),
            o.grade.name(),
            o.timeout.map_or("none".into(), |t| format!("{}s", t.as_secs_f64())),
            o.node_limit.map_or("none".into(), |n| n.to_string()),
            self.max_file_bytes,
            job.pipeline.max_cells,
            self.settle.as_millis(),
            self.close_settle.as_millis(),
            job.svg,
            self.fsync,
            self.drain_timeout.as_secs_f64(),
            job.generate.limits.max_rows,
            job.generate.limits.max_cols,
            job.generate.limits.max_count,
            job.generate.timeout.map_or("none".into(), |t| format!("{}s", t.as_secs_f64())),
        )
    }
}

/// The file's folders, relative to `base`; the inbox and outbox given on the command line
/// stay relative to the working directory.
fn resolve_folders(f: &FoldersConfig, base: &Path, overrides: &ServeOverrides) -> Folders {
    Folders {
        inbox: overrides.inbox.clone().unwrap_or_else(|| base.join(&f.inbox)),
        outbox: overrides.outbox.clone().unwrap_or_else(|| base.join(&f.outbox)),
        done: base.join(&f.done),
        failed: base.join(&f.failed),
        claim: base.join(&f.claim),
    }
}

/// Checks every numeric key against its documented range.
fn check_ranges(config: &Config) -> Result<(), SettingsError> {
    let (i, w) = (&config.intake, &config.workers);
    check_range("intake.settle_ms", i.settle_ms as f64, 0.0, 600_000.0)?;
    check_range("intake.close_settle_ms", i.close_settle_ms as f64, 0.0, 60_000.0)?;
    check_range("intake.open_idle_seconds", i.open_idle.as_secs_f64(), 0.1, 86_400.0)?;
    check_range("intake.rescan_seconds", i.rescan.as_secs_f64(), 0.05, 3600.0)?;
    check_range("intake.max_file_bytes", i.max_file_bytes as f64, 1.0, (1u64 << 30) as f64)?;
    check_range("workers.workers", w.workers as f64, 0.0, 1024.0)?;
    check_range("workers.drain_timeout_seconds", w.drain_timeout.as_secs_f64(), 0.0, 3600.0)?;
    check_range("solver.threads", config.solver.threads as f64, 0.0, 1024.0)?;
    check_range("limits.timeout_seconds", config.limits.timeout.as_secs_f64(), 0.0, 1e6)?;
    check_range("limits.max_cells", config.limits.max_cells as f64, 1.0, 1e8)
}

/// The solver settings, forced format and cell limit every file is handled with: the
/// `[solver]` and `[limits]` keys, as the overrides every source of solver settings gives,
/// over the solver's defaults.
fn pipeline_options(s: &SolverConfig, l: &LimitsConfig) -> Result<PipelineOptions, SettingsError> {
    if s.count_limit == Some(0) {
        return Err(setting("solver.count_limit", "must be at least 1 (leave it out for none)"));
    }
    if l.node_limit == Some(0) {
        return Err(setting("limits.node_limit", "must be at least 1 (leave it out for none)"));
    }
    let format = forced_format(s.format.as_deref())?;
    let overrides = SolveOverrides {
        algorithm: Some(s.algorithm),
        var_order: Some(s.var_order),
        val_order: Some(s.val_order),
        mode: Some(s.mode),
        count_limit: s.count_limit,
        threads: Some(s.threads),
        // 0 means no limit.
        timeout: limit_of(Some(l.timeout)),
        node_limit: l.node_limit,
        grade: Some(s.grade),
        explain: None,
    };
    let solve = overrides.over(&SolveOptions::default());
    Ok(PipelineOptions { solve, format, max_cells: l.max_cells })
}

/// The format named by `solver.format`, if any.
fn forced_format(name: Option<&str>) -> Result<Option<Format>, SettingsError> {
    name.map(|name| {
        Format::from_name(name)
            .ok_or_else(|| setting("solver.format", &format!("'{name}' is not a known format")))
    })
    .transpose()
}

/// Worker threads: 0 means one per core.
fn worker_count(workers: usize) -> usize {
    if workers == 0 { std::thread::available_parallelism().map_or(1, usize::from) } else { workers }
}

fn setting(key: &'static str, message: &str) -> SettingsError {
    SettingsError::Setting { key, message: message.to_string() }
}

fn check_range(key: &'static str, value: f64, min: f64, max: f64) -> Result<(), SettingsError> {
    if value.is_finite() && (min..=max).contains(&value) {
        Ok(())
    } else {
        Err(setting(key, &format!("is {value}, outside {min}..={max}")))
    }
}

#[cfg(test)]
mod tests;
