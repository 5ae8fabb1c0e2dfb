//! What a killed writer leaves in the outbox never blocks a result name: the next writer of
//! that name, the daemon or `kakurod solve --out`, answers as `NAME.*`, not `NAME-2.*`, and
//! removes the leftover. The leftovers are made as a kill leaves them (see
//! `docs/crash-safety.md` for the reservation files' layout).

use crate::daemon_common;

use daemon_common::{BIN, Daemon, LONG, drop_file, fixtures, names, wait_until};
use sha2::{Digest, Sha256};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, SystemTime};

/// The reservation file of `stem` in `outbox`.
fn reservation(outbox: &Path, stem: &str) -> PathBuf {
    let digest: String =
        Sha256::digest(stem.as_bytes()).iter().map(|b| format!("{b:02x}")).collect();
    outbox.join(format!(".kakurod-stem.{digest}"))
}

/// The owner record of a process of this host that has been killed (`NODE PID START HOST`).
fn killed_owner(node: &str) -> String {
    let mut child = Command::new("sleep").arg("60").spawn().unwrap();
    let stat = fs::read_to_string(format!("/proc/{}/stat", child.id())).unwrap();
    let start = stat.rsplit_once(')').unwrap().1.split_whitespace().nth(19).unwrap().to_string();
    child.kill().unwrap();
    child.wait().unwrap();
    let boot = fs::read_to_string("/proc/sys/kernel/random/boot_id").unwrap();
    let namespace = fs::read_link("/proc/self/ns/pid").unwrap();
    let namespace = namespace.to_str().unwrap().trim_start_matches("pid:[").trim_end_matches(']');
    format!("{node} {} {start} {}/{namespace}", child.id(), boot.trim())
}

/// Sets a file's modification time `age` into the past.
fn age(path: &Path, age: Duration) {
    let file = fs::File::options().write(true).open(path).unwrap();
    file.set_modified(SystemTime::now() - age).unwrap();
}

#[test]
fn a_daemon_answers_under_a_name_whose_reservation_a_killed_writer_left() {
    let mut d = Daemon::new("");
    d.start(&[]);
    let outbox = d.path("outbox");
    // Left by a `solve --out` (node: the host name) killed with the stem reserved.
    fs::write(reservation(&outbox, "p"), killed_owner("some-host")).unwrap();
    let fixture = &fixtures()[0];
    drop_file(&d.path("inbox"), "p.txt", fixture.text.as_bytes());
    wait_until("the answer", LONG, Some(&d), || names(&d.path("done")).len() == 1);
    d.signal("TERM");
    assert!(d.wait_exit().success());
    assert_eq!(names(&outbox), ["p.json", "p.solution.txt", "p.svg"], "{}", d.log());
}

#[test]
fn solve_out_answers_under_a_name_whose_reservation_an_older_version_left_empty() {
    let dir = tempfile::tempdir().unwrap();
    let outbox = dir.path().join("out");
    fs::create_dir(&outbox).unwrap();
    // An older version created the file and then wrote its owner; killed in between, it
    // left an empty reservation.
    let left = reservation(&outbox, "p");
    fs::write(&left, "").unwrap();
    age(&left, Duration::from_secs(120));
    let input = dir.path().join("p.txt");
    fs::write(&input, &fixtures()[0].text).unwrap();
    let status = Command::new(BIN).arg("solve").arg("--out").arg(&outbox).arg(&input).status();
    assert!(status.unwrap().success());
    assert_eq!(names(&outbox), ["p.json", "p.solution.txt"]);
}

#[test]
fn a_temporary_file_of_a_killed_writer_goes_at_the_next_start_though_its_process_id_is_reused() {
    let mut d = Daemon::new("");
    let outbox = d.path("outbox");
    // Another process runs under the id the killed writer had; only its start time differs.
    let mut reuser = Command::new("sleep").arg("60").spawn().unwrap();
    let stat = fs::read_to_string(format!("/proc/{}/stat", reuser.id())).unwrap();
    let start: u64 =
        stat.rsplit_once(')').unwrap().1.split_whitespace().nth(19).unwrap().parse().unwrap();
    let host = fs::read_to_string("/proc/sys/kernel/hostname").unwrap();
    let tag = |start: u64| format!("{}-{start}", reuser.id());
    let left = outbox.join(format!(".kakurod-tmp.{}.{}.0", host.trim(), tag(start - 1)));
    let living = outbox.join(format!(".kakurod-tmp.{}.{}.0", host.trim(), tag(start)));
    fs::write(&left, "half a result").unwrap();
    fs::write(&living, "being written").unwrap();
    d.start(&[]);
    d.signal("TERM");
    assert!(d.wait_exit().success());
    reuser.kill().unwrap();
    reuser.wait().unwrap();
    assert!(!left.exists(), "{}", d.log());
    assert!(living.exists(), "the file of a process that runs stays");
}
