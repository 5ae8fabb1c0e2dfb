//! A `lines` batch spread over the queue's workers. A batch with more puzzles than
//! `[queue] batch_chunk_puzzles` (or more bytes than `batch_chunk_bytes`) is cut at line
//! ends into parts, each a job of its own (`PREFIX.job.CLAIM-INDEX`, that id also its
//! `Nats-Msg-Id`) that names its first line. A worker answers a part with each puzzle's
//! pieces of the result files, rendered as the daemon renders them; the daemon appends the
//! parts in the file's order to the result's temporary files as they come (a part that
//! comes early waits, at most `max_in_flight` parts ahead of the next one, since no part
//! further ahead is sent), and commits `NAME.solution.txt` and `NAME.json` once every part
//! is in: the files a batch answered on one host gets, the summary also saying how many
//! puzzles each worker answered (`answered_by`).
//!
//! Exactly once, across crashes: the answers of the parts stay on the answers stream,
//! unacknowledged (their ack wait renewed while they wait), until the result is committed
//! and the input moved on. A daemon that dies mid-batch finds the input in its claim folder
//! at the next start, sends only the parts the queue holds neither as a job nor as an
//! answer, gets every answer again, and writes the result afresh: no line is answered
//! twice in it, and none is lost. A worker that dies on a part leaves it to another, as
//! for any job.

mod writer;
pub(super) use writer::Writer;

use super::Remote;
use crate::daemon::answered::{self, Counters};
use crate::daemon::claim::{ClaimId, Claimed};
use crate::daemon::commit::Committer;
use crate::daemon::job::Context;
use crate::format::text;
use crate::format::{self, Format, InputError};
use crate::pipeline::{self, PipelineOptions};
use crate::queue::wire::{self, Answer, JobHeader, PartAnswer, PartOf};
use crate::report::FileReport;
use crate::report::streamed::BatchDocument;
use crate::settings::{JobSettings, QueueSettings};
use crate::work::log_line::LogLine;
use async_nats::jetstream::AckKind;
use async_nats::jetstream::message::Acker;
use std::collections::{BTreeMap, HashMap};
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long an answer that came too far ahead of the next part waits before it comes again.
const AHEAD_RETRY: Duration = Duration::from_secs(1);

/// One part of a batch: its bytes in the input, and its first line there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Part {
    /// The batch's line number of its first line.
    pub(crate) first_line: usize,
    start: usize,
    end: usize,
}

/// The parts of `bytes` when it is a `lines` batch (as `options` reads it) with more than
/// one part's worth of puzzles; `None` for anything else, which travels whole. A batch
/// whose first puzzle lines are all unreadable travels whole too, to be rejected whole.
pub(crate) fn plan(
    options: &PipelineOptions,
    bytes: &[u8],
    settings: &QueueSettings,
    max_payload: usize,
) -> Option<Vec<Part>> {
    let text = std::str::from_utf8(bytes).ok()?;
    let content = format::without_bom(text);
    let format = options.format.or_else(|| format::detect(content))?;
    if format != Format::Lines || format::lines::hopeless(content).is_some() {
        return None;
    }
    let bom = text.len() - content.len();
    // A part's job fits a message of the server, with room for its header.
    let most_bytes = settings.batch_chunk_bytes.min(max_payload.saturating_sub(8192).max(1024));
    let most_puzzles = settings.batch_chunk_puzzles;
    let mut parts = Vec::new();
    let (mut start, mut first_line, mut puzzles) = (0, 1, 0);
    for line in text::lines(content) {
        let at = if line.number == 1 { 0 } else { bom + line.start };
        let end = bom + line.start + line.text.len();
        let full = puzzles >= most_puzzles || end - start > most_bytes;
        if line.is_content() && puzzles > 0 && full {
            parts.push(Part { first_line, start, end: at });
            (start, first_line, puzzles) = (at, line.number, 0);
        }
        puzzles += usize::from(line.is_content());
    }
    parts.push(Part { first_line, start, end: bytes.len() });
    (parts.len() > 1).then_some(parts)
}

/// The job id of part `index` of claim `id`.
fn part_id(id: ClaimId, index: usize) -> String {
    format!("{id}-{index}")
}

/// The claim and part of a part's job id.
pub(crate) fn parse_part_id(text: &str) -> Option<(ClaimId, usize)> {
    let (id, index) = text.split_once('-')?;
    Some((ClaimId::parse(id)?, index.parse().ok()?))
}

/// A batch on the queue in parts, and its result so far.
pub(crate) struct Batch {
    claimed: Claimed,
    input: Arc<Vec<u8>>,
    parts: Vec<Part>,
    /// Parts `[0, sent)` were sent (or found on the queue).
    sent: usize,
    /// Parts `[0, next)` are in the result's files.
    next: usize,
    /// Answers that came before the parts ahead of them.
    early: BTreeMap<usize, (PartAnswer, String, Acker)>,
    /// The deliveries of the answers in the files, acknowledged once the result is
    /// committed.
    written: Vec<Acker>,
    result: Files,
    /// The settings its parts are answered with.
    settings: JobSettings,
    started: Instant,
}

impl std::fmt::Debug for Batch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Batch")
            .field("claimed", &self.claimed)
            .field("parts", &self.parts.len())
            .field("sent", &self.sent)
            .field("next", &self.next)
            .finish_non_exhaustive()
    }
}

/// The result's files being written.
struct Files {
    document: BatchDocument<BufWriter<File>>,
    json_temp: PathBuf,
    solution: BufWriter<File>,
    solution_temp: PathBuf,
    answered_by: BTreeMap<String, usize>,
    kind: Option<String>,
    first_error: Option<InputError>,
    nodes: u64,
    sat: bool,
}

impl Files {
    fn discard(self) {
        drop((self.document, self.solution));
        let _ = std::fs::remove_file(&self.json_temp);
        let _ = std::fs::remove_file(&self.solution_temp);
    }
}

impl Remote {
    /// Sends a claimed batch in parts (the first `max_in_flight` of them); for a batch
    /// sent already (a reconcile), sends again the parts the queue lost. `Err` when its
    /// result's files cannot be started: it then travels whole.
    pub(super) fn submit_parts(
        &self,
        ctx: &Context,
        claimed: &Claimed,
        bytes: &[u8],
        checksum: &str,
        parts: Vec<Part>,
    ) -> io::Result<()> {
        let mut batches = self.batches.lock().map_err(|_| io::Error::other("poisoned"))?;
        if let Some(batch) = batches.get_mut(&claimed.id) {
            self.send_lost(batch);
        } else {
            let batch = start(ctx, claimed, bytes, checksum, parts)?;
            tracing::info!(file = %claimed.name, parts = batch.parts.len(),
                "a batch goes to the queue's workers in parts");
            batches.entry(claimed.id).or_insert(batch);
        }
        if let Some(batch) = batches.get_mut(&claimed.id) {
            self.send_ahead(batch);
        }
        Ok(())
    }

    /// Now and then for a batch in parts: sends what the queue lost and what an outage
    /// held back.
    pub(super) fn reconcile_parts(&self, id: ClaimId) {
        let Ok(mut batches) = self.batches.lock() else { return };
        if let Some(batch) = batches.get_mut(&id) {
            self.send_lost(batch);
            self.send_ahead(batch);
        }
    }

    /// True when claim `id` is a batch sent in parts.
    pub(super) fn is_batch(&self, id: ClaimId) -> bool {
        self.batches.lock().is_ok_and(|b| b.contains_key(&id))
    }

    /// Sends the parts up to `parts_ahead` ahead of the next one to write, each unless
    /// the queue holds it or its answer already (sent before a restart).
    fn send_ahead(&self, batch: &mut Batch) {
        let window = self.queue.settings.parts_ahead;
        while batch.sent < batch.parts.len() && batch.sent < batch.next + window {
            let index = batch.sent;
            let id = part_id(batch.claimed.id, index);
            if !self.part_on_queue(&id) && !self.send_part(batch, index) {
                return;
            }
            batch.sent += 1;
        }
    }

    /// Sends again the parts sent and not answered that the queue holds neither as a job
    /// nor as an answer (lost by a server that crashed before its disk had them).
    pub(super) fn send_lost(&self, batch: &mut Batch) {
        for index in batch.next..batch.sent {
            let id = part_id(batch.claimed.id, index);
            if !batch.early.contains_key(&index) && !self.part_on_queue(&id) {
                tracing::info!(file = %batch.claimed.name, part = index,
                    "the queue holds neither a part of a batch nor its answer; sent again");
                self.send_part(batch, index);
            }
        }
    }

    fn send_part(&self, batch: &Batch, index: usize) -> bool {
        let part = &batch.parts[index];
        let id = part_id(batch.claimed.id, index);
        let header = JobHeader {
            schema: wire::SCHEMA,
            claim: id.clone(),
            name: batch.claimed.name.clone(),
            stem: crate::result_names::stem_of(&batch.claimed.name),
            settings: batch.settings.clone(),
            max_crashes: self.queue.settings.max_crashes,
            large: false,
            part: Some(PartOf { index, first_line: part.first_line }),
            object: None,
            pack: Vec::new(),
            crashed: 0,
        };
        let input = batch.input[part.start..part.end].to_vec();
        self.publish(&id, wire::Job { header, input }.encode())
    }

    /// True when the queue holds the part's job `id` or its answer (false when it cannot
    /// say: the part is sent, and a send that fails waits for the reconciler).
    fn part_on_queue(&self, id: &str) -> bool {
        self.holds_job_or_answer(id, None).unwrap_or(false)
    }

    /// Takes the batch of claim `id` off the queue (an operator's cancel, or its input
    /// removed): its parts' jobs go, their workers are told to stop, and the answers in
    /// hand are acknowledged. True when it was a batch in parts.
    pub(super) fn cancel_parts(&self, id: ClaimId) -> bool {
        let Some(batch) = self.batches.lock().ok().and_then(|mut b| b.remove(&id)) else {
            return false;
        };
        let queue = &self.queue;
        queue.block_on(async {
            let stream = queue.js.get_stream(queue.names.jobs_stream()).await.ok();
            for index in 0..batch.sent {
                let part = part_id(id, index);
                if let Some(stream) = &stream {
                    crate::queue::take_off(stream, &queue.names.job(&part)).await;
                }
                let _ = queue.client.publish(queue.names.cancel(), part.into()).await;
            }
        });
        let handle = queue.handle();
        for acker in batch.written.into_iter().chain(batch.early.into_values().map(|e| e.2)) {
            handle.spawn(async move { acker.ack().await });
        }
        batch.result.discard();
        true
    }

    /// Renews the ack wait of every answer held for a batch not yet committed.
    pub(super) fn keep_answers(&self) {
        let Ok(batches) = self.batches.lock() else { return };
        self.queue.block_on(async {
            for batch in batches.values() {
                let early = batch.early.values().map(|e| &e.2);
                for acker in batch.written.iter().chain(early) {
                    let _ = acker.ack_with(AckKind::Progress).await;
                }
            }
        });
    }
}

/// A batch's state, its result's files started.
fn start(
    ctx: &Context,
    claimed: &Claimed,
    bytes: &[u8],
    checksum: &str,
    parts: Vec<Part>,
) -> io::Result<Batch> {
    let (json_temp, json) = ctx.outbox.create_temp()?;
    let (solution_temp, solution) = match ctx.outbox.create_temp() {
        Ok(made) => made,
        Err(error) => {
            let _ = std::fs::remove_file(&json_temp);
            return Err(error);
        }
    };
    let document =
        BatchDocument::new(BufWriter::new(json), &claimed.name, checksum, Format::Lines)?;
    Ok(Batch {
        claimed: claimed.clone(),
        input: Arc::new(bytes.to_vec()),
        parts,
        sent: 0,
        next: 0,
        early: BTreeMap::new(),
        written: Vec::new(),
        result: Files {
            document,
            json_temp,
            solution: BufWriter::new(solution),
            solution_temp,
            answered_by: BTreeMap::new(),
            kind: None,
            first_error: None,
            nodes: 0,
            sat: false,
        },
        settings: ctx.settings.job.clone(),
        started: Instant::now(),
    })
}

/// The batches in parts, by claim.
pub(crate) type Batches = HashMap<ClaimId, Batch>;

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(puzzles: usize, bytes: usize) -> QueueSettings {
        QueueSettings {
            urls: String::new(),
            prefix: "k".into(),
            creds_file: None,
            ca_file: None,
            ack_wait: Duration::from_secs(30),
            max_in_flight: 4,
            parts_ahead: 4,
            max_crashes: 3,
            replicas: 1,
            duplicate_window: Duration::from_secs(120),
            reconcile: Duration::from_secs(60),
            large_input_bytes: 0,
            batch_chunk_puzzles: puzzles,
            batch_chunk_bytes: bytes,
        }
    }

    const TOP: &str =
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";

    #[test]
    fn a_batch_is_cut_before_a_puzzle_line_with_its_line_number() {
        let text = format!("# head\n{TOP}\n{TOP}\n\n# mid\n{TOP}\r\n{TOP}\n# tail\n");
        let options = PipelineOptions::default();
        let parts = plan(&options, text.as_bytes(), &settings(2, 1 << 20), 1 << 20).unwrap();
        let first_lines: Vec<usize> = parts.iter().map(|p| p.first_line).collect();
        assert_eq!(first_lines, [1, 6]);
        let pieces: String = parts.iter().map(|p| &text[p.start..p.end]).collect();
        assert_eq!(pieces, text);
        assert!(text[..parts[0].end].ends_with("# mid\n"));
        // One part's worth travels whole; so do other formats and hopeless files.
        assert!(plan(&options, text.as_bytes(), &settings(4, 1 << 20), 1 << 20).is_none());
        assert!(plan(&options, b"{\"kind\": \"sudoku\"}", &settings(1, 1024), 1 << 20).is_none());
        let junk = "x\n".repeat(200);
        assert!(plan(&options, junk.as_bytes(), &settings(1, 1024), 1 << 20).is_none());
    }

    #[test]
    fn bytes_cut_a_batch_too_and_a_byte_order_mark_stays_in_the_first_part() {
        let text = format!("\u{feff}{TOP}\n{TOP}\n{TOP}\n");
        let parts =
            plan(&PipelineOptions::default(), text.as_bytes(), &settings(100, 100), 1 << 20);
        let parts = parts.unwrap();
        assert_eq!(parts.len(), 3);
        assert_eq!(parts[0].start, 0);
        assert_eq!(parts.iter().map(|p| p.first_line).collect::<Vec<_>>(), [1, 2, 3]);
        let pieces: String = parts.iter().map(|p| &text[p.start..p.end]).collect();
        assert_eq!(pieces, text);
    }

    #[test]
    fn part_ids_name_their_claim_and_index() {
        let id = ClaimId::new();
        assert_eq!(parse_part_id(&part_id(id, 17)), Some((id, 17)));
        assert_eq!(parse_part_id(&id.to_string()), None);
        assert_eq!(parse_part_id("zz-1"), None);
    }
}
