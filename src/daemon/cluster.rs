//! Several daemons on one inbox, on one host or many (a shared filesystem). Each daemon is a
//! node with a stable id (the host name unless configured). A node claims inputs into its
//! own folder `claim/NODE/` and proves it is alive by renewing a lease, the file
//! `claim/.lease.NODE`, whose modification time it sets to "now" every third of the lease.
//!
//! Expiry is judged by the shared filesystem's clock only: a node touches its own lease and
//! reads back the time the filesystem gave it, and compares that with the other leases'
//! times; local clocks of different hosts are never compared. A node whose lease is older
//! than the lease time is dead: a live node moves the dead node's claimed inputs into its
//! own claim folder one by one. A rename moves a file at most once, so when two survivors
//! take over at the same time each input still goes to exactly one of them.
//!
//! Two live daemons with the same node id would claim into the same folder: the lease file
//! is also locked (`flock`) for the node's lifetime, and a second daemon with that id
//! refuses to start. The kernel drops the lock however the process ends.

use super::error::DaemonError;
use crate::outbox::files::rename_noreplace;
use rustix::fs::{FlockOperation, Timespec, Timestamps, UTIME_NOW};
use rustix::io::Errno;
use std::fs::{File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// The name of a node's lease file in the claim root is this prefix and the node id. A
/// node id never starts with a dot, so no lease file is taken for a node's folder.
pub const LEASE_PREFIX: &str = ".lease.";

/// The longest node id accepted.
const MAX_ID_LEN: usize = 64;

/// The default node id: the host name, stable across restarts.
pub fn host_name() -> String {
    rustix::system::uname().nodename().to_string_lossy().into_owned()
}

/// Why `id` cannot be a node id, if it cannot: it names a folder and is part of file names,
/// so it is 1 to 64 letters, digits, `.`, `_` or `-`, starting with a letter or digit.
pub fn invalid_node_id(id: &str) -> Option<String> {
    let fine = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-');
    if id.is_empty() || id.len() > MAX_ID_LEN {
        return Some(format!("'{id}' must have 1 to {MAX_ID_LEN} characters"));
    }
    if !id.starts_with(|c: char| c.is_ascii_alphanumeric()) || !id.chars().all(fine) {
        return Some(format!(
            "'{id}' must be letters, digits, '.', '_' or '-', starting with a letter or digit"
        ));
    }
    None
}

/// This daemon as a node of the cluster: its id, claim folder and (locked) lease.
#[derive(Debug)]
pub struct Node {
    /// The node id.
    pub id: String,
    /// The claim root, shared by all nodes.
    root: PathBuf,
    /// `root/ID`: this node's claimed inputs.
    own: PathBuf,
    /// How long a lease lasts without renewal.
    pub lease: Duration,
    /// The lease file, open and locked while the node lives.
    lease_file: File,
}

impl Node {
    /// Joins the cluster on the claim root: creates the node's claim folder, takes the lock
    /// on its lease file (refusing when another live daemon has this id) and renews the
    /// lease.
    pub fn join(root: &Path, id: &str, lease: Duration) -> Result<Node, DaemonError> {
        let own = root.join(id);
        std::fs::create_dir_all(&own).map_err(|source| DaemonError::Folder {
            about: "cannot create the claim folder",
            path: own.clone(),
            source,
        })?;
        let path = root.join(format!("{LEASE_PREFIX}{id}"));
        let lease_file =
            OpenOptions::new().create(true).truncate(false).write(true).open(&path).map_err(
                |source| DaemonError::Folder { about: "cannot open the lease", path, source },
            )?;
        match rustix::fs::flock(&lease_file, FlockOperation::NonBlockingLockExclusive) {
            Ok(()) => {}
            Err(e) if e == Errno::WOULDBLOCK => {
                return Err(DaemonError::NodeRunning { node: id.into(), claim: root.into() });
            }
            Err(e) => {
                return Err(DaemonError::Io { about: "cannot lock the lease", source: e.into() });
            }
        }
        let node = Node { id: id.into(), root: root.into(), own, lease, lease_file };
        node.renew()
            .map_err(|source| DaemonError::Io { about: "cannot renew the lease", source })?;
        Ok(node)
    }

    /// This node's claim folder.
    pub fn claim_folder(&self) -> &Path {
        &self.own
    }

    /// Renews the lease and returns the time the shared filesystem gave it: "now" by the
    /// only clock all nodes share.
    pub fn renew(&self) -> io::Result<SystemTime> {
        let now = Timespec { tv_sec: 0, tv_nsec: UTIME_NOW };
        let times = Timestamps { last_access: now, last_modification: now };
        rustix::fs::futimens(&self.lease_file, &times)?;
        self.lease_file.metadata()?.modified()
    }

    /// Marks the lease as expired at a clean shutdown, so that another node takes over what
    /// is left claimed at its next check instead of after the lease time.
    pub fn expire(&self) -> io::Result<()> {
        let epoch = Timespec { tv_sec: 0, tv_nsec: 0 };
        let times = Timestamps { last_access: epoch, last_modification: epoch };
        rustix::fs::futimens(&self.lease_file, &times).map_err(io::Error::from)
    }

    /// The other nodes whose lease is older than the lease time at `now` (a time from
    /// [`Node::renew`]), sorted.
    pub fn expired_peers(&self, now: SystemTime) -> io::Result<Vec<String>> {
        let mut dead = Vec::new();
        for entry in std::fs::read_dir(&self.root)? {
            let entry = entry?;
            let name = entry.file_name();
            let Some(peer) = name.to_str().and_then(|n| n.strip_prefix(LEASE_PREFIX)) else {
                continue;
            };
            if peer == self.id || invalid_node_id(peer).is_some() {
                continue;
            }
            // Opened, not only stat'ed: an NFS client revalidates a file's attributes at open
            // (close-to-open consistency) instead of answering from its attribute cache,
            // which could hold a time older than the lease. The file may go away between
            // the listing and here (removed by hand).
            let modified = File::open(entry.path()).and_then(|f| f.metadata()?.modified());
            let Ok(modified) = modified else { continue };
            let age = now.duration_since(modified).unwrap_or_default();
            if age > self.lease {
                dead.push(peer.to_string());
            }
        }
        dead.sort();
        Ok(dead)
    }

    /// Moves the claimed inputs of `peer` into this node's claim folder and returns their
    /// names. A file that another survivor took first is skipped; one whose name is in
    /// this node's folder already stays for a later pass.
    pub fn take_over(&self, peer: &str) -> io::Result<Vec<String>> {
        self.adopt(&self.root.join(peer))
    }

    /// Claims of the layout of a single daemon (inputs directly in the claim root, from a
    /// version without nodes) become this node's.
    pub fn adopt_unowned(&self) -> io::Result<Vec<String>> {
        self.adopt(&self.root)
    }

    fn adopt(&self, from: &Path) -> io::Result<Vec<String>> {
        let entries = match std::fs::read_dir(from) {
            Ok(entries) => entries,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(e),
        };
        let mut taken = Vec::new();
        for entry in entries {
            let entry = entry?;
            let Ok(name) = entry.file_name().into_string() else { continue };
            // Folders are other nodes' claim folders; dot files are leases.
            if name.starts_with('.') || entry.file_type()?.is_dir() {
                continue;
            }
            match rename_noreplace(&entry.path(), &self.own.join(&name)) {
                Ok(()) => taken.push(name),
                Err(e)
                    if matches!(
                        e.kind(),
                        io::ErrorKind::NotFound | io::ErrorKind::AlreadyExists
                    ) => {}
                Err(e) => return Err(e),
            }
        }
        taken.sort();
        Ok(taken)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_ids_are_safe_names() {
        assert!(invalid_node_id("a").is_none());
        assert!(invalid_node_id("kakurod-7f9c.example_1").is_none());
        for bad in ["", ".a", "-a", "a/b", "a b", "..", &"x".repeat(65)] {
            assert!(invalid_node_id(bad).is_some(), "{bad:?}");
        }
        assert!(invalid_node_id(&host_name()).is_none(), "{}", host_name());
    }

    #[test]
    fn a_second_node_with_the_same_id_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let lease = Duration::from_secs(30);
        let a = Node::join(dir.path(), "a", lease).unwrap();
        let again = Node::join(dir.path(), "a", lease).unwrap_err();
        assert!(matches!(again, DaemonError::NodeRunning { .. }), "{again}");
        let _b = Node::join(dir.path(), "b", lease).unwrap();
        drop(a);
        Node::join(dir.path(), "a", lease).unwrap();
    }

    #[test]
    fn an_expired_peer_is_taken_over_once() {
        let dir = tempfile::tempdir().unwrap();
        let lease = Duration::from_secs(30);
        let dead = Node::join(dir.path(), "dead", lease).unwrap();
        std::fs::write(dead.claim_folder().join("p.txt"), "x").unwrap();
        std::fs::write(dead.claim_folder().join("q.txt"), "y").unwrap();
        let a = Node::join(dir.path(), "a", lease).unwrap();
        let c = Node::join(dir.path(), "c", lease).unwrap();
        std::fs::write(a.claim_folder().join("q.txt"), "a's own").unwrap();
        let now = a.renew().unwrap();
        assert!(a.expired_peers(now).unwrap().is_empty());
        dead.expire().unwrap();
        assert_eq!(a.expired_peers(now).unwrap(), ["dead"]);
        // a holds a q.txt of its own: q.txt stays for c.
        assert_eq!(a.take_over("dead").unwrap(), ["p.txt"]);
        assert_eq!(c.take_over("dead").unwrap(), ["q.txt"]);
        assert!(a.take_over("dead").unwrap().is_empty());
        assert_eq!(std::fs::read_to_string(c.claim_folder().join("q.txt")).unwrap(), "y");
    }

    #[test]
    fn unowned_claims_of_a_single_daemon_are_adopted() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("old.txt"), "x").unwrap();
        let a = Node::join(dir.path(), "a", Duration::from_secs(30)).unwrap();
        assert_eq!(a.adopt_unowned().unwrap(), ["old.txt"]);
        assert!(a.claim_folder().join("old.txt").exists());
    }
}
