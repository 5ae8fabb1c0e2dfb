//! What travels on the queue. A job message is one line of JSON (the claim, the input's
//! name, the settings to solve it with, a schema version), a newline, and the input's bytes
//! as they are. An answer message is JSON: the result's files as the outbox writes them,
//! and the fields of the daemon's log line. A reader refuses a schema it does not know
//! rather than guess.
//!
//! A `lines` batch cut into parts (see `daemon::remote::batches`) travels as one job per
//! part, marked with [`PartOf`], and comes back as one answer per part whose
//! [`PartAnswer`] holds each puzzle's piece of the result files, rendered by the worker.
//! An answer over [`COMPRESS_OVER`] bytes travels deflated, said by its [`ENCODING`]
//! header. An input or answer too large for one message even so travels in the queue's
//! object store (`large`), and its message only says where.

use crate::format::InputError;
use crate::report::{Status, Uniqueness};
use crate::settings::JobSettings;
use crate::work::log_line::LogLine;
use serde::{Deserialize, Serialize};

/// The version of both messages' layout: 4 since the answers of a pack's inputs may travel
/// together in one message ([`ANSWERS`]), which a daemon of schema 3 cannot read; 3 since
/// a job carries its settings resolved (the solver's options, not the configuration's
/// sections); 2 since batches travel in parts and messages too large for the server in its
/// bucket. A worker reads jobs of this schema only, and says which it got; an answer's
/// layout is the same since 2.
pub const SCHEMA: u32 = 4;

/// The header that says how an answer's payload is encoded.
pub const ENCODING: &str = "Kakurod-Encoding";
/// The header of a message that holds the answers of several inputs of one pack (a JSON
/// array of answers), and says how many.
pub const ANSWERS: &str = "Kakurod-Answers";
/// Answers larger than this are deflated (a part's JSON shrinks about tenfold).
pub const COMPRESS_OVER: usize = 64 * 1024;
/// The most bytes a deflated answer may inflate to.
const INFLATED_MAX: usize = 1 << 30;

/// Which part of a cut batch a job is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartOf {
    /// The part's place in the batch, from 0.
    pub index: usize,
    /// The batch's line number of the part's first line.
    pub first_line: usize,
}

/// True when an answer of `schema` can be read here: [`SCHEMA`], 2 (the same layout), or 1,
/// an older version's, which never cuts a batch into parts nor stores a message in the
/// bucket (`stored`).
fn known(schema: u32, stored: bool) -> bool {
    matches!(schema, SCHEMA | 3 | 2) || (schema == 1 && !stored)
}

/// The schema of a header line, read before the rest, whose layout depends on it.
#[derive(Deserialize)]
struct Version {
    schema: u32,
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
    /// For a part of a cut batch: which one (its `claim` is then `CLAIM-INDEX`).
    #[serde(default)]
    pub part: Option<PartOf>,
    /// The object in the queue's bucket that holds the input when it did not fit the
    /// message (which then carries none). Absent from other headers,
    /// and from an older daemon's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub object: Option<String>,
    /// For a pack of small inputs (its `claim` is then [`pack_id`] of the first): each
    /// input's own claim, name, stem and length, in the order their bytes follow the
    /// header. Each is answered on its own claim's answer subject, as a job of its own
    /// would be. Absent from other headers.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pack: Vec<Packed>,
    /// For an input of a pack a worker died on, sent on as a job of its own: the crashes
    /// of the pack, which count as its own. Absent from other headers.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub crashed: u32,
}

fn is_zero(count: &u32) -> bool {
    *count == 0
}

/// One input of a pack.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Packed {
    /// Its claim id.
    pub claim: String,
    /// Its name.
    pub name: String,
    /// The stem its result files are named for.
    pub stem: String,
    /// Its length in the pack's input.
    pub bytes: usize,
}

/// The id of a pack whose first input is claim `first`: a job subject of its own, never
/// read as a claim's or a part's.
pub fn pack_id(first: &str) -> String {
    format!("pack{first}")
}

/// The answer subject's last token for the `flush`th message of answers a worker sends
/// for `pack` on its `delivered`th delivery: each message of answers has a subject of its
/// own, so the answers stream (one message per subject) refuses only a message sent twice.
pub fn pack_answers_id(pack: &str, delivered: i64, flush: u32) -> String {
    format!("{pack}d{delivered}f{flush}")
}

impl JobHeader {
    /// This header for a job whose input is the object `object`.
    pub fn stored_at(self, object: String) -> JobHeader {
        JobHeader { object: Some(object), ..self }
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
    /// The jobs of a pack's inputs, each as if it had been sent alone (none for a job that
    /// is no pack), carrying the pack's `crashed` crashes; `Err` when the lengths do not
    /// add up to the input.
    pub fn unpacked(&self, crashed: u32) -> Result<Vec<Job>, String> {
        let total: usize = self.header.pack.iter().map(|p| p.bytes).sum();
        if total != self.input.len() {
            return Err(format!(
                "a pack of {} inputs whose lengths add up to {total} bytes, not {}",
                self.header.pack.len(),
                self.input.len()
            ));
        }
        let mut start = 0;
        let jobs = self.header.pack.iter().map(|packed| {
            let input = self.input[start..start + packed.bytes].to_vec();
            start += packed.bytes;
            let header = JobHeader {
                claim: packed.claim.clone(),
                name: packed.name.clone(),
                stem: packed.stem.clone(),
                large: false,
                part: None,
                object: None,
                pack: Vec::new(),
                crashed,
                ..self.header.clone()
            };
            Job { header, input }
        });
        Ok(jobs.collect())
    }

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
        let line = &payload[..end];
        let version: Version =
            serde_json::from_slice(line).map_err(|e| format!("unreadable job header: {e}"))?;
        if version.schema != SCHEMA {
            return Err(format!(
                "job schema {} (this worker reads {SCHEMA}: keep the daemon and its workers \
                 on one version)",
                version.schema
            ));
        }
        let header: JobHeader =
            serde_json::from_slice(line).map_err(|e| format!("unreadable job header: {e}"))?;
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
    /// For a part of a cut batch: its puzzles' pieces of the result (`files` is then
    /// empty).
    #[serde(default)]
    pub part: Option<PartAnswer>,
    /// The object in the queue's bucket that holds the whole answer when it did not fit
    /// the message (whose `files` are then empty).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub object: Option<String>,
}

/// The answer to a part of a cut batch.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PartAnswer {
    /// The part's place in the batch.
    pub index: usize,
    /// Its first line in the batch.
    pub first_line: usize,
    /// Its puzzles in file order, with the batch's line numbers.
    pub puzzles: Vec<PartPuzzle>,
}

/// One puzzle of a part: its pieces of the result files, and what the batch's summary and
/// log line count.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PartPuzzle {
    /// Its entry of the JSON document's `puzzles`, pretty-printed, not indented.
    pub json: String,
    /// Its line of the solution file, without the line break.
    pub solution: String,
    /// Its line in the batch.
    pub line: usize,
    /// Its status.
    pub status: Status,
    /// What is known of its solutions.
    pub uniqueness: Uniqueness,
    /// Its kind's name, when read.
    pub kind: Option<String>,
    /// Its search's nodes.
    pub nodes: u64,
    /// The SAT engine gave its answer.
    pub sat: bool,
    /// Why it could not be read.
    pub error: Option<InputError>,
}

impl Answer {
    /// The message payload.
    pub fn encode(&self) -> Vec<u8> {
        serde_json::to_vec(self).unwrap_or_default()
    }

    /// The message payload, deflated when it is over [`COMPRESS_OVER`] bytes (true then).
    pub fn encode_compact(&self) -> (Vec<u8>, bool) {
        compact(self.encode())
    }

    /// Reads a payload, deflated or not as its [`ENCODING`] header says.
    pub fn decode_with(payload: &[u8], deflated: bool) -> Result<Answer, String> {
        if !deflated {
            return Answer::decode(payload);
        }
        Answer::decode(&inflate(payload)?)
    }

    /// The payload of one message holding all of `answers` (see [`ANSWERS`]), deflated as
    /// [`Answer::encode_compact`] deflates one.
    pub fn encode_all(answers: &[Answer]) -> (Vec<u8>, bool) {
        compact(serde_json::to_vec(answers).unwrap_or_default())
    }

    /// Reads the payload of a message of several answers, each of a schema read here.
    pub fn decode_all(payload: &[u8], deflated: bool) -> Result<Vec<Answer>, String> {
        let inflated;
        let payload = if deflated {
            inflated = inflate(payload)?;
            &inflated[..]
        } else {
            payload
        };
        let answers: Vec<Answer> =
            serde_json::from_slice(payload).map_err(|e| format!("unreadable answers: {e}"))?;
        match answers.iter().find(|a| !known(a.schema, a.object.is_some())) {
            Some(a) => Err(format!("answer schema {} among a pack's answers", a.schema)),
            None => Ok(answers),
        }
    }

    /// Reads a payload.
    pub fn decode(payload: &[u8]) -> Result<Answer, String> {
        let answer: Answer =
            serde_json::from_slice(payload).map_err(|e| format!("unreadable answer: {e}"))?;
        if !known(answer.schema, answer.object.is_some()) {
            return Err(format!(
                "answer schema {} (this daemon reads {SCHEMA}, 3 and 2, and 1 without an object)",
                answer.schema
            ));
        }
        Ok(answer)
    }

    /// The message that points at `object`, which holds this whole answer: its files stay
    /// out, the rest is as here.
    pub fn stored_at(&self, object: String) -> Answer {
        Answer {
            schema: SCHEMA,
            claim: self.claim.clone(),
            name: self.name.clone(),
            stem: self.stem.clone(),
            files: Vec::new(),
            rejected: self.rejected,
            line: self.line.clone(),
            part: None,
            object: Some(object),
        }
    }
}

/// `payload`, deflated when it is over [`COMPRESS_OVER`] bytes (true then).
fn compact(payload: Vec<u8>) -> (Vec<u8>, bool) {
    if payload.len() <= COMPRESS_OVER {
        return (payload, false);
    }
    (miniz_oxide::deflate::compress_to_vec(&payload, 1), true)
}

/// A deflated payload, inflated.
fn inflate(payload: &[u8]) -> Result<Vec<u8>, String> {
    miniz_oxide::inflate::decompress_to_vec_with_limit(payload, INFLATED_MAX)
        .map_err(|e| format!("a deflated answer that does not inflate: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::{Config, Settings};
    use std::path::Path;

    /// The header of a job `name` (stem `stem`) of the default settings.
    fn header(claim: &str, name: &str, stem: &str) -> JobHeader {
        let settings =
            Settings::resolve(Config::default(), Path::new(""), &Default::default()).unwrap().job;
        JobHeader {
            schema: SCHEMA,
            claim: claim.into(),
            name: name.into(),
            stem: stem.into(),
            settings,
            max_crashes: 3,
            large: false,
            part: None,
            object: None,
            pack: Vec::new(),
            crashed: 0,
        }
    }

    #[test]
    fn a_job_round_trips_with_any_bytes_and_a_foreign_schema_is_refused() {
        let header = header("0123456789abcdef", "a\nb.txt", "a\nb");
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
    fn a_stored_input_or_answer_says_where_it_is_and_an_older_schema_is_read_without_one() {
        let mut header = header("00ab", "big.txt", "big");
        header.settings.svg = false;
        header.large = true;
        // A job without an object has no such field.
        let small = Job { header: header.clone(), input: b"1 2\n".to_vec() };
        assert!(!String::from_utf8_lossy(&small.encode()).contains("object"));
        // One with an object says so, and carries no input.
        let stored = Job { header: header.clone().stored_at("00ab.job".into()), input: vec![] };
        let read = Job::decode(&stored.encode()).unwrap();
        assert_eq!(read.header.object.as_deref(), Some("00ab.job"));
        assert!(read.input.is_empty() && read == stored);
        // An older version's job (its settings unresolved) is refused, and the worker says
        // which schema it got, not that the header is unreadable.
        for older in [1, 2] {
            let written = String::from_utf8_lossy(&small.encode())
                .replace(&format!("\"schema\":{SCHEMA}"), &format!("\"schema\":{older}"))
                .replace("\"pipeline\":", "\"solver\":");
            let error = Job::decode(written.as_bytes()).unwrap_err();
            assert!(error.contains(&format!("job schema {older}")), "{error}");
        }
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
            part: None,
            object: None,
        };
        assert!(!String::from_utf8_lossy(&answer.encode()).contains("object"));
        assert_eq!(Answer::decode(&answer.encode()).unwrap(), answer);
        let pointer = answer.stored_at("00ab.answer.1".into());
        let read = Answer::decode(&pointer.encode()).unwrap();
        assert_eq!(read.object.as_deref(), Some("00ab.answer.1"));
        assert!(read.files.is_empty() && read.schema == SCHEMA && read.claim == "00ab");
        let mut wrong = pointer.clone();
        wrong.schema = 1;
        assert!(Answer::decode(&wrong.encode()).unwrap_err().contains("answer schema 1"));
        // An answer of schema 2, an older worker's to an older daemon's job, is read.
        let older = Answer { schema: 2, ..answer.clone() };
        assert_eq!(Answer::decode(&older.encode()).unwrap(), older);
    }

    #[test]
    fn a_pack_of_answers_round_trips_deflated_when_large_and_refuses_a_foreign_schema() {
        let line = LogLine::new(
            4,
            &crate::report::FileReport::rejected(
                "a.txt",
                String::new(),
                None,
                crate::report::Status::Invalid,
                crate::format::InputError::whole_file("x", "y"),
            ),
            std::time::Instant::now(),
        );
        let answer = |claim: &str, text: String| Answer {
            schema: SCHEMA,
            claim: claim.into(),
            name: format!("{claim}.txt"),
            stem: None,
            files: vec![("json".into(), text)],
            rejected: false,
            line: line.clone(),
            part: None,
            object: None,
        };
        let small = vec![answer("00a1", "{}".into()), answer("00a2", "{\"x\":1}".into())];
        let (payload, deflated) = Answer::encode_all(&small);
        assert!(!deflated);
        assert_eq!(Answer::decode_all(&payload, false).unwrap(), small);
        let large: Vec<Answer> =
            (0..4).map(|i| answer(&format!("00b{i}"), "7".repeat(COMPRESS_OVER))).collect();
        let (payload, deflated) = Answer::encode_all(&large);
        assert!(deflated && payload.len() < COMPRESS_OVER);
        assert_eq!(Answer::decode_all(&payload, true).unwrap(), large);
        let foreign = vec![small[0].clone(), Answer { schema: 99, ..small[1].clone() }];
        let (payload, _) = Answer::encode_all(&foreign);
        assert!(Answer::decode_all(&payload, false).unwrap_err().contains("schema 99"));
        assert!(Answer::decode_all(b"[{", false).is_err());
        assert_eq!(pack_answers_id(&pack_id("00a1"), 2, 0), "pack00a1d2f0");
    }
}
