//! Real NATS servers for the queue tests: `nats-server` (from `$KAKUROD_NATS_SERVER`, else
//! the PATH) with JetStream on a free loopback port and its own store, killed when the
//! test ends; and `kakurod worker` processes on them.

use super::{BIN, LONG, wait_until};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The server binary, or `None` (with a line saying so) when it is missing; under
/// `CI=true` a missing server fails the test instead.
pub fn server_binary(case: &str) -> Option<PathBuf> {
    let named = std::env::var_os("KAKUROD_NATS_SERVER").map(PathBuf::from);
    let found = named.or_else(|| {
        std::env::var_os("PATH")?
            .to_str()?
            .split(':')
            .map(|dir| Path::new(dir).join("nats-server"))
            .find(|p| p.is_file())
    });
    if found.is_none() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "{case}: nats-server is missing (CI installs it: .ci/run)"
        );
        eprintln!("SKIPPED {case}: nats-server is not installed");
    }
    found
}

/// A free TCP port on the loopback interface.
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// One running `nats-server -js`.
pub struct NatsServer {
    child: Option<Child>,
    binary: PathBuf,
    args: Vec<String>,
    /// Its client port.
    pub port: u16,
    log: PathBuf,
}

impl NatsServer {
    /// Starts a single server storing under `dir`.
    pub fn start(binary: &Path, dir: &Path) -> NatsServer {
        NatsServer::start_with(binary, dir, &[])
    }

    /// Starts a single server storing under `dir`, with `extra` flags (for example the
    /// ones that require a password or TLS). A port that another process takes between
    /// [`free_port`] and the server's start is given up for another.
    pub fn start_with(binary: &Path, dir: &Path, extra: &[&str]) -> NatsServer {
        let mut failures = Vec::new();
        for _ in 0..5 {
            let port = free_port();
            let store = dir.join(format!("nats-{port}"));
            let args = vec![
                "-js".to_string(),
                "-a".into(),
                "127.0.0.1".into(),
                "-p".into(),
                port.to_string(),
                "-sd".into(),
                store.display().to_string(),
            ];
            let args = args.into_iter().chain(extra.iter().map(|a| a.to_string())).collect();
            let mut server = NatsServer::new(binary, dir, port, args);
            match server.launch() {
                Ok(()) => return server,
                Err(log) if log.contains("address already in use") => failures.push(log),
                Err(log) => panic!("nats-server on port {port} did not start: {log}"),
            }
        }
        panic!("nats-server found no free port: {failures:#?}")
    }

    /// Starts a server listening on `port` with only the flags `args` (a configuration
    /// file that sets the port and JetStream, say).
    pub fn start_on(binary: &Path, dir: &Path, port: u16, args: &[&str]) -> NatsServer {
        let args = args.iter().map(|a| a.to_string()).collect();
        let mut server = NatsServer::new(binary, dir, port, args);
        server.restart();
        server
    }

    fn new(binary: &Path, dir: &Path, port: u16, args: Vec<String>) -> NatsServer {
        let log = dir.join(format!("nats-{port}.log"));
        NatsServer { child: None, binary: binary.to_path_buf(), args, port, log }
    }

    /// SIGKILL, no chance to sync its store.
    pub fn kill9(&mut self) {
        let mut child = self.child.take().expect("running");
        child.kill().unwrap();
        child.wait().unwrap();
    }

    /// Starts it (again) and waits until it says it is ready; panics with its log when it
    /// exits first.
    pub fn restart(&mut self) {
        if let Err(log) = self.launch() {
            panic!("nats-server on port {} did not start: {log}", self.port);
        }
    }

    /// Starts it and waits until its own log says it is ready, or it exits (its exit
    /// status and log). Readiness is read from its log, not from the port: a port check
    /// would also be answered by another server that holds the port.
    fn launch(&mut self) -> Result<(), String> {
        assert!(self.child.is_none(), "already running");
        let log = std::fs::File::create(&self.log).unwrap();
        let child = Command::new(&self.binary)
            .args(&self.args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .unwrap();
        let child = self.child.insert(child);
        let deadline = Instant::now() + LONG;
        loop {
            let text = std::fs::read_to_string(&self.log).unwrap_or_default();
            if text.contains("Server is ready") {
                return Ok(());
            }
            if let Ok(Some(status)) = child.try_wait() {
                self.child = None;
                return Err(format!("{status}\n{text}"));
            }
            if Instant::now() > deadline {
                return Err(format!("not ready after {LONG:?}\n{text}"));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Its URL.
    pub fn url(&self) -> String {
        format!("nats://127.0.0.1:{}", self.port)
    }
}

impl Drop for NatsServer {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Three `nats-server -js` on loopback routed to each other: one cluster whose streams may
/// have three replicas, so that it goes on while any one server is down.
pub struct NatsCluster {
    /// The servers, each with its own client port, cluster port and store.
    pub servers: Vec<NatsServer>,
}

impl NatsCluster {
    /// Starts the three servers, storing under `dir`, and waits until each takes
    /// connections (not until they have elected a leader: see [`wait_for_jetstream`]).
    pub fn start(binary: &Path, dir: &Path) -> NatsCluster {
        let ports: Vec<(u16, u16)> = (0..3).map(|_| (free_port(), free_port())).collect();
        let route = |p: u16| format!("nats://127.0.0.1:{p}");
        let servers = ports
            .iter()
            .enumerate()
            .map(|(i, &(port, cluster))| {
                let routes: Vec<String> =
                    ports.iter().filter(|p| p.1 != cluster).map(|p| route(p.1)).collect();
                let store = dir.join(format!("nats-{i}"));
                let args = [
                    "-js",
                    "-a",
                    "127.0.0.1",
                    "-p",
                    &port.to_string(),
                    "-sd",
                    &store.display().to_string(),
                    "-n",
                    &format!("n{i}"),
                    "--cluster_name",
                    "kakurod",
                    "--cluster",
                    &route(cluster),
                    "--routes",
                    &routes.join(","),
                ];
                let log = dir.join(format!("nats-{i}.log"));
                let args = args.map(String::from).to_vec();
                NatsServer { child: None, binary: binary.to_path_buf(), args, port, log }
            })
            .collect();
        let mut cluster = NatsCluster { servers };
        cluster.servers.iter_mut().for_each(NatsServer::restart);
        cluster
    }

    /// The three URLs, comma-separated, as `[queue] url` and `worker --queue` take them.
    pub fn urls(&self) -> String {
        self.servers.iter().map(NatsServer::url).collect::<Vec<_>>().join(",")
    }
}

/// One `kakurod worker` process, killed when dropped.
pub struct QueueWorker {
    child: Option<Child>,
    /// Its log file.
    pub log: PathBuf,
}

impl QueueWorker {
    /// Starts `kakurod worker --queue URL --workers SLOTS` with `extra` flags, logging to
    /// `log`.
    pub fn start(url: &str, slots: usize, extra: &[&str], log: PathBuf) -> QueueWorker {
        let mut args = vec!["--queue", url];
        args.extend_from_slice(extra);
        QueueWorker::start_with_env(slots, &args, &[], log)
    }

    /// Starts `kakurod worker --workers SLOTS` with `extra` flags and environment
    /// variables `env` (the queue's URL in `KAKUROD_QUEUE`, say), logging to `log`.
    pub fn start_with_env(
        slots: usize,
        extra: &[&str],
        env: &[(&str, &str)],
        log: PathBuf,
    ) -> QueueWorker {
        let file = std::fs::File::create(&log).unwrap();
        let child = Command::new(BIN)
            .args(["worker", "--workers", &slots.to_string()])
            .args(extra)
            .envs(env.iter().copied())
            .env_remove("RUST_LOG")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(file)
            .spawn()
            .unwrap();
        let worker = QueueWorker { child: Some(child), log };
        // Its pid is in its start-up line.
        wait_until("the worker's start-up line", LONG, None, || {
            worker.log_text().contains("kakurod worker started")
        });
        worker
    }

    /// Its process id.
    pub fn pid(&self) -> u32 {
        self.child.as_ref().expect("running").id()
    }

    /// Its log so far.
    pub fn log_text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// SIGKILL, no chance to hand anything back.
    pub fn kill9(&mut self) {
        let mut child = self.child.take().expect("running");
        child.kill().unwrap();
        child.wait().unwrap();
    }

    /// SIGTERM, and its exit status once it exits.
    pub fn terminate(&mut self) -> std::process::ExitStatus {
        let mut child = self.child.take().expect("running");
        let status = Command::new("kill").arg("-TERM").arg(child.id().to_string()).status();
        assert!(status.unwrap().success());
        child.wait().unwrap()
    }
}

impl Drop for QueueWorker {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}
