//! Small inputs travel in packs. A job's messages (its publication and confirmation, its
//! fetch, its acknowledgement, and the server's writes of each) cost far more than solving
//! a small puzzle, so inputs of at most [`PACK_INPUT_MOST`] bytes are gathered, for at most
//! [`LINGER`] or until [`PACK_MOST`] of them or [`PACK_BYTES`] are together, and published
//! as one job (`wire::JobHeader::pack`). Everything else stays per input: each has its
//! claim, its flight, its answer on its own subject, and is written, cancelled and sent
//! again alone. A worker that finds a pack delivered again after a crash sends its inputs
//! on as jobs of their own (see `queue::worker::pack`), so one input that kills workers
//! fails alone.

use super::{Flight, batches, warn_outage};
use crate::daemon::claim::ClaimId;
use crate::queue::wire::{self, JobHeader, Packed};
use crate::queue::{Queue, redacted};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::Semaphore;

/// Inputs of at most this many bytes are packed.
pub(super) const PACK_INPUT_MOST: usize = 4 * 1024;
/// The most inputs in one pack.
const PACK_MOST: usize = 16;
/// The most input bytes in one pack.
const PACK_BYTES: usize = 32 * 1024;
/// How long a pack waits for more inputs, from its first.
const LINGER: Duration = Duration::from_millis(2);

/// What publishes a job: the handles a pack sent from a timer needs as well.
#[derive(Clone, Debug)]
pub(super) struct Sender {
    pub(super) queue: Arc<Queue>,
    pub(super) flights: Arc<Mutex<HashMap<ClaimId, Flight>>>,
    pub(super) outage: Arc<AtomicBool>,
    /// Room for the jobs whose confirmation from the server is awaited.
    pub(super) confirming: Arc<Semaphore>,
}

impl Sender {
    /// Publishes the job `id` (a claim's, a part's or a pack's); false when it could not
    /// be sent. The server's confirmation is awaited on the side, at most
    /// `MOST_CONFIRMING` at a time: a job it does not confirm has `claims` marked not
    /// sent, and the reconciler sends them again. A job the queue holds already (sent
    /// before a restart) counts as confirmed.
    pub(super) async fn send(&self, id: &str, payload: Vec<u8>, claims: Vec<ClaimId>) -> bool {
        let room = Arc::clone(&self.confirming).acquire_owned().await.ok();
        let confirmation = match self.queue.publish_job(id, payload).await {
            Ok(confirmation) => confirmation,
            Err(error) => {
                if !self.outage.swap(true, Ordering::SeqCst) {
                    warn_outage(&error.to_string(), &redacted(&self.queue.settings.urls));
                }
                return false;
            }
        };
        let (flights, outage) = (Arc::clone(&self.flights), Arc::clone(&self.outage));
        let urls = redacted(&self.queue.settings.urls);
        self.queue.handle().spawn(async move {
            let confirmed = confirmation.await;
            drop(room);
            match confirmed {
                Ok(_) => {}
                Err(error) if Queue::held_already(&error) => {}
                Err(error) => {
                    if !outage.swap(true, Ordering::SeqCst) {
                        warn_outage(&error.to_string(), &urls);
                    }
                    if let Ok(mut flights) = flights.lock() {
                        for id in claims {
                            if let Some(flight) = flights.get_mut(&id) {
                                flight.sent = false;
                            }
                        }
                    }
                    return;
                }
            }
            if outage.swap(false, Ordering::SeqCst) {
                tracing::info!("the queue takes jobs again");
            }
        });
        true
    }
}

/// The claims a job's id stands for: a claim's own, or a part's batch claim.
pub(super) fn claims_of(id: &str) -> Vec<ClaimId> {
    let claim = ClaimId::parse(id).or_else(|| batches::parse_part_id(id).map(|(id, _)| id));
    claim.into_iter().collect()
}

/// The pack being gathered.
#[derive(Debug, Default)]
struct Pending {
    /// Its header, once it has an input.
    header: Option<JobHeader>,
    /// Its inputs' bytes, one after the other.
    input: Vec<u8>,
}

impl Pending {
    /// The pack's id, its message and its claims, leaving nothing pending. A pack of one
    /// input goes as that input's own job.
    fn take(&mut self) -> Option<(String, Vec<u8>, Vec<ClaimId>)> {
        let mut header = self.header.take()?;
        let input = std::mem::take(&mut self.input);
        let claims: Vec<ClaimId> =
            header.pack.iter().filter_map(|p| ClaimId::parse(&p.claim)).collect();
        if let [alone] = header.pack.as_slice() {
            let alone = alone.clone();
            header = JobHeader {
                claim: alone.claim,
                name: alone.name,
                stem: alone.stem,
                pack: Vec::new(),
                ..header
            };
        } else {
            let files: Vec<&str> = header.pack.iter().map(|p| p.name.as_str()).collect();
            let (inputs, files) = (files.len(), files.join(", "));
            tracing::debug!(pack = %header.claim, inputs, %files, "a pack sent");
        }
        let id = header.claim.clone();
        Some((id, wire::Job { header, input }.encode(), claims))
    }
}

/// Gathers small inputs into packs and sends them.
#[derive(Debug)]
pub(super) struct Packer {
    sender: Sender,
    pending: Arc<Mutex<Pending>>,
}

impl Packer {
    pub(super) fn new(sender: Sender) -> Packer {
        Packer { sender, pending: Arc::default() }
    }

    /// Adds the input of `single` (the header it would be sent alone with) to the pack
    /// being gathered, and tells `board` that pack's id before the pack can be sent. A full
    /// pack is sent at once; otherwise the pack is sent within [`LINGER`] of its first
    /// input.
    pub(super) fn add(&self, single: JobHeader, bytes: &[u8], board: impl FnOnce(&str)) {
        let packed = Packed {
            claim: single.claim.clone(),
            name: single.name.clone(),
            stem: single.stem.clone(),
            bytes: bytes.len(),
        };
        let Ok(mut pending) = self.pending.lock() else {
            // A poisoned lock: this input goes alone.
            let id = single.claim.clone();
            board(&id);
            let payload = wire::Job { header: single, input: bytes.to_vec() }.encode();
            let claims = claims_of(&id);
            self.sender.queue.block_on(self.sender.send(&id, payload, claims));
            return;
        };
        let first = pending.header.is_none();
        let header = pending.header.get_or_insert_with(|| JobHeader {
            claim: wire::pack_id(&single.claim),
            name: String::new(),
            stem: String::new(),
            ..single
        });
        header.pack.push(packed);
        header.name = format!("{} inputs in a pack", header.pack.len());
        board(&header.claim);
        let full = header.pack.len() >= PACK_MOST;
        pending.input.extend_from_slice(bytes);
        let full = full || pending.input.len() >= PACK_BYTES;
        if full {
            if let Some((id, payload, claims)) = pending.take() {
                drop(pending);
                self.sender.queue.block_on(self.sender.send(&id, payload, claims));
            }
        } else if first {
            let (sender, pending) = (self.sender.clone(), Arc::clone(&self.pending));
            self.sender.queue.handle().spawn(async move {
                tokio::time::sleep(LINGER).await;
                let taken = pending.lock().ok().and_then(|mut p| p.take());
                if let Some((id, payload, claims)) = taken {
                    sender.send(&id, payload, claims).await;
                }
            });
        }
    }
}
