//! Removing what crashed writers left in the outbox: temporary files
//! (`.kakurod-tmp.NODE.PID-START.N`, judged by their node, process id and start time) and
//! stem reservations (judged by the owner they record, see [`super::owner`]). A writer
//! sweeps at start-up.

use super::owner::temporary_is_gone;
use super::{Outbox, TEMP_PREFIX, stems};
use std::io;

impl Outbox {
    /// Removes the temporary files and stem reservations left by crashed runs: temporary
    /// files of this node's processes that have ended, and reservations of any process of
    /// this host (or of this node's earlier boots) that has ended. Call before any job
    /// starts. Those of a live process (a daemon on another inbox sharing this outbox, a
    /// `solve --out` run) stay, and so do other nodes'.
    pub(crate) fn remove_stale_temporaries(&self) -> io::Result<usize> {
        let stale = |node: &str, tag: &str| {
            // Names without a node are from a version without nodes: this host's. Files
            // with this process's id are an earlier process's: this one has written none.
            let pid = tag.split('-').next().and_then(|p| p.parse::<u32>().ok());
            (node == self.node || node.is_empty())
                && (pid == Some(std::process::id()) || temporary_is_gone(tag).unwrap_or(false))
        };
        let gone = |owner: &super::Owner| owner.is_gone(&self.owner);
        Ok(self.remove_temporaries(&stale)? + stems::remove_left_over(&self.dir, &gone)?)
    }

    /// Removes the temporary files whose `(node, tag)` `stale` judges left over; one that
    /// is already gone is not an error.
    fn remove_temporaries(&self, stale: &dyn Fn(&str, &str) -> bool) -> io::Result<usize> {
        let mut removed = 0;
        for entry in std::fs::read_dir(&self.dir)? {
            let entry = entry?;
            let Some((node, tag)) = temporary_owner(&entry.file_name()) else { continue };
            if stale(&node, &tag) {
                match std::fs::remove_file(entry.path()) {
                    Ok(()) => removed += 1,
                    Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                    Err(e) => return Err(e),
                }
            }
        }
        Ok(removed)
    }
}

/// `(NODE, TAG)` of a temporary file's name (`TAG`: `PID-START`, or an older version's
/// `PID`), `None` for other names.
fn temporary_owner(name: &std::ffi::OsStr) -> Option<(String, String)> {
    let rest = name.to_str()?.strip_prefix(TEMP_PREFIX)?;
    // NODE.TAG.N (NODE may hold dots), or PID.N from a version without nodes.
    let mut parts = rest.rsplitn(3, '.').skip(1);
    let tag = parts.next().unwrap_or("").to_string();
    Some((parts.next().unwrap_or("").to_string(), tag))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn stale_temporaries_of_dead_processes_of_this_node_are_removed() {
        let dir = tempfile::tempdir().unwrap();
        let dead = u32::MAX;
        for name in [format!("n.{dead}.0"), format!("{dead}.0"), format!("other.node.{dead}.0")] {
            std::fs::write(dir.path().join(format!("{TEMP_PREFIX}{name}")), "x").unwrap();
        }
        std::fs::write(dir.path().join("keep.json"), "{}").unwrap();
        let outbox = Outbox::new(dir.path().to_path_buf(), false, false, "n");
        assert_eq!(outbox.remove_stale_temporaries().unwrap(), 2);
        let other = format!("{TEMP_PREFIX}other.node.{dead}.0");
        assert_eq!(names(dir.path()), vec![other, "keep.json".to_string()]);
    }

    #[test]
    fn a_temporary_of_an_ended_process_whose_id_was_reused_is_removed() {
        let dir = tempfile::tempdir().unwrap();
        // A process now runs under the id of the killed writer; only its start time differs.
        let mut child = std::process::Command::new("sleep").arg("30").spawn().unwrap();
        let (pid, start) = (child.id(), super::super::owner::start_time(child.id()).unwrap());
        let earlier = format!("{TEMP_PREFIX}n.{pid}-{}.0", start.saturating_sub(1));
        let living = format!("{TEMP_PREFIX}n.{pid}-{start}.0");
        for name in [&earlier, &living] {
            std::fs::write(dir.path().join(name), "x").unwrap();
        }
        let outbox = Outbox::new(dir.path().to_path_buf(), false, false, "n");
        let removed = outbox.remove_stale_temporaries().unwrap();
        child.kill().unwrap();
        child.wait().unwrap();
        assert_eq!(removed, 1);
        assert_eq!(names(dir.path()), vec![living.clone()], "the living process's stays");
        assert_eq!(outbox.remove_stale_temporaries().unwrap(), 1, "and goes once it ends");
    }

    #[test]
    fn reservations_of_ended_writers_are_swept_at_start_up() {
        let dir = tempfile::tempdir().unwrap();
        let dead = format!("{} {} 1 host/1", "m", u32::MAX);
        std::fs::write(stems::path_of(dir.path(), "a"), format!("n {}", u32::MAX)).unwrap();
        std::fs::write(stems::path_of(dir.path(), "b"), dead).unwrap();
        let outbox = Outbox::new(dir.path().to_path_buf(), false, false, "n");
        let own = outbox.owner.to_record();
        std::fs::write(stems::path_of(dir.path(), "c"), own).unwrap();
        assert_eq!(outbox.remove_stale_temporaries().unwrap(), 1, "this node's dead process");
        assert_eq!(names(dir.path()).len(), 2, "another node's, and this process's own, stay");
    }
}
