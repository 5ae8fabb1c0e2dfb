//! What travels on the queue. A job message is one line of JSON (the claim, the input's
//! name, the settings to solve it with, a schema version), a newline, and the input's bytes
//! as they are. An answer message is JSON: the result's files as the outbox writes them,
//! and the fields of the daemon's log line. A reader refuses a schema it does not know
//! rather than guess. An input or answer too large for one message travels in the queue's
//! object store (`large`), and its message only says where: such a message has its own
//! schema, [`SCHEMA_STORED`].

use crate::settings::JobSettings;
use crate::work::log_line::LogLine;
use serde::{Deserialize, Serialize};

/// The version of both messages' layout.
pub const SCHEMA: u32 = 1;

/// The version of a message that points at an object holding its input or answer
/// (`object`). Only such messages carry it, so a reader of [`SCHEMA`] alone, which would
/// skip the unknown field and take the empty input for the job, refuses them instead; every
/// other message keeps [`SCHEMA`] and is read by older and newer readers alike.
pub const SCHEMA_STORED: u32 = 2;

/// True when `schema` is the one for a message with (`stored`) or without an object.
fn known(schema: u32, stored: bool) -> bool {
    schema == if stored { SCHEMA_STORED } else { SCHEMA }
}

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
    /// The object in the queue's bucket that holds the input when it did not fit the
    /// message (which then carries none, with [`SCHEMA_STORED`]). Absent from other headers,
    /// and from an older daemon's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub object: Option<String>,
}

impl JobHeader {
    /// This header for a job whose input is the object `object`.
    pub fn stored_at(self, object: String) -> JobHeader {
        JobHeader { schema: SCHEMA_STORED, object: Some(object), ..self }
    }
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
        if !known(header.schema, header.object.is_some()) {
            return Err(format!(
                "job schema {} (this worker reads {SCHEMA}, and {SCHEMA_STORED} with an object)",
                header.schema
            ));
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
    /// The object in the queue's bucket that holds the whole answer when it did not fit
    /// the message (whose `files` are then empty, with [`SCHEMA_STORED`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub object: Option<String>,
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
        if !known(answer.schema, answer.object.is_some()) {
            return Err(format!(
                "answer schema {} (this daemon reads {SCHEMA}, and {SCHEMA_STORED} with an \
                 object)",
                answer.schema
            ));
        }
        Ok(answer)
    }

    /// The message that points at `object`, which holds this whole answer: its files stay
    /// out, the rest is as here.
    pub fn stored_at(&self, object: String) -> Answer {
        Answer {
            schema: SCHEMA_STORED,
            claim: self.claim.clone(),
            name: self.name.clone(),
            stem: self.stem.clone(),
            files: Vec::new(),
            rejected: self.rejected,
            line: self.line.clone(),
            object: Some(object),
        }
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
            object: None,
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

    #[test]
    fn a_stored_input_or_answer_is_named_in_its_own_schema_and_others_read_as_before() {
        let config = Config::default();
        let settings = JobSettings {
            solver: config.solver,
            limits: config.limits,
            generate: config.generate,
            svg: false,
        };
        let header = JobHeader {
            schema: SCHEMA,
            claim: "00ab".into(),
            name: "big.txt".into(),
            stem: "big".into(),
            settings,
            max_crashes: 3,
            large: true,
            object: None,
        };
        // A job without an object is written as before: no field an older reader lacks.
        let small = Job { header: header.clone(), input: b"1 2\n".to_vec() };
        assert!(!String::from_utf8_lossy(&small.encode()).contains("object"));
        // One with an object says so, in schema 2, and carries no input.
        let stored = Job { header: header.clone().stored_at("00ab.job".into()), input: vec![] };
        let read = Job::decode(&stored.encode()).unwrap();
        assert_eq!(read.header.object.as_deref(), Some("00ab.job"));
        assert_eq!(read.header.schema, SCHEMA_STORED);
        assert!(read.input.is_empty() && read == stored);
        // A schema that does not match the object's presence is refused: a schema-1 reader
        // would take the stored job's empty input for the job.
        let mut wrong = stored.clone();
        wrong.header.schema = SCHEMA;
        assert!(Job::decode(&wrong.encode()).unwrap_err().contains("job schema 1"));
        let mut wrong = small.clone();
        wrong.header.schema = SCHEMA_STORED;
        assert!(Job::decode(&wrong.encode()).unwrap_err().contains("job schema 2"));
        // An answer too large for its message points at its object, without its files.
        let line = LogLine::new(
            4,
            &crate::report::FileReport::rejected(
                "big.txt",
                String::new(),
                None,
                crate::report::Status::Invalid,
                crate::format::InputError::whole_file("x", "y"),
            ),
            std::time::Instant::now(),
        );
        let answer = Answer {
            schema: SCHEMA,
            claim: "00ab".into(),
            name: "big.txt".into(),
            stem: None,
            files: vec![("json".into(), "{}".into())],
            rejected: false,
            line,
            object: None,
        };
        assert!(!String::from_utf8_lossy(&answer.encode()).contains("object"));
        assert_eq!(Answer::decode(&answer.encode()).unwrap(), answer);
        let pointer = answer.stored_at("00ab.answer.1".into());
        let read = Answer::decode(&pointer.encode()).unwrap();
        assert_eq!(read.object.as_deref(), Some("00ab.answer.1"));
        assert!(read.files.is_empty() && read.schema == SCHEMA_STORED && read.claim == "00ab");
        let mut wrong = pointer.clone();
        wrong.schema = SCHEMA;
        assert!(Answer::decode(&wrong.encode()).unwrap_err().contains("answer schema 1"));
    }
}
