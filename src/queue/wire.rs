//! What travels on the queue. A job message is one line of JSON (the claim, the input's
//! name, the settings to solve it with, a schema version), a newline, and the input's bytes
//! as they are. An answer message is JSON: the result's files as the outbox writes them,
//! and the fields of the daemon's log line. A reader refuses a schema it does not know
//! rather than guess.

use crate::settings::JobSettings;
use crate::work::log_line::LogLine;
use serde::{Deserialize, Serialize};

/// The version of both messages' layout.
pub const SCHEMA: u32 = 1;

/// A job's header line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JobHeader {
    /// [`SCHEMA`].
    pub schema: u32,
    /// The claim id: the job's identity.
    pub claim: String,
    /// The input's name.
    pub name: String,
    /// The stem a generation job's files are named for (its JSON lists them).
    pub stem: String,
    /// The settings to answer with.
    pub settings: JobSettings,
    /// After this many crashes on the input it is answered as failed.
    pub max_crashes: u32,
    /// A large input (`[queue] large_input_bytes`): large jobs hold at most all but one of a
    /// worker's slots. (A header without it, from an older daemon, is a small input.)
    #[serde(default)]
    pub large: bool,
}

/// A job: its header and the input's bytes.
#[derive(Clone, Debug, PartialEq)]
pub struct Job {
    /// The header.
    pub header: JobHeader,
    /// The input.
    pub input: Vec<u8>,
}

impl Job {
    /// The message payload.
    pub fn encode(&self) -> Vec<u8> {
        // serde_json escapes newlines inside strings: the first one ends the header.
        let mut payload = serde_json::to_vec(&self.header).unwrap_or_default();
        payload.push(b'\n');
        payload.extend_from_slice(&self.input);
        payload
    }

    /// Reads a payload; the error says what is wrong with it.
    pub fn decode(payload: &[u8]) -> Result<Job, String> {
        let end = payload.iter().position(|&b| b == b'\n').ok_or("no header line")?;
        let header: JobHeader = serde_json::from_slice(&payload[..end])
            .map_err(|e| format!("unreadable job header: {e}"))?;
        if header.schema != SCHEMA {
            return Err(format!("job schema {} (this worker reads {SCHEMA})", header.schema));
        }
        Ok(Job { header, input: payload[end + 1..].to_vec() })
    }
}

/// A job's answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Answer {
    /// [`SCHEMA`].
    pub schema: u32,
    /// The claim it answers.
    pub claim: String,
    /// The input's name.
    pub name: String,
    /// The stem a generation job's files were named for (`None` for anything else: its
    /// files take the first free stem when they are written).
    pub stem: Option<String>,
    /// `(suffix, text)` of every file, the JSON document last.
    pub files: Vec<(String, String)>,
    /// An error result (the input goes to `failed/`).
    pub rejected: bool,
    /// The log line's fields.
    pub line: LogLine,
}

impl Answer {
    /// The message payload.
    pub fn encode(&self) -> Vec<u8> {
        serde_json::to_vec(self).unwrap_or_default()
    }

    /// Reads a payload.
    pub fn decode(payload: &[u8]) -> Result<Answer, String> {
        let answer: Answer =
            serde_json::from_slice(payload).map_err(|e| format!("unreadable answer: {e}"))?;
        if answer.schema != SCHEMA {
            return Err(format!("answer schema {} (this daemon reads {SCHEMA})", answer.schema));
        }
        Ok(answer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::Config;

    #[test]
    fn a_job_round_trips_with_any_bytes_and_a_foreign_schema_is_refused() {
        let config = Config::default();
        let settings = JobSettings {
            solver: config.solver,
            limits: config.limits,
            generate: config.generate,
            svg: true,
        };
        let header = JobHeader {
            schema: SCHEMA,
            claim: "0123456789abcdef".into(),
            name: "a\nb.txt".into(),
            stem: "a\nb".into(),
            settings,
            max_crashes: 3,
            large: false,
        };
        let job = Job { header, input: b"\n\xff\x00x\n".to_vec() };
        assert_eq!(Job::decode(&job.encode()).unwrap(), job);
        let mut other = job.clone();
        other.header.schema = 99;
        assert!(Job::decode(&other.encode()).unwrap_err().contains("schema 99"));
        assert!(Job::decode(b"no newline").is_err());
        // Large or not travels in the header; an older daemon's header, without the mark,
        // is a small input.
        let is_large = |payload: &[u8]| Job::decode(payload).is_ok_and(|j| j.header.large);
        assert!(!is_large(&job.encode()));
        let mut large = job.clone();
        large.header.large = true;
        assert!(is_large(&large.encode()));
        let older = String::from_utf8_lossy(&job.encode()).replace(",\"large\":false", "");
        assert!(!older.contains("large") && Job::decode(older.as_bytes()).is_ok());
        assert!(!is_large(older.as_bytes()) && !is_large(b"no newline"));
    }
}
