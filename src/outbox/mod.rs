//! The one writer of result files, for the daemon's outbox and for `kakurod solve --out`
//! alike, so both follow one protocol. For one input it writes `STEM.solution.txt`,
//! `STEM.svg` and, last, `STEM.json` (or `STEM.error.json` for a rejected input), each
//! through a temporary file in the outbox that is fsynced and then renamed into place,
//! followed by an fsync of the folder (the syncs are left out for `solve --out`). Writing
//! is split in two so that durability is paid per batch, not per file: workers
//! [`Outbox::prepare`] the temporary files, and one thread [`Outbox::commit`]s whatever
//! has accumulated (parallel data syncs, renames, one folder sync). The JSON document is
//! the commit mark: a result is complete exactly when it exists, so a reader (or a
//! restart) never mistakes a partial set for a result.
//!
//! Names follow [`crate::result_names`]; they never clash silently: when `STEM.json` or
//! `STEM.error.json` is already there (an earlier input of the same name), the set is
//! written as `STEM-2.*`, `STEM-3.*`, ...
//! A stem is reserved ([`stems`]) before its files are renamed into place, so that writers
//! sharing the outbox (the daemon and a `solve --out` run beside it) never write the same
//! stem at once. Companion files without their JSON are leftovers of a crash before the
//! commit and are overwritten. A generation job's result names its puzzles' files in its
//! JSON ([`generated`]), so its stem is reserved when the set is prepared rather than when
//! it is committed.
//!
//! Temporary files are named `.kakurod-tmp.HOST.PID-START.N` (the writer's process id and
//! start time, see [`owner`]): a writer removes the leftovers of its host's ended processes
//! at start-up.

mod generated;
mod owner;
pub(crate) mod rendered;
pub(crate) mod stems;
mod sweep;

use crate::report::{Body, FileReport};
use crate::result_names::{RESERVED_STEM_END, stem_of};
use crate::util::fs::{rename_noreplace, sync_dir, sync_file};
use owner::Owner;
use std::fs::OpenOptions;
use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use stems::Reservation;

/// Prefix of temporary files; a crash can leave them behind, and start-up removes them.
const TEMP_PREFIX: &str = ".kakurod-tmp.";

/// A result set written to temporary files, waiting for [`Outbox::commit`].
#[derive(Debug)]
pub(crate) struct Prepared {
    /// Its stem, wanted or reserved.
    stem: Stem,
    /// `(suffix, temporary file)`, the JSON document last.
    temps: Vec<(String, PathBuf)>,
}

/// The stem of a prepared set.
#[derive(Debug)]
enum Stem {
    /// The stem the set would like (`NAME` for `NAME.ext`); the first free one from it is
    /// reserved at commit.
    Wanted(String),
    /// Reserved already, for a set whose JSON names its other files (boxed, so that a
    /// prepared set, which waits in every job's result, stays small).
    Reserved(Box<(String, Reservation)>),
}

impl Prepared {
    /// Flushes the temporary files' data to disk, one after the other.
    fn sync(&self) -> io::Result<()> {
        self.temps.iter().try_for_each(|(_, temp)| sync_file(temp))
    }

    /// Removes the temporary files (after a failure).
    pub(crate) fn discard(&self) {
        for (_, temp) in &self.temps {
            let _ = std::fs::remove_file(temp);
        }
    }
}

/// Where a result set went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Written {
    /// The stem used (`NAME`, or `NAME-2`, ...).
    pub(crate) stem: String,
    /// The JSON document written (`.json` or `.error.json`).
    pub(crate) json: PathBuf,
}

/// The writer of one outbox folder, shared by all workers.
#[derive(Debug)]
pub(crate) struct Outbox {
    dir: PathBuf,
    /// Sync the results to disk before they count as written (the daemon's setting).
    fsync: bool,
    /// Draw `STEM.svg` beside a solved puzzle's result.
    svg: bool,
    /// The writer's node id (a daemon's, or the host name for `solve --out`), part of its
    /// temporary files' names.
    node: String,
    /// This process as the owner of stem reservations.
    owner: Owner,
    counter: AtomicU64,
}

impl Outbox {
    /// From this many result sets in one batch, the batch is made durable with one
    /// `syncfs` of the outbox's filesystem instead of one `fdatasync` per file. `syncfs`
    /// also flushes other programs' data on that filesystem, so small batches (an idle or
    /// lightly loaded daemon) keep to per-file syncs; under load the single flush is what
    /// keeps durable writes from capping the throughput.
    pub(crate) const ONE_FLUSH: usize = 16;

    /// A writer for `dir`, as node `node`.
    pub(crate) fn new(dir: PathBuf, fsync: bool, svg: bool, node: &str) -> Outbox {
        let owner = Owner::this_process(node);
        Outbox { dir, fsync, svg, node: node.to_string(), owner, counter: AtomicU64::new(0) }
    }

    /// First half of a write, done on the worker: the result files are written to temporary
    /// files in the outbox (not yet synced, not yet visible under their names). A generation
    /// job's stem is reserved here, since its JSON names the files; the reservation is held
    /// until the set is committed or dropped.
    pub(crate) fn prepare(&self, input_name: &str, report: &FileReport) -> io::Result<Prepared> {
        let base = stem_of(input_name);
        let (files, stem) = match &report.body {
            Body::Generation(generation) => {
                let (stem, reservation) = self.reserve(&base)?;
                let files = generated::files(report, generation, &stem, self.svg);
                (files, Stem::Reserved(Box::new((stem, reservation))))
            }
            _ => (rendered::files(report, self.svg), Stem::Wanted(base)),
        };
        self.write_set(stem, files)
    }

    /// Second half, for a whole batch at once (group commit): syncs every temporary file
    /// (one `syncfs` for a large batch; otherwise per file, in parallel on `pool` when given,
    /// so the filesystem can merge the flushes), renames
    /// each set into place with its JSON last, then syncs the outbox folder once for the
    /// batch. Returns one result per prepared set, in order.
    pub(crate) fn commit(
        &self,
        batch: Vec<Prepared>,
        pool: Option<&rayon::ThreadPool>,
    ) -> Vec<io::Result<Written>> {
        let synced: Vec<io::Result<()>> = if !self.fsync {
            batch.iter().map(|_| Ok(())).collect()
        } else if batch.len() >= Outbox::ONE_FLUSH && self.sync_filesystem().is_ok() {
            batch.iter().map(|_| Ok(())).collect()
        } else if let Some(pool) = pool {
            // Every file of every set at once: concurrent flushes share journal commits.
            use rayon::prelude::*;
            let files: Vec<(usize, &PathBuf)> = batch
                .iter()
                .enumerate()
                .flat_map(|(i, p)| p.temps.iter().map(move |(_, temp)| (i, temp)))
                .collect();
            let failures: Vec<(usize, io::Error)> = pool.install(|| {
                files
                    .par_iter()
                    .filter_map(|&(i, temp)| sync_file(temp).err().map(|e| (i, e)))
                    .collect()
            });
            let mut synced: Vec<io::Result<()>> = batch.iter().map(|_| Ok(())).collect();
            for (i, error) in failures {
                synced[i] = Err(error);
            }
            synced
        } else {
            batch.iter().map(Prepared::sync).collect()
        };
        let mut results: Vec<io::Result<Written>> = batch
            .into_iter()
            .zip(synced)
            .map(|(prepared, synced)| {
                let committed = synced.and_then(|()| self.place(&prepared));
                if committed.is_err() {
                    prepared.discard();
                }
                committed
            })
            .collect();
        if self.fsync
            && results.iter().any(Result::is_ok)
            && let Err(e) = sync_dir(&self.dir)
        {
            // In place but not known to be durable: report failure, so the inputs stay
            // claimed (the next start finds these results by checksum).
            let kind = e.kind();
            for result in &mut results {
                if result.is_ok() {
                    *result = Err(io::Error::new(kind, format!("syncing the outbox: {e}")));
                }
            }
        }
        results
    }

    /// Flushes the whole filesystem holding the outbox (`syncfs`): one call makes a large
    /// batch's files durable, where per-file syncs would cost one flush each.
    fn sync_filesystem(&self) -> io::Result<()> {
        let dir = std::fs::File::open(&self.dir)?;
        rustix::fs::syncfs(&dir).map_err(io::Error::from)
    }

    /// Renames one prepared set into place under a free stem, its JSON last. The JSON
    /// never replaces a file, so not even a writer that ignores reservations (an older
    /// version) can have a result overwritten.
    fn place(&self, prepared: &Prepared) -> io::Result<Written> {
        let reserved_now;
        let stem = match &prepared.stem {
            // Held since the set was prepared; only a writer that ignores reservations (an
            // older version) can have taken it meanwhile.
            Stem::Reserved(held) if self.committed(&held.0) => {
                let message = format!("the result name {} was taken meanwhile", held.0);
                return Err(io::Error::new(io::ErrorKind::AlreadyExists, message));
            }
            Stem::Reserved(held) => held.0.clone(),
            Stem::Wanted(base) => {
                reserved_now = self.reserve(base)?;
                reserved_now.0.clone()
            }
        };
        let mut json = PathBuf::new();
        let last = prepared.temps.len().saturating_sub(1);
        for (i, (suffix, temp)) in prepared.temps.iter().enumerate() {
            let target = self.dir.join(format!("{stem}{suffix}"));
            if i == last {
                rename_noreplace(temp, &target)?;
            } else {
                std::fs::rename(temp, &target)?;
            }
            json = target;
        }
        Ok(Written { stem, json })
    }

    /// Looks for a complete result of an input with this name and checksum (the work of an
    /// earlier run that stopped before it moved the input on). Returns its JSON path.
    pub(crate) fn find_result(&self, input_name: &str, checksum: &str) -> Option<PathBuf> {
        let base = stem_of(input_name);
        for n in 1..=100_000u32 {
            let stem = numbered_stem(&base, n);
            let mut any = false;
            for suffix in documents(&stem) {
                let path = self.dir.join(format!("{stem}{suffix}"));
                let Ok(text) = std::fs::read_to_string(&path) else { continue };
                any = true;
                let doc: Option<serde_json::Value> = serde_json::from_str(&text).ok();
                let matches = doc.as_ref().is_some_and(|d| {
                    d["checksum"].as_str() == Some(checksum)
                        && d["file"].as_str() == Some(input_name)
                });
                if matches {
                    return Some(path);
                }
            }
            if !any {
                return None;
            }
        }
        None
    }

    fn write_temp(&self, content: &str) -> io::Result<PathBuf> {
        let (path, mut file) = self.create_temp()?;
        if let Err(e) = file.write_all(content.as_bytes()) {
            let _ = std::fs::remove_file(&path);
            return Err(e);
        }
        Ok(path)
    }

    /// A new temporary file in the outbox, for a result file written as it goes
    /// ([`Outbox::prepared_from`]).
    pub(crate) fn create_temp(&self) -> io::Result<(PathBuf, std::fs::File)> {
        let n = self.counter.fetch_add(1, Ordering::Relaxed);
        let tag = self.owner.temporary_tag();
        let path = self.dir.join(format!("{TEMP_PREFIX}{}.{tag}.{n}", self.node));
        let file = OpenOptions::new().write(true).create_new(true).open(&path)?;
        Ok((path, file))
    }

    /// The set of `input_name`'s result, from files its writer wrote to temporary files of
    /// [`Outbox::create_temp`] (`(suffix, temporary file)`, the JSON document last), ready
    /// for [`Outbox::commit`] like a set of [`Outbox::prepare`].
    pub(crate) fn prepared_from(
        &self,
        input_name: &str,
        temps: Vec<(String, PathBuf)>,
    ) -> Prepared {
        Prepared { stem: Stem::Wanted(stem_of(input_name)), temps }
    }

    /// The first free stem for `base`, reserved: no committed result on disk and no other
    /// writer on it. Checked again once reserved, since a writer may have committed the stem
    /// and released it between the first look and the reservation.
    fn reserve(&self, base: &str) -> io::Result<(String, Reservation)> {
        let record = self.owner.to_record();
        for n in 1..=1_000_000u32 {
            let stem = numbered_stem(base, n);
            if self.committed(&stem) {
                continue;
            }
            let record_file = self.write_temp(&record)?;
            let reserved = stems::reserve(&self.dir, &stem, &record_file, &self.owner)?;
            let Some(reservation) = reserved else { continue };
            if !self.committed(&stem) {
                return Ok((stem, reservation));
            }
        }
        Err(io::Error::new(io::ErrorKind::AlreadyExists, "no free result name left"))
    }

    /// True when a result document for `stem` exists.
    fn committed(&self, stem: &str) -> bool {
        documents(stem)
            .iter()
            .any(|s| self.dir.join(format!("{stem}{s}")).symlink_metadata().is_ok())
    }
}

/// The names a stem's JSON document may have. A stem ending in `.error` belongs to a
/// rejected input (see `result_names`): its `.json` name is another input's error document,
/// which must not make the stem look taken.
fn documents(stem: &str) -> &'static [&'static str] {
    if stem.ends_with(RESERVED_STEM_END) { &[".error.json"] } else { &[".json", ".error.json"] }
}

fn numbered_stem(base: &str, n: u32) -> String {
    if n <= 1 { base.to_string() } else { format!("{base}-{n}") }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::InputError;
    use crate::report::Status;

    fn rejected(file: &str, checksum: &str) -> FileReport {
        let error = InputError::whole_file("bad", "good");
        FileReport::rejected(file, checksum.into(), None, Status::Invalid, error)
    }

    /// One result set through both halves, as `solve --out` writes it.
    fn write(outbox: &Outbox, input_name: &str, report: &FileReport) -> io::Result<Written> {
        let prepared = outbox.prepare(input_name, report)?;
        outbox.commit(vec![prepared], None).remove(0)
    }

    fn names(dir: &std::path::Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn a_name_clash_gives_a_numbered_stem_and_keeps_the_earlier_result() {
        let dir = tempfile::tempdir().unwrap();
        let outbox = Outbox::new(dir.path().to_path_buf(), true, true, "n");
        let first = write(&outbox, "p.txt", &rejected("p.txt", "aa")).unwrap();
        let second = write(&outbox, "p.dzn", &rejected("p.dzn", "bb")).unwrap();
        assert_eq!(first.stem, "p");
        assert_eq!(second.stem, "p-2");
        assert_eq!(names(dir.path()), vec!["p-2.error.json", "p.error.json"]);
        let text = std::fs::read_to_string(&first.json).unwrap();
        assert!(text.contains("\"aa\""), "{text}");
    }

    #[test]
    fn an_input_with_a_reserved_stem_is_answered_beside_the_error_that_its_name_resembles() {
        let dir = tempfile::tempdir().unwrap();
        let outbox = Outbox::new(dir.path().to_path_buf(), false, false, "n");
        write(&outbox, "q.txt", &rejected("q.txt", "aa")).unwrap();
        let reserved = write(&outbox, "q.error.txt", &rejected("q.error.txt", "bb")).unwrap();
        assert_eq!(reserved.stem, "q.error");
        assert_eq!(names(dir.path()), vec!["q.error.error.json", "q.error.json"]);
        assert_eq!(outbox.find_result("q.error.txt", "bb"), Some(reserved.json));
    }

    #[test]
    fn an_earlier_result_is_found_by_name_and_checksum() {
        let dir = tempfile::tempdir().unwrap();
        let outbox = Outbox::new(dir.path().to_path_buf(), false, false, "n");
        write(&outbox, "q.txt", &rejected("q.txt", "11")).unwrap();
        let second = write(&outbox, "q.txt", &rejected("q.txt", "22")).unwrap();
        assert_eq!(outbox.find_result("q.txt", "22"), Some(second.json));
        assert_eq!(outbox.find_result("q.txt", "33"), None);
        assert_eq!(outbox.find_result("r.txt", "11"), None);
    }

    #[test]
    fn leftover_companions_without_json_are_overwritten() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("z.solution.txt"), "half").unwrap();
        let outbox = Outbox::new(dir.path().to_path_buf(), false, false, "n");
        assert_eq!(write(&outbox, "z", &rejected("z", "0")).unwrap().stem, "z");
    }

    #[test]
    fn a_stem_reserved_by_another_node_is_not_written() {
        let dir = tempfile::tempdir().unwrap();
        let other = Owner::parse("other 1 5 elsewhere/1").unwrap();
        let record = dir.path().join("record");
        std::fs::write(&record, other.to_record()).unwrap();
        let held = stems::reserve(dir.path(), "r", &record, &other).unwrap().expect("free");
        let outbox = Outbox::new(dir.path().to_path_buf(), false, false, "n");
        assert_eq!(write(&outbox, "r.txt", &rejected("r.txt", "aa")).unwrap().stem, "r-2");
        drop(held);
        assert_eq!(write(&outbox, "r.txt", &rejected("r.txt", "bb")).unwrap().stem, "r");
    }

    #[test]
    fn a_reservation_left_by_an_ended_process_of_this_host_does_not_block_its_name() {
        let dir = tempfile::tempdir().unwrap();
        // As a writer of another node name on this host (`solve --out` beside a daemon)
        // leaves it when killed after reserving: its owner has ended.
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let pid = child.id();
        child.wait().unwrap();
        let mine = Owner::this_process("n").to_record();
        let host = mine.rsplit(' ').next().unwrap();
        std::fs::write(stems::path_of(dir.path(), "p"), format!("m {pid} 1 {host}")).unwrap();
        let outbox = Outbox::new(dir.path().to_path_buf(), false, false, "n");
        assert_eq!(write(&outbox, "p.txt", &rejected("p.txt", "aa")).unwrap().stem, "p");
        assert_eq!(names(dir.path()), vec!["p.error.json"]);
    }

    #[test]
    fn a_crash_between_the_steps_of_a_reservation_leaves_nothing_that_blocks_a_name() {
        let dir = tempfile::tempdir().unwrap();
        let outbox = Outbox::new(dir.path().to_path_buf(), false, false, "n");
        // Killed after writing its record, before renaming it into place: a temporary
        // file, which the next start removes.
        outbox.write_temp(&outbox.owner.to_record()).unwrap();
        assert_eq!(write(&outbox, "p.txt", &rejected("p.txt", "aa")).unwrap().stem, "p");
        assert_eq!(outbox.remove_stale_temporaries().unwrap(), 1);
        // Killed once it is in place: the reservation names its owner, which has ended.
        let host = outbox.owner.to_record().rsplit(' ').next().unwrap().to_string();
        let ended = Owner::parse(&format!("n {} 1 {host}", u32::MAX)).unwrap();
        let record = outbox.write_temp(&ended.to_record()).unwrap();
        let left = stems::reserve(dir.path(), "q", &record, &ended).unwrap().expect("free");
        std::mem::forget(left);
        assert_eq!(write(&outbox, "q.txt", &rejected("q.txt", "bb")).unwrap().stem, "q");
        assert_eq!(names(dir.path()), vec!["p.error.json", "q.error.json"]);
    }

    #[test]
    fn a_large_batch_is_committed_whole_with_json_documents_last() {
        let dir = tempfile::tempdir().unwrap();
        let outbox = Outbox::new(dir.path().to_path_buf(), true, false, "n");
        let batch: Vec<Prepared> = (0..Outbox::ONE_FLUSH + 4)
            .map(|i| outbox.prepare(&format!("b{i}.txt"), &rejected("x", "y")).unwrap())
            .collect();
        // Until committed, nothing is visible under a final name.
        assert!(names(dir.path()).iter().all(|n| n.starts_with(TEMP_PREFIX)));
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        let written = outbox.commit(batch, Some(&pool));
        assert!(written.iter().all(Result::is_ok));
        let all = names(dir.path());
        assert_eq!(all.len(), Outbox::ONE_FLUSH + 4);
        assert!(all.iter().all(|n| n.ends_with(".error.json")), "{all:?}");
    }
}
