//! What an operator sees and controls, with the real binary: `kakurod status` while a long
//! search runs, `kakurod cancel` of a running and of a queued input, the Prometheus
//! metrics (file and listener) parsed as the text format, and the systemd watchdog.

use crate::daemon_common;

use daemon_common::*;
use std::fs;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::os::unix::net::UnixDatagram;
use std::path::Path;
use std::process::{Command, Output};
use std::time::Duration;

/// An endless search: counting the solutions of an empty 16x16 Sudoku.
fn endless() -> Vec<u8> {
    (".".repeat(256) + "\n").into_bytes()
}

/// Runs `kakurod ARGS --config CFG` (the config of `d`).
fn kakurod(d: &Daemon, args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .arg("--config")
        .arg(d.config())
        .env_remove("RUST_LOG")
        .output()
        .unwrap()
}

/// The running input `name` in the status document, if it runs.
fn running<'a>(doc: &'a serde_json::Value, name: &str) -> Option<&'a serde_json::Value> {
    doc["nodes"][0]["running"].as_array()?.iter().find(|r| r["input"] == name)
}

/// The one JSON answer in the outbox for `name`.
fn answer(d: &Daemon, name: &str) -> serde_json::Value {
    let results = results(&d.path("outbox"));
    let docs = results.get(name).unwrap_or_else(|| panic!("no answer for {name}: {results:?}"));
    assert_eq!(docs.len(), 1, "{docs:?}");
    docs[0].1.clone()
}

#[test]
fn status_shows_the_search_moving_and_cancel_stops_it_with_an_answer() {
    let mut d = Daemon::new("[solver]\nmode = \"count\"\n[workers]\nworkers = 2\n");
    let out = kakurod(&d, &["status"]);
    assert_eq!(out.status.code(), Some(3), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("no daemon serves"), "{out:?}");
    d.start(&[]);
    drop_file(&d.path("inbox"), "endless.txt", &endless());
    wait_until("the running search in the status", LONG, Some(&d), || {
        running(&d.status_json(), "endless.txt").is_some_and(|r| r["nodes"].as_u64() > Some(0))
    });
    let first = d.status_json();
    let before = running(&first, "endless.txt").unwrap().clone();
    std::thread::sleep(Duration::from_millis(2500));
    let second = d.status_json();
    let after = running(&second, "endless.txt").unwrap();
    let grew = |key: &str| after[key].as_f64() > before[key].as_f64();
    assert!(grew("elapsed_seconds") && grew("nodes"), "{before} then {after}");
    let node = &second["nodes"][0];
    assert_eq!(node["pid"], d.pid());
    assert!(node["lease_age_seconds"].as_f64().is_some_and(|a| a < 5.0), "{node}");
    let text = kakurod(&d, &["status"]);
    assert!(text.status.success());
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("endless.txt") && text.contains("nodes") && text.contains("1 running"));

    // Named without its extension, as the only input of that stem.
    let out = kakurod(&d, &["cancel", "endless"]);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && said.contains("cancelled"), "{out:?}\n{}", d.log());
    assert!(said.starts_with("endless.txt: "), "{said}");
    assert_eq!(d.log().matches("cancel requested").count(), 1, "{}", d.log());
    let doc = answer(&d, "endless.txt");
    assert_eq!(doc["status"], "cancelled", "{doc}");
    assert!(doc["cancelled"]["nodes"].as_u64() > Some(0), "{doc}");
    // It keeps what it is, in its answer and in the metrics' kind.
    assert_eq!(doc["kind"], "sudoku", "{doc}");
    let line = d
        .log()
        .lines()
        .find(|l| l.contains("answered") && l.contains("endless.txt"))
        .map(String::from);
    assert!(line.as_deref().is_some_and(|l| l.contains("kind=sudoku")), "{line:?}");
    assert_eq!(names(&d.path("done")), ["endless.txt"]);
    assert!(claimed(&d.path("claim")).is_empty());
    wait_until("the cancel counted in the status", LONG, Some(&d), || {
        d.status_json()["nodes"][0]["answered"]["cancelled"] == 1
    });

    // Nothing else is disturbed: the daemon answers on, and a second cancel finds nothing.
    let inputs: Vec<_> = fixtures().into_iter().take(3).collect();
    for f in &inputs {
        drop_file(&d.path("inbox"), &format!("{}.txt", f.name), f.text.as_bytes());
    }
    wait_until("3 more answers", LONG, Some(&d), || names(&d.path("done")).len() == 4);
    let out = kakurod(&d, &["cancel", "endless.txt"]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    d.signal("TERM");
    assert!(d.wait_exit().success());
    assert_eq!(kakurod(&d, &["status"]).status.code(), Some(3), "the state outlived the daemon");
}

#[test]
fn a_queued_input_is_cancelled_without_being_solved() {
    let mut d = Daemon::new("[solver]\nmode = \"count\"\n[workers]\nworkers = 1\n");
    d.start(&[]);
    drop_file(&d.path("inbox"), "first.txt", &endless());
    wait_until("the first search", LONG, Some(&d), || {
        running(&d.status_json(), "first.txt").is_some()
    });
    drop_file(&d.path("inbox"), "second.txt", &endless());
    wait_until("the second input queued", LONG, Some(&d), || {
        d.status_json()["nodes"][0]["queued"] == 1
    });
    let out = kakurod(&d, &["cancel", "second.txt"]);
    assert!(out.status.success(), "{out:?}\n{}", d.log());
    let doc = answer(&d, "second.txt");
    assert_eq!(doc["status"], "cancelled");
    assert_eq!(doc["cancelled"]["nodes"], 0, "it was never searched: {doc}");
    assert_eq!(doc["kind"], "sudoku", "read, though never searched: {doc}");
    assert!(running(&d.status_json(), "first.txt").is_some(), "the running one goes on");
    // No longer counted queued, though its job waits in the pool behind the endless one.
    wait_until("the cancelled input gone from the queued count", LONG, Some(&d), || {
        d.status_json()["nodes"][0]["queued"] == 0
    });
    let out = kakurod(&d, &["cancel", "first.txt"]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(names(&d.path("done")), ["first.txt", "second.txt"]);
    d.signal("TERM");
    assert!(d.wait_exit().success());
    assert!(d.log().contains("drained=true"), "{}", d.log());
}

#[test]
fn cancel_without_a_daemon_says_so_and_the_next_daemon_acts_on_the_request() {
    let mut d = Daemon::new("");
    let f = &fixtures()[0];
    drop_file(&d.path("inbox"), "late.txt", f.text.as_bytes());
    drop_file(&d.path("inbox"), "twice.txt", f.text.as_bytes());
    drop_file(&d.path("inbox"), "twice.dzn", f.text.as_bytes());
    let out = kakurod(&d, &["cancel", "--wait", "0.3", "twice"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("could be any of twice.dzn, twice.txt"), "{said}");
    fs::remove_file(d.path("inbox").join("twice.txt")).unwrap();
    fs::remove_file(d.path("inbox").join("twice.dzn")).unwrap();
    let out = kakurod(&d, &["cancel", "--wait", "0.3", "late.txt"]);
    assert_eq!(out.status.code(), Some(3), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("no daemon answered"), "{out:?}");
    d.start(&[]);
    wait_until("the answer", LONG, Some(&d), || names(&d.path("done")).len() == 1);
    assert_eq!(answer(&d, "late.txt")["status"], "cancelled");
    d.signal("TERM");
    assert!(d.wait_exit().success());
}

/// A free TCP port on the loopback interface.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// `GET path` on the loopback `port`: the status code and the body.
fn get(port: u16, path: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(stream, "GET {path} HTTP/1.0\r\nHost: localhost\r\n\r\n").unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let code = response.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    let body = response.split_once("\r\n\r\n").map_or("", |(_, b)| b).to_string();
    (code, body)
}

/// The value of the sample `name` with `labels` in a Prometheus text document.
fn sample(text: &str, name: &str, labels: &[(&str, &str)]) -> Option<f64> {
    let lines = text.lines().map(|l| Ok(l.to_string()));
    let scrape = prometheus_parse::Scrape::parse(lines).expect("the Prometheus text format");
    let found = scrape
        .samples
        .into_iter()
        .find(|s| s.metric == name && labels.iter().all(|(k, v)| s.labels.get(k) == Some(*v)))?;
    match found.value {
        prometheus_parse::Value::Counter(v)
        | prometheus_parse::Value::Gauge(v)
        | prometheus_parse::Value::Untyped(v) => Some(v),
        _ => None,
    }
}

#[test]
fn the_metrics_file_and_listener_count_what_was_answered() {
    let mut d = Daemon::new("[metrics]\nfile = \"metrics/kakurod.prom\"\n");
    let port = free_port();
    d.start(&["--metrics-listen", &format!("127.0.0.1:{port}")]);
    let inputs: Vec<_> = fixtures().into_iter().take(6).collect();
    for f in &inputs {
        drop_file(&d.path("inbox"), &format!("{}.txt", f.name), f.text.as_bytes());
    }
    drop_file(&d.path("inbox"), "broken.txt", b"this is no puzzle\n");
    wait_until("7 answers", LONG, Some(&d), || {
        names(&d.path("done")).len() + names(&d.path("failed")).len() == 7
    });
    let solved = |text: &str| sample(text, "kakurod_inputs_total", &[("result", "solved")]);
    wait_until("the metrics file to count them", LONG, Some(&d), || {
        solved(&fs::read_to_string(d.path("metrics/kakurod.prom")).unwrap_or_default()) == Some(6.0)
    });
    let file = fs::read_to_string(d.path("metrics/kakurod.prom")).unwrap();
    assert_eq!(sample(&file, "kakurod_inputs_total", &[("result", "invalid")]), Some(1.0));
    assert_eq!(sample(&file, "kakurod_inputs_total", &[("result", "timeout")]), Some(0.0));
    assert_eq!(sample(&file, "kakurod_build_info", &[]), Some(1.0), "{file}");
    assert!(!file.contains("kakurod_shared_queue"), "gauges of a queue it has not: {file}");
    let (code, served) = get(port, "/metrics");
    assert_eq!(code, 200);
    assert_eq!(solved(&served), Some(6.0), "{served}");
    assert!(served.contains("kakurod_solve_seconds_bucket"), "{served}");
    assert_eq!(sample(&served, "kakurod_running", &[]), Some(0.0));
    assert_eq!(get(port, "/healthz"), (200, "ok\n".to_string()));
    assert_eq!(get(port, "/livez"), (200, "ok\n".to_string()));
    assert_eq!(get(port, "/nothing").0, 404);
    d.signal("TERM");
    assert!(d.wait_exit().success());
    // Stopped, it no longer tells node_exporter of a daemon at work.
    assert!(!d.path("metrics/kakurod.prom").exists(), "the metrics file outlives the daemon");
}

#[test]
fn systemd_hears_the_watchdog_and_a_status_line_with_the_counts() {
    let mut d = Daemon::new("");
    let socket_path = d.path("notify.sock");
    let socket = UnixDatagram::bind(&socket_path).unwrap();
    socket.set_read_timeout(Some(LONG)).unwrap();
    d.start_with_env(
        &[],
        &[("NOTIFY_SOCKET", &socket_path), ("WATCHDOG_USEC", Path::new("3000000"))],
    );
    let f = &fixtures()[0];
    drop_file(&d.path("inbox"), "one.txt", f.text.as_bytes());
    let (mut keep_alives, mut statuses) = (0, Vec::new());
    let mut buffer = [0u8; 4096];
    while keep_alives < 3 || !statuses.iter().any(|s: &String| s.contains("1 answered")) {
        let n = socket.recv(&mut buffer).expect("a notification");
        let message = String::from_utf8_lossy(&buffer[..n]).into_owned();
        keep_alives += message.lines().filter(|l| *l == "WATCHDOG=1").count();
        statuses.extend(message.lines().filter_map(|l| l.strip_prefix("STATUS=")).map(Into::into));
    }
    let last = statuses.last().unwrap();
    assert!(last.starts_with("watching") && last.contains("0 queued, 0 running"), "{last}");
    d.signal("TERM");
    assert!(d.wait_exit().success());
}
