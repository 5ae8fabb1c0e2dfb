//! `kakurod status`: what the daemon serving an inbox does now, read from the state
//! document it rewrites every second (`crate::status`).

use super::daemon_folders;
use crate::cli::StatusArgs;
use crate::status::{self, NodeState, STALE};
use crate::util::plural;
use anyhow::Context;
use serde::Serialize;
use std::fmt::Write as _;
use std::io::Write as _;
use std::process::ExitCode;

/// Exit status when no daemon serves the inbox (as `systemctl status` says of a unit
/// that is not running).
const NOT_RUNNING: u8 = 3;

/// One node in the JSON document: its state and how old that is.
#[derive(Serialize)]
struct Node<'a> {
    #[serde(flatten)]
    state: &'a NodeState,
    lease_age_seconds: f64,
}

/// Prints the state; exit 0 when a daemon serves the inbox, 3 when none does.
pub fn run(args: StatusArgs) -> anyhow::Result<ExitCode> {
    let folders = daemon_folders(args.config)?;
    let found = status::read(&folders.claim)
        .with_context(|| format!("cannot read {}", status::path(&folders.claim).display()))?;
    // Empty when no daemon serves the inbox; the daemon first otherwise.
    let nodes = found.filter(|s| s.age() <= STALE).map_or_else(Vec::new, nodes);
    // Written with `?`, so that a reader that goes away (`| head -1`) ends it quietly.
    let mut out = std::io::stdout().lock();
    if args.json {
        let nodes: Vec<Node> = nodes
            .iter()
            .map(|state| Node { state, lease_age_seconds: round(state.age().as_secs_f64()) })
            .collect();
        let document = serde_json::to_string_pretty(&serde_json::json!({ "nodes": nodes }))?;
        writeln!(out, "{document}")?;
    } else if nodes.is_empty() {
        writeln!(
            out,
            "no daemon serves {} (no state in {} rewritten in the last {} s)",
            folders.inbox.display(),
            folders.claim.display(),
            STALE.as_secs()
        )?;
    } else {
        for node in &nodes {
            write!(out, "{}", text(node))?;
        }
    }
    out.flush()?;
    Ok(if nodes.is_empty() { ExitCode::from(NOT_RUNNING) } else { ExitCode::SUCCESS })
}

/// The nodes serving the inbox: the daemon, then the `kakurod worker`s on its shared queue
/// whose state is fresh (a worker killed without a word drops out after [`STALE`]).
fn nodes(daemon: NodeState) -> Vec<NodeState> {
    let mut daemon = daemon;
    let workers = std::mem::take(&mut daemon.queue_workers);
    std::iter::once(daemon).chain(workers.into_iter().filter(|w| w.age() <= STALE)).collect()
}

/// A node's state for a terminal: one line for the node, one for its queue (and one for
/// the shared queue's backlog, on NATS), one for what it answered, then one line per
/// running input with its search's progress.
fn text(state: &NodeState) -> String {
    let mut out = String::new();
    let up = state.updated_unix_seconds - state.started_unix_seconds;
    let role = if state.inbox.is_some() { "kakurod" } else { "kakurod worker" };
    let _ = writeln!(
        out,
        "{role} {} on {} (pid {}), up {}, state {:.1} s old",
        state.version,
        state.node_id,
        state.pid,
        duration(up),
        state.age().as_secs_f64()
    );
    let place =
        state.inbox.as_ref().map_or("shared queue".into(), |i| format!("inbox {}", i.display()));
    let _ = write!(
        out,
        "{place}: {} queued, {} running on {}",
        state.queued,
        state.running.len(),
        plural(state.workers, "worker")
    );
    if state.on_shared_queue > 0 {
        let _ = write!(out, ", {} on the shared queue", state.on_shared_queue);
    }
    if state.held_for_queue > 0 {
        let _ = write!(
            out,
            ", {} held in the inbox until the shared queue has room",
            state.held_for_queue
        );
    }
    if state.retry_waiting > 0 {
        let _ = write!(out, ", {} waiting for the outbox", state.retry_waiting);
    }
    if let Some(b) = state.shared_queue {
        let _ = write!(
            out,
            "\nshared queue: {} pending, {} running ({} redelivered), {} answers to write",
            b.pending, b.running, b.redelivered, b.answers_waiting
        );
    }
    let answered: Vec<String> =
        state.answered.iter().filter(|(_, n)| **n > 0).map(|(r, n)| format!("{n} {r}")).collect();
    let answered = if answered.is_empty() { "nothing yet".into() } else { answered.join(", ") };
    let _ = writeln!(out, "\nanswered since start: {answered}");
    for r in &state.running {
        let _ = writeln!(
            out,
            "  {}  {}  {} nodes, {} failures, {} solutions",
            r.input,
            duration(r.elapsed_seconds),
            r.nodes,
            r.failures,
            r.solutions
        );
    }
    out
}

/// `12.3 s`, `4 min 05 s` or `2 h 03 min`.
fn duration(seconds: f64) -> String {
    let s = seconds.max(0.0);
    match s as u64 {
        0..60 => format!("{s:.1} s"),
        60..3600 => format!("{} min {:02} s", s as u64 / 60, s as u64 % 60),
        whole => format!("{} h {:02} min", whole / 3600, whole % 3600 / 60),
    }
}

fn round(seconds: f64) -> f64 {
    (seconds * 10.0).round() / 10.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_well() {
        assert_eq!(duration(12.34), "12.3 s");
        assert_eq!(duration(245.0), "4 min 05 s");
        assert_eq!(duration(7380.0), "2 h 03 min");
    }
}
