//! What is wrong with a configuration: the file cannot be read, is not TOML (or has unknown
//! or mistyped keys), or a setting is out of its range. Every mode that reads config.toml
//! (`serve`, `status`, `cancel`) reports these; the daemon wraps them in its own error.

use std::io;
use std::path::PathBuf;

/// Why the settings cannot be had.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SettingsError {
    /// The configuration file could not be read.
    #[error("cannot read the configuration file {path}: {source}")]
    ConfigRead {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: io::Error,
    },
    /// The configuration file is not valid TOML or has unknown or mistyped keys.
    #[error("{path}: {message}")]
    ConfigParse {
        /// The file.
        path: PathBuf,
        /// The parser's message (it names the line and the key).
        message: String,
    },
    /// A setting is out of its range.
    #[error("setting `{key}` {message}")]
    Setting {
        /// The key, as written in the configuration file.
        key: &'static str,
        /// What is wrong with its value.
        message: String,
    },
}
