//! A thread that does one thing every period until it is dropped: the watch over running
//! jobs (`running`) and the heartbeat (`heartbeat`) are two.

use crossbeam_channel::{RecvTimeoutError, Sender};
use std::thread::JoinHandle;
use std::time::Duration;

/// The running thread; dropping it stops the thread and waits for it.
#[derive(Debug)]
pub struct Periodic {
    stop: Option<Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Periodic {
    /// Starts the thread `name`, which calls `tick` at once and then every `period`.
    pub fn start(
        name: &str,
        period: Duration,
        mut tick: impl FnMut() + Send + 'static,
    ) -> std::io::Result<Periodic> {
        let (stop, stopped) = crossbeam_channel::bounded::<()>(0);
        let thread = std::thread::Builder::new().name(name.into()).spawn(move || {
            loop {
                tick();
                match stopped.recv_timeout(period) {
                    Err(RecvTimeoutError::Timeout) => {}
                    Ok(()) | Err(RecvTimeoutError::Disconnected) => return,
                }
            }
        })?;
        Ok(Periodic { stop: Some(stop), thread: Some(thread) })
    }
}

impl Drop for Periodic {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
