//! Several daemons on one inbox, run as the real binary on a real folder tree: per-node
//! claims, the refusal of a second daemon with the same node id, the takeover of a dead
//! node's work within the lease, and a node restarted with its own id.

mod daemon_common;

use daemon_common::{
    BIN, Daemon, Fixture, LONG, claimed, drop_file, fixtures, names, results, same_grid, wait_until,
};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// One more daemon on the tree of a [`Daemon`], with its own node id and log.
struct Node {
    child: Option<Child>,
    log: PathBuf,
}

impl Node {
    /// Starts `kakurod serve` on `tree`'s configuration as node `id` and waits for its
    /// start-up line.
    fn start(tree: &Daemon, id: &str, flags: &[&str]) -> Node {
        static RUNS: AtomicUsize = AtomicUsize::new(0);
        let run = RUNS.fetch_add(1, Ordering::Relaxed);
        let log = tree.path(&format!("node-{id}-{run}.log"));
        let child = serve(tree, id, flags, &log);
        let node = Node { child: Some(child), log };
        wait_until(&format!("node {id} started"), LONG, None, || {
            node.log().contains("kakurod started")
        });
        node
    }

    fn log(&self) -> String {
        fs::read_to_string(&self.log).unwrap_or_default()
    }

    fn kill9(&mut self) {
        if let Some(mut child) = self.child.take() {
            child.kill().unwrap();
            child.wait().unwrap();
        }
    }

    fn term(&mut self) {
        let mut child = self.child.take().expect("running");
        let status = Command::new("kill").arg("-TERM").arg(child.id().to_string()).status();
        assert!(status.unwrap().success());
        let deadline = Instant::now() + LONG;
        while child.try_wait().unwrap().is_none() {
            assert!(Instant::now() < deadline, "did not exit\n{}", self.log());
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        self.kill9();
    }
}

fn serve(tree: &Daemon, id: &str, flags: &[&str], log: &Path) -> Child {
    Command::new(BIN)
        .args(["serve", "--config"])
        .arg(tree.config())
        .args(["--node-id", id])
        .args(flags)
        .env_remove("RUST_LOG")
        .env_remove("NOTIFY_SOCKET")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(fs::File::create(log).unwrap())
        .spawn()
        .unwrap()
}

/// Counting the solutions of an almost empty 9x9 Sudoku takes far longer than the puzzle's
/// own 2 s limit: answered as a timeout after 2 s of work.
fn slow_puzzle() -> String {
    let mut rows = vec![vec![0u8; 9]; 9];
    rows[0][0] = 1;
    let rows = serde_json::to_string(&rows).unwrap();
    format!(
        r#"{{"kind": "sudoku", "givens": {rows}, "settings": {{"mode": "count", "timeout_seconds": 2}}}}"#
    )
}

fn answered(tree: &Daemon) -> usize {
    names(&tree.path("done")).len() + names(&tree.path("failed")).len()
}

#[test]
fn a_dead_nodes_work_is_taken_over_and_every_input_is_answered_once() {
    let tree = Daemon::new("[workers]\nworkers = 2\n");
    let lease = ["--lease-seconds", "3"];
    let mut nodes: Vec<Node> =
        ["a", "b", "c"].iter().map(|id| Node::start(&tree, id, &lease)).collect();
    let all = fixtures();
    let mut inputs: Vec<(String, Option<Fixture>)> = Vec::new();
    // Enough slow work (24 x 2 s on 6 workers) that node b surely holds some after 1 s.
    for i in 0..24 {
        inputs.push((format!("slow-{i:02}.json"), None));
    }
    for i in 0..300 {
        let f = all[i % all.len()].clone();
        inputs.push((format!("{}-{i:04}.txt", f.name), Some(f)));
    }
    let slow = slow_puzzle();
    for (name, f) in &inputs {
        let text = f.as_ref().map_or(slow.as_str(), |f| f.text.as_str());
        drop_file(&tree.path("inbox"), name, text.as_bytes());
    }
    std::thread::sleep(Duration::from_secs(1));
    // Killed while it holds work: its claims must be taken over, not lost.
    let b_claims = tree.path("claim/b");
    wait_until("node b to hold a claim", LONG, None, || !names(&b_claims).is_empty());
    nodes[1].kill9();
    let killed = Instant::now();

    let logs = |nodes: &[Node]| nodes.iter().map(Node::log).collect::<Vec<_>>().join("\n");
    let deadline = Instant::now() + LONG;
    while answered(&tree) < inputs.len() {
        assert!(Instant::now() < deadline, "not all answered\n{}", logs(&nodes));
        std::thread::sleep(Duration::from_millis(20));
    }
    let took = killed.elapsed();
    let survivors = [&nodes[0], &nodes[2]].map(Node::log).join("\n");
    assert!(survivors.contains("took over the work of a node whose lease expired"), "{survivors}");

    let outbox = tree.path("outbox");
    let results = results(&outbox);
    for (name, fixture) in &inputs {
        let docs = results.get(name).unwrap_or_else(|| panic!("no result for {name}"));
        assert_eq!(docs.len(), 1, "{name} answered {} times: {docs:?}", docs.len());
        let (json, doc) = &docs[0];
        match fixture {
            Some(f) => {
                assert_eq!(doc["status"], "solved", "{name}: {doc}");
                let stem = json.trim_end_matches(".json");
                let solution = fs::read_to_string(outbox.join(format!("{stem}.solution.txt")))
                    .unwrap_or_else(|e| panic!("{stem}.solution.txt: {e}"));
                assert!(same_grid(&solution, &f.sol), "{name}: wrong solution\n{solution}");
            }
            None => assert_eq!(doc["status"], "timeout", "{name}: {doc}"),
        }
    }
    assert_eq!(results.len(), inputs.len(), "results for unknown inputs");
    let stray: Vec<_> = names(&outbox).into_iter().filter(|n| n.starts_with('.')).collect();
    assert!(stray.is_empty(), "temporary files left: {stray:?}");
    assert!(claimed(&tree.path("claim")).is_empty(), "left claimed");
    assert!(names(&tree.path("inbox")).is_empty(), "left in the inbox");
    assert_eq!(names(&tree.path("done")).len(), inputs.len());
    // Lease 3 s, renewed and checked every second; the slow puzzles take 2 s each.
    assert!(took < Duration::from_secs(25), "took {took:?}\n{}", logs(&nodes));
    for node in [0, 2] {
        nodes[node].term();
    }
}

#[test]
fn a_second_daemon_with_the_same_node_id_refuses_and_another_id_shares_the_inbox() {
    let tree = Daemon::new("");
    let _x = Node::start(&tree, "x", &[]);
    let second = Command::new(BIN)
        .args(["serve", "--config"])
        .arg(tree.config())
        .args(["--node-id", "x"])
        .output()
        .unwrap();
    assert_eq!(second.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&second.stderr);
    assert!(stderr.contains("another kakurod with node id 'x' already serves"), "{stderr}");
    let _y = Node::start(&tree, "y", &[]);
    let all = fixtures();
    for (i, f) in all.iter().take(10).enumerate() {
        drop_file(&tree.path("inbox"), &format!("p{i}.txt"), f.text.as_bytes());
    }
    wait_until("10 answers", LONG, None, || answered(&tree) >= 10);
    assert_eq!(names(&tree.path("claim")), [".lease.x", ".lease.y", "x", "y"]);
}

#[test]
fn a_node_restarted_with_its_own_id_picks_up_its_claims_at_once() {
    let tree = Daemon::new("[solver]\nmode = \"count\"\n");
    // A lease far longer than the test: only the node's own restart can take the claim.
    let flags = ["--lease-seconds", "600"];
    let mut a = Node::start(&tree, "a", &flags);
    let empty16 = ".".repeat(256) + "\n";
    drop_file(&tree.path("inbox"), "endless.txt", empty16.as_bytes());
    wait_until("the claim", LONG, None, || names(&tree.path("claim/a")) == ["endless.txt"]);
    a.kill9();
    let restarted = Instant::now();
    let a = Node::start(&tree, "a", &["--lease-seconds", "600", "--timeout", "0.5"]);
    wait_until("the requeued answer", LONG, None, || answered(&tree) == 1);
    assert!(restarted.elapsed() < Duration::from_secs(30), "{}", a.log());
    assert!(a.log().contains("requeued=1"), "{}", a.log());
    let results = results(&tree.path("outbox"));
    let doc = &results["endless.txt"][0].1;
    let puzzle = if doc["puzzles"].is_array() { &doc["puzzles"][0] } else { doc };
    assert_eq!(puzzle["status"], "timeout", "{doc}");
    assert!(claimed(&tree.path("claim")).is_empty());
}

#[test]
fn inputs_with_one_stem_answered_by_three_nodes_at_once_get_distinct_result_names() {
    let tree = Daemon::new("[output]\nsvg = false\n");
    let _nodes: Vec<Node> = ["a", "b", "c"].iter().map(|id| Node::start(&tree, id, &[])).collect();
    let all = fixtures();
    // `same.0`, `same.1`, ...: one stem, `same`, for every input.
    let count = 60;
    for i in 0..count {
        let f = &all[i % all.len()];
        drop_file(&tree.path("inbox"), &format!("same.{i}"), f.text.as_bytes());
    }
    wait_until("every answer", LONG, None, || answered(&tree) >= count);
    let results = results(&tree.path("outbox"));
    let mut stems: Vec<String> = Vec::new();
    for i in 0..count {
        let name = format!("same.{i}");
        let docs = results.get(&name).unwrap_or_else(|| panic!("no result for {name}"));
        assert_eq!(docs.len(), 1, "{name}: {docs:?}");
        let (json, doc) = &docs[0];
        let stem = json.trim_end_matches(".json").to_string();
        // The solution beside the document is this input's own.
        let solution = fs::read_to_string(tree.path("outbox").join(format!("{stem}.solution.txt")));
        assert!(same_grid(&solution.unwrap(), &all[i % all.len()].sol), "{name} ({stem}): {doc}");
        stems.push(stem);
    }
    stems.sort();
    stems.dedup();
    assert_eq!(stems.len(), count, "two inputs answered under one name");
    let stray: Vec<_> =
        names(&tree.path("outbox")).into_iter().filter(|n| n.starts_with('.')).collect();
    assert!(stray.is_empty(), "{stray:?}");
}

#[test]
fn a_dead_nodes_complete_result_only_moves_its_input_on_and_its_temporaries_go() {
    let tree = Daemon::new("");
    let lease = ["--lease-seconds", "2"];
    let mut dead = Node::start(&tree, "dead", &lease);
    let f = &fixtures()[0];
    drop_file(&tree.path("inbox"), "x.txt", f.text.as_bytes());
    wait_until("the answer", LONG, None, || answered(&tree) == 1);
    dead.kill9();
    // As if it had died between writing the result and moving the input on, in the middle
    // of writing another result.
    fs::rename(tree.path("done/x.txt"), tree.path("claim/dead/x.txt")).unwrap();
    let temporary = tree.path("outbox/.kakurod-tmp.dead.4000000.7");
    fs::write(&temporary, "half").unwrap();
    let a = Node::start(&tree, "a", &lease);
    wait_until("the takeover", LONG, None, || {
        a.log().contains("already answered by an earlier run") && !temporary.exists()
    });
    assert_eq!(answered(&tree), 1);
    assert_eq!(results(&tree.path("outbox"))["x.txt"].len(), 1);
    assert!(claimed(&tree.path("claim")).is_empty());
}
