//! The shared queue on real NATS servers that demand credentials, as an operator's servers
//! do: a server that requires a user and password (given in the URL, the worker's from
//! `KAKUROD_QUEUE` in its environment), a server that speaks only TLS with a certificate
//! from a private authority (`ca_file`, `--ca-file`), and a server in operator mode that
//! lets in only users with a `.creds` file (`creds_file`, `--creds-file`). Each serves the
//! daemon and a worker; missing or wrong credentials stop either at start with exit status
//! 2 and a clear message; the password is never written to a log.

use crate::daemon_common;

use daemon_common::nats::{NatsServer, QueueWorker, server_binary};
use daemon_common::{Daemon, LONG, drop_file, fixtures, names, results, same_grid, wait_until};
use std::path::{Path, PathBuf};
use std::process::Command;

const USER: &str = "kakurod";
const PASSWORD: &str = "pw-Zq81-never-logged";

/// A daemon tree whose queue is at `url`, with one slot of its own and `extra` lines in
/// `[queue]`.
fn daemon_on(url: &str, extra: &str) -> Daemon {
    Daemon::new(&format!(
        "[workers]\nworkers = 1\nfsync = false\n[output]\nsvg = false\n\
         [queue]\nurl = \"{url}\"\nack_wait_seconds = 5\n{extra}"
    ))
}

/// Drops twelve fixtures into the inbox and checks that each is answered once and right.
fn solves_a_batch(d: &Daemon) {
    let inputs: Vec<_> = fixtures().into_iter().take(12).collect();
    for f in &inputs {
        drop_file(&d.path("inbox"), &format!("{}.txt", f.name), f.text.as_bytes());
    }
    wait_until("twelve answers", LONG, Some(d), || names(&d.path("done")).len() == inputs.len());
    let outbox = d.path("outbox");
    let results = results(&outbox);
    for f in &inputs {
        let docs = &results[&format!("{}.txt", f.name)];
        assert_eq!(docs.len(), 1, "{}: {docs:?}", f.name);
        assert_eq!(docs[0].1["status"], "solved", "{}: {:?}", f.name, docs[0]);
        let solution =
            std::fs::read_to_string(outbox.join(format!("{}.solution.txt", f.name))).unwrap();
        assert!(same_grid(&solution, &f.sol), "{}: wrong solution\n{solution}", f.name);
    }
}

/// Runs `kakurod worker` with `args` and `env` until it exits (it must, within `LONG`);
/// its exit code and what it wrote.
fn worker_refused(args: &[&str], env: &[(&str, &str)]) -> (Option<i32>, String) {
    let out = Command::new(daemon_common::BIN)
        .args(["worker", "--workers", "1"])
        .args(args)
        .envs(env.iter().copied())
        .env_remove("RUST_LOG")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stderr).into_owned();
    (out.status.code(), text)
}

/// Serves a batch on the queue at `url`: the daemon (with `queue_line` in `[queue]`) and a
/// `kakurod worker` (with `worker_args` and `worker_env`) answer it, and the daemon stops
/// cleanly. Returns the daemon's and the worker's logs.
fn serves_a_batch(
    dir: &Path,
    url: &str,
    queue_line: &str,
    worker_args: &[&str],
    worker_env: &[(&str, &str)],
) -> String {
    let mut d = daemon_on(url, queue_line);
    d.start(&[]);
    let worker = QueueWorker::start_with_env(1, worker_args, worker_env, dir.join("worker.log"));
    solves_a_batch(&d);
    d.signal("TERM");
    assert!(d.wait_exit().success(), "{}", d.log());
    format!("{}{}", d.log(), worker.log_text())
}

/// Starts the daemon of `d`, expecting it to refuse to start: exit status 2; its log.
fn daemon_refused(d: &mut Daemon) -> String {
    d.launch(&[]);
    let status = d.wait_exit();
    assert_eq!(status.code(), Some(2), "{}", d.log());
    d.log()
}

#[test]
fn a_server_that_requires_a_password_serves_the_daemon_and_a_worker_and_no_log_shows_it() {
    let Some(binary) = server_binary("a server with a password") else { return };
    let dir = tempfile::tempdir().unwrap();
    let server = NatsServer::start_with(&binary, dir.path(), &["--user", USER, "--pass", PASSWORD]);
    let url = format!("nats://{USER}:{PASSWORD}@127.0.0.1:{}", server.port);
    // The worker takes its URL, password included, from the environment: `ps` shows none.
    let logs = serves_a_batch(dir.path(), &url, "", &[], &[("KAKUROD_QUEUE", url.as_str())]);
    assert!(logs.contains("***@127.0.0.1"), "the URL is logged redacted:\n{logs}");
    assert!(!logs.contains(PASSWORD), "a log shows the password:\n{logs}");

    // A wrong password: neither starts, and the message says why without the password.
    let wrong = format!("nats://{USER}:not-{PASSWORD}@127.0.0.1:{}", server.port);
    let log = daemon_refused(&mut daemon_on(&wrong, ""));
    assert!(log.to_lowercase().contains("authorization"), "{log}");
    assert!(!log.contains(PASSWORD), "{log}");
    let (code, log) = worker_refused(&[], &[("KAKUROD_QUEUE", wrong.as_str())]);
    assert_eq!(code, Some(2), "{log}");
    assert!(log.to_lowercase().contains("authorization") && !log.contains(PASSWORD), "{log}");
}

/// A private certificate authority and a server certificate for 127.0.0.1 signed by it,
/// written under `dir`: the authority's PEM file, the server's certificate and key.
fn certificates(dir: &Path) -> (PathBuf, PathBuf, PathBuf) {
    let ca_key = rcgen::KeyPair::generate().unwrap();
    let mut ca_params = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
    ca_params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    ca_params.distinguished_name.push(rcgen::DnType::CommonName, "kakurod test authority");
    let ca = rcgen::CertifiedIssuer::self_signed(ca_params, ca_key).unwrap();
    let key = rcgen::KeyPair::generate().unwrap();
    let params =
        rcgen::CertificateParams::new(vec!["127.0.0.1".to_string(), "localhost".into()]).unwrap();
    let cert = params.signed_by(&key, &ca).unwrap();
    let paths = (dir.join("ca.pem"), dir.join("server.pem"), dir.join("server-key.pem"));
    std::fs::write(&paths.0, ca.pem()).unwrap();
    std::fs::write(&paths.1, cert.pem()).unwrap();
    std::fs::write(&paths.2, key.serialize_pem()).unwrap();
    paths
}

#[test]
fn a_tls_server_with_a_private_authority_serves_the_daemon_and_a_worker_given_its_ca_file() {
    let Some(binary) = server_binary("a TLS server") else { return };
    let dir = tempfile::tempdir().unwrap();
    let (ca, cert, key) = certificates(dir.path());
    let (cert, key) = (cert.to_str().unwrap(), key.to_str().unwrap());
    let server =
        NatsServer::start_with(&binary, dir.path(), &["--tls", "--tlscert", cert, "--tlskey", key]);
    let url = format!("tls://127.0.0.1:{}", server.port);
    let ca_line = format!("ca_file = \"{}\"", ca.display());
    let worker_args = ["--queue", &url, "--ca-file", ca.to_str().unwrap()];
    serves_a_batch(dir.path(), &url, &ca_line, &worker_args, &[]);

    // Without the authority the server's certificate is not trusted: neither starts.
    let log = daemon_refused(&mut daemon_on(&url, ""));
    assert!(log.contains("cannot connect"), "{log}");
    let (code, log) = worker_refused(&["--queue", &url], &[]);
    assert_eq!(code, Some(2), "{log}");
}

/// A signed NATS JWT (`ed25519-nkey`) with `claims`, issued by `issuer`.
fn jwt(issuer: &nkeys::KeyPair, subject: &str, name: &str, nats: serde_json::Value) -> String {
    use base64::Engine;
    let b64 = |bytes: &[u8]| base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes);
    let claims = serde_json::json!({
        "jti": format!("{}{}", name.to_uppercase(), subject.len()),
        "iat": 1_700_000_000u64,
        "iss": issuer.public_key(),
        "sub": subject,
        "name": name,
        "nats": nats,
    });
    let header = b64(br#"{"typ":"JWT","alg":"ed25519-nkey"}"#);
    let body = format!("{header}.{}", b64(claims.to_string().as_bytes()));
    let signature = issuer.sign(body.as_bytes()).unwrap();
    format!("{body}.{}", b64(&signature))
}

/// A server configuration in operator mode (an operator, one account with JetStream, its
/// JWTs preloaded) and a `.creds` file of a user of that account, written under `dir`.
fn operator_mode(dir: &Path, port: u16) -> (PathBuf, PathBuf) {
    let operator = nkeys::KeyPair::new_operator();
    let account = nkeys::KeyPair::new_account();
    let user = nkeys::KeyPair::new_user();
    let op_jwt = jwt(
        &operator,
        &operator.public_key(),
        "op",
        serde_json::json!({"type": "operator", "version": 2}),
    );
    let unlimited = serde_json::json!({
        "subs": -1, "data": -1, "payload": -1, "imports": -1, "exports": -1,
        "wildcards": true, "conn": -1, "leaf": -1,
        "mem_storage": -1, "disk_storage": -1, "streams": -1, "consumer": -1,
    });
    let acc_jwt = jwt(
        &operator,
        &account.public_key(),
        "acc",
        serde_json::json!({"type": "account", "version": 2, "limits": unlimited}),
    );
    let user_jwt = jwt(
        &account,
        &user.public_key(),
        "user",
        serde_json::json!({"type": "user", "version": 2,
            "pub": {}, "sub": {}, "subs": -1, "data": -1, "payload": -1}),
    );
    // JetStream needs the server's own system account.
    let system = nkeys::KeyPair::new_account();
    let sys_jwt = jwt(
        &operator,
        &system.public_key(),
        "sys",
        serde_json::json!({"type": "account", "version": 2}),
    );
    let store = dir.join("store");
    let config = format!(
        "listen: 127.0.0.1:{port}\noperator: {op_jwt}\nresolver: MEMORY\n\
         system_account: {sys}\nresolver_preload: {{ {sys}: {sys_jwt}, {acc}: {acc_jwt} }}\n\
         jetstream: {{ store_dir: \"{}\" }}\n",
        store.display(),
        sys = system.public_key(),
        acc = account.public_key(),
    );
    let creds = format!(
        "-----BEGIN NATS USER JWT-----\n{user_jwt}\n------END NATS USER JWT------\n\n\
         -----BEGIN USER NKEY SEED-----\n{}\n------END USER NKEY SEED------\n",
        user.seed().unwrap()
    );
    let paths = (dir.join("server.conf"), dir.join("user.creds"));
    std::fs::write(&paths.0, config).unwrap();
    std::fs::write(&paths.1, creds).unwrap();
    paths
}

#[test]
fn a_server_in_operator_mode_serves_the_daemon_and_a_worker_given_a_creds_file() {
    let Some(binary) = server_binary("a server in operator mode") else { return };
    let dir = tempfile::tempdir().unwrap();
    let port = daemon_common::nats::free_port();
    let (config, creds) = operator_mode(dir.path(), port);
    let server = NatsServer::start_on(&binary, dir.path(), port, &["-c", config.to_str().unwrap()]);
    let url = server.url();
    let creds_line = format!("creds_file = \"{}\"", creds.display());
    let worker_args = ["--queue", &url, "--creds-file", creds.to_str().unwrap()];
    serves_a_batch(dir.path(), &url, &creds_line, &worker_args, &[]);

    // Without the credentials the server lets neither in.
    let log = daemon_refused(&mut daemon_on(&url, ""));
    assert!(log.to_lowercase().contains("authorization"), "{log}");
    let (code, log) = worker_refused(&["--queue", &url], &[]);
    assert_eq!(code, Some(2), "{log}");
    assert!(log.to_lowercase().contains("authorization"), "{log}");
}

#[test]
fn a_server_without_jetstream_stops_the_daemon_and_a_worker_at_start_saying_to_start_it_with_js() {
    let Some(binary) = server_binary("a server without JetStream") else { return };
    let dir = tempfile::tempdir().unwrap();
    let port = daemon_common::nats::free_port();
    let port_text = port.to_string();
    let _server =
        NatsServer::start_on(&binary, dir.path(), port, &["-a", "127.0.0.1", "-p", &port_text]);
    let url = format!("nats://127.0.0.1:{port}");
    let log = daemon_refused(&mut daemon_on(&url, ""));
    assert!(log.contains("does not run JetStream") && log.contains("nats-server -js"), "{log}");
    // `worker_refused` waits for the exit: a worker that waited for ever would hang here.
    let (code, log) = worker_refused(&["--queue", &url], &[]);
    assert_eq!(code, Some(2), "{log}");
    assert!(log.contains("does not run JetStream") && log.contains("nats-server -js"), "{log}");
}
