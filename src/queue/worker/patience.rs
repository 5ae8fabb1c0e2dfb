//! What a worker does when the server refuses an answer (or a pack's inputs sent on): it
//! tries again while it holds the job, rather than handing the job back. A refusal is
//! nearly always a stream electing its leader after a lost server, over in seconds; and a
//! hand-back is told from a crash only by its note on the counts' stream, which the same
//! outage refuses, so that jobs handed back through an outage came back counted as
//! crashes, and sound inputs were answered as failed after `max_crashes`.

use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use tokio::time::Instant;

/// How long a worker waits between two tries.
pub(super) const RETRY: Duration = Duration::from_secs(1);

/// The least time a worker keeps trying before it hands the job back: a cluster elects
/// its leaders within seconds, and a job's ack wait may be shorter than that.
const LEAST_PATIENCE: Duration = Duration::from_secs(30);

/// Runs `attempt` until it succeeds, every [`RETRY`], for at most the longer of
/// `ack_wait` and [`LEAST_PATIENCE`], or until `stopping` is set; the last error if it
/// never succeeded. `what` and `file` name it in the log, once when it is first refused
/// and once when it goes through after all.
pub(super) async fn patiently<F, Fut>(
    what: &str,
    file: &str,
    ack_wait: Duration,
    stopping: &AtomicBool,
    mut attempt: F,
) -> Result<(), String>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<(), String>>,
{
    let deadline = Instant::now() + ack_wait.max(LEAST_PATIENCE);
    let mut refused = false;
    loop {
        let error = match attempt().await {
            Ok(()) => {
                if refused {
                    tracing::info!(file = %file, "the server took {what} after all");
                }
                return Ok(());
            }
            Err(error) => error,
        };
        if stopping.load(Ordering::SeqCst) || Instant::now() + RETRY >= deadline {
            return Err(error);
        }
        if !refused {
            tracing::warn!(%error, file = %file,
                "the server refuses {what}; the job is held and it is tried again every second");
            refused = true;
        }
        tokio::time::sleep(RETRY).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn a_refused_attempt_is_tried_again_until_it_succeeds() {
        let mut tries = 0;
        let stopping = AtomicBool::new(false);
        let done = patiently("it", "f", Duration::from_secs(2), &stopping, || {
            tries += 1;
            let ok = tries == 5;
            async move { if ok { Ok(()) } else { Err(format!("no {tries}")) } }
        })
        .await;
        assert_eq!((done, tries), (Ok(()), 5));
    }

    #[tokio::test(start_paused = true)]
    async fn tries_end_with_the_last_error_after_the_patience_or_at_a_stop() {
        let stopping = AtomicBool::new(false);
        let mut tries = 0;
        let started = tokio::time::Instant::now();
        let done = patiently("it", "f", Duration::from_secs(2), &stopping, || {
            tries += 1;
            let n = tries;
            async move { Err(format!("no {n}")) }
        })
        .await;
        assert_eq!(done, Err(format!("no {tries}")));
        assert!(
            started.elapsed() < LEAST_PATIENCE && started.elapsed() >= LEAST_PATIENCE - 2 * RETRY
        );
        stopping.store(true, Ordering::SeqCst);
        let mut tries = 0;
        let done = patiently("it", "f", Duration::from_secs(2), &stopping, || {
            tries += 1;
            async { Err("no".to_string()) }
        })
        .await;
        assert_eq!((done, tries), (Err("no".into()), 1));
    }
}
