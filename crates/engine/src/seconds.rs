//! Durations as files write them: a number of seconds, fractions allowed. Serde helpers
//! for `#[serde(with = ...)]`, so that every time setting is a `Duration` from the moment
//! it is read (the command line, `config.toml`, a puzzle file, the queue's wire) to the
//! engine that spends it.

use serde::{Deserialize, Deserializer, Serializer};
use std::time::Duration;

/// `seconds` to the microsecond, as every document writes a time in seconds (no
/// float noise such as `0.24666800000000003`).
pub fn to_micros(seconds: f64) -> f64 {
    (seconds * 1e6).round() / 1e6
}

/// A time limit as users write it, where zero means none: the one place the command
/// line and `config.toml` turn it into no limit.
pub fn limit_of(time: Option<Duration>) -> Option<Duration> {
    time.filter(|time| !time.is_zero())
}

/// The longest limit kept as given; longer ones are capped to it (about 31 years).
const LONGEST: f64 = 1e9;

/// A setting that must be a duration: a negative, infinite or not-a-number value is an
/// error that names what was expected.
pub mod required {
    use super::*;

    /// Writes `value` as seconds.
    pub fn serialize<S: Serializer>(value: &Duration, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64(value.as_secs_f64())
    }

    /// Reads seconds, refusing what is no duration.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
        let secs = f64::deserialize(d)?;
        if secs.is_finite() && secs >= 0.0 {
            Ok(Duration::from_secs_f64(secs.min(LONGEST)))
        } else {
            Err(serde::de::Error::custom(format!(
                "{secs} is not a number of seconds (expected 0 or more)"
            )))
        }
    }
}

/// A time limit that may be absent: `null`, 0, or a value that is no duration (negative,
/// infinite, not a number) is no limit, so that a puzzle file is never rejected for it.
pub mod limit {
    use super::*;

    /// Writes `value` as seconds, or `null`.
    pub fn serialize<S: Serializer>(value: &Option<Duration>, s: S) -> Result<S::Ok, S::Error> {
        match value {
            Some(d) => s.serialize_some(&d.as_secs_f64()),
            None => s.serialize_none(),
        }
    }

    /// Reads seconds or `null`.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Duration>, D::Error> {
        let secs: Option<f64> = Option::deserialize(d)?;
        Ok(secs
            .filter(|s| s.is_finite() && *s > 0.0)
            .map(|s| Duration::from_secs_f64(s.min(LONGEST))))
    }
}

#[cfg(test)]
mod tests {
    use serde::{Deserialize, Serialize};
    use std::time::Duration;

    #[derive(Debug, Deserialize, Serialize)]
    struct Both {
        #[serde(with = "super::required")]
        wait: Duration,
        #[serde(with = "super::limit", default)]
        limit: Option<Duration>,
    }

    #[test]
    fn a_required_duration_refuses_a_negative_and_a_limit_ignores_it() {
        let read = |text: &str| serde_json::from_str::<Both>(text);
        let both = read(r#"{"wait": 1.5, "limit": -3}"#).unwrap();
        assert_eq!((both.wait, both.limit), (Duration::from_millis(1500), None));
        assert_eq!(read(r#"{"wait": 0, "limit": 0}"#).unwrap().limit, None);
        assert_eq!(read(r#"{"wait": 0}"#).unwrap().wait, Duration::ZERO);
        let huge = read(r#"{"wait": 1e300, "limit": 1e300}"#).unwrap();
        assert_eq!(huge.limit, Some(Duration::from_secs(1_000_000_000)));
        let error = read(r#"{"wait": -1}"#).unwrap_err().to_string();
        assert!(error.contains("-1 is not a number of seconds"), "{error}");
        let written = serde_json::to_string(&both).unwrap();
        assert_eq!(written, r#"{"wait":1.5,"limit":null}"#);
    }
}
