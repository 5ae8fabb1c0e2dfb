//! Small helpers shared by several layers (the pipeline, the result writer, the daemon,
//! the queue and the commands), kept below all of them so that none has to reach into
//! another for them: the host's name, hex digits, and the filesystem steps of durable
//! writes ([`fs`]).

pub(crate) mod fs;

/// This host's name, as temporary files, heartbeats and queue workers carry it.
pub(crate) fn host_name() -> String {
    rustix::system::uname().nodename().to_string_lossy().into_owned()
}

/// Lower-case hex digits of `bytes` (a digest).
pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
