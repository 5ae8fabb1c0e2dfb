//! The test's own look at the cluster, beside the daemon's: whether every stream and
//! consumer of the queue answers (each has a leader), and what the consumers still hold.

use async_nats::jetstream::{self, stream};
use std::time::{Duration, Instant};

/// A client of the cluster on its own runtime.
pub struct Probe {
    runtime: tokio::runtime::Runtime,
    urls: String,
}

/// What a durable consumer still holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Held {
    /// Messages not delivered yet.
    pub pending: u64,
    /// Messages delivered and not acknowledged yet.
    pub ack_pending: usize,
}

impl Probe {
    /// A probe of the servers at `urls` (comma-separated).
    pub fn new(urls: &str) -> Probe {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        Probe { runtime, urls: urls.to_string() }
    }

    /// A fresh connection, or `None` while no server takes one.
    fn context(&self) -> Option<jetstream::Context> {
        let addrs: Vec<async_nats::ServerAddr> =
            self.urls.split(',').map(|u| u.parse().unwrap()).collect();
        let connect = async_nats::ConnectOptions::new()
            .connection_timeout(Duration::from_secs(2))
            .request_timeout(Some(Duration::from_secs(2)))
            .connect(addrs.as_slice());
        let client = self.runtime.block_on(connect).ok()?;
        let _inside = self.runtime.enter();
        Some(jetstream::new(client))
    }

    /// Waits up to `limit` until the cluster can make a stream with three replicas: it has
    /// elected its meta leader and every server is in. Panics after `limit`.
    pub fn wait_for_replicated_streams(&self, limit: Duration) {
        let deadline = Instant::now() + limit;
        loop {
            let made = self.context().is_some_and(|js| {
                self.runtime.block_on(async {
                    let config = stream::Config {
                        name: "probe".into(),
                        subjects: vec!["probe.>".into()],
                        num_replicas: 3,
                        ..Default::default()
                    };
                    let made = js.create_stream(config).await.is_ok();
                    made && js.delete_stream("probe").await.is_ok()
                })
            });
            if made {
                return;
            }
            assert!(Instant::now() < deadline, "the cluster made no replicated stream");
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    /// What each `(stream, consumer)` holds, or `None` while one of them does not answer.
    pub fn held(&self, consumers: &[(String, String)]) -> Option<Vec<Held>> {
        let js = self.context()?;
        self.runtime.block_on(async {
            let mut held = Vec::new();
            for (stream, consumer) in consumers {
                let info = js.get_stream(stream).await.ok()?.consumer_info(consumer).await.ok()?;
                held.push(Held { pending: info.num_pending, ack_pending: info.num_ack_pending });
            }
            Some(held)
        })
    }

    /// Waits up to `limit` until every stream in `streams` and every consumer answers.
    pub fn wait_for_leaders(
        &self,
        streams: &[String],
        consumers: &[(String, String)],
        limit: Duration,
    ) {
        let deadline = Instant::now() + limit;
        loop {
            let streams_answer = self.context().is_some_and(|js| {
                self.runtime.block_on(async {
                    for name in streams {
                        if js.get_stream(name).await.is_err() {
                            return false;
                        }
                    }
                    true
                })
            });
            if streams_answer && self.held(consumers).is_some() {
                return;
            }
            assert!(Instant::now() < deadline, "the queue's streams did not answer again");
            std::thread::sleep(Duration::from_millis(200));
        }
    }
}
