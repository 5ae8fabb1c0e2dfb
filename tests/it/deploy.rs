//! The deploy recipes kept in `deploy/`: the daemon (a StatefulSet of one) and the workers (a Deployment
//! without a volume) carry the hardening,
//! and the Slurm array script, run as each task of an array, answers every file once.

use std::fs;
use std::path::Path;
use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

#[test]
fn the_kubernetes_recipe_holds_a_valid_config_and_the_hardening() {
    let yaml = fs::read_to_string(Path::new(ROOT).join("deploy/kubernetes/kakurod.yaml")).unwrap();
    // The ConfigMap's configuration itself is read and checked by the daemon's own tests
    // (`settings`); the probes ask the listener it configures (its answers are
    // tested in tests/it/daemon_ops.rs).
    for needle in [
        "containerPort: 9464",
        "readinessProbe:\n            httpGet:\n              path: /healthz",
        "livenessProbe:\n            httpGet:\n              path: /livez",
        "prometheus.io/port: \"9464\"",
        "kind: StatefulSet",
        "replicas: 1",
        "kind: Deployment",
        "- worker",
        "- nats://nats:4222",
        "type: nats-jetstream",
        "runAsNonRoot: true",
        "readOnlyRootFilesystem: true",
        "allowPrivilegeEscalation: false",
        "- ALL",
        "type: RuntimeDefault",
    ] {
        assert!(yaml.contains(needle), "deploy/kubernetes/kakurod.yaml lacks {needle:?}");
    }
}

#[test]
fn the_slurm_array_script_shares_out_a_folder_and_answers_every_file_once() {
    let script = Path::new(ROOT).join("deploy/slurm/kakurod-array.sh");
    let syntax = Command::new("bash").arg("-n").arg(&script).status().unwrap();
    assert!(syntax.success(), "bash -n {}", script.display());
    let dir = tempfile::tempdir().unwrap();
    let puzzles = dir.path().join("puzzles");
    fs::create_dir(&puzzles).unwrap();
    let fixtures = Path::new(ROOT).join("tests/fixtures/daemon");
    let mut count = 0;
    for entry in fs::read_dir(fixtures).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "txt") {
            fs::copy(&path, puzzles.join(path.file_name().unwrap())).unwrap();
            count += 1;
        }
    }
    // A name with a space, and a temporary name that must be left alone.
    fs::write(
        puzzles.join("with space.txt"),
        fs::read(puzzles.join("kakuro-171_10x10.txt")).unwrap(),
    )
    .unwrap();
    fs::write(puzzles.join(".half.part"), "1 1\n").unwrap();
    // A published solution beside its puzzle, as in the janko folders: not an input.
    fs::write(puzzles.join("kakuro-171_10x10.sol"), "9 9\n").unwrap();
    count += 1;
    let results = dir.path().join("results");
    // An array started at index 1 (`--array=1-3`). Each task's log ends with its totals.
    let mut reported = 0;
    for task in 1..=3 {
        let out = Command::new("bash")
            .arg(&script)
            .arg(&puzzles)
            .arg(&results)
            .env("KAKUROD", env!("CARGO_BIN_EXE_kakurod"))
            .env("SLURM_ARRAY_TASK_ID", task.to_string())
            .env("SLURM_ARRAY_TASK_MIN", "1")
            .env("SLURM_ARRAY_TASK_COUNT", "3")
            .output()
            .unwrap();
        assert!(out.status.success(), "task {task}: {out:?}");
        let log = String::from_utf8_lossy(&out.stderr);
        let totals = log.lines().rfind(|l| l.starts_with("kakurod: ")).expect("the totals line");
        assert!(totals.contains(" solved, 0 unsatisfiable, 0 invalid, 0 timeout"), "{totals}");
        let files = totals.strip_prefix("kakurod: ").and_then(|t| t.split(' ').next());
        reported += files.and_then(|n| n.parse::<usize>().ok()).expect("a file count");
    }
    assert_eq!(reported, count, "the tasks' totals add up to the folder");
    let mut answered = Vec::new();
    for task in 0..3 {
        for entry in fs::read_dir(results.join(format!("task-{task}"))).unwrap() {
            let name = entry.unwrap().file_name().into_string().unwrap();
            if let Some(stem) = name.strip_suffix(".json") {
                let text = fs::read_to_string(results.join(format!("task-{task}/{name}"))).unwrap();
                let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
                // A batch file (one puzzle per line) lists its puzzles.
                let puzzles = doc["puzzles"].as_array().cloned().unwrap_or(vec![doc.clone()]);
                assert!(puzzles.iter().all(|p| p["status"] == "solved"), "{name}: {doc}");
                answered.push(stem.to_string());
            }
        }
    }
    answered.sort();
    let before = answered.len();
    answered.dedup();
    assert_eq!(answered.len(), before, "a file answered twice: {answered:?}");
    assert_eq!(answered.len(), count, "{answered:?}");
}

#[test]
fn the_container_build_makes_the_image_the_kubernetes_recipe_runs() {
    let root = Path::new(ROOT);
    let containerfile = fs::read_to_string(root.join("deploy/container/Containerfile")).unwrap();
    let build = fs::read_to_string(root.join("deploy/container/build.sh")).unwrap();
    let yaml = fs::read_to_string(root.join("deploy/kubernetes/kakurod.yaml")).unwrap();
    let instructions: Vec<&str> = containerfile
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    // One stage on a base given as an argument: build.sh passes the base it made offline.
    let froms: Vec<&&str> = instructions.iter().filter(|l| l.starts_with("FROM ")).collect();
    assert_eq!(froms, [&"FROM ${BASE}"]);
    assert!(instructions.contains(&"ARG BASE=docker.io/library/debian:bookworm-slim"));
    assert!(build.contains("--build-arg \"BASE=$base\""));
    assert!(build.contains("mmdebstrap") && build.contains("podman import"));
    // No RUN: building the image never starts a container, which some hosts refuse.
    assert!(!instructions.iter().any(|l| l.starts_with("RUN ")), "{instructions:?}");
    // What it copies is what build.sh stages in the context.
    assert!(instructions.contains(&"COPY kakurod /usr/local/bin/kakurod"));
    assert!(build.contains("strip -o \"$context/kakurod\""));
    assert!(instructions.contains(&"ENTRYPOINT [\"/usr/local/bin/kakurod\"]"));
    // The recipe gives only arguments, so the entrypoint must be the binary; the user the
    // image runs as is the one the pod's security context names.
    assert!(yaml.contains("args:\n            - serve") && !yaml.contains("command:"));
    assert!(instructions.contains(&"USER 65532:65532") && yaml.contains("runAsUser: 65532"));
    assert!(yaml.contains("deploy/container/build.sh"));
}

#[test]
fn the_debian_package_names_what_it_installs_and_every_file_exists() {
    let root = Path::new(ROOT);
    let manifest: toml::Value =
        toml::from_str(&fs::read_to_string(root.join("Cargo.toml")).unwrap()).unwrap();
    let deb = &manifest["package"]["metadata"]["deb"];
    let build = fs::read_to_string(root.join("deploy/debian/build.sh")).unwrap();
    let mut destinations = Vec::new();
    for asset in deb["assets"].as_array().unwrap() {
        let source = asset[0].as_str().unwrap();
        destinations.push(asset[1].as_str().unwrap().to_owned());
        if let Some(staged) = source.strip_prefix("target/deb-assets/") {
            // Made by build.sh before cargo-deb packs it.
            let folder = staged.split('/').next().unwrap();
            assert!(build.contains(&format!("$stage/{folder}")), "build.sh does not make {source}");
        } else if source != "target/release/kakurod" {
            let found = glob_matches(root, source);
            assert!(found > 0, "the asset {source} does not exist");
        }
    }
    for wanted in [
        "usr/bin/",
        "etc/kakurod/config.toml",
        "usr/lib/sysusers.d/kakurod.conf",
        "usr/share/man/man1/",
        "usr/share/doc/kakurod/copyright",
    ] {
        assert!(destinations.iter().any(|d| d == wanted), "nothing goes to {wanted}");
    }
    // The daemon's unit, enabled and started; the queue worker's, installed only.
    let units: Vec<(&str, bool)> = deb["systemd-units"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| (u["unit-name"].as_str().unwrap(), u["enable"].as_bool().unwrap()))
        .collect();
    assert_eq!(units, [("kakurod", true), ("kakurod-worker", false)]);
    let scripts = deb["maintainer-scripts"].as_str().unwrap();
    let postrm = fs::read_to_string(root.join(scripts).join("postrm")).unwrap();
    assert!(postrm.contains("#DEBHELPER#"), "cargo-deb's fragments have no place");
    // The unit the package installs is the repository's, moved from /usr/local to /usr.
    assert!(
        build.contains("for unit in systemd/kakurod.service deploy/nats/kakurod-worker.service")
    );
    assert!(
        fs::read_to_string(root.join("docs/service.md"))
            .unwrap()
            .contains("deploy/debian/build.sh && sudo apt install ./target/debian/kakurod_*.deb")
    );
}

/// How many files match a path whose last part may be `*.EXT` or `*`.
fn glob_matches(root: &Path, pattern: &str) -> usize {
    let path = root.join(pattern);
    let name = path.file_name().unwrap().to_str().unwrap().to_owned();
    let Some(suffix) = name.strip_prefix('*') else {
        return usize::from(path.is_file());
    };
    fs::read_dir(path.parent().unwrap())
        .unwrap()
        .filter(|e| e.as_ref().unwrap().file_name().to_str().unwrap().ends_with(suffix))
        .count()
}

#[test]
fn the_service_ships_its_configuration_and_its_user() {
    let root = Path::new(ROOT);
    let unit = fs::read_to_string(root.join("systemd/kakurod.service")).unwrap();
    // The shipped configuration's folders, under the state directory, are checked by the
    // daemon's own tests (`settings`).
    assert!(unit.contains("StateDirectory=kakurod\n"));
    assert!(unit.contains("Type=notify\n") && unit.contains("WatchdogSec=60s\n"));
    assert!(unit.contains("--config /etc/kakurod/config.toml"));
    let sysusers = fs::read_to_string(root.join("systemd/kakurod.sysusers")).unwrap();
    assert!(sysusers.lines().any(|l| l.starts_with("u kakurod ")));
    assert!(unit.contains("User=kakurod\n") && unit.contains("Group=kakurod\n"));
    // Submitters in the group may write the inbox and read the outbox.
    assert!(unit.contains("StateDirectoryMode=2770\n") && unit.contains("UMask=0007\n"));
    let steps = fs::read_to_string(root.join("docs/service.md")).unwrap();
    for step in [
        "systemd/config.toml /etc/kakurod/config.toml",
        "systemd/kakurod.sysusers /etc/sysusers.d/kakurod.conf",
    ] {
        assert!(steps.contains(step), "docs/service.md lacks the install step {step:?}");
    }
}
