//! The optional HTTP listener (`[metrics] listen`): `/metrics` in the Prometheus text
//! format; `/healthz`, the readiness answer: 200 while the daemon publishes its state and
//! can write its outbox, 503 with the reason otherwise; and `/livez`, the liveness answer:
//! 200 while its heartbeat and its intake turn (a restart would not mend an unwritable
//! outbox, so liveness leaves that to readiness).

use super::job::Context;
use crate::status;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;
use tiny_http::{Header, Response, Server};

/// How often the listener looks at its stop flag while no request comes.
const POLL: Duration = Duration::from_millis(200);

/// The listener's thread; it ends when dropped.
#[derive(Debug)]
pub struct Listener {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Listener {
    /// Listens on `address` (`HOST:PORT`) for the metrics of `ctx`.
    pub fn start(ctx: Arc<Context>, address: &str) -> std::io::Result<Listener> {
        let server = Server::http(address).map_err(std::io::Error::other)?;
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = Arc::clone(&stop);
        let thread =
            std::thread::Builder::new().name("kakurod-metrics".into()).spawn(move || {
                while !stopped.load(Ordering::SeqCst) {
                    match server.recv_timeout(POLL) {
                        Ok(Some(request)) => {
                            let response = answer(&ctx, request.url());
                            if let Err(error) = request.respond(response) {
                                tracing::debug!(%error, "cannot answer a metrics request");
                            }
                        }
                        Ok(None) => {}
                        Err(error) => {
                            tracing::warn!(%error, "the metrics listener failed; it stops");
                            return;
                        }
                    }
                }
            })?;
        Ok(Listener { stop, thread: Some(thread) })
    }
}

impl Drop for Listener {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The response to a request for `url`.
fn answer(ctx: &Context, url: &str) -> Response<std::io::Cursor<Vec<u8>>> {
    let path = url.split('?').next().unwrap_or(url);
    let (code, body, content_type) = match path {
        "/metrics" => (200, ctx.metrics.render(&ctx.published), "text/plain; version=0.0.4"),
        "/healthz" => verdict(unhealthy(ctx)),
        "/livez" => verdict(not_alive(ctx)),
        _ => (404, "not found: try /metrics, /healthz or /livez\n".to_string(), "text/plain"),
    };
    let mut response = Response::from_string(body).with_status_code(code);
    if let Ok(header) = Header::from_bytes("Content-Type", content_type) {
        response = response.with_header(header);
    }
    response
}

/// 200 and `ok`, or 503 and the reason.
fn verdict(why_not: Option<String>) -> (u16, String, &'static str) {
    match why_not {
        None => (200, "ok\n".into(), "text/plain"),
        Some(why) => (503, format!("{why}\n"), "text/plain"),
    }
}

/// Why the daemon counts as hung, if it does: its heartbeat or its intake stopped.
fn not_alive(ctx: &Context) -> Option<String> {
    let age = ctx.published.age();
    if age > status::STALE {
        return Some(format!("the state was last published {:.1} s ago", age.as_secs_f64()));
    }
    let intake = ctx.intake_beat.age();
    (intake > status::STALE)
        .then(|| format!("the intake last turned {:.1} s ago", intake.as_secs_f64()))
}

/// Why the daemon is not ready, if it is not.
fn unhealthy(ctx: &Context) -> Option<String> {
    if let Some(why) = not_alive(ctx) {
        return Some(why);
    }
    let outbox = &ctx.settings.folders.outbox;
    if let Err(error) = rustix::fs::access(outbox, rustix::fs::Access::WRITE_OK) {
        return Some(format!("the outbox {} is not writable: {error}", outbox.display()));
    }
    let waiting = ctx.retry_waiting.load(Ordering::SeqCst);
    (waiting > 0).then(|| format!("{waiting} results wait for the outbox to be writable"))
}
