//! Helpers for the daemon's end-to-end tests: a temporary folder tree with its own
//! configuration, the real `kakurod` binary started on it (killed when the test ends), puzzle
//! fixtures with their expected solutions, and polling with generous deadlines.

#![allow(dead_code, reason = "the benches that include this module use parts of it")]

pub mod nats;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// The binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_kakurod");

/// A puzzle with its expected solution.
#[derive(Clone, Debug)]
pub struct Fixture {
    /// File stem, e.g. `kakuro-241_9x9`.
    pub name: String,
    /// The puzzle file's text.
    pub text: String,
    /// The `.sol` text.
    pub sol: String,
}

/// Folders of `tests/fixtures` whose puzzles (those with a `.sol`) the daemon tests use.
const FIXTURE_FOLDERS: [&str; 4] = ["daemon", "kakuro", "killer", "sudoku"];

/// Fixtures whose `.sol` is only one of several solutions, so an answer need not equal it.
const SEVERAL_SOLUTIONS: [&str; 1] = ["kakuro-257_24x28"];

/// Every puzzle of [`FIXTURE_FOLDERS`] that has a `.sol`, named `FOLDER-STEM` (the
/// `daemon` folder's files carry their kind in their names already), sorted by name.
pub fn fixtures() -> Vec<Fixture> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut out = Vec::new();
    for folder in FIXTURE_FOLDERS {
        for entry in fs::read_dir(root.join(folder)).unwrap() {
            let path = entry.unwrap().path();
            let puzzle = path.with_extension("txt");
            if path.extension().is_none_or(|e| e != "sol") || !puzzle.exists() {
                continue;
            }
            let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
            let name = if folder == "daemon" { stem } else { format!("{folder}-{stem}") };
            if SEVERAL_SOLUTIONS.contains(&name.as_str()) {
                continue;
            }
            let text = fs::read_to_string(&puzzle).unwrap();
            let sol = fs::read_to_string(&path).unwrap();
            out.push(Fixture { name, text, sol });
        }
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    assert!(out.len() >= 20, "fixtures missing in {}", root.display());
    out
}

/// True when two grids in the `.sol` layout hold the same tokens.
pub fn same_grid(a: &str, b: &str) -> bool {
    a.split_whitespace().eq(b.split_whitespace())
}

/// Writes `content` as `dir/name` the way the inbox protocol asks: under a temporary name,
/// then renamed in.
pub fn drop_file(dir: &Path, name: &str, content: &[u8]) {
    let temp = dir.join(format!(".{name}.part"));
    fs::write(&temp, content).unwrap();
    fs::rename(&temp, dir.join(name)).unwrap();
}

/// Names of the entries of `dir`, sorted (empty when it does not exist).
pub fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = match fs::read_dir(dir) {
        Ok(entries) => entries.map(|e| e.unwrap().file_name().into_string().unwrap()).collect(),
        Err(_) => Vec::new(),
    };
    v.sort();
    v
}

/// The names of the inputs in the claim folder `claim` (its files `ID.NAME`, without the
/// 16-digit claim id), sorted; the lock and other dot files are left out.
pub fn claimed(claim: &Path) -> Vec<String> {
    let mut v: Vec<String> = names(claim)
        .into_iter()
        .filter(|n| !n.starts_with('.'))
        .map(|n| match n.split_at_checked(17) {
            Some((id, name)) if id.ends_with('.') => name.to_string(),
            _ => panic!("{n} in the claim folder is not ID.NAME"),
        })
        .collect();
    v.sort();
    v
}

/// The JSON result documents in `outbox`, by the input file they answer (a list, so that a
/// second answer for the same input shows).
pub fn results(outbox: &Path) -> BTreeMap<String, Vec<(String, serde_json::Value)>> {
    let mut map: BTreeMap<String, Vec<(String, serde_json::Value)>> = BTreeMap::new();
    for name in names(outbox) {
        if name.starts_with('.') || !name.ends_with(".json") {
            continue;
        }
        let text = fs::read_to_string(outbox.join(&name)).unwrap();
        let doc: serde_json::Value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{name} is not complete JSON ({e}): {text}"));
        let file = doc["file"].as_str().unwrap().to_string();
        map.entry(file).or_default().push((name, doc));
    }
    map
}

/// `count` inputs cycling through the fixtures, named `FIXTURE-NNNN.txt`, with the solution
/// each must get.
pub fn batch(count: usize) -> Vec<(String, Fixture)> {
    let all = fixtures();
    (0..count)
        .map(|i| {
            let f = all[i % all.len()].clone();
            (format!("{}-{i:04}.txt", f.name), f)
        })
        .collect()
}

/// Asserts that every input of `inputs` has exactly one complete, correct result under its
/// own name (with its picture when `pictures`), that the inputs went to done/, and that
/// nothing is left half-done.
pub fn assert_all_answered(d: &Daemon, inputs: &[(String, Fixture)], pictures: bool) {
    let outbox = d.path("outbox");
    let results = results(&outbox);
    for (name, fixture) in inputs {
        let docs = results.get(name).unwrap_or_else(|| panic!("no result for {name}"));
        assert_eq!(docs.len(), 1, "{name} has {} results: {docs:?}", docs.len());
        let (json_name, doc) = &docs[0];
        assert_eq!(doc["status"], "solved", "{json_name}: {doc}");
        let stem = json_name.trim_end_matches(".json");
        assert_eq!(format!("{stem}.txt"), *name, "answered under another name");
        let solution = fs::read_to_string(outbox.join(format!("{stem}.solution.txt")))
            .unwrap_or_else(|e| panic!("{stem}.solution.txt: {e}"));
        assert!(same_grid(&solution, &fixture.sol), "{name}: wrong solution\n{solution}");
        if pictures {
            let picture = fs::read_to_string(outbox.join(format!("{stem}.svg")))
                .unwrap_or_else(|e| panic!("{stem}.svg: {e}"));
            let whole = picture.contains("<svg") && picture.trim_end().ends_with("</svg>");
            assert!(whole, "{stem}.svg");
        }
    }
    assert_eq!(results.len(), inputs.len(), "results for unknown inputs");
    let temporaries: Vec<_> = names(&outbox).into_iter().filter(|n| n.starts_with('.')).collect();
    assert!(temporaries.is_empty(), "temporary files left: {temporaries:?}");
    assert!(claimed(&d.path("claim")).is_empty(), "claim folder not empty");
    assert!(names(&d.path("inbox")).is_empty(), "inbox not empty");
    assert_eq!(names(&d.path("done")).len(), inputs.len());
}

/// Polls `done` every 10 ms until it is true; panics with `what` (and, when the daemon is
/// given, what its inbox and claim folder hold and its log) after `limit`.
pub fn wait_until(
    what: &str,
    limit: Duration,
    log: Option<&Daemon>,
    mut done: impl FnMut() -> bool,
) {
    let deadline = Instant::now() + limit;
    while !done() {
        if Instant::now() > deadline {
            let Some(d) = log else { panic!("timed out waiting for {what}") };
            // Where the inputs not answered are: still in the inbox, or claimed.
            let (inbox, claim) = (names(&d.path("inbox")), names(&d.path("claim")));
            let log = d.log();
            panic!(
                "timed out waiting for {what}\ninbox: {inbox:?}\nclaim: {claim:?}\n\
                 --- daemon log ---\n{log}"
            );
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// A generous deadline for things that should take a fraction of it.
pub const LONG: Duration = Duration::from_secs(60);

/// A folder tree with a configuration, and the daemon running on it.
pub struct Daemon {
    /// The temporary root (config.toml, inbox/, outbox/, done/, failed/, claim/).
    pub root: tempfile::TempDir,
    child: Option<Child>,
    runs: usize,
    /// A command the daemon is started through (e.g. `setpriv` to drop privileges).
    pub wrapper: Vec<String>,
}

impl Daemon {
    /// A fresh tree whose config.toml holds `config` (two workers unless it says otherwise).
    pub fn new(config: &str) -> Daemon {
        let root = tempfile::tempdir().unwrap();
        let text = if config.contains("[workers]") {
            config.to_string()
        } else {
            format!("[workers]\nworkers = 2\n{config}")
        };
        fs::write(root.path().join("config.toml"), text).unwrap();
        for dir in ["inbox", "outbox"] {
            fs::create_dir_all(root.path().join(dir)).unwrap();
        }
        Daemon { root, child: None, runs: 0, wrapper: Vec::new() }
    }

    /// A folder of the tree.
    pub fn path(&self, name: &str) -> PathBuf {
        self.root.path().join(name)
    }

    /// The configuration file.
    pub fn config(&self) -> PathBuf {
        self.path("config.toml")
    }

    /// `kakurod status --json --config CFG`, parsed.
    pub fn status_json(&self) -> serde_json::Value {
        let out =
            Command::new(BIN).args(["status", "--json", "--config"]).arg(self.config()).output();
        let out = out.unwrap();
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {out:?}"))
    }

    /// `kakurod cancel --config CFG INPUT`, which must succeed.
    pub fn cancel(&self, input: &str) {
        let config = self.config();
        let out = Command::new(BIN).args(["cancel", "--config"]).arg(config).arg(input).output();
        let out = out.unwrap();
        assert!(out.status.success(), "{out:?}\n{}", self.log());
    }

    fn log_path(&self, run: usize) -> PathBuf {
        self.path(&format!("daemon-{run}.log"))
    }

    /// Every log line written so far, all runs.
    pub fn log(&self) -> String {
        (1..=self.runs).map(|r| fs::read_to_string(self.log_path(r)).unwrap_or_default()).collect()
    }

    /// Starts the daemon with extra flags and waits for its start-up line.
    pub fn start(&mut self, flags: &[&str]) {
        self.start_with_env(flags, &[]);
    }

    /// Starts the daemon with extra flags and environment variables, and waits for its
    /// start-up line.
    pub fn start_with_env(&mut self, flags: &[&str], env: &[(&str, &Path)]) {
        self.launch_with_env(flags, env);
        let run = self.runs;
        wait_until("the start-up line", LONG, Some(self), || {
            fs::read_to_string(self.log_path(run)).unwrap_or_default().contains("kakurod started")
        });
    }

    /// Starts the daemon with extra flags without waiting for its start-up line, so that a
    /// kill may land in the middle of its start-up.
    pub fn launch(&mut self, flags: &[&str]) {
        self.launch_with_env(flags, &[]);
    }

    fn launch_with_env(&mut self, flags: &[&str], env: &[(&str, &Path)]) {
        assert!(self.child.is_none(), "already running");
        self.runs += 1;
        let log = fs::File::create(self.log_path(self.runs)).unwrap();
        let mut command = match self.wrapper.split_first() {
            Some((program, args)) => {
                let mut c = Command::new(program);
                c.args(args).arg(BIN);
                c
            }
            None => Command::new(BIN),
        };
        let child = command
            .arg("serve")
            .arg("--config")
            .arg(self.config())
            .args(flags)
            .env_remove("RUST_LOG")
            .envs(std::env::var("KAKUROD_TEST_LOG").map(|filter| ("RUST_LOG", filter)))
            .env_remove("NOTIFY_SOCKET")
            .envs(env.iter().map(|(k, v)| (k, v.as_os_str())))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .unwrap();
        self.child = Some(child);
    }

    /// How many times the daemon was started.
    pub fn runs(&self) -> usize {
        self.runs
    }

    /// The running daemon's process id.
    pub fn pid(&self) -> u32 {
        self.child.as_ref().expect("not running").id()
    }

    /// Sends a signal by name (`TERM`, `INT`, `KILL`) with kill(1).
    pub fn signal(&self, name: &str) {
        let status = Command::new("kill")
            .arg(format!("-{name}"))
            .arg(self.pid().to_string())
            .status()
            .unwrap();
        assert!(status.success());
    }

    /// Waits for the daemon to exit and returns its status.
    pub fn wait_exit(&mut self) -> ExitStatus {
        let mut child = self.child.take().expect("not running");
        let deadline = Instant::now() + LONG;
        loop {
            if let Some(status) = child.try_wait().unwrap() {
                return status;
            }
            if Instant::now() > deadline {
                let _ = child.kill();
                panic!("the daemon did not exit\n{}", self.log());
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// SIGKILL, no chance to clean up.
    pub fn kill9(&mut self) {
        let mut child = self.child.take().expect("not running");
        child.kill().unwrap();
        child.wait().unwrap();
    }
}

impl Drop for Daemon {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Says that `case` is skipped, and why; under `CI=true` (CI runs as root, where every
/// case can run) a skip is a failure instead, so that no case passes untested there.
pub fn skip(case: &str, why: &str) {
    if std::env::var("CI").is_ok_and(|ci| ci == "true") {
        panic!("{case} cannot run ({why}), and under CI=true every case must");
    }
    eprintln!("SKIPPED {case}: {why}");
}

/// True when the tests run as root (mounts possible, permissions not enforced).
pub fn is_root() -> bool {
    use std::os::unix::fs::MetadataExt;
    // /proc/self belongs to the process's effective user.
    fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0)
}

/// A tmpfs of `size` (e.g. `64k`) mounted on `dir` for the guard's lifetime; `None` (with a
/// line in the test output saying why the case is skipped) where mounting is not possible.
pub struct Tmpfs {
    dir: PathBuf,
}

impl Tmpfs {
    /// Mounts it, or says why not.
    pub fn mount(dir: &Path, size: &str, case: &str) -> Option<Tmpfs> {
        if !is_root() {
            skip(case, "mounting a tmpfs needs root");
            return None;
        }
        fs::create_dir_all(dir).unwrap();
        let status = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(dir)
            .stderr(Stdio::null())
            .status();
        if !status.is_ok_and(|s| s.success()) {
            skip(case, "`mount -t tmpfs` is not allowed here");
            return None;
        }
        Some(Tmpfs { dir: dir.to_path_buf() })
    }

    /// Changes its size (`mount -o remount,size=...`).
    pub fn resize(&self, size: &str) {
        let status = Command::new("mount")
            .args(["-o", &format!("remount,size={size}")])
            .arg(&self.dir)
            .status()
            .unwrap();
        assert!(status.success(), "remount of {}", self.dir.display());
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(&self.dir).status();
    }
}

/// The node id of the worker in a `kakurod status --json` document `doc` running `input`, if one runs it.
pub fn runner(doc: &serde_json::Value, input: &str) -> Option<String> {
    let nodes = doc["nodes"].as_array()?;
    let running = |n: &&serde_json::Value| {
        n["running"].as_array().is_some_and(|r| r.iter().any(|j| j["input"] == input))
    };
    nodes.iter().find(running).and_then(|n| n["node_id"].as_str()).map(String::from)
}
