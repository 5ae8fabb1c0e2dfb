//! Removing what crashed writers left in the outbox: temporary files (`.kakurod-tmp.NODE.PID.N`,
//! judged by their node and process id) and stem reservations (judged by the owner they
//! record, see [`super::owner`]). A writer sweeps at start-up; a daemon that takes over a
//! dead node's work sweeps that node's.

use super::{Outbox, TEMP_PREFIX, stems};
use std::io;
use std::path::Path;

impl Outbox {
    /// Removes the temporary files and stem reservations left by crashed runs: temporary
    /// files of this node's processes that have ended, and reservations of any process of
    /// this host (or of this node's earlier boots) that has ended. Call before any job
    /// starts. Those of a live process (a daemon on another inbox sharing this outbox, a
    /// `solve --out` run) stay, and so do other nodes'.
    pub(crate) fn remove_stale_temporaries(&self) -> io::Result<usize> {
        let stale = |node: &str, pid: u32| {
            // Names without a node are from a version without nodes: this host's.
            (node == self.node || node.is_empty())
                && (pid == std::process::id() || !Path::new(&format!("/proc/{pid}")).exists())
        };
        let gone = |owner: &super::Owner| owner.is_gone(&self.owner);
        Ok(self.remove_temporaries(&stale)? + stems::remove_left_over(&self.dir, &gone)?)
    }

    /// Removes the temporary files whose `(node, pid)` `stale` judges left over; one that
    /// is already gone is not an error.
    fn remove_temporaries(&self, stale: &dyn Fn(&str, u32) -> bool) -> io::Result<usize> {
        let mut removed = 0;
        for entry in std::fs::read_dir(&self.dir)? {
            let entry = entry?;
            let Some((node, pid)) = temporary_owner(&entry.file_name()) else { continue };
            if stale(&node, pid) {
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

/// `(NODE, PID)` of a temporary file's name, `None` for other names.
fn temporary_owner(name: &std::ffi::OsStr) -> Option<(String, u32)> {
    let rest = name.to_str()?.strip_prefix(TEMP_PREFIX)?;
    // NODE.PID.N (NODE may hold dots), or PID.N from a version without nodes.
    let mut parts = rest.rsplitn(3, '.').skip(1);
    let pid = parts.next().and_then(|p| p.parse::<u32>().ok()).unwrap_or(0);
    Some((parts.next().unwrap_or("").to_string(), pid))
}

#[cfg(test)]
mod tests {
    use super::*;

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
