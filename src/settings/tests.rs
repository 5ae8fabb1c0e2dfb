//! The configuration's defaults, overrides and validation.

use super::*;

/// No overrides: the file alone.
fn none() -> ServeOverrides {
    ServeOverrides::default()
}

#[test]
fn an_empty_file_gives_the_documented_defaults() {
    let config: Config = toml::from_str("").unwrap();
    let settings = Settings::resolve(config, Path::new("/srv/k"), &none()).unwrap();
    assert_eq!(settings.folders.inbox, PathBuf::from("/srv/k/inbox"));
    assert_eq!(settings.folders.claim, PathBuf::from("/srv/k/claim"));
    assert_eq!(settings.job.pipeline.solve.threads, 0);
    assert_eq!(settings.job.pipeline.solve.timeout, Some(Duration::from_secs(60)));
    assert_eq!(settings.settle, Duration::from_millis(500));
    assert!(settings.workers >= 1);
    assert!(settings.job.svg && settings.fsync);
}

#[test]
fn the_settings_of_the_shared_inbox_protocol_are_gone() {
    let error = toml::from_str::<Config>("[cluster]\nnode_id = \"n1\"\n").unwrap_err();
    assert!(error.to_string().contains("cluster"), "{error}");
}

#[test]
fn the_shipped_config_parses_to_the_defaults() {
    let text = include_str!("../../config.toml");
    let shipped: Config = toml::from_str(text).unwrap();
    assert_eq!(shipped, Config::default());
}

#[test]
fn unknown_keys_are_rejected() {
    let error = toml::from_str::<Config>("[workers]\nworkerz = 3\n").unwrap_err();
    assert!(error.to_string().contains("workerz"), "{error}");
}

#[test]
fn overrides_win_over_the_file() {
    let config: Config =
        toml::from_str("[workers]\nworkers = 3\n[log]\nformat = \"text\"\n").unwrap();
    let a = ServeOverrides {
        workers: Some(5),
        inbox: Some("/in".into()),
        threads: Some(2),
        timeout: Some(Duration::ZERO),
        drain_timeout: Some(Duration::from_secs(4)),
        log_format: Some(LogFormat::Json),
        log_level: Some(LogLevel::Trace),
        no_svg: true,
        no_fsync: true,
        metrics_listen: Some("127.0.0.1:9464".into()),
        ..ServeOverrides::default()
    };
    let settings = Settings::resolve(config, Path::new("."), &a).unwrap();
    assert_eq!(settings.workers, 5);
    assert_eq!(settings.folders.inbox, PathBuf::from("/in"));
    assert_eq!(settings.log_format, LogFormat::Json);
    assert_eq!(settings.log_level, LogLevel::Trace);
    assert_eq!(settings.job.pipeline.solve.threads, 2);
    assert_eq!(settings.job.pipeline.solve.timeout, None, "0 is no limit");
    assert_eq!(settings.drain_timeout, Duration::from_secs(4));
    assert_eq!(settings.metrics.listen.as_deref(), Some("127.0.0.1:9464"));
    assert!(!settings.job.svg && !settings.fsync);
}

#[test]
fn out_of_range_values_name_their_key() {
    let config: Config = toml::from_str("[intake]\nrescan_seconds = 0.0\n").unwrap();
    let error = Settings::resolve(config, Path::new("."), &none()).unwrap_err();
    assert!(error.to_string().contains("intake.rescan_seconds"), "{error}");
    let config: Config = toml::from_str("[solver]\nformat = \"bogus\"\n").unwrap();
    let error = Settings::resolve(config, Path::new("."), &none()).unwrap_err();
    assert!(error.to_string().contains("solver.format"), "{error}");
}

#[test]
fn zero_limits_name_their_key() {
    for (text, key) in [
        ("[solver]\ncount_limit = 0\n", "solver.count_limit"),
        ("[limits]\nnode_limit = 0\n", "limits.node_limit"),
    ] {
        let config: Config = toml::from_str(text).unwrap();
        let error = Settings::resolve(config, Path::new("."), &none()).unwrap_err();
        assert!(error.to_string().contains(key), "{error}");
    }
}

#[test]
fn solver_keys_reach_the_pipeline() {
    let text = "[solver]\nalgorithm = \"fc\"\nvar_order = \"input_order\"\nmode = \"count\"\n\
                count_limit = 7\nformat = \"janko\"\n[limits]\nnode_limit = 99\n\
                timeout_seconds = 0\n";
    let config: Config = toml::from_str(text).unwrap();
    let s = Settings::resolve(config, Path::new("."), &none()).unwrap();
    assert_eq!(s.job.pipeline.solve.algorithm, Algorithm::Fc);
    assert_eq!(s.job.pipeline.solve.var_order, VarOrder::InputOrder);
    assert_eq!(s.job.pipeline.solve.mode, Mode::Count);
    assert_eq!(s.job.pipeline.solve.count_limit, Some(7));
    assert_eq!(s.job.pipeline.solve.node_limit, Some(99));
    assert_eq!(s.job.pipeline.solve.timeout, None);
    assert_eq!(s.job.pipeline.format, Some(Format::Janko));
}

#[test]
fn generate_limits_are_read_and_checked() {
    let s = Settings::resolve(Config::default(), Path::new("."), &none()).unwrap();
    let limits = s.job.generate.limits;
    assert_eq!((limits.max_rows, limits.max_cols, limits.max_count), (150, 150, 100));
    assert_eq!(s.job.generate.timeout, Some(Duration::from_secs(600)));
    let text = "[generate]\nmax_rows = 20\nmax_cols = 30\nmax_count = 4\ntimeout_seconds = 0\n";
    let config: Config = toml::from_str(text).unwrap();
    let s = Settings::resolve(config, Path::new("."), &none()).unwrap();
    let limits = s.job.generate.limits;
    assert_eq!((limits.max_rows, limits.max_cols, limits.max_count), (20, 30, 4));
    assert_eq!(s.job.generate.timeout, None, "0 is no limit");
    for (text, key) in [
        ("[generate]\nmax_rows = 2\n", "generate.max_rows"),
        ("[generate]\nmax_cols = 1001\n", "generate.max_cols"),
        ("[generate]\nmax_count = 0\n", "generate.max_count"),
        ("[generate]\ntimeout_seconds = 1e7\n", "generate.timeout_seconds"),
    ] {
        let config: Config = toml::from_str(text).unwrap();
        let error = Settings::resolve(config, Path::new("."), &none()).unwrap_err();
        assert!(error.to_string().contains(key), "{error}");
    }
    // A negative time is no duration: the file is refused where it says so.
    let error = toml::from_str::<Config>("[generate]\ntimeout_seconds = -1\n").unwrap_err();
    let error = error.to_string();
    assert!(error.contains("timeout_seconds") && error.contains("line 2"), "{error}");
    assert!(error.contains("-1 is not a number of seconds"), "{error}");
    let error = toml::from_str::<Config>("[generate]\nmax_size = 3\n").unwrap_err();
    assert!(error.to_string().contains("max_size"), "{error}");
}

/// The block scalar `config.toml: |` of a Kubernetes ConfigMap, without its indentation.
fn configmap_config(yaml: &str) -> String {
    let lines = yaml.lines().skip_while(|l| l.trim() != "config.toml: |").skip(1);
    let first = lines.clone().find(|l| !l.trim().is_empty()).expect("config.toml block");
    let indent = first.len() - first.trim_start().len();
    lines
        .take_while(|l| l.trim().is_empty() || l.len() - l.trim_start().len() >= indent)
        .map(|l| l.get(indent..).unwrap_or("").to_string() + "\n")
        .collect()
}

#[test]
fn the_kubernetes_recipe_holds_a_valid_config() {
    let yaml = include_str!("../../deploy/kubernetes/kakurod.yaml");
    let config: Config = toml::from_str(&configmap_config(yaml)).unwrap();
    assert_eq!(config.folders.claim, Path::new("/data/claim"));
    assert_eq!(config.queue.url, "nats://nats:4222", "the daemon's queue");
    // The probes ask this listener (see tests/it/deploy.rs).
    assert_eq!(config.metrics.listen.as_deref(), Some("0.0.0.0:9464"));
    Settings::resolve(config, Path::new("/"), &none()).unwrap();
}

#[test]
fn the_service_config_keeps_its_folders_in_the_state_directory() {
    let config: Config = toml::from_str(include_str!("../../systemd/config.toml")).unwrap();
    let folders = &config.folders;
    for folder in [&folders.inbox, &folders.outbox, &folders.done, &folders.failed, &folders.claim]
    {
        assert!(folder.starts_with("/var/lib/kakurod/"), "{}", folder.display());
    }
    Settings::resolve(config, Path::new("/"), &none()).unwrap();
}
