//! The shared work queue on NATS JetStream, for more than one host. The daemon claims an
//! input as on one host, publishes it as a job, and stays the only writer of its outbox;
//! workers on any host (`kakurod worker`, and the daemon's own) pull jobs, solve them and
//! publish answers, which the daemon writes (see docs/queue.md for the operator's view).
//!
//! JetStream's work-queue semantics carry the distributed part: a job goes to one
//! consumer at a time; `AckWait` is the lease, an in-progress ack the renewal, and
//! redelivery after `AckWait` the takeover. Each job has its own subject
//! (`PREFIX.job.CLAIM`) in a stream that keeps one message per subject and refuses a
//! second (`discard_new_per_subject`), so a job re-sent while its first copy lives is
//! refused at any age, not only within the duplicate window. Crashes, not deliveries,
//! count against a poison input (`worker`). An input or answer too large for one message
//! travels in JetStream's object store, and its message points at it ([`large`]).
//!
//! The async client runs on a small tokio runtime owned by [`Queue`]; the rest of kakurod
//! stays synchronous and calls in through [`Queue::block_on`].

pub mod backlog;
pub mod crashes;
pub mod large;
pub mod presence;
mod setup;
pub(crate) mod wire;
pub mod worker;

use crate::settings::QueueSettings;
use async_nats::jetstream;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// The oldest server version the queue runs on: per-subject discard (2.9.0); Debian
/// bookworm ships 2.9.10.
pub const MIN_SERVER: (u32, u32) = (2, 9);

/// The names on the server of one inbox's queue.
#[derive(Clone, Debug)]
pub struct Names {
    prefix: String,
}

impl Names {
    /// The names under `prefix`.
    pub fn new(prefix: &str) -> Names {
        Names { prefix: prefix.to_string() }
    }

    /// The stream of jobs.
    pub fn jobs_stream(&self) -> String {
        format!("{}_jobs", self.prefix)
    }

    /// The stream of answers.
    pub fn answers_stream(&self) -> String {
        format!("{}_answers", self.prefix)
    }

    /// The workers' durable consumer on the jobs.
    pub fn workers_consumer(&self) -> String {
        "workers".into()
    }

    /// The daemon's durable consumer on the answers.
    pub fn daemon_consumer(&self) -> String {
        "daemon".into()
    }

    /// The stream of crash counts, by claim id.
    pub fn crashes_stream(&self) -> String {
        format!("{}_crashes", self.prefix)
    }

    /// The subject of a claim's crash count.
    pub fn crash(&self, claim: &str) -> String {
        format!("{}.crash.{claim}", self.prefix)
    }

    /// The stream of the workers' states.
    pub fn status_stream(&self) -> String {
        format!("{}_status", self.prefix)
    }

    /// The subject of a worker's state.
    pub fn status(&self, token: &str) -> String {
        format!("{}.status.{token}", self.prefix)
    }

    /// The subject on which the daemon tells the workers to stop a job (core NATS: only
    /// the workers connected now need to hear it).
    pub fn cancel(&self) -> String {
        format!("{}.cancel", self.prefix)
    }

    /// The subject of a job.
    pub fn job(&self, claim: &str) -> String {
        format!("{}.job.{claim}", self.prefix)
    }

    /// The subject of an answer.
    pub fn answer(&self, claim: &str) -> String {
        format!("{}.answer.{claim}", self.prefix)
    }

    /// The object store bucket of inputs and answers too large for a message (its stream
    /// is `OBJ_` and this name; see [`large`]).
    pub fn large_bucket(&self) -> String {
        format!("{}_large", self.prefix)
    }
}

/// Errors that stop `serve --queue` or `worker` at start.
#[derive(Debug, thiserror::Error)]
pub enum QueueError {
    /// No connection.
    #[error("cannot connect to NATS at {urls}: {message}")]
    Connect {
        /// The URLs.
        urls: String,
        /// Why.
        message: String,
    },
    /// The server is too old.
    #[error(
        "the NATS server at {urls} runs {version}; kakurod needs {}.{} or newer",
        MIN_SERVER.0, MIN_SERVER.1
    )]
    Version {
        /// The URLs.
        urls: String,
        /// Its version.
        version: String,
    },
    /// The server does not run JetStream, which holds the queue.
    #[error(
        "the NATS server at {urls} does not run JetStream, which holds the queue: start it \
         with `nats-server -js` (or `jetstream {{}}` in its configuration)"
    )]
    NoJetStream {
        /// The URLs.
        urls: String,
    },
    /// A stream, consumer or bucket could not be made or found.
    #[error("{about}: {message}")]
    Setup {
        /// What was being done.
        about: String,
        /// Why (the server's words).
        message: String,
    },
}

/// A connection to the queue's servers, with the runtime its client runs on.
#[derive(Debug)]
pub struct Queue {
    runtime: tokio::runtime::Runtime,
    /// The client.
    pub client: async_nats::Client,
    /// JetStream on it.
    pub js: jetstream::Context,
    /// The names.
    pub names: Names,
    /// The settings.
    pub settings: QueueSettings,
}

impl Queue {
    /// Connects to the servers (reconnecting on its own with backoff from then on, each
    /// loss and return logged once) and checks their version.
    pub fn connect(settings: &QueueSettings, role: &str) -> Result<Queue, QueueError> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("kakurod-nats")
            .enable_all()
            .build()
            .map_err(|e| connect_error(settings, e))?;
        let client = runtime.block_on(connect(settings, role))?;
        let version = client.server_info().version;
        if !version_at_least(&version, MIN_SERVER) {
            return Err(QueueError::Version { urls: settings.urls.clone(), version });
        }
        let _inside = runtime.enter();
        let js = jetstream::new(client.clone());
        // The server says in its greeting whether it runs JetStream; a server that does not
        // may still reach it for this account (a leaf node), which the account look-up tells.
        if !client.server_info().jetstream && runtime.block_on(js.query_account()).is_err() {
            return Err(QueueError::NoJetStream { urls: redacted(&settings.urls) });
        }
        let names = Names::new(&settings.prefix);
        Ok(Queue { runtime, client, js, names, settings: settings.clone() })
    }

    /// Runs `future` to its end on the queue's runtime.
    pub fn block_on<F: std::future::Future>(&self, future: F) -> F::Output {
        self.runtime.block_on(future)
    }

    /// The runtime, to spawn tasks that outlive a call.
    pub fn handle(&self) -> &tokio::runtime::Handle {
        self.runtime.handle()
    }

    /// Publishes the job `id` (a claim's, a part's or a pack's) under its own subject, its
    /// id as `Nats-Msg-Id` so that the server drops a copy sent again; returns the
    /// server's confirmation to await.
    pub async fn publish_job(
        &self,
        id: &str,
        payload: Vec<u8>,
    ) -> Result<jetstream::context::PublishAckFuture, jetstream::context::PublishError> {
        let mut headers = async_nats::HeaderMap::new();
        headers.insert("Nats-Msg-Id", id);
        self.js.publish_with_headers(self.names.job(id), headers, payload.into()).await
    }

    /// True when the server refused a message because its subject holds one already (the
    /// jobs and answers streams keep one per subject): a job or answer sent before, which
    /// counts as sent.
    pub fn held_already(error: &impl std::fmt::Display) -> bool {
        error.to_string().contains("maximum messages per subject")
    }

    /// The largest message the server takes.
    pub fn max_payload(&self) -> usize {
        self.client.server_info().max_payload
    }

    /// Creates the streams, consumers and bucket with the configured settings, or brings
    /// existing ones to them (the daemon does this at start; workers only look them up).
    /// A request that times out (a cluster electing leaders after a lost server) is tried
    /// again for up to 60 s without progress.
    pub fn set_up(&self) -> Result<(), QueueError> {
        setup::set_up(self)
    }
}

async fn connect(settings: &QueueSettings, role: &str) -> Result<async_nats::Client, QueueError> {
    let lost = Arc::new(AtomicBool::new(false));
    let mut options = async_nats::ConnectOptions::new()
        .name(format!("kakurod {role} on {}", crate::util::host_name()))
        .connection_timeout(Duration::from_secs(5))
        .max_reconnects(None)
        .event_callback(move |event| {
            let lost = Arc::clone(&lost);
            async move {
                match event {
                    async_nats::Event::Disconnected => {
                        lost.store(true, Ordering::SeqCst);
                        tracing::warn!("lost the connection to NATS; reconnecting with backoff");
                    }
                    async_nats::Event::Connected if lost.swap(false, Ordering::SeqCst) => {
                        tracing::info!("connected to NATS again");
                    }
                    other => tracing::debug!(event = %other, "NATS client event"),
                }
            }
        });
    if let Some(creds) = &settings.creds_file {
        options = options.credentials_file(creds).await.map_err(|e| connect_error(settings, e))?;
    }
    if let Some(ca) = &settings.ca_file {
        options = options.add_root_certificates(ca.clone()).require_tls(true);
    }
    let urls: Vec<&str> = settings.urls.split(',').map(str::trim).collect();
    let addrs: Vec<async_nats::ServerAddr> = urls
        .iter()
        .map(|u| u.parse().map_err(|e| connect_error(settings, e)))
        .collect::<Result<_, _>>()?;
    options = match url_auth(&addrs).map_err(|e| connect_error(settings, e))? {
        Some(UrlAuth::UserAndPassword(user, password)) => options.user_and_password(user, password),
        Some(UrlAuth::Token(token)) => options.token(token),
        None => options,
    };
    options.connect(addrs.as_slice()).await.map_err(|e| connect_error(settings, e))
}

/// Credentials written in a server URL.
#[derive(Debug, PartialEq)]
enum UrlAuth {
    /// `nats://user:password@host`.
    UserAndPassword(String, String),
    /// `nats://token@host`: a user without a password is a token, as NATS reads it.
    Token(String),
}

/// The credentials written in the URLs, percent-decoded. The client takes credentials
/// only from its options and would connect without them, so they are read here; URLs that
/// carry different ones are refused rather than one of them silently used.
fn url_auth(addrs: &[async_nats::ServerAddr]) -> Result<Option<UrlAuth>, String> {
    let decode = |text: &str| {
        percent_encoding::percent_decode_str(text)
            .decode_utf8()
            .map(|t| t.into_owned())
            .map_err(|_| "a user or password in the URL is not UTF-8 once decoded".to_string())
    };
    let mut found: Option<UrlAuth> = None;
    for addr in addrs {
        let auth = match (addr.username(), addr.password()) {
            (Some(user), Some(password)) => {
                UrlAuth::UserAndPassword(decode(user)?, decode(password)?)
            }
            (Some(token), None) => UrlAuth::Token(decode(token)?),
            (None, _) => continue,
        };
        match &found {
            Some(earlier) if *earlier != auth => {
                return Err("the URLs carry different users or passwords".into());
            }
            _ => found = Some(auth),
        }
    }
    Ok(found)
}

/// Takes the message `subject` holds off `stream` (the jobs and answers streams keep one
/// per subject), by its sequence; nothing when it holds none. Never by purging the
/// subject: a 2.9 server's purge by subject moves the stream's consumers past every
/// message waiting behind it, and those are then never delivered (a pack sent after a
/// cancelled input's own job never reached a worker).
pub async fn take_off(stream: &jetstream::stream::Stream, subject: &str) {
    if let Ok(message) = stream.get_last_raw_message_by_subject(subject).await {
        let _ = stream.delete_message(message.sequence).await;
    }
}

/// Connection errors name the URLs without their user and password.
fn connect_error(settings: &QueueSettings, error: impl std::fmt::Display) -> QueueError {
    QueueError::Connect { urls: redacted(&settings.urls), message: error.to_string() }
}

/// `urls` with any `user:password@` replaced, for logs and errors.
pub fn redacted(urls: &str) -> String {
    urls.split(',')
        .map(|url| match (url.find("://"), url.rfind('@')) {
            (Some(scheme), Some(at)) if at > scheme => {
                format!("{}***@{}", &url[..scheme + 3], &url[at + 1..])
            }
            _ => url.to_string(),
        })
        .collect::<Vec<_>>()
        .join(",")
}

fn version_at_least(version: &str, (major, minor): (u32, u32)) -> bool {
    let mut parts = version.trim_start_matches('v').split('.').map(|p| p.parse::<u32>().ok());
    match (parts.next().flatten(), parts.next().flatten()) {
        (Some(a), Some(b)) => (a, b) >= (major, minor),
        _ => false,
    }
}

pub(crate) fn setup(about: &str, error: impl std::fmt::Display) -> QueueError {
    let message = error.to_string();
    let hint =
        if ["not enabled", "no responders", "unavailable"].iter().any(|m| message.contains(m)) {
            " (does the server run with JetStream on, `nats-server -js` or `jetstream {}`?)"
        } else {
            ""
        };
    QueueError::Setup {
        about: format!("cannot set up the queue's {about}"),
        message: message + hint,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credentials_come_from_the_urls_decoded_and_must_agree() {
        let addrs = |urls: &[&str]| -> Vec<async_nats::ServerAddr> {
            urls.iter().map(|u| u.parse().unwrap()).collect()
        };
        let pair = |u: &str, p: &str| Some(UrlAuth::UserAndPassword(u.into(), p.into()));
        assert_eq!(url_auth(&addrs(&["nats://h:4222"])), Ok(None));
        assert_eq!(url_auth(&addrs(&["nats://u:p%40ss@h", "nats://h2"])), Ok(pair("u", "p@ss")));
        assert_eq!(
            url_auth(&addrs(&["tls://s3cret@h"])),
            Ok(Some(UrlAuth::Token("s3cret".into())))
        );
        assert_eq!(url_auth(&addrs(&["nats://u:p@h", "nats://u:p@h2"])), Ok(pair("u", "p")));
        assert!(url_auth(&addrs(&["nats://u:p@h", "nats://u:q@h2"])).is_err());
    }

    #[test]
    fn versions_and_prefixes_and_secrets() {
        assert!(version_at_least("2.9.10", (2, 9)));
        assert!(version_at_least("v2.12.1", (2, 9)));
        assert!(!version_at_least("2.8.4", (2, 9)));
        assert!(crate::settings::invalid_prefix("kakurod-a_1").is_none());
        assert!(
            crate::settings::invalid_prefix("a.b").is_some()
                && crate::settings::invalid_prefix("").is_some()
        );
        assert_eq!(redacted("nats://u:p@h:4222,tls://h2:4222"), "nats://***@h:4222,tls://h2:4222");
    }
}
