//! Who wrote a stem reservation, and whether that writer is gone. A process id alone does
//! not say it: ids are reused, and the same id in another PID namespace or after a reboot
//! is another process. So an owner is recorded as `NODE PID START HOST`: the writer's node,
//! its process id, its start time (clock ticks after boot, `/proc/PID/stat`) and the
//! instance of the host's process table it lives in (the boot id and the PID namespace).
//! A writer in the same process table checks the process itself; one in another judges
//! only its own node's earlier instances (a reboot, a container started again) as gone.

use std::path::Path;

/// The writer of a reservation, as recorded in its file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Owner {
    node: String,
    pid: u32,
    /// Start time and process table; `None` in the `NODE PID` records of older versions.
    instance: Option<Instance>,
}

/// Where and when a process started: together with its id, one process ever.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Instance {
    start: u64,
    host: String,
}

impl Owner {
    /// This process, as a writer of node `node`. Without `/proc`, only the id is known.
    pub(crate) fn this_process(node: &str) -> Owner {
        let pid = std::process::id();
        let instance =
            host_instance().and_then(|host| Some(Instance { start: start_time(pid)?, host }));
        Owner { node: node.to_string(), pid, instance }
    }

    /// The owner as a reservation file holds it.
    pub(crate) fn to_record(&self) -> String {
        match &self.instance {
            Some(Instance { start, host }) => format!("{} {} {start} {host}", self.node, self.pid),
            None => format!("{} {}", self.node, self.pid),
        }
    }

    /// The owner as its temporary files' names carry it: `PID-START`, or `PID` where the
    /// start time is not known (no `/proc`). See [`temporary_is_gone`].
    pub(crate) fn temporary_tag(&self) -> String {
        match &self.instance {
            Some(Instance { start, .. }) => format!("{}-{start}", self.pid),
            None => self.pid.to_string(),
        }
    }

    /// Reads a record written by [`Owner::to_record`] (or an older version's `NODE PID`).
    pub(crate) fn parse(record: &str) -> Option<Owner> {
        let mut fields = record.split_ascii_whitespace();
        let node = fields.next()?.to_string();
        let pid = fields.next()?.parse().ok()?;
        let instance = match (fields.next(), fields.next()) {
            (Some(start), Some(host)) => {
                Some(Instance { start: start.parse().ok()?, host: host.to_string() })
            }
            (None, None) => None,
            _ => return None,
        };
        fields.next().is_none().then_some(Owner { node, pid, instance })
    }

    /// True when `me` can tell that this owner's process has ended.
    pub(crate) fn is_gone(&self, me: &Owner) -> bool {
        match (&self.instance, &me.instance) {
            (Some(theirs), Some(mine)) if theirs.host == mine.host => {
                start_time(self.pid) != Some(theirs.start)
            }
            // Another process table: only this node's own earlier instance is known gone.
            (Some(_), _) => self.node == me.node,
            // An older version's record: its process ids are this node's.
            (None, _) => {
                self.node == me.node
                    && (self.pid == me.pid || !Path::new(&format!("/proc/{}", self.pid)).exists())
            }
        }
    }
}

/// Whether the writer of a temporary file is gone, judged from the tag in its name
/// ([`Owner::temporary_tag`]) on the writer's own node: `PID-START` is gone when no process
/// `PID` with that start time runs, so a process that got the same id later does not keep
/// a killed writer's file; a bare `PID` (a version without start times, or no `/proc`) when
/// no process `PID` runs. `None` for a tag that is neither.
pub(crate) fn temporary_is_gone(tag: &str) -> Option<bool> {
    match tag.split_once('-') {
        Some((pid, start)) => {
            let (pid, start): (u32, u64) = (pid.parse().ok()?, start.parse().ok()?);
            Some(start_time(pid) != Some(start))
        }
        None => {
            let pid: u32 = tag.parse().ok()?;
            Some(!Path::new(&format!("/proc/{pid}")).exists())
        }
    }
}

/// The running kernel's boot id and this process's PID namespace, as one word: processes
/// with the same word share one table of process ids.
fn host_instance() -> Option<String> {
    let boot = std::fs::read_to_string("/proc/sys/kernel/random/boot_id").ok()?;
    let namespace = std::fs::read_link("/proc/self/ns/pid").ok()?;
    let namespace = namespace.to_str()?.trim_start_matches("pid:[").trim_end_matches(']');
    Some(format!("{}/{namespace}", boot.trim()))
}

/// The start time of process `pid` (clock ticks after boot), `None` when it does not run.
pub(crate) fn start_time(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) is in parentheses and may hold anything; the start time
    // is field 22, the 20th after it.
    let (_, after_name) = stat.rsplit_once(')')?;
    after_name.split_ascii_whitespace().nth(19)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_read_back_and_older_records_still_read() {
        let me = Owner::this_process("n");
        assert!(me.instance.is_some(), "this test needs /proc");
        assert_eq!(Owner::parse(&me.to_record()), Some(me.clone()));
        let old = Owner::parse("n 12").expect("an older version's record");
        assert_eq!((old.node.as_str(), old.pid, &old.instance), ("n", 12, &None));
        for bad in ["", "n", "n x", "n 1 2", "n 1 x h", "n 1 2 h extra"] {
            assert_eq!(Owner::parse(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn a_living_process_is_not_gone_and_an_ended_one_is() {
        let me = Owner::this_process("n");
        assert!(!me.is_gone(&me));
        let mut child = std::process::Command::new("sleep").arg("30").spawn().unwrap();
        let mut other = me.clone();
        other.pid = child.id();
        other.instance.as_mut().unwrap().start = start_time(child.id()).unwrap();
        assert!(!other.is_gone(&me), "a running child");
        child.kill().unwrap();
        child.wait().unwrap();
        assert!(other.is_gone(&me), "an ended child");
    }

    #[test]
    fn a_reused_process_id_is_told_from_its_first_owner() {
        let me = Owner::this_process("n");
        let mut earlier = me.clone();
        earlier.instance.as_mut().unwrap().start += 1;
        assert!(earlier.is_gone(&me), "same id, another start time");
    }

    #[test]
    fn another_process_table_is_judged_by_node_only() {
        let me = Owner::this_process("n");
        let elsewhere = |node: &str| {
            let record = format!("{node} {} 5 other-boot/1", std::process::id());
            Owner::parse(&record).unwrap()
        };
        assert!(elsewhere("n").is_gone(&me), "this node before a reboot");
        assert!(!elsewhere("m").is_gone(&me), "another node");
        let legacy_dead = Owner::parse(&format!("n {}", u32::MAX)).unwrap();
        assert!(legacy_dead.is_gone(&me));
        assert!(!Owner::parse(&format!("m {}", u32::MAX)).unwrap().is_gone(&me));
    }
}
