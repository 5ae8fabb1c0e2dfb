//! The chaos on the shared queue: a seeded schedule of SIGKILLs (a worker, the daemon, a
//! NATS server of the cluster), one at a time, each restarted after a short while, and
//! the test's own look at the cluster ([`probe`]).

pub mod probe;

use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::Duration;

/// What one kill hits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// One of the `kakurod worker` processes, by index.
    Worker(usize),
    /// `kakurod serve --queue`.
    Daemon,
    /// One of the cluster's servers, by index.
    Nats(usize),
}

/// One kill: its target, how long it stays down, and how long everything then runs
/// before the next kill.
#[derive(Clone, Copy, Debug)]
pub struct Kill {
    pub target: Target,
    pub down: Duration,
    pub calm: Duration,
}

/// Kills until their drawn times add up to `at_least`, in rounds that each hit a worker
/// twice, the daemon twice and a server once, shuffled; `workers` and `servers`
/// say how many there are to pick from. Drawn before the first kill: the schedule depends
/// on the seed only.
pub fn schedule(seed: u64, at_least: Duration, workers: usize, servers: usize) -> Vec<Kill> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut kills = Vec::new();
    let mut total = Duration::ZERO;
    while total < at_least {
        let mut round = [
            Target::Worker(rng.random_range(0..workers)),
            Target::Worker(rng.random_range(0..workers)),
            Target::Daemon,
            Target::Daemon,
            Target::Nats(rng.random_range(0..servers)),
        ];
        round.shuffle(&mut rng);
        for target in round {
            // A server stays down long enough for its streams to elect other leaders.
            let down_ms = match target {
                Target::Nats(_) => rng.random_range(800..1800),
                _ => rng.random_range(50..500),
            };
            let down = Duration::from_millis(down_ms);
            let calm = Duration::from_millis(rng.random_range(100..500));
            total += down + calm;
            kills.push(Kill { target, down, calm });
        }
    }
    kills
}

/// How many kills hit each kind: workers, the daemon, servers.
pub fn counts(kills: &[Kill]) -> (usize, usize, usize) {
    let of = |f: fn(&Target) -> bool| kills.iter().filter(|k| f(&k.target)).count();
    (
        of(|t| matches!(t, Target::Worker(_))),
        of(|t| matches!(t, Target::Daemon)),
        of(|t| matches!(t, Target::Nats(_))),
    )
}
