//! Small helpers shared by several layers (the pipeline, the result writer, the daemon,
//! the queue and the commands), kept below all of them so that none has to reach into
//! another for them: the host's name, plurals, hex digits, and the filesystem steps of durable
//! writes ([`fs`]).

pub(crate) mod fs;

/// This host's name, as temporary files, heartbeats and queue workers carry it.
pub(crate) fn host_name() -> String {
    rustix::system::uname().nodename().to_string_lossy().into_owned()
}

/// `count` and `noun`, the noun in the plural unless `count` is 1 (`1 file`, `3 files`);
/// for the nouns of kakurod's own messages, which all take an `s`.
pub(crate) fn plural(count: usize, noun: &str) -> String {
    if count == 1 { format!("1 {noun}") } else { format!("{count} {noun}s") }
}

/// `count` inputs and the verb "wait" agreeing with it (`1 input waits`, `3 inputs wait`).
pub(crate) fn inputs_wait(count: usize) -> String {
    if count == 1 { "1 input waits".to_string() } else { format!("{count} inputs wait") }
}

pub(crate) use kakurod_engine::pipeline::hex;

#[cfg(test)]
mod tests {
    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        assert_eq!(super::plural(1, "file"), "1 file");
        assert_eq!(super::plural(0, "worker"), "0 workers");
        assert_eq!(super::plural(2, "puzzle"), "2 puzzles");
        assert_eq!(super::inputs_wait(1), "1 input waits");
        assert_eq!(super::inputs_wait(4), "4 inputs wait");
    }
}
