//! Log output for the daemon: `tracing-subscriber` on standard error, as plain text (colour
//! only on a terminal, no timestamps under journald, which adds its own) or as one JSON
//! object per line. The level comes from the configuration unless `RUST_LOG` is set.
//! The choices carry their names, so the command line can offer them without this module
//! knowing it.

use serde::Deserialize;
use std::io::IsTerminal;
use tracing_subscriber::EnvFilter;
use tracing_subscriber::field::MakeExt;
use tracing_subscriber::fmt::FormatFields;

/// How log lines are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LogFormat {
    /// Human-readable lines.
    #[default]
    Text,
    /// One JSON object per line.
    Json,
}

impl LogFormat {
    /// Every format, in the order they are listed to users.
    pub const ALL: [LogFormat; 2] = [LogFormat::Text, LogFormat::Json];

    /// The name written in the configuration and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            LogFormat::Text => "text",
            LogFormat::Json => "json",
        }
    }
}

/// The least severe level that is logged.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
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
    /// Every level, from the least to the most verbose.
    pub const ALL: [LogLevel; 5] =
        [LogLevel::Error, LogLevel::Warn, LogLevel::Info, LogLevel::Debug, LogLevel::Trace];

    /// The name written in the configuration and on the command line, which is also the
    /// directive `EnvFilter` understands.
    pub fn name(self) -> &'static str {
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
        _ => EnvFilter::new(format!("{},async_nats=warn", level.name())),
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
        (LogFormat::Text, true) => builder.fmt_fields(text_fields()).without_time().try_init(),
        (LogFormat::Text, false) => builder.fmt_fields(text_fields()).try_init(),
    };
}

/// The fields of a text line as the default formatter writes them (`name=value`, the
/// message bare), except that a value holding a control character (a file named with a
/// newline) or a double quote is written quoted and escaped, so that it can neither split
/// the line nor pass for other fields.
fn text_fields() -> impl for<'w> FormatFields<'w> + 'static {
    tracing_subscriber::fmt::format::debug_fn(|writer, field, value| {
        let text = format!("{value:?}");
        if field.name() == "message" {
            write!(writer, "{text}")
        } else if text.contains(|c: char| c.is_control() || c == '"') && !is_quoted(&text) {
            write!(writer, "{field}={text:?}")
        } else {
            write!(writer, "{field}={text}")
        }
    })
    .delimited(" ")
}

/// A value already written quoted (a `&str` field, which its `Debug` quotes and escapes).
fn is_quoted(text: &str) -> bool {
    text.len() >= 2 && text.starts_with('"') && text.ends_with('"')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Deserialize)]
    struct Both {
        format: LogFormat,
        level: LogLevel,
    }

    #[test]
    fn every_name_is_the_serde_name() {
        for format in LogFormat::ALL {
            let both: Both =
                toml::from_str(&format!("format = \"{}\"\nlevel = \"info\"", format.name()))
                    .unwrap();
            assert_eq!(both.format, format);
        }
        for level in LogLevel::ALL {
            let both: Both =
                toml::from_str(&format!("format = \"text\"\nlevel = \"{}\"", level.name()))
                    .unwrap();
            assert_eq!(both.level, level);
        }
    }
}
