//! The long version of `tests/it/chaos.rs` (a soak, not a timed test): for minutes, the real
//! daemon is SIGKILLed and started again hundreds of times while a few thousand inputs
//! arrive, a client runs `kakurod solve --out` into the same outbox on inputs of its own,
//! killed at random instants and run again on what it has not answered yet, and now and
//! then the outbox (a tmpfs) is filled to the last byte for a few seconds. Then every input
//! must be answered exactly once, under its own name, with the right answer, with nothing
//! left behind. Prints what happened and the verdict; exits with status 1 on any problem.
//!
//! Run: `cargo bench --bench soak -- [--minutes 4] [--inputs 3000] [--client-inputs 1500]
//! [--seed 1] [--no-full]`. Filling the outbox needs a tmpfs, so root; elsewhere the soak
//! says so and runs without (under `CI=true` it fails instead). Figures: docs/crash-safety.md.
#![allow(clippy::unwrap_used, reason = "a test or benchmark that cannot go on panics")]

#[path = "../tests/it/chaos_common/mod.rs"]
mod chaos_common;
#[path = "../tests/it/daemon_common/mod.rs"]
mod daemon_common;

use chaos_common::Scenario;
use chaos_common::ballast::FullOutbox;
use std::process::ExitCode;
use std::time::Duration;

struct Options {
    minutes: f64,
    inputs: usize,
    client_inputs: usize,
    seed: u64,
    full: bool,
}

fn options() -> Options {
    let mut o = Options { minutes: 4.0, inputs: 3000, client_inputs: 1500, seed: 1, full: true };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let value = || args.get(i + 1).map(String::as_str).unwrap_or_default();
        match args[i].as_str() {
            "--minutes" => o.minutes = value().parse().unwrap_or(o.minutes),
            "--inputs" => o.inputs = value().parse().unwrap_or(o.inputs),
            "--client-inputs" => o.client_inputs = value().parse().unwrap_or(o.client_inputs),
            "--seed" => o.seed = value().parse().unwrap_or(o.seed),
            "--no-full" => {
                o.full = false;
                i += 1;
                continue;
            }
            // `cargo bench` passes `--bench`.
            _ => {
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    o
}

fn main() -> ExitCode {
    let o = options();
    let full = (o.full && daemon_common::is_root()).then(|| FullOutbox {
        size: "256m".into(),
        every_ms: 10_000..30_000,
        hold_ms: 2_000..8_000,
    });
    if o.full && full.is_none() {
        daemon_common::skip("a full outbox now and then", "mounting a tmpfs needs root");
    }
    let chaos = Duration::from_secs_f64(o.minutes * 60.0);
    let scenario = Scenario {
        seed: o.seed,
        daemon_inputs: o.inputs,
        client_inputs: o.client_inputs,
        broken_every: 50,
        chaos,
        feed: chaos.mul_f64(0.9),
        client_waves: 30,
        daemon_lives_ms: 20..1000,
        client_lives_ms: 2..200,
        full_outbox: full,
        limit: Duration::from_secs(300),
    };
    println!(
        "soak: {:.1} min of kills, {} daemon inputs, {} client inputs, seed {}, full outbox: {}",
        o.minutes,
        o.inputs,
        o.client_inputs,
        o.seed,
        if scenario.full_outbox.is_some() { "yes" } else { "no" }
    );
    let Some(outcome) = chaos_common::run(&scenario) else {
        return ExitCode::FAILURE;
    };
    println!(
        "daemon: {} runs, {} SIGKILLs, {} claims requeued by restarts, {} inputs found already \
         answered\nclient: {} runs of solve --out, {} SIGKILLs, {} ended with a status other \
         than 0 ({} of them could not write a result)\noutbox filled {} times, {} daemon runs met \
         it full\nchaos {:.1} s, whole run {:.1} s",
        outcome.daemon_runs,
        outcome.daemon_kills,
        outcome.requeued,
        outcome.already_answered,
        outcome.client.runs,
        outcome.client.kills,
        outcome.client.unsuccessful,
        outcome.client_write_failures,
        outcome.fills,
        outcome.write_failures,
        outcome.chaos.as_secs_f64(),
        outcome.total.as_secs_f64()
    );
    if outcome.problems.is_empty() {
        println!("verdict: every input answered exactly once, right, nothing left behind");
        return ExitCode::SUCCESS;
    }
    println!("verdict: {} problems", outcome.problems.len());
    for problem in outcome.problems.iter().take(50) {
        println!("  {problem}");
    }
    println!("--- daemon log ---\n{}", outcome.log_excerpt());
    ExitCode::FAILURE
}
