//! Fault injection on the running daemon (the real binary): a full outbox, an outbox removed
//! while it runs, an unreadable input, a claim folder on another filesystem. Cases that need
//! root (mounting a tmpfs) or a non-root user (unreadable files) say so in the test output
//! when they are skipped. The kill -9 and drain cases are in `daemon.rs`.

use crate::daemon_common;

use daemon_common::{
    BIN, Daemon, Fixture, LONG, Tmpfs, claimed, drop_file, fixtures, is_root, names, results,
    same_grid, skip, wait_until,
};
use std::fs;
use std::os::unix::net::UnixDatagram;
use std::process::Command;

fn inputs(count: usize) -> Vec<(String, Fixture)> {
    let all = fixtures();
    (0..count).map(|i| (format!("p{i:02}.txt"), all[i % all.len()].clone())).collect()
}

/// Every input has its correct solution in the outbox and went to done/.
fn assert_answered(d: &Daemon, inputs: &[(String, Fixture)]) {
    let outbox = d.path("outbox");
    let results = results(&outbox);
    for (name, fixture) in inputs {
        let docs = results.get(name).unwrap_or_else(|| panic!("no result for {name}"));
        assert_eq!(docs.len(), 1, "{name}: {docs:?}");
        let stem = docs[0].0.trim_end_matches(".json");
        let solution = fs::read_to_string(outbox.join(format!("{stem}.solution.txt"))).unwrap();
        assert!(same_grid(&solution, &fixture.sol), "{name}");
    }
    assert_eq!(names(&d.path("done")).len(), inputs.len(), "{}", d.log());
    assert!(claimed(&d.path("claim")).is_empty(), "{}", d.log());
}

/// Runs the daemon as `nobody` when the tests run as root (root reads and writes any file,
/// so permission faults need another user). False, with a line saying so, where that is not
/// possible.
fn without_root(d: &mut Daemon, case: &str) -> bool {
    if !is_root() {
        return true;
    }
    let owned = Command::new("chown")
        .args(["-R", "65534:65534"])
        .arg(d.root.path())
        .status()
        .is_ok_and(|s| s.success());
    if !owned || Command::new("setpriv").arg("--version").output().is_err() {
        skip(case, "needs a non-root user (or setpriv as root)");
        return false;
    }
    d.wrapper =
        ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"].map(String::from).to_vec();
    true
}

fn chmod(mode: &str, path: &std::path::Path) {
    assert!(Command::new("chmod").arg(mode).arg(path).status().unwrap().success());
}

#[test]
fn an_outbox_removed_while_running_is_created_again_and_the_inputs_are_answered() {
    let mut d = Daemon::new("");
    let socket_path = d.path("notify.sock");
    let socket = UnixDatagram::bind(&socket_path).unwrap();
    socket.set_read_timeout(Some(LONG)).unwrap();
    d.start_with_env(&[], &[("NOTIFY_SOCKET", &socket_path)]);
    fs::remove_dir_all(d.path("outbox")).unwrap();
    let inputs = inputs(5);
    for (name, f) in &inputs {
        drop_file(&d.path("inbox"), name, f.text.as_bytes());
    }
    wait_until("5 answers in the re-created outbox", LONG, Some(&d), || {
        names(&d.path("done")).len() == 5
    });
    d.signal("TERM");
    assert!(d.wait_exit().success());
    assert_answered(&d, &inputs);
    let log = d.log();
    let claim = d.path("claim").canonicalize().unwrap();
    assert!(log.contains(&format!("the input waits in {}", claim.display())), "{log}");
    assert!(log.contains("created again"), "{log}");
    assert!(log.contains("results can be written again"), "{log}");
    // `systemctl status` was told of the waiting inputs, and of the end of the trouble.
    let mut statuses = Vec::new();
    let mut buffer = [0u8; 4096];
    while let Ok(n) = socket.recv(&mut buffer) {
        let message = String::from_utf8_lossy(&buffer[..n]).into_owned();
        statuses
            .extend(message.lines().filter_map(|l| l.strip_prefix("STATUS=")).map(String::from));
        if message.contains("STOPPING=1") {
            break;
        }
    }
    let waiting = statuses.iter().position(|s| s.contains("results cannot be written"));
    let watching = statuses.iter().rposition(|s| s.starts_with("watching"));
    assert!(waiting.is_some() && watching > waiting, "{statuses:?}");
}

#[test]
fn an_outbox_without_write_permission_is_retried_until_it_is_granted() {
    let mut d = Daemon::new("");
    if !without_root(&mut d, "unwritable outbox") {
        return;
    }
    d.start(&[]);
    chmod("555", &d.path("outbox"));
    let inputs = inputs(4);
    for (name, f) in &inputs {
        drop_file(&d.path("inbox"), name, f.text.as_bytes());
    }
    wait_until("the 4 inputs waiting after a failed retry", LONG, Some(&d), || {
        d.log().contains("results still cannot be written") && claimed(&d.path("claim")).len() == 4
    });
    assert!(names(&d.path("done")).is_empty());
    chmod("755", &d.path("outbox"));
    wait_until("4 answers once the outbox is writable", LONG, Some(&d), || {
        names(&d.path("done")).len() == 4
    });
    d.signal("TERM");
    assert!(d.wait_exit().success());
    assert_answered(&d, &inputs);
    assert!(d.log().contains("ermission denied"), "{}", d.log());
}

#[test]
fn a_full_outbox_holds_the_inputs_in_claim_and_they_are_answered_once_space_returns() {
    let d = Daemon::new("[output]\nsvg = false\n");
    let Some(tmpfs) = Tmpfs::mount(&d.path("outbox"), "64k", "full outbox") else { return };
    let mut d = d;
    d.start(&[]);
    let inputs = inputs(30);
    for (name, f) in &inputs {
        drop_file(&d.path("inbox"), name, f.text.as_bytes());
    }
    wait_until("results failing on the full outbox", LONG, Some(&d), || {
        d.log().contains("No space left on device") && !claimed(&d.path("claim")).is_empty()
    });
    // Still full at the first retry: the inputs keep waiting in claim/.
    wait_until("a failed retry", LONG, Some(&d), || {
        d.log().contains("results still cannot be written")
    });
    let waiting = claimed(&d.path("claim")).len();
    assert!(waiting > 0, "{}", d.log());
    tmpfs.resize("20m");
    wait_until("30 answers after the outbox grew", LONG, Some(&d), || {
        names(&d.path("done")).len() == 30
    });
    d.signal("TERM");
    assert!(d.wait_exit().success());
    assert_answered(&d, &inputs);
    // One warning when the trouble began and one per failed retry, not one per input.
    let log = d.log();
    let warnings = log.lines().filter(|l| l.contains("WARN") && l.contains("write")).count();
    assert!(warnings >= 2, "{log}");
    assert!(waiting < 5 || warnings < waiting, "{warnings} warnings for {waiting} inputs\n{log}");
    assert!(log.contains("results can be written again"), "{log}");
    drop(tmpfs);
}

#[test]
fn an_unreadable_input_gets_an_error_result_and_goes_to_failed() {
    let mut d = Daemon::new("");
    if !without_root(&mut d, "unreadable input") {
        return;
    }
    d.start(&[]);
    let inbox = d.path("inbox");
    let temp = inbox.join(".secret.txt.part");
    fs::write(&temp, &fixtures()[0].text).unwrap();
    chmod("000", &temp);
    if is_root() {
        Command::new("chown").arg("0:0").arg(&temp).status().unwrap();
    }
    fs::rename(&temp, inbox.join("secret.txt")).unwrap();
    wait_until("the error result", LONG, Some(&d), || {
        d.path("outbox").join("secret.error.json").exists()
    });
    let text = fs::read_to_string(d.path("outbox").join("secret.error.json")).unwrap();
    assert!(text.contains("cannot read the file") && text.contains("ermission denied"), "{text}");
    wait_until("the input in failed/", LONG, Some(&d), || {
        names(&d.path("failed")) == ["secret.txt"]
    });
    assert!(claimed(&d.path("claim")).is_empty(), "{}", d.log());
}

#[test]
fn a_claim_folder_on_another_filesystem_is_refused_at_start_up() {
    let d = Daemon::new("");
    let Some(_tmpfs) = Tmpfs::mount(&d.path("claim"), "1m", "claim on another filesystem") else {
        return;
    };
    let out = Command::new(BIN).args(["serve", "--config"]).arg(d.config()).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("is not on the same filesystem as the inbox"), "{stderr}");
    assert_eq!(stderr.matches("not on the same filesystem").count(), 1, "said twice: {stderr}");
}

#[test]
fn folders_that_overlap_are_refused_at_start_up_naming_both_settings() {
    // The outbox given on the command line is the inbox: the daemon would answer its own
    // answers for ever.
    let d = Daemon::new("");
    let inbox = d.path("inbox");
    let out = Command::new(BIN)
        .args(["serve", "--config"])
        .arg(d.config())
        .arg("--inbox")
        .arg(&inbox)
        .arg("--outbox")
        .arg(&inbox)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("folders.inbox") && stderr.contains("is the same folder as folders.outbox"),
        "{stderr}"
    );
    assert!(names(&inbox).is_empty(), "{:?}", names(&inbox));

    // The configuration's done folder lies inside the inbox, written with `..` so that only
    // the resolved paths show it.
    let d = Daemon::new("[folders]\ninbox = \"inbox\"\ndone = \"outbox/../inbox/old\"\n");
    let out = Command::new(BIN).args(["serve", "--config"]).arg(d.config()).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("folders.done") && stderr.contains("lies inside folders.inbox"),
        "{stderr}"
    );
    assert_eq!(stderr.matches("must lie apart").count(), 1, "said twice: {stderr}");

    // The claim folder is the done folder.
    let d = Daemon::new("[folders]\nclaim = \"archive\"\ndone = \"archive\"\n");
    let out = Command::new(BIN).args(["serve", "--config"]).arg(d.config()).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("folders.claim") && stderr.contains("folders.done"), "{stderr}");
}
